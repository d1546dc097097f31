//! `SessionNotifier`: a handler's handle on the legacy session of its request
//! (`requestSessionNotifier`), kept after the request is answered to send that session a server
//! notification (the engine's [`libmcp::server::SessionNotifier`]; the checks are the engine's).

use libmcp::server::{SessionNotifier as Engine, SessionNotifyError};
use napi_derive::napi;

use crate::error::{invalid, of_kind, parse};

/// A refusal as a JS error: `noSession` (`NoSessionError`), `closed` once the session ended, else
/// an invalid argument (a method the revision lacks, params that do not fit it, an undeclared
/// capability).
fn refused(e: &SessionNotifyError) -> napi::Error {
    match e {
        SessionNotifyError::NoSession(_) => of_kind("noSession", e.to_string()),
        SessionNotifyError::SessionClosed => of_kind("closed", e.to_string()),
        _ => invalid(e.to_string()),
    }
}

/// A handle on one legacy session (see `requestSessionNotifier`).
#[napi]
pub struct SessionNotifier(Engine);

#[napi]
impl SessionNotifier {
    /// The protocol revision negotiated on the session.
    #[napi(getter)]
    pub fn protocol_version(&self) -> String {
        self.0.protocol_version().as_str().to_owned()
    }

    /// Whether the session is still open.
    #[napi(getter)]
    pub fn is_open(&self) -> bool {
        self.0.is_open()
    }

    /// Sends the server notification `method` with `params` (JSON text of an object; none when
    /// absent).
    #[napi]
    pub fn notify(&self, method: String, params: Option<String>) -> napi::Result<()> {
        let params = params.map(|p| parse("params", &p)).transpose()?;
        self.0.notify(&method, params).map_err(|e| refused(&e))
    }

    /// Sends `notifications/elicitation/complete` for the URL-mode elicitation `elicitation_id`.
    #[napi]
    pub fn elicitation_complete(&self, elicitation_id: String) -> napi::Result<()> {
        self.0
            .elicitation_complete(&elicitation_id)
            .map_err(|e| refused(&e))
    }
}

/// A handle on the legacy session of pending request `id`; throws `noSession` for a 2026-07-28
/// request or one served without a session, and an invalid argument once `id` was answered.
#[napi]
pub fn request_session_notifier(id: f64) -> napi::Result<SessionNotifier> {
    let ctx = crate::request::context_of(id)
        .ok_or_else(|| invalid(format!("request {id} was answered already")))?;
    ctx.session_notifier()
        .map(SessionNotifier)
        .map_err(|e| refused(&e))
}
