//! The client's connection core: outgoing requests with ids, timeouts that progress resets, cancellation
//! on drop, and the reader that routes responses, notifications and (legacy) server-to-client requests.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use serde_json::{Map, Value, json};
use tokio::sync::{Notify, mpsc, oneshot};

use super::config::{ClientConfig, ClientHandlers, WireDirection};
use crate::error::{Error, Result, RpcError};
use crate::jsonrpc::{self, Message, Notification, Request, RequestId};
use crate::meta;
use crate::transport::{OutKind, Outgoing, Sink};

/// Called with each progress notification of a request: `(progress, total, message)`.
pub type ProgressFn = Arc<dyn Fn(f64, Option<f64>, Option<&str>) + Send + Sync>;

struct Pending {
    /// Peer errors arrive as `Error::Rpc`; failures the transport detects itself as other variants.
    tx: oneshot::Sender<Result<Value>>,
    activity: Arc<Notify>,
    on_progress: Option<ProgressFn>,
}

pub(crate) struct Connection {
    pub(crate) out: Sink,
    pending: Mutex<HashMap<RequestId, Pending>>,
    next_id: AtomicI64,
    pub(crate) subs: Mutex<HashMap<RequestId, mpsc::UnboundedSender<Notification>>>,
    pub(crate) legacy_subs: Mutex<Vec<mpsc::UnboundedSender<Notification>>>,
    closed: AtomicBool,
    closed_notify: Notify,
    pub(crate) handlers: ClientHandlers,
    pub(crate) config: ClientConfig,
}

/// Options of one request.
#[derive(Clone, Default)]
pub struct CallOptions {
    /// Overrides the idle timeout of the request.
    pub timeout: Option<Duration>,
    /// Receives the request's progress notifications.
    pub on_progress: Option<ProgressFn>,
}

