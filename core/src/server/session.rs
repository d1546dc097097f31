//! One connection's view of the server: era detection, the legacy handshake state, in-flight requests
//! (duplicate ids, cancellation) and server-to-client requests of the legacy era.
//!
//! Dispatch rule (2026-07-28 basic/versioning, "Backward compatibility"): `initialize` switches the
//! connection to legacy; a request whose `_meta` names a protocol version is served statelessly; any other request is served under the legacy
//! session if there is one, and otherwise gets a JSON-RPC error that says what is missing.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};

use parking_lot::{Mutex, RwLock, RwLockWriteGuard};
use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::ServerInner;
use super::context::CancelFlag;
use crate::auth::AuthInfo;
use crate::error::RpcError;
use crate::jsonrpc::{self, ErrorResponse, Frame, Message, Notification, Request, RequestId};
use crate::meta::{self, RequestMeta};
use crate::model::logging::LoggingLevel;
use crate::outgoing::{BatchCollector, OutKind, Outgoing, Sink};
use crate::version::{self, Era, ProtocolVersion};

/// The legacy handshake state of a connection.
#[derive(Clone, Debug)]
pub(crate) struct LegacyState {
    pub(crate) version: ProtocolVersion,
    pub(crate) client_capabilities: Value,
    pub(crate) client_info: Option<Value>,
    pub(crate) initialized: bool,
    pub(crate) log_level: Option<LoggingLevel>,
    pub(crate) subscriptions: std::collections::HashSet<String>,
}

/// Which era a request is served under, and with what client facts.
pub(crate) struct Served {
    pub(crate) version: ProtocolVersion,
    pub(crate) client_capabilities: Value,
    pub(crate) client_info: Option<Value>,
    pub(crate) log_level: Option<LoggingLevel>,
}

