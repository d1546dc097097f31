//! A connection's state across its requests: the legacy handshake state (changed through a guard
//! that counts changes) and requests from the server to the client (legacy era), each waiting for
//! the client's answer.

use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::RwLockWriteGuard;
use serde_json::Value;
use tokio::sync::oneshot;

use super::state::{LegacyState, SessionShared};
use crate::error::RpcError;
use crate::jsonrpc::{self, RequestId};
use crate::model::logging::LoggingLevel;
use crate::outgoing::{OutKind, Outgoing, Sink};
use crate::version::ProtocolVersion;

impl SessionShared {
    /// Write access to the legacy handshake state; the change is counted once the guard is
    /// dropped, so whoever reads the count and then the state sees at least that change.
    pub(crate) fn legacy_write(&self) -> LegacyWrite<'_> {
        LegacyWrite {
            guard: Some(self.legacy.write()),
            changes: &self.legacy_changes,
        }
    }

    pub(crate) fn legacy_log_level(&self) -> Option<LoggingLevel> {
        self.legacy.read().as_ref().and_then(|l| l.log_level)
    }

    pub(crate) fn legacy_version(&self) -> Option<ProtocolVersion> {
        self.legacy.read().as_ref().map(|l| l.version.clone())
    }

    /// Sends a server-to-client request (legacy era) on `sink` and waits for the answer.
    pub(crate) async fn request_client(
        &self,
        sink: &Sink,
        method: &str,
        params: Option<&Value>,
    ) -> Result<Value, RpcError> {
        let id = RequestId::Number(self.next_out_id.fetch_add(1, Ordering::Relaxed));
        let (tx, rx) = oneshot::channel();
        self.outgoing.lock().insert(id.clone(), tx);
        // Checked after the insert: `close_answers` sets the flag before it clears the table, so a
        // request either sees the flag here or is cleared there.
        if self.answers_closed.load(Ordering::SeqCst) {
            self.outgoing.lock().remove(&id);
            return Err(RpcError::internal(format!(
                "the client can no longer answer {method}: its input to the server has ended"
            )));
        }
        let sent = sink.send(Outgoing {
            kind: OutKind::Request,
            bytes: jsonrpc::encode_request(&id, method, params),
        });
        if !sent {
            self.outgoing.lock().remove(&id);
            return Err(RpcError::internal("the connection to the client is closed"));
        }
        let timeout = self.server.config.client_request_timeout;
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_)) => Err(RpcError::internal(
                "the connection to the client closed before it answered",
            )),
            Err(_) => {
                self.outgoing.lock().remove(&id);
                Err(RpcError::internal(format!(
                    "the client did not answer {method} within {timeout:?}"
                )))
            }
        }
    }

    /// Sends an error that no handler produced (a malformed or refused request) on `sink`.
    pub(crate) fn send_error(&self, sink: &Sink, id: Option<&RequestId>, error: &RpcError) {
        sink.send(Outgoing {
            kind: OutKind::Error(error.code),
            bytes: jsonrpc::encode_error(id, error),
        });
    }
}

/// The write guard of [`SessionShared::legacy_write`].
pub(crate) struct LegacyWrite<'a> {
    guard: Option<RwLockWriteGuard<'a, Option<LegacyState>>>,
    changes: &'a AtomicU64,
}

impl std::ops::Deref for LegacyWrite<'_> {
    type Target = Option<LegacyState>;
    fn deref(&self) -> &Self::Target {
        self.guard.as_ref().expect("held until drop")
    }
}

impl std::ops::DerefMut for LegacyWrite<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.guard.as_mut().expect("held until drop")
    }
}

impl Drop for LegacyWrite<'_> {
    fn drop(&mut self) {
        // The change is visible before it is counted.
        drop(self.guard.take());
        self.changes.fetch_add(1, Ordering::Release);
    }
}
