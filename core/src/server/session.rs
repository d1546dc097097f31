//! One connection to the server, the entry of the pipeline: raw frames are parsed here, batches
//! split, responses to the server's own requests and the client's notifications (cancellation,
//! `initialized`) handled, and every request handed to `admit`. Also the connection's lifecycle:
//! closing, ending its listen streams, and the state a multi-instance HTTP server restores.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};

use parking_lot::{Mutex, RwLock};
use serde_json::Value;

use super::admit;
use super::caller::Caller;
use super::cancel::CancelFlag;
#[cfg(feature = "http")]
use super::state::LegacyState;
use super::state::{ServerInner, SessionShared};
use crate::auth::AuthInfo;
use crate::error::RpcError;
use crate::jsonrpc::{self, ErrorResponse, Frame, Message, Notification, Request, RequestId};
#[cfg(feature = "http")]
use crate::model::logging::LoggingLevel;
use crate::outgoing::{BatchCollector, Sink};
use crate::version::ProtocolVersion;

/// A connection to the server (a stdio process, an HTTP session, or one stateless HTTP request).
#[derive(Clone)]
pub struct Session {
    pub(crate) shared: Arc<SessionShared>,
}

impl Session {
    pub(crate) fn new(
        server: Arc<ServerInner>,
        sink: Sink,
        assume_legacy: Option<ProtocolVersion>,
    ) -> Session {
        Session {
            shared: Arc::new(SessionShared {
                server,
                sink,
                legacy: RwLock::new(None),
                legacy_changes: AtomicU64::new(0),
                inflight: Mutex::new(HashMap::new()),
                outgoing: Mutex::new(HashMap::new()),
                answers_closed: AtomicBool::new(false),
                closed: AtomicBool::new(false),
                answering: AtomicUsize::new(0),
                next_out_id: AtomicI64::new(1),
                assume_legacy,
                stateless: false,
                #[cfg(feature = "http")]
                principal: std::sync::OnceLock::new(),
            }),
        }
    }

    /// A connection that serves only stateless requests: no handshake, so `initialize` is routed
    /// like an unknown method.
    pub(crate) fn new_stateless(server: Arc<ServerInner>, sink: Sink) -> Session {
        let mut s = Session::new(server, sink, None);
        if let Some(shared) = Arc::get_mut(&mut s.shared) {
            shared.stateless = true;
        }
        s
    }

    /// A count of the changes to the legacy handshake state (negotiated version, `initialized`,
    /// log level, subscriptions): equal counts mean an unchanged state, so the HTTP server can
    /// skip writing a session record that cannot differ from the one it wrote. Read it before the
    /// state it guards.
    #[cfg(feature = "http")]
    pub(crate) fn legacy_changes(&self) -> u64 {
        self.shared.legacy_changes.load(Ordering::Acquire)
    }

    /// The legacy protocol version negotiated on this connection, if any.
    pub fn legacy_version(&self) -> Option<ProtocolVersion> {
        self.shared.legacy_version()
    }

    /// A copy of the legacy handshake state, if `initialize` ran (or a state was restored).
    #[cfg(feature = "http")]
    pub(crate) fn legacy_state(&self) -> Option<LegacyState> {
        self.shared.legacy.read().clone()
    }

    /// Restores (or refreshes) the negotiated state of a legacy session whose `initialize` ran
    /// elsewhere, e.g. on another server instance sharing a session store: from now on requests
    /// are served as after that handshake, and server notifications reach this connection.
    #[cfg(feature = "http")]
    pub(crate) fn restore_legacy(
        &self,
        version: ProtocolVersion,
        client_capabilities: Value,
        client_info: Option<Value>,
        initialized: bool,
        log_level: Option<LoggingLevel>,
        subscriptions: std::collections::HashSet<String>,
    ) {
        *self.shared.legacy_write() = Some(LegacyState {
            version,
            client_capabilities,
            client_info,
            initialized,
            log_level,
            subscriptions,
        });
        self.shared.server.remember_session(&self.shared);
    }

    /// Binds the connection to the principal that opened it; later binds are ignored.
    #[cfg(feature = "http")]
    pub(crate) fn bind_principal(&self, auth: Arc<AuthInfo>) {
        let _ = self.shared.principal.set(auth);
    }

    /// Whether `auth` may use this connection: an unbound connection accepts anyone, a bound one
    /// only the same subject and client (whose tokens may have been refreshed meanwhile).
    #[cfg(feature = "http")]
    pub(crate) fn admits(&self, auth: &AuthInfo) -> bool {
        self.shared
            .principal
            .get()
            .is_none_or(|p| p.same_principal(auth))
    }

    /// Tells the session that no more answers can arrive from the client (stdin reached EOF, or the
    /// transport stopped reading): pending server-to-client requests fail now, and later ones at
    /// once, so that the handlers waiting on them finish and their requests are answered.
    pub fn close_answers(&self) {
        self.shared.answers_closed.store(true, Ordering::SeqCst);
        self.shared.outgoing.lock().clear();
    }

    /// Number of requests in flight, answers on their way to the sink included: once this is 0,
    /// every answer given so far is in the sink.
    pub fn inflight(&self) -> usize {
        let listed = self.shared.inflight.lock().len();
        listed + self.shared.answering.load(Ordering::SeqCst)
    }

    /// Handles one raw frame: parses it, answers malformed input with the right error, and dispatches.
    /// Responses go to the connection sink.
    pub fn handle_bytes(&self, bytes: &[u8]) {
        let sink = self.shared.sink.clone();
        match jsonrpc::parse_frame(bytes) {
            Err(e) => self.shared.send_error(&sink, e.id.as_ref(), &e.error),
            Ok(Frame::Single(m)) => self.handle_message(m, sink),
            Ok(Frame::Batch(items)) => self.handle_batch(items, sink, Caller::default()),
        }
    }