pub(crate) struct SessionShared {
    pub(crate) server: Arc<ServerInner>,
    /// Where messages that belong to no request go (legacy notifications, server-to-client requests).
    pub(crate) sink: Sink,
    /// Read it directly; change it through [`SessionShared::legacy_write`], which counts changes.
    pub(crate) legacy: RwLock<Option<LegacyState>>,
    /// How many times `legacy` was changed (see [`Session::legacy_changes`]).
    legacy_changes: AtomicU64,
    pub(crate) inflight: Mutex<HashMap<RequestId, CancelFlag>>,
    /// Answers that have left `inflight` and are not in the sink yet (see
    /// `complete::answer_request`): [`Session::inflight`] counts them too.
    pub(crate) answering: AtomicUsize,
    pub(crate) outgoing: Mutex<HashMap<RequestId, oneshot::Sender<Result<Value, RpcError>>>>,
    next_out_id: AtomicI64,
    /// Set once the peer can no longer answer (its input to us ended): server-to-client requests then
    /// fail at once instead of waiting out `client_request_timeout`.
    answers_closed: std::sync::atomic::AtomicBool,
    /// Whether requests without `_meta` may be served as legacy 2025-03-26 when no session exists
    /// (HTTP without an `MCP-Protocol-Version` header).
    pub(crate) assume_legacy: Option<ProtocolVersion>,
    /// A stateless connection (one modern HTTP request): `initialize` is not a method here, so it is
    /// routed like any other request (and answered -32601 in the modern era).
    pub(crate) stateless: bool,
    /// The authenticated principal that opened this connection (HTTP with authorization).
    #[cfg(feature = "http")]
    pub(crate) principal: std::sync::OnceLock<Arc<AuthInfo>>,
}

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

    fn send_error(&self, sink: &Sink, id: Option<&RequestId>, error: &RpcError) {
        sink.send(Outgoing {
            kind: OutKind::Error(error.code),
            bytes: jsonrpc::encode_error(id, error),
        });
    }
}

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
                answers_closed: std::sync::atomic::AtomicBool::new(false),
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
            Ok(Frame::Batch(items)) => self.handle_batch(items, sink, None),
        }
    }

    /// Handles one JSON-RPC batch (2025-03-26 only): the responses go to `sink` as one array.
    pub(crate) fn handle_batch(
        &self,
        items: Vec<Result<Message, ErrorResponse>>,
        sink: Sink,
        auth: Option<Arc<AuthInfo>>,
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
                self.handle_message_as(item, sink.clone(), auth.clone());
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
                Ok(m) => self.handle_message_as(m, collector.clone(), auth.clone()),
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
        match message {
            Message::Request(r) => self.handle_request(r, sink, auth),
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

    fn handle_request(&self, req: Request, sink: Sink, auth: Option<Arc<AuthInfo>>) {
        let shared = &self.shared;
        if let Err(e) = meta::check_shape(req.params.as_ref()) {
            return shared.send_error(&sink, Some(&req.id), &e);
        }
        if req.method == "initialize" && !shared.stateless {
            let result = self.initialize(&req);
            match result {
                Ok(v) => {
                    sink.send(Outgoing {
                        kind: OutKind::Result,
                        bytes: jsonrpc::encode_result(&req.id, &v),
                    });
                }
                Err(e) => shared.send_error(&sink, Some(&req.id), &e),
            }
            return;
        }
        let served = match self.era_of(&req) {
            Ok(s) => s,
            Err(e) => return shared.send_error(&sink, Some(&req.id), &e),
        };
        // Duplicate ids among in-flight requests, and requests beyond `max_in_flight`, are
        // refused before any work starts.
        let cancel = CancelFlag::default();
        {
            let mut inflight = shared.inflight.lock();
            if inflight.contains_key(&req.id) {
                drop(inflight);
                let e = RpcError::invalid_request(format!(
                    "duplicate request id {} is already in flight",
                    req.id
                ));
                return shared.send_error(&sink, Some(&req.id), &e);
            }
            let limit = shared.server.config.max_in_flight;
            if inflight.len() >= limit {
                drop(inflight);
                let e = RpcError::internal(format!(
                    "too many requests in flight on this session (limit {limit}); \
                     send it again once one of them is answered"
                ))
                .with_data(json!({ "maxInFlight": limit }));
                return shared.send_error(&sink, Some(&req.id), &e);
            }
            inflight.insert(req.id.clone(), cancel.clone());
        }
        super::methods::dispatch(shared, req, served, cancel, sink, auth);
    }

    /// Decides the era of a non-initialize request and gathers the client facts it is served with.
    fn era_of(&self, req: &Request) -> Result<Served, RpcError> {
        let server = &self.shared.server;
        // A server without a modern version answers like the legacy server it is: no -32022, which
        // clients read as a definitive modern answer.
        let modern = meta::modern_version(req.params.as_ref()).filter(|_| server.serves_modern());
        if let Some(requested) = modern {
            // Modern: version, then shape; capability checks come with the method.
            let version = version::check_modern(requested, &server.versions)
                .map_err(|supported| RpcError::unsupported_version(&supported, requested))?
                .clone();
            let m = RequestMeta::parse(req.params.as_ref())?;
            return Ok(Served {
                version,
                client_capabilities: m.client_capabilities,
                client_info: m.client_info,
                log_level: m.log_level,
            });
        }
        if let Some(l) = self.shared.legacy.read().as_ref() {
            return Ok(Served {
                version: l.version.clone(),
                client_capabilities: l.client_capabilities.clone(),
                client_info: l.client_info.clone(),
                log_level: None,
            });
        }
        if req.method == "ping" && server.serves_legacy() {
            // Legacy clients may ping before the handshake completes.
            return Ok(Served {
                version: ProtocolVersion::LATEST_LEGACY,
                client_capabilities: json!({}),
                client_info: None,
                log_level: None,
            });
        }
        if let Some(v) = &self.shared.assume_legacy {
            return Ok(Served {
                version: v.clone(),
                client_capabilities: json!({}),
                client_info: None,
                log_level: None,
            });
        }
        if meta::of(req.params.as_ref()).is_some() {
            return Err(RpcError::invalid_params(format!(
                "params._meta is missing {}",
                meta::PROTOCOL_VERSION
            )));
        }
        let hint = if server.serves_legacy() {
            " (or send initialize first to use a legacy revision)"
        } else {
            ""
        };
        Err(RpcError::invalid_params(format!(
            "params._meta must be an object carrying {} and {}{hint}",
            meta::PROTOCOL_VERSION,
            meta::CLIENT_CAPABILITIES
        )))
    }

    fn initialize(&self, req: &Request) -> Result<Value, RpcError> {
        let server = &self.shared.server;
        let params = req
            .params
            .as_ref()
            .ok_or_else(|| RpcError::invalid_params("initialize needs params"))?;
        let requested = params
            .get("protocolVersion")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                RpcError::invalid_params("initialize: protocolVersion must be a string")
            })?;
        let caps = match params.get("capabilities") {
            Some(c @ Value::Object(_)) => c.clone(),
            None => json!({}),
            Some(_) => {
                return Err(RpcError::invalid_params(
                    "initialize: capabilities must be an object",
                ));
            }
        };
        let Some(version) = version::negotiate_legacy(requested, &server.versions) else {
            // A modern-only server names what it does support.
            let supported: Vec<&str> = server.versions.iter().map(|v| v.as_str()).collect();
            return Err(RpcError::unsupported_version(&supported, requested));
        };
        if self
            .shared
            .legacy
            .read()
            .as_ref()
            .is_some_and(|l| l.initialized)
        {
            return Err(RpcError::invalid_request(
                "the session is already initialized",
            ));
        }
        *self.shared.legacy_write() = Some(LegacyState {
            version: version.clone(),
            client_capabilities: caps,
            client_info: params.get("clientInfo").cloned(),
            initialized: false,
            log_level: None,
            subscriptions: Default::default(),
        });
        server.remember_session(&self.shared);
        let mut result = json!({
            "protocolVersion": version.as_str(),
            "capabilities": server.capabilities(Era::Legacy),
            "serverInfo": server.info,
        });
        if let Some(i) = &server.instructions {
            result["instructions"] = json!(i);
        }
        // E.g. no `completions` capability (2025-03-26) nor serverInfo `title` (2025-06-18) for
        // 2024-11-05 (crate::shapes).
        crate::shapes::result(&version, "initialize", &mut result)?;
        Ok(result)
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