impl Connection {
    pub(crate) fn new(
        out: Sink,
        handlers: ClientHandlers,
        config: ClientConfig,
    ) -> Arc<Connection> {
        Arc::new(Connection {
            out,
            pending: Mutex::new(HashMap::new()),
            next_id: AtomicI64::new(1),
            subs: Mutex::new(HashMap::new()),
            legacy_subs: Mutex::new(Vec::new()),
            closed: AtomicBool::new(false),
            closed_notify: Notify::new(),
            handlers,
            config,
        })
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    pub(crate) fn next_id(&self) -> RequestId {
        RequestId::Number(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    /// Hands one message to the transport (after the wire tap sees it).
    pub(crate) fn send(&self, message: Outgoing) -> bool {
        if let Some(tap) = &self.handlers.on_wire {
            tap(WireDirection::Sent, &message.bytes);
        }
        self.out.send(message)
    }

    pub(crate) fn notify(&self, method: &str, params: Option<&Value>) -> bool {
        self.send(Outgoing {
            kind: OutKind::Notification,
            bytes: jsonrpc::encode_notification(method, params),
        })
    }

    /// Sends a request (params get `_meta.progressToken` = the id) and waits for its answer. The idle
    /// timer restarts on each progress notification; `max_total` bounds the whole wait. On timeout or
    /// when the future is dropped, the server is told with `notifications/cancelled`.
    pub(crate) async fn call(
        self: &Arc<Self>,
        method: &str,
        mut params: Map<String, Value>,
        meta_extra: Option<Map<String, Value>>,
        opts: &CallOptions,
    ) -> Result<Value> {
        if self.is_closed() {
            return Err(Error::Closed);
        }
        let id = self.next_id();
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(meta) = meta else {
            return Err(Error::InvalidArgument(
                "params._meta must be an object".into(),
            ));
        };
        meta.insert(meta::PROGRESS_TOKEN.into(), id.to_value());
        if let Some(extra) = meta_extra {
            meta.extend(extra);
        }
        let (tx, mut rx) = oneshot::channel();
        let activity = Arc::new(Notify::new());
        self.pending.lock().insert(
            id.clone(),
            Pending {
                tx,
                activity: activity.clone(),
                on_progress: opts.on_progress.clone(),
            },
        );
        let mut guard = CancelGuard {
            conn: self.clone(),
            id: id.clone(),
            armed: true,
        };
        let params = Value::Object(params);
        if !self.send(Outgoing {
            kind: OutKind::Request,
            bytes: jsonrpc::encode_request(&id, method, Some(&params)),
        }) {
            guard.armed = false;
            self.pending.lock().remove(&id);
            return Err(Error::Closed);
        }
        let idle = opts.timeout.unwrap_or(self.config.request_timeout);
        let hard = tokio::time::sleep(self.config.max_total_timeout);
        tokio::pin!(hard);
        loop {
            tokio::select! {
                answer = &mut rx => {
                    guard.armed = false;
                    return match answer {
                        Ok(Ok(v)) => Ok(v),
                        Ok(Err(e)) => Err(e),
                        Err(_) => Err(Error::Closed),
                    };
                }
                _ = activity.notified() => continue,
                _ = tokio::time::sleep(idle) => return Err(Error::Timeout(idle)),
                _ = &mut hard => return Err(Error::Timeout(self.config.max_total_timeout)),
            }
        }
    }

    /// Registers an id whose answer arrives with no timeout (a listen stream's final result).
    pub(crate) fn expect(&self, id: RequestId) -> oneshot::Receiver<Result<Value>> {
        let (tx, rx) = oneshot::channel();
        self.pending.lock().insert(
            id,
            Pending {
                tx,
                activity: Arc::new(Notify::new()),
                on_progress: None,
            },
        );
        rx
    }

    /// Ends a pending request with a failure the transport detected itself (never confused with an
    /// error the peer sent).
    #[cfg(feature = "http")]
    pub(crate) fn fail_local(&self, id: &RequestId, error: Error) {
        if let Some(p) = self.pending.lock().remove(id) {
            let _ = p.tx.send(Err(error));
        }
    }

    /// Forgets an id registered with [`Connection::expect`].
    pub(crate) fn forget(&self, id: &RequestId) {
        self.pending.lock().remove(id);
    }

    /// Handles one frame read from the server.
    pub(crate) fn on_frame(self: &Arc<Self>, bytes: &[u8]) {
        if let Some(tap) = &self.handlers.on_wire {
            tap(WireDirection::Received, bytes);
        }
        let message = match jsonrpc::parse_message(bytes) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(
                    "client: ignoring a malformed message from the server: {}",
                    e.error.message
                );
                return;
            }
        };
        match message {
            Message::Response(r) => {
                let value = serde_json::from_str(r.result.get()).unwrap_or(Value::Null);
                if let Some(p) = self.pending.lock().remove(&r.id) {
                    let _ = p.tx.send(Ok(value));
                }
            }
            Message::Error(e) => match e.id.and_then(|id| self.pending.lock().remove(&id)) {
                Some(p) => {
                    let _ = p.tx.send(Err(Error::Rpc(e.error)));
                }
                None => tracing::warn!("client: error from the server: {}", e.error),
            },
            Message::Notification(n) => self.on_notification(n),
            Message::Request(r) => self.on_server_request(r),
        }
    }

    fn on_notification(&self, n: Notification) {
        let params = n.params.as_ref();
        if n.method == "notifications/progress" {
            let token = params
                .and_then(|p| p.get("progressToken"))
                .and_then(RequestId::from_value);
            let pending = token.and_then(|t| {
                self.pending
                    .lock()
                    .get(&t)
                    .map(|p| (p.activity.clone(), p.on_progress.clone()))
            });
            if let Some((activity, cb)) = pending {
                activity.notify_one();
                if let (Some(cb), Some(p)) = (cb, params) {
                    let progress = p.get("progress").and_then(Value::as_f64).unwrap_or(0.0);
                    cb(
                        progress,
                        p.get("total").and_then(Value::as_f64),
                        p.get("message").and_then(Value::as_str),
                    );
                }
            }
            // Also seen by `on_notification`, as its documentation promises every notification.
            if let Some(cb) = &self.handlers.on_notification {
                cb(&n.method, params.unwrap_or(&Value::Null));
            }
            return;
        }
        let sub_id = meta::of(params)
            .and_then(|m| m.get(meta::SUBSCRIPTION_ID))
            .and_then(RequestId::from_value);
        if let Some(id) = sub_id {
            let tx = self.subs.lock().get(&id).cloned();
            if let Some(tx) = tx {
                let _ = tx.send(n.clone());
            }
        } else if n.method == "notifications/cancelled" {
            // A server tearing down a listen stream.
            let id = params
                .and_then(|p| p.get("requestId"))
                .and_then(RequestId::from_value);
            if let Some(id) = id {
                self.subs.lock().remove(&id);
            }
        } else if n.method.ends_with("/list_changed")
            || n.method == "notifications/resources/updated"
            || n.method == "notifications/tasks/status"
        {
            self.legacy_subs
                .lock()
                .retain(|tx| tx.send(n.clone()).is_ok());
        }
        if let Some(cb) = &self.handlers.on_notification {
            cb(&n.method, params.unwrap_or(&Value::Null));
        }
    }

    fn on_server_request(self: &Arc<Self>, r: Request) {
        let conn = self.clone();
        tokio::spawn(async move {
            let answer = match r.method.as_str() {
                "ping" => Ok(json!({})),
                method => {
                    conn.fulfil(method, r.params.clone().unwrap_or(json!({})))
                        .await
                }
            };
            let bytes = match &answer {
                Ok(v) => jsonrpc::encode_result(&r.id, v),
                Err(e) => jsonrpc::encode_error(Some(&r.id), e),
            };
            let kind = match &answer {
                Ok(_) => OutKind::Result,
                Err(e) => OutKind::Error(e.code),
            };
            conn.send(Outgoing { kind, bytes });
        });
    }

    /// Answers an input request (`elicitation/create`, `sampling/createMessage`, `roots/list`) through
    /// the registered handler.
    pub(crate) async fn fulfil(
        &self,
        method: &str,
        params: Value,
    ) -> std::result::Result<Value, RpcError> {
        let h = &self.handlers;
        let handler = match method {
            "elicitation/create" => h.elicitation.clone(),
            "sampling/createMessage" => {
                if (params.get("tools").is_some() || params.get("toolChoice").is_some())
                    && !h.sampling_tools
                {
                    return Err(RpcError::invalid_params(
                        "sampling with tools was requested but this client did not declare sampling.tools",
                    ));
                }
                h.sampling.clone()
            }
            "roots/list" => h.roots.clone(),
            _ => None,
        };
        match handler {
            Some(f) => f(params).await,
            None => Err(RpcError::method_not_found(method)),
        }
    }

    /// The transport ended: every waiter learns it.
    pub(crate) fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let pending: Vec<Pending> = self.pending.lock().drain().map(|(_, p)| p).collect();
        drop(pending);
        self.subs.lock().clear();
        self.legacy_subs.lock().clear();
        self.closed_notify.notify_waiters();
    }

    /// Resolves once the connection is closed.
    pub(crate) async fn closed(&self) {
        loop {
            let n = self.closed_notify.notified();
            if self.is_closed() {
                return;
            }
            n.await;
        }
    }
}

/// Sends `notifications/cancelled` when a call ends without its answer (timeout or a dropped future).
struct CancelGuard {
    conn: Arc<Connection>,
    id: RequestId,
    armed: bool,
}

impl Drop for CancelGuard {
    fn drop(&mut self) {
        if self.armed && self.conn.pending.lock().remove(&self.id).is_some() {
            let params =
                json!({ "requestId": self.id.to_value(), "reason": "cancelled by the client" });
            self.conn.notify("notifications/cancelled", Some(&params));
        }
    }
}