    /// Handles one JSON-RPC batch (2025-03-26 only): the responses go to `sink` as one array.
    pub(crate) fn handle_batch(
        &self,
        items: Vec<Result<Message, ErrorResponse>>,
        sink: Sink,
        caller: Caller,
    ) {
        let allowed = self
            .shared
            .legacy_version()
            .or_else(|| self.shared.assume_legacy.clone())
            .is_some_and(|v| v.allows_batches());
        if !allowed {
            let e = RpcError::invalid_request(
                "JSON-RPC batches are only allowed after initialize with 2025-03-26",
            );
            self.shared.send_error(&sink, None, &e);
            return;
        }
        let expected = items
            .iter()
            .filter(|i| matches!(i, Err(_) | Ok(Message::Request(_))))
            .count();
        if expected == 0 {
            for item in items.into_iter().flatten() {
                self.handle_message_from(item, sink.clone(), caller.clone());
            }
            return;
        }
        let collector = Sink::new(BatchCollector::new(expected, sink));
        for item in items {
            match item {
                Err(e) => self.shared.send_error(&collector, e.id.as_ref(), &e.error),
                Ok(Message::Request(r)) if r.method == "initialize" => {
                    let e = RpcError::invalid_request("initialize must not be part of a batch");
                    self.shared.send_error(&collector, Some(&r.id), &e);
                }
                Ok(m) => self.handle_message_from(m, collector.clone(), caller.clone()),
            }
        }
    }

    /// Whether a server-to-client request with this id still waits for the client's answer here.
    #[cfg(feature = "http")]
    pub(crate) fn awaits_answer(&self, id: &RequestId) -> bool {
        self.shared.outgoing.lock().contains_key(id)
    }

    /// Numbers this session's server-to-client requests from `first` on (a session rehydrated on
    /// another instance, so that the ids of the requests each instance sends never collide).
    #[cfg(feature = "http")]
    pub(crate) fn number_requests_from(&self, first: i64) {
        self.shared.next_out_id.store(first, Ordering::Relaxed);
    }

    /// Handles one parsed message; anything it produces for a request goes to `sink`.
    pub fn handle_message(&self, message: Message, sink: Sink) {
        self.handle_message_as(message, sink, None)
    }

    /// Like [`handle_message`](Self::handle_message), for a message whose sender the transport
    /// authenticated: a request's handler sees `auth` as `RequestContext::auth`.
    pub fn handle_message_as(&self, message: Message, sink: Sink, auth: Option<Arc<AuthInfo>>) {
        self.handle_message_from(message, sink, Caller::authenticated(auth))
    }

    /// Like [`handle_message_as`](Self::handle_message_as), with all the transport knows of the
    /// sender (over HTTP also the request head).
    pub(crate) fn handle_message_from(&self, message: Message, sink: Sink, caller: Caller) {
        match message {
            Message::Request(r) => self.handle_request(r, sink, caller),
            Message::Notification(n) => self.handle_notification(n),
            Message::Response(r) => {
                let tx = self.shared.outgoing.lock().remove(&r.id);
                if let Some(tx) = tx {
                    let value = serde_json::from_str(r.result.get()).unwrap_or(Value::Null);
                    let _ = tx.send(Ok(value));
                }
            }
            Message::Error(e) => {
                let tx =
                    e.id.as_ref()
                        .and_then(|id| self.shared.outgoing.lock().remove(id));
                if let Some(tx) = tx {
                    let _ = tx.send(Err(e.error));
                }
            }
        }
    }

    fn handle_notification(&self, n: Notification) {
        match n.method.as_str() {
            "notifications/initialized" => {
                if let Some(l) = self.shared.legacy_write().as_mut() {
                    l.initialized = true;
                }
            }
            "notifications/cancelled" => {
                let id = n
                    .params
                    .as_ref()
                    .and_then(|p| p.get("requestId"))
                    .and_then(RequestId::from_value);
                if let Some(id) = id {
                    self.cancel(&id);
                }
            }
            // Everything else (roots/list_changed, progress from the client, unknown) needs no action.
            _ => {}
        }
    }

    /// Cancels an in-flight request: its handler sees the flag and its response is dropped.
    pub fn cancel(&self, id: &RequestId) {
        let flag = self.shared.inflight.lock().remove(id);
        if let Some(flag) = flag {
            flag.cancel();
            self.shared.server.listeners.remove(id, &self.shared);
        }
    }

    /// Ends this connection's listen streams gracefully, each with its final result (the transport is
    /// about to close); other connections' streams are untouched.
    pub fn end_subscriptions(&self) {
        self.shared.server.listeners.close_session(&self.shared);
    }

    /// Cancels everything in flight and drops this connection's subscriptions (the transport closed).
    pub fn close(&self) {
        self.shared.closed.store(true, Ordering::SeqCst);
        let flags: Vec<CancelFlag> = self
            .shared
            .inflight
            .lock()
            .drain()
            .map(|(_, f)| f)
            .collect();
        for f in flags {
            f.cancel();
        }
        self.shared.outgoing.lock().clear();
        self.shared.server.listeners.remove_session(&self.shared);
        self.shared.server.forget_session(&self.shared);
    }

    fn handle_request(&self, req: Request, sink: Sink, caller: Caller) {
        admit::request(&self.shared, req, sink, caller);
    }
}
