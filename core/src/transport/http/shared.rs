//! Legacy Streamable HTTP sessions through the [`SessionStore`](super::SessionStore): the record
//! written at `initialize` and on every change, loaded on every request (so a change or a DELETE on
//! another instance is seen), rehydrated into a live session where this instance has none, and
//! expired by its last use on any instance.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use hyper::StatusCode;
use serde_json::Value;

use super::respond::{Resp, SESSION_NOT_FOUND, plain, rpc_error};
use super::session_store::{SessionRecord, SessionStoreError, StoredPrincipal, now_ms};
use super::sessions::{HttpSession, Outlet};
use super::state::State;
use super::streams::SessionStreams;
use crate::auth::AuthInfo;
use crate::error::RpcError;
use crate::jsonrpc::RequestId;
use crate::model::logging::LoggingLevel;
use crate::server::Session;
use crate::transport::Sink;
use crate::version::{self, Era, ProtocolVersion};

/// How often a session in use rewrites its record's `lastSeen` (an eighth of the idle timeout, at
/// most a minute), so that no instance takes it for idle.
fn refresh_every(idle: Duration) -> Duration {
    (idle / 8).min(Duration::from_secs(60))
}

/// Why a request's session cannot serve it: the HTTP status and the JSON-RPC error, sent as the
/// answer to the request's id where there is one ([`answer`](Self::answer)).
pub(crate) struct Refused {
    status: StatusCode,
    error: RpcError,
}

impl Refused {
    /// 404 for an unknown, deleted or expired session.
    pub(crate) fn session_not_found() -> Refused {
        Refused {
            status: StatusCode::NOT_FOUND,
            error: RpcError::invalid_request(SESSION_NOT_FOUND),
        }
    }

    /// The HTTP response, answering request `id` when there is one.
    pub(crate) fn answer(self, id: Option<&RequestId>) -> Resp {
        rpc_error(self.status, id, &self.error)
    }
}

/// Why a record could not become a live session here.
enum Unusable {
    Corrupt(String),
    TooManySessions,
}

impl Unusable {
    fn refusal(self) -> Refused {
        match self {
            Unusable::Corrupt(detail) => store_error(&SessionStoreError::Corrupt(detail)),
            Unusable::TooManySessions => Refused {
                status: StatusCode::SERVICE_UNAVAILABLE,
                error: RpcError::internal("too many sessions"),
            },
        }
    }
}

/// The negotiated state a record holds, checked.
struct Restored {
    version: ProtocolVersion,
    client_capabilities: Value,
    log_level: Option<LoggingLevel>,
}

impl State {
    /// The legacy session `id` for a request by `auth`, from this instance's table or rehydrated
    /// from the store; `Err` is why not (404 for an unknown, deleted, expired or other principal's
    /// session, 500 for an unusable record, 503 when the store fails).
    pub(crate) async fn session_for(
        &self,
        id: &str,
        auth: Option<&Arc<AuthInfo>>,
    ) -> Result<Arc<HttpSession>, Refused> {
        let record = match self.config.session_store.load(id).await {
            Ok(Some(r)) => r,
            Ok(None) => {
                // Deleted or reaped (possibly on another instance).
                self.sessions.remove(id);
                return Err(Refused::session_not_found());
            }
            Err(e) => return Err(store_error(&e)),
        };
        let local = self.sessions.get(id);
        if self.record_idle(&record) && !local.as_ref().is_some_and(|s| s.busy()) {
            self.end_everywhere(id).await;
            return Err(Refused::session_not_found());
        }
        if let Some(a) = auth
            && !record_admits(&record, a)
        {
            return Err(other_principal());
        }
        let live = match local {
            Some(s) => self.sync(&s, record).map(|()| s),
            None => self.rehydrate(id, record),
        };
        let s = live.map_err(Unusable::refusal)?;
        if auth.is_some_and(|a| !s.session.admits(a)) {
            return Err(other_principal());
        }
        Ok(s)
    }

