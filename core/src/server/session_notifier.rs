//! [`SessionNotifier`]: a handle on the legacy session a request came in on, which a handler takes
//! from its [`RequestContext`] and may keep after the request is answered, to send that one session
//! a server notification later (`notifications/elicitation/complete` once a URL-mode elicitation's
//! out-of-band interaction finished: 2025-11-25 `ElicitationCompleteNotification`).
//!
//! The notification goes where the session's messages that belong to no request go (the
//! connection's sink): the stdio connection; on Streamable HTTP the standalone GET stream, whose
//! event log records it even while no GET is attached, so a later GET or a resumption with
//! `Last-Event-ID` delivers it; on the 2024-11-05 HTTP+SSE transport the session's event stream.
//! The handle holds the session weakly: it keeps nothing of an ended session alive.
//!
//! With sessions shared by many instances (the `redis` feature), the handle addresses the session
//! as it lives on the instance that ran the handler: the notification goes to the GET stream
//! attached to that instance, and into the shared event log under that instance's standalone
//! stream. A GET stream the client attached to another instance does not receive it (there is no
//! cross-instance delivery of one session's messages yet; list changes travel between instances
//! because every instance announces them to its own sessions).

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

use serde_json::{Value, json};

use super::context::client_has_capability;
use super::state::{RequestContext, SessionShared};
use crate::jsonrpc::encode_notification;
use crate::outgoing::{OutKind, Outgoing};
use crate::shapes::{self, SessionRefusal};
use crate::version::{Era, ProtocolVersion};

/// The method of the notification [`SessionNotifier::elicitation_complete`] sends.
pub const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";

/// Why a [`SessionNotifier`] cannot be taken or cannot send.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SessionNotifyError {
    /// The request belongs to no session: a 2026-07-28 request (that revision has no sessions), or
    /// a legacy request served without one (a stateless HTTP exchange). The text says which.
    #[error("no session to notify: {0}")]
    NoSession(&'static str),
    /// The session ended (the client closed the connection, DELETEd the session, or it expired).
    #[error("the session has ended: no notification can reach it")]
    SessionClosed,
    /// The session's revision defines no server notification of this method.
    #[error("{method} is not a server notification of protocol revision {revision}")]
    UnknownNotification {
        /// The method asked for.
        method: String,
        /// The session's revision.
        revision: String,
    },
    /// The params do not fit the session's revision (the text names the property and the rule).
    #[error("invalid params: {0}")]
    InvalidParams(String),
    /// The client did not declare the capability the notification needs (e.g. `elicitation.url`).
    #[error("the client did not declare the {0} capability")]
    CapabilityNotDeclared(&'static str),
}

/// Sends server notifications to one legacy session, outside any request (see the module docs).
/// Cheap to clone, `Send + Sync`.
#[derive(Clone)]
pub struct SessionNotifier(Arc<Inner>);

struct Inner {
    session: Weak<SessionShared>,
    version: ProtocolVersion,
    url_elicitation: bool,
}

impl std::fmt::Debug for SessionNotifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionNotifier")
            .field("version", &self.0.version)
            .field("open", &self.is_open())
            .finish()
    }
}

impl RequestContext {
    /// A handle on the legacy session this request came in on, to notify it later (see
    /// [`SessionNotifier`]). [`SessionNotifyError::NoSession`] for a 2026-07-28 request and for a
    /// legacy request served without a session.
    pub fn session_notifier(&self) -> Result<SessionNotifier, SessionNotifyError> {
        if self.era() == Era::Modern {
            return Err(SessionNotifyError::NoSession(
                "protocol revision 2026-07-28 has no sessions; a request's notifications travel \
                 only in its own response stream",
            ));
        }
        let shared = &self.0.session;
        if shared.stateless || shared.assume_legacy.is_some() || shared.sink.discards() {
            return Err(SessionNotifyError::NoSession(
                "this legacy request was served without a session (no Mcp-Session-Id)",
            ));
        }
        Ok(SessionNotifier(Arc::new(Inner {
            session: Arc::downgrade(shared),
            version: self.0.version.clone(),
            url_elicitation: client_has_capability(
                &self.0.client_capabilities,
                &["elicitation", "url"],
            ),
        })))
    }
}

impl SessionNotifier {
    /// The protocol revision negotiated on the session.
    pub fn protocol_version(&self) -> &ProtocolVersion {
        &self.0.version
    }

    /// Whether the session is still open (a later [`notify`](Self::notify) may still find it
    /// closed).
    pub fn is_open(&self) -> bool {
        self.0
            .session
            .upgrade()
            .is_some_and(|s| !s.closed.load(Ordering::SeqCst))
    }

    /// Sends the server notification `method` with `params` (`None`: no params) to the session.
    /// The method must be a server notification of the session's revision and the params must fit
    /// its schema (properties it does not define are dropped first, as from every message the
    /// engine sends on a legacy session).
    pub fn notify(&self, method: &str, params: Option<Value>) -> Result<(), SessionNotifyError> {
        let session = self
            .0
            .session
            .upgrade()
            .ok_or(SessionNotifyError::SessionClosed)?;
        if session.closed.load(Ordering::SeqCst) {
            return Err(SessionNotifyError::SessionClosed);
        }
        let mut params = params;
        shapes::session_notification(&self.0.version, method, params.as_mut()).map_err(
            |r| match r {
                SessionRefusal::Unknown => SessionNotifyError::UnknownNotification {
                    method: method.to_owned(),
                    revision: self.0.version.as_str().to_owned(),
                },
                SessionRefusal::Invalid(why) => SessionNotifyError::InvalidParams(why),
            },
        )?;
        let sent = session.sink.send(Outgoing {
            kind: OutKind::Notification,
            bytes: encode_notification(method, params.as_ref()),
        });
        if !sent {
            return Err(SessionNotifyError::SessionClosed);
        }
        Ok(())
    }

    /// Sends `notifications/elicitation/complete` for the URL-mode elicitation `elicitation_id`
    /// (2025-11-25). Refused with [`SessionNotifyError::CapabilityNotDeclared`] unless the client
    /// declared `elicitation.url`.
    pub fn elicitation_complete(&self, elicitation_id: &str) -> Result<(), SessionNotifyError> {
        if !self.0.url_elicitation {
            return Err(SessionNotifyError::CapabilityNotDeclared("elicitation.url"));
        }
        self.notify(
            ELICITATION_COMPLETE,
            Some(json!({ "elicitationId": elicitation_id })),
        )
    }
}