    /// Writes the session's record when its state changed since this instance last wrote or read
    /// it, or when its `lastSeen` is due for a refresh. A failed write is retried next time.
    pub(crate) async fn persist(&self, s: &HttpSession) {
        let now = now_ms();
        let refresh = refresh_every(self.config.session_idle_timeout).as_millis() as u64;
        // Read before the state it counts (see `Session::legacy_changes`).
        let changes = s.session.legacy_changes() + 1;
        let (base, record) = {
            let mut stored = s.stored.lock();
            let Some(st) = stored.as_ref() else { return };
            let due = now.saturating_sub(st.last_seen_ms) >= refresh;
            if !due && s.persisted.load(Ordering::Acquire) == changes {
                return;
            }
            let base = st.clone();
            let Some(mut current) = record_of(&s.session, &base) else {
                return;
            };
            if current.same_state(&base) && !due {
                s.persisted.store(changes, Ordering::Release);
                return;
            }
            current.last_seen_ms = now;
            *stored = Some(current.clone());
            (base, current)
        };
        match self.config.session_store.update(&base, &record).await {
            Ok(merged) => {
                if merged.same_state(&record) {
                    s.persisted.store(changes, Ordering::Release);
                } else {
                    // Another instance changed the session meanwhile: take its changes in too.
                    if let Ok(r) = self.check(&merged) {
                        restore(&s.session, r, &merged);
                    }
                }
                *s.stored.lock() = Some(merged);
            }
            Err(_) => {
                s.persisted.store(0, Ordering::Release);
                let mut stored = s.stored.lock();
                if let Some(st) = stored.as_mut() {
                    // Forces the next persist to write again (from the same base).
                    *st = SessionRecord {
                        last_seen_ms: 0,
                        ..base
                    };
                }
            }
        }
    }

    /// Records a session that `initialize` just opened here; `Err` is the answer to send instead.
    pub(crate) async fn record_new(
        &self,
        id: &str,
        s: &HttpSession,
        auth: Option<&Arc<AuthInfo>>,
    ) -> Result<(), Resp> {
        let Some(streams) = s.streams() else {
            return Err(rpc_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                None,
                &RpcError::internal("not a Streamable HTTP session"),
            ));
        };
        let now = now_ms();
        let base = SessionRecord {
            id: id.to_owned(),
            protocol_version: String::new(),
            client_capabilities: Value::Null,
            client_info: None,
            initialized: false,
            log_level: None,
            subscriptions: Vec::new(),
            principal: auth.map(|a| StoredPrincipal {
                subject: a.subject.clone(),
                client_id: a.client_id.clone(),
            }),
            event_tag: streams.tag().to_owned(),
            created_ms: now,
            last_seen_ms: now,
        };
        let Some(record) = record_of(&s.session, &base) else {
            return Err(rpc_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                None,
                &RpcError::internal("initialize left no session state"),
            ));
        };
        self.config
            .session_store
            .save(&record)
            .await
            .map_err(|e| store_error(&e).answer(None))?;
        *s.stored.lock() = Some(record);
        Ok(())
    }

    /// DELETE: ends session `id` on every instance (after the same checks as any request).
    pub(crate) async fn delete_session(&self, id: &str, auth: Option<&Arc<AuthInfo>>) -> Resp {
        if let Err(r) = self.session_for(id, auth).await {
            return r.answer(None);
        }
        if let Err(e) = self.config.session_store.remove(id).await {
            return store_error(&e).answer(None);
        }
        self.config.event_store.remove_session(id);
        self.sessions.remove(id);
        plain(StatusCode::OK)
    }

    /// The periodic sweep: ends here the sessions idle here, deletes their records (and event
    /// logs) unless another instance used them meanwhile, and refreshes the records of sessions
    /// busy here (a long request or an open stream).
    pub(crate) async fn sweep(&self) {
        self.expire_idle().await;
        for s in self.sessions.busy() {
            self.persist(&s).await;
        }
    }

    /// The first half of [`sweep`](Self::sweep).
    pub(crate) async fn expire_idle(&self) {
        for id in self.sessions.expire_local(self.config.session_idle_timeout) {
            let gone = match self.config.session_store.load(&id).await {
                Ok(Some(r)) => self.record_idle(&r),
                Ok(None) => true,
                // Unreadable here: leave it to the store, or to the next request's answer.
                Err(_) => false,
            };
            if gone {
                self.end_everywhere(&id).await;
            }
        }
    }

    /// Whether no instance used the session within the idle timeout (allowing for the refresh
    /// interval by which a record's `lastSeen` may lag).
    fn record_idle(&self, r: &SessionRecord) -> bool {
        let idle = self.config.session_idle_timeout;
        let limit = (idle + refresh_every(idle)).as_millis();
        u128::from(now_ms().saturating_sub(r.last_seen_ms)) > limit
    }

    async fn end_everywhere(&self, id: &str) {
        let _ = self.config.session_store.remove(id).await;
        self.config.event_store.remove_session(id);
        self.sessions.remove(id);
    }

    /// Applies a record another instance wrote to the live session here.
    fn sync(&self, s: &HttpSession, record: SessionRecord) -> Result<(), Unusable> {
        let mut stored = s.stored.lock();
        if let Some(st) = stored.as_mut()
            && st.same_state(&record)
        {
            st.last_seen_ms = st.last_seen_ms.max(record.last_seen_ms);
            return Ok(());
        }
        // Changed elsewhere since this instance last wrote or read it.
        let r = self.check(&record).map_err(Unusable::Corrupt)?;
        restore(&s.session, r, &record);
        *stored = Some(record);
        Ok(())
    }

    /// A live session here from another instance's record.
    fn rehydrate(&self, id: &str, record: SessionRecord) -> Result<Arc<HttpSession>, Unusable> {
        if record.id != id {
            return Err(Unusable::Corrupt(format!(
                "the store returned the record of another session ({:?})",
                record.id
            )));
        }
        let r = self.check(&record).map_err(Unusable::Corrupt)?;
        let streams =
            SessionStreams::restore(id, self.config.event_store.clone(), &record.event_tag);
        let session = self.server.session(Sink::new(streams.standalone.clone()));
        session.number_requests_from(streams.first_request_id());
        restore(&session, r, &record);
        if let Some(p) = &record.principal {
            let mut a = AuthInfo::new();
            a.subject = p.subject.clone();
            a.client_id = p.client_id.clone();
            session.bind_principal(Arc::new(a));
        }
        let entry = Arc::new(HttpSession::new(session, Outlet::Streams(streams)));
        *entry.stored.lock() = Some(record);
        match self
            .sessions
            .adopt(id, entry.clone(), self.config.max_sessions)
        {
            Some(s) => Ok(s),
            None => {
                entry.session.close();
                Err(Unusable::TooManySessions)
            }
        }
    }

    /// Checks what a record says against what this server serves.
    fn check(&self, r: &SessionRecord) -> Result<Restored, String> {
        let version = ProtocolVersion::new(&r.protocol_version);
        let served = version.is_known()
            && version.era() == Era::Legacy
            && version::negotiate_legacy(&r.protocol_version, &self.server.inner.versions)
                .is_some_and(|v| v == version);
        if !served {
            return Err(format!(
                "protocolVersion {:?} is not a legacy revision this server serves",
                r.protocol_version
            ));
        }
        if !r.client_capabilities.is_object() {
            return Err("clientCapabilities is not an object".into());
        }
        let log_level = match &r.log_level {
            None => None,
            Some(l) => Some(
                serde_json::from_value(Value::String(l.clone()))
                    .map_err(|_| format!("logLevel {l:?} is not a log level"))?,
            ),
        };
        let tag_ok =
            !r.event_tag.is_empty() && r.event_tag.bytes().all(|b| b.is_ascii_alphanumeric());
        if !tag_ok {
            return Err(format!("eventTag {:?} is not alphanumeric", r.event_tag));
        }
        Ok(Restored {
            version,
            client_capabilities: r.client_capabilities.clone(),
            log_level,
        })
    }
}

fn restore(session: &Session, r: Restored, record: &SessionRecord) {
    session.restore_legacy(
        r.version,
        r.client_capabilities,
        record.client_info.clone(),
        record.initialized,
        r.log_level,
        record.subscriptions.iter().cloned().collect::<HashSet<_>>(),
    );
}

/// The record of `session`'s current state, keeping `base`'s identity and times.
fn record_of(session: &Session, base: &SessionRecord) -> Option<SessionRecord> {
    let l = session.legacy_state()?;
    let mut subscriptions: Vec<String> = l.subscriptions.into_iter().collect();
    subscriptions.sort();
    let log_level = l.log_level.map(|lv| {
        serde_json::to_value(lv)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    });
    Some(SessionRecord {
        protocol_version: l.version.as_str().to_owned(),
        client_capabilities: l.client_capabilities,
        client_info: l.client_info,
        initialized: l.initialized,
        log_level,
        subscriptions,
        ..base.clone()
    })
}

fn record_admits(r: &SessionRecord, a: &AuthInfo) -> bool {
    r.principal
        .as_ref()
        .is_none_or(|p| p.subject == a.subject && p.client_id == a.client_id)
}

fn other_principal() -> Refused {
    Refused {
        status: StatusCode::NOT_FOUND,
        error: RpcError::invalid_request(
            "unknown Mcp-Session-Id for this principal: initialize a new session",
        ),
    }
}

fn store_error(e: &SessionStoreError) -> Refused {
    let status = match e {
        SessionStoreError::Corrupt(_) => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::SERVICE_UNAVAILABLE,
    };
    Refused {
        status,
        error: RpcError::internal(format!("Mcp-Session-Id: {e}")),
    }
}

/// The 404 for an unknown, deleted or expired session.
pub(crate) fn session_not_found() -> Resp {
    Refused::session_not_found().answer(None)
}
