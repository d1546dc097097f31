//! The bytes side of the Streamable HTTP client: one POST per outgoing message, JSON or SSE answers fed
//! back to the [`Connection`], the legacy session (`Mcp-Session-Id`, the GET stream, `Last-Event-ID`
//! resumption honouring `retry:`), and the header rules of the 2026-07-28 revision.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderName, HeaderValue, WWW_AUTHENTICATE};
use hyper::{Method, Request, Response, StatusCode, Uri};
use parking_lot::{Mutex, RwLock};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio::task::AbortHandle;

use super::super::ServerDescription;
use super::super::connection::Connection;
use super::legacy_sse;
use super::sse::SseParser;
use crate::auth::client::{
    MAX_FLOWS_PER_REQUEST, OAuthClient, challenge_of, is_dpop_nonce_challenge,
};
use crate::error::{AuthError, Error, TransportError};
use crate::jsonrpc::RequestId;
use crate::names::{HeaderParam, encode_header_value, x_mcp_header_params};
use crate::net::{self, Connector, Http, describe};
use crate::transport::{OutKind, Outbound, Outgoing};
use crate::version::{Era, ProtocolVersion};

/// Header lookups go through typed names: a `&str` key is lowercased into an uninitialised scratch
/// buffer first, which optimised code compares in wide loads that valgrind reports in C hosts.
pub(super) const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");

/// How long to wait before reconnecting an SSE stream when the server named no `retry:`.
const DEFAULT_RETRY: Duration = Duration::from_millis(1000);
/// Reconnection attempts for one stream before giving up.
const MAX_RESUMES: u32 = 5;
/// How long closing waits for messages still queued (a notification or a response) to be sent.
pub(crate) const CLOSE_FLUSH: Duration = Duration::from_secs(3);
/// How long a new legacy connection waits for `notifications/initialized` and its GET stream to be
/// answered before it is handed to the caller anyway (a server that never answers them delays the
/// connection by this much, not more).
pub(crate) const READY_FLUSH: Duration = Duration::from_secs(5);

pub(crate) struct Shared {
    pub(super) http: Http,
    pub(crate) endpoint: Uri,
    pub(super) extra_headers: Vec<(HeaderName, HeaderValue)>,
    pub(crate) server: Arc<RwLock<ServerDescription>>,
    pub(crate) conn: OnceLock<Weak<Connection>>,
    session: Mutex<Option<HeaderValue>>,
    tool_headers: Mutex<HashMap<String, Vec<HeaderParam>>>,
    inflight: Mutex<HashMap<RequestId, AbortHandle>>,
    /// The legacy GET stream's reader, or the HTTP+SSE session's stream reader.
    pub(super) get_stream: Mutex<Option<AbortHandle>>,
    /// The message endpoint, once the probe fell back to the 2024-11-05 HTTP+SSE transport.
    pub(super) sse_endpoint: Mutex<Option<Uri>>,
    /// Status of the last `server/discover` answer (the era probe reads it).
    pub(crate) probe_status: AtomicU16,
    pub(super) closed: AtomicBool,
    /// OAuth: the bearer token for every request, and the flow a 401/403 challenge runs.
    auth: Option<OAuthClient>,
    /// The dispatcher's queue, weakly: closing asks it to flush without keeping it alive.
    queue: OnceLock<mpsc::WeakUnboundedSender<Job>>,
    /// An authorization flow failed (the era probe must not fall back and ask the user again).
    pub(crate) auth_failed: AtomicBool,
    /// The legacy `initialize` message as sent, repeated to start a new session when the server
    /// answers 404 to the old one.
    init_body: Mutex<Option<Bytes>>,
    /// Held while a lost session is being replaced, so that concurrent requests start one new session.
    reinit: tokio::sync::Mutex<()>,
}

impl Shared {
    pub(crate) fn new(
        endpoint: Uri,
        extra_headers: Vec<(HeaderName, HeaderValue)>,
        server: Arc<RwLock<ServerDescription>>,
        connector: Connector,
        auth: Option<OAuthClient>,
    ) -> Arc<Shared> {
        let http = net::client(connector);
        Arc::new(Shared {
            http,
            endpoint,
            extra_headers,
            server,
            conn: OnceLock::new(),
            session: Mutex::new(None),
            tool_headers: Mutex::new(HashMap::new()),
            inflight: Mutex::new(HashMap::new()),
            get_stream: Mutex::new(None),
            sse_endpoint: Mutex::new(None),
            probe_status: AtomicU16::new(0),
            closed: AtomicBool::new(false),
            auth,
            queue: OnceLock::new(),
            auth_failed: AtomicBool::new(false),
            init_body: Mutex::new(None),
            reinit: tokio::sync::Mutex::new(()),
        })
    }

    pub(super) fn conn(&self) -> Option<Arc<Connection>> {
        self.conn.get().and_then(Weak::upgrade)
    }

    fn era_version(&self) -> (Era, ProtocolVersion) {
        let s = self.server.read();
        (s.era, s.version.clone())
    }

    /// Hands one message from the server to the engine.
    pub(super) fn deliver(&self, bytes: &[u8]) {
        if let Some(conn) = self.conn() {
            conn.on_frame(bytes);
        }
    }

    /// Ends request `id` with a failure the transport detected.
    pub(super) fn fail(&self, id: &RequestId, error: Error) {
        if let Some(conn) = self.conn() {
            conn.fail_local(id, error);
        }
    }

    /// The headers every message carries: content negotiation, protocol version, session, extras.
    fn base_request(
        &self,
        method: Method,
        mcp_method: Option<&str>,
    ) -> hyper::http::request::Builder {
        let (era, version) = self.era_version();
        let mut b = Request::builder()
            .method(method.clone())
            .uri(self.endpoint.clone());
        b = if method == Method::GET {
            b.header("accept", "text/event-stream")
        } else {
            b.header("accept", "application/json, text/event-stream")
                .header("content-type", "application/json")
        };
        // Legacy: the header follows initialize and does not exist in 2025-03-26.
        let send_version = match era {
            Era::Modern => true,
            Era::Legacy => mcp_method != Some("initialize") && version.as_str() != "2025-03-26",
        };
        if send_version {
            b = b.header("mcp-protocol-version", version.as_str());
        }
        if let Some(s) = self.session.lock().clone() {
            b = b.header("mcp-session-id", s);
        }
        for (k, v) in &self.extra_headers {
            b = b.header(k, v);
        }
        if let Some(auth) = &self.auth {
            for (k, v) in auth.authorization_headers(method.as_str(), &self.endpoint.to_string()) {
                b = b.header(k, v);
            }
        }
        b
    }

    /// Sends one POST; with OAuth, a 401 or a 403 `insufficient_scope` answer runs the authorization
    /// flow and the request is sent again, up to [`MAX_FLOWS_PER_REQUEST`] flows. A challenge still
    /// standing after that is an [`AuthError::InsufficientScope`] or [`AuthError::Rejected`]. A 401
    /// asking for a DPoP nonce is sent again with the nonce, once per new nonce, up to
    /// [`MAX_FLOWS_PER_REQUEST`] times.
    async fn send_post(
        &self,
        method: Option<&str>,
        headers: &[(String, String)],
        body: Bytes,
    ) -> Result<Response<Incoming>, Error> {
        let mut flows = 0;
        let mut nonce_retries = 0;
        loop {
            let mut b = self.base_request(Method::POST, method);
            for (k, v) in headers {
                b = b.header(k.as_str(), v.as_str());
            }
            let req = b.body(Full::new(body.clone())).map_err(|e| {
                Error::Transport(TransportError::with_source(
                    format!("cannot build the HTTP request: {e}"),
                    e,
                ))
            })?;
            let sent_token = self.auth.as_ref().and_then(OAuthClient::access_token);
            let resp = self.http.request(req).await.map_err(|e| {
                Error::Transport(TransportError::with_source(
                    format!("HTTP request failed: {}", describe(&e)),
                    e,
                ))
            })?;
            let Some(auth) = self.auth.as_ref() else {
                return Ok(resp);
            };
            let www = resp
                .headers()
                .get(WWW_AUTHENTICATE)
                .and_then(|v| v.to_str().ok());
            let new_nonce = resp
                .headers()
                .get("dpop-nonce")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|n| auth.note_dpop_nonce(&self.endpoint.to_string(), n));
            if new_nonce
                && nonce_retries < MAX_FLOWS_PER_REQUEST
                && is_dpop_nonce_challenge(resp.status().as_u16(), www)
            {
                nonce_retries += 1;
                continue;
            }
            let Some(challenge) = challenge_of(resp.status().as_u16(), www) else {
                return Ok(resp);
            };
            if flows == MAX_FLOWS_PER_REQUEST {
                let what = format!(
                    "HTTP {} after {flows} flows: {}",
                    resp.status(),
                    www.unwrap_or("")
                );
                return Err(Error::Authorization(if challenge.is_insufficient_scope() {
                    AuthError::InsufficientScope(what)
                } else {
                    AuthError::Rejected(what)
                }));
            }
            flows += 1;
            let outcome = auth
                .handle_challenge_via(
                    &self.http,
                    &self.endpoint.to_string(),
                    &challenge,
                    sent_token.as_deref(),
                )
                .await;
            if let Err(e) = outcome {
                self.auth_failed.store(true, Ordering::SeqCst);
                return Err(Error::Authorization(e));
            }
        }
    }

    /// `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` for one message.
    fn mcp_headers(&self, msg: &Value) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let Some(method) = msg.get("method").and_then(Value::as_str) else {
            return out;
        };
        out.push(("mcp-method".into(), encode_header_value(method)));
        let params = msg.get("params").unwrap_or(&Value::Null);
        let name_key = match method {
            "tools/call" | "prompts/get" => Some("name"),
            "resources/read" => Some("uri"),
            "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
            _ => None,
        };
        if let Some(name) = name_key.and_then(|k| params.get(k)).and_then(Value::as_str) {
            out.push(("mcp-name".into(), encode_header_value(name)));
        }
        if method == "tools/call"
            && let Some(tool) = params.get("name").and_then(Value::as_str)
        {
            let args = params.get("arguments").unwrap_or(&Value::Null);
            if let Some(hp) = self.tool_headers.lock().get(tool) {
                for p in hp {
                    match p.value_in(args) {
                        Ok(Some(v)) => out.push((p.header_name(), v)),
                        Ok(None) => {}
                        Err(e) => tracing::warn!("http client: tool {tool}: {e}; header omitted"),
                    }
                }
            }
        }
        out
    }

    /// Reads a tools/list result: records each tool's `x-mcp-header` parameters and drops the tools
    /// whose annotations break the rules (with a warning), returning the rewritten message.
    fn filter_tools(&self, frame: &[u8]) -> Option<Vec<u8>> {
        let mut msg: Value = serde_json::from_slice(frame).ok()?;
        let tools = msg.get_mut("result")?.get_mut("tools")?.as_array_mut()?;
        let mut map = self.tool_headers.lock();
        let before = tools.len();
        tools.retain(|t| {
            let name = t.get("name").and_then(Value::as_str).unwrap_or("");
            let schema = t.get("inputSchema").unwrap_or(&Value::Null);
            match x_mcp_header_params(schema) {
                Ok(params) => {
                    map.insert(name.to_owned(), params);
                    true
                }
                Err(e) => {
                    tracing::warn!("http client: dropping tool {name:?} from tools/list: {e}");
                    map.remove(name);
                    false
                }
            }
        });
        (tools.len() != before).then(|| msg.to_string().into_bytes())
    }

    /// Waits, at most `limit`, until every message queued so far has been handed to the server: each
    /// notification and response sent to completion, each request's POST started. Closing calls it
    /// first so that, for example, a queued `notifications/initialized` is not lost.
    pub(crate) async fn flush(&self, limit: Duration) {
        let Some(queue) = self
            .queue
            .get()
            .and_then(mpsc::WeakUnboundedSender::upgrade)
        else {
            return;
        };
        let (done, flushed) = oneshot::channel();
        if queue.send(Job::Flush(done)).is_ok() {
            drop(queue);
            let _ = tokio::time::timeout(limit, flushed).await;
        }
    }

    pub(crate) fn abort_all(&self) {
        self.closed.store(true, Ordering::SeqCst);
        for (_, h) in self.inflight.lock().drain() {
            h.abort();
        }
        if let Some(h) = self.get_stream.lock().take() {
            h.abort();
        }
    }

    /// Ends a legacy session with DELETE (a 405 means the server keeps sessions itself).
    pub(crate) async fn delete_session(&self) {
        if self.session.lock().is_none() {
            return;
        }
        if let Ok(req) = self
            .base_request(Method::DELETE, None)
            .body(Full::new(Bytes::new()))
        {
            let _ = tokio::time::timeout(Duration::from_secs(5), self.http.request(req)).await;
        }
        *self.session.lock() = None;
    }
}

/// One entry of the dispatcher's queue.
pub(crate) enum Job {
    /// A message to send.
    Send(Outgoing),
    /// Answered once everything queued before it has been handled.
    Flush(oneshot::Sender<()>),
}

/// The [`Outbound`] the engine writes to: queues messages for the dispatcher, which keeps their
/// order where it matters.
pub(crate) struct HttpOutbound {
    shared: Arc<Shared>,
    queue: mpsc::UnboundedSender<Job>,
}

impl HttpOutbound {
    /// The outbound and its dispatcher task (which ends when the outbound is dropped).
    pub(crate) fn new(shared: Arc<Shared>) -> HttpOutbound {
        let (queue, rx) = mpsc::unbounded_channel();
        let _ = shared.queue.set(queue.downgrade());
        tokio::spawn(dispatch(shared.clone(), rx));
        HttpOutbound { shared, queue }
    }
}

impl Outbound for HttpOutbound {
    fn send(&self, msg: Outgoing) -> bool {
        !self.shared.closed.load(Ordering::SeqCst) && self.queue.send(Job::Send(msg)).is_ok()
    }
}

/// Sends messages in order. Requests run concurrently, each on its own POST; a notification or a
/// response is sent to completion before anything after it, so `notifications/initialized` (and the
/// GET stream it opens) precede the session's first request.
async fn dispatch(shared: Arc<Shared>, mut rx: mpsc::UnboundedReceiver<Job>) {
    while let Some(job) = rx.recv().await {
        let msg = match job {
            Job::Send(msg) => msg,
            Job::Flush(done) => {
                let _ = done.send(());
                continue;
            }
        };
        if shared.closed.load(Ordering::SeqCst) {
            break;
        }
        let Ok(value) = serde_json::from_slice::<Value>(&msg.bytes) else {
            continue;
        };
        let method = value
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if method.as_deref() == Some("notifications/cancelled") {
            // Closing the response stream is what cancels on HTTP; legacy servers are also told.
            let id = value
                .pointer("/params/requestId")
                .and_then(RequestId::from_value);
            if let Some(h) = id.and_then(|id| shared.inflight.lock().remove(&id)) {
                h.abort();
            }
            if shared.era_version().0 == Era::Modern {
                continue;
            }
        }
        let headers = shared.mcp_headers(&value);
        let id = match msg.kind {
            OutKind::Request => value.get("id").and_then(RequestId::from_value),
            _ => None,
        };
        match id {
            Some(id) => {
                let task_shared = shared.clone();
                let task_id = id.clone();
                let handle = tokio::spawn(async move {
                    post(
                        &task_shared,
                        msg.bytes,
                        method,
                        headers,
                        Some(task_id.clone()),
                    )
                    .await;
                    task_shared.inflight.lock().remove(&task_id);
                });
                shared.inflight.lock().insert(id, handle.abort_handle());
            }
            None => {
                let initialized = method.as_deref() == Some("notifications/initialized");
                let sent = tokio::time::timeout(
                    Duration::from_secs(30),
                    post(&shared, msg.bytes, method, headers, None),
                )
                .await;
                if initialized && matches!(sent, Ok(true)) {
                    let opened = open_get_stream(&shared);
                    let _ = tokio::time::timeout(Duration::from_secs(5), opened).await;
                }
            }
        }
    }
}

async fn post(
    shared: &Arc<Shared>,
    body: Vec<u8>,
    method: Option<String>,
    headers: Vec<(String, String)>,
    id: Option<RequestId>,
) -> bool {
    let sse_endpoint = shared.sse_endpoint.lock().clone();
    if let Some(endpoint) = sse_endpoint {
        return legacy_sse::post(shared, &endpoint, body, id).await;
    }
    let is_initialize = method.as_deref() == Some("initialize");
    let body = Bytes::from(body);
    if is_initialize {
        *shared.init_body.lock() = Some(body.clone());
    }
    let mut renewed = false;
    let resp = loop {
        let sent_session = shared.session.lock().clone();
        let resp = match shared
            .send_post(method.as_deref(), &headers, body.clone())
            .await
        {
            Ok(r) => r,
            Err(e) => {
                report(shared, id.as_ref(), e);
                return false;
            }
        };
        // Streamable HTTP, session management (2025-11-25): a 404 to a request that carried a session
        // id means the session is gone, and the client must start a new one with a fresh initialize.
        // The request is then sent once more, in the new session.
        match sent_session {
            Some(lost)
                if resp.status() == StatusCode::NOT_FOUND
                    && id.is_some()
                    && !is_initialize
                    && !renewed =>
            {
                drop(resp);
                if let Err(why) = renew_session(shared, &lost).await {
                    let why = format!(
                        "the server ended the session (HTTP 404 Not Found) and a new session could not be started: {why}"
                    );
                    report(shared, id.as_ref(), Error::transport(why));
                    return false;
                }
                renewed = true;
            }
            _ => break resp,
        }
    };
    let status = resp.status();
    if is_initialize && legacy_sse::is_fallback_status(status) {
        return legacy_sse::fall_back(shared, body.to_vec(), id, status).await;
    }
    if method.as_deref() == Some("server/discover") {
        shared.probe_status.store(status.as_u16(), Ordering::SeqCst);
    }
    if is_initialize
        && status.is_success()
        && let Some(s) = resp.headers().get(&SESSION_ID)
    {
        *shared.session.lock() = Some(s.clone());
    }
    let is_tools_list = method.as_deref() == Some("tools/list");
    let answered = read_response(shared, resp, id.as_ref(), is_tools_list).await;
    if let (Some(id), Err(why)) = (id.as_ref(), answered) {
        shared.fail(id, Error::transport(why));
    }
    status.is_success()
}

/// Replaces the legacy session `lost` (answered 404) with a new one: the connection's `initialize`
/// again, without a session id, then `notifications/initialized` and the GET stream. Requests that
/// find `lost` gone when their turn comes use the session another request already started.
async fn renew_session(shared: &Arc<Shared>, lost: &HeaderValue) -> Result<(), String> {
    let _one_at_a_time = shared.reinit.lock().await;
    {
        let mut session = shared.session.lock();
        if session.as_ref() != Some(lost) {
            return Ok(());
        }
        *session = None;
    }
    let body = shared
        .init_body
        .lock()
        .clone()
        .ok_or("this connection sent no initialize to repeat")?;
    let init: Value = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
    let resp = shared
        .send_post(Some("initialize"), &shared.mcp_headers(&init), body)
        .await
        .map_err(|e| e.to_string())?;
    let status = resp.status();
    let session = resp.headers().get(&SESSION_ID).cloned();
    let answer = own_answer(resp).await?;
    let agreed = answer
        .pointer("/result/protocolVersion")
        .and_then(Value::as_str);
    let (_, version) = shared.era_version();
    if !status.is_success() || agreed != Some(version.as_str()) {
        let what = answer.get("error").unwrap_or(&answer);
        return Err(format!(
            "initialize was answered HTTP {status}: {}",
            what.to_string().chars().take(200).collect::<String>()
        ));
    }
    *shared.session.lock() = session;
    let note = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let resp = shared
        .send_post(
            Some("notifications/initialized"),
            &shared.mcp_headers(&note),
            Bytes::from(note.to_string()),
        )
        .await
        .map_err(|e| e.to_string())?;
    if !resp.status().is_success() {
        return Err(format!(
            "notifications/initialized was answered HTTP {}",
            resp.status()
        ));
    }
    drop(open_get_stream(shared));
    Ok(())
}

/// The JSON-RPC response in a POST's answer (a JSON body, or the first response on an SSE stream),
/// read here rather than handed to the engine.
async fn own_answer(resp: Response<Incoming>) -> Result<Value, String> {
    let status = resp.status();
    let sse = content_type(&resp).starts_with("text/event-stream");
    let mut body = resp.into_body();
    if !sse {
        let bytes = body
            .collect()
            .await
            .map_err(|e| format!("reading the HTTP response failed: {e}"))?
            .to_bytes();
        return serde_json::from_slice(&bytes).map_err(|_| http_status_message(status, &bytes));
    }
    let mut parser = SseParser::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| format!("reading the HTTP response failed: {e}"))?;
        let Some(chunk) = frame.data_ref() else {
            continue;
        };
        for ev in parser.feed(chunk) {
            if let Ok(msg) = serde_json::from_str::<Value>(&ev.data)
                && msg.get("method").is_none()
                && (msg.get("result").is_some() || msg.get("error").is_some())
            {
                return Ok(msg);
            }
        }
    }
    Err(format!(
        "HTTP {status}: the stream ended without a response"
    ))
}

/// Logs a failure of a message that has no id, or fails the request that has one.
fn report(shared: &Shared, id: Option<&RequestId>, error: Error) {
    match id {
        Some(id) => shared.fail(id, error),
        None => tracing::warn!("http client: {error}"),
    }
}

fn content_type(resp: &Response<Incoming>) -> String {
    resp.headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Reads the answer to one POST. `Ok` when the request (if any) got its response, `Err(reason)` when
/// the transport has to fail it.
async fn read_response(
    shared: &Arc<Shared>,
    resp: Response<Incoming>,
    id: Option<&RequestId>,
    is_tools_list: bool,
) -> Result<(), String> {
    let status = resp.status();
    let ctype = content_type(&resp);
    if status.is_success() && ctype.starts_with("text/event-stream") {
        return read_sse_answer(shared, resp, id, is_tools_list).await;
    }
    let body = match resp.into_body().collect().await {
        Ok(b) => b.to_bytes(),
        Err(e) => return Err(format!("reading the HTTP response failed: {e}")),
    };
    if id.is_none() {
        if !status.is_success() {
            tracing::warn!(
                "http client: the server refused a message with HTTP {status}: {}",
                String::from_utf8_lossy(&body)
            );
        }
        return Ok(());
    }
    let id = id.expect("checked above");
    let parsed: Option<Value> = serde_json::from_slice(&body).ok();
    match parsed {
        // Only a JSON-RPC response answers the request: an OAuth error body (`{"error": "..."}` on a
        // 401/403) is an HTTP failure, reported with its status.
        Some(mut msg)
            if msg.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
                && (msg.get("result").is_some()
                    || msg.get("error").is_some_and(Value::is_object)) =>
        {
            // An error in the answer to this POST answers this request whatever its id says: servers
            // answer transport-level failures with no id, or (Python SDK 1.x) `"id": "server-error"`
            // on a 4xx.
            if msg.get("error").is_some()
                && (!status.is_success() || msg.get("id").is_none_or(Value::is_null))
            {
                msg["id"] = id.to_value();
            }
            let bytes = msg.to_string().into_bytes();
            let bytes = if is_tools_list {
                shared.filter_tools(&bytes).unwrap_or(bytes)
            } else {
                bytes
            };
            shared.deliver(&bytes);
            Ok(())
        }
        _ if status.is_success() => Err(format!(
            "HTTP {status} without a JSON-RPC response (content-type {ctype:?})"
        )),
        _ => Err(http_status_message(status, &body)),
    }
}

pub(super) fn http_status_message(status: StatusCode, body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if text.is_empty() {
        format!("HTTP {status}")
    } else {
        format!(
            "HTTP {status}: {}",
            text.chars().take(200).collect::<String>()
        )
    }
}

/// Outcome of reading one SSE stream.
enum StreamEnd {
    /// The awaited response arrived.
    Answered,
    /// The stream ended first.
    Ended,
}

/// Reads SSE events, delivering each message. Stops after the response to `id`.
async fn pump_sse(
    shared: &Arc<Shared>,
    resp: Response<Incoming>,
    parser: &mut SseParser,
    id: Option<&RequestId>,
    is_tools_list: bool,
) -> StreamEnd {
    let mut body = resp.into_body();
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else {
            break;
        };
        let Some(chunk) = frame.data_ref() else {
            continue;
        };
        for ev in parser.feed(chunk) {
            if !(ev.event.is_empty() || ev.event == "message") || ev.data.trim().is_empty() {
                continue;
            }
            let mut bytes = ev.data.into_bytes();
            let answers_us = id.is_some_and(|id| is_response_to(&bytes, id));
            if answers_us && is_tools_list {
                bytes = shared.filter_tools(&bytes).unwrap_or(bytes);
            }
            shared.deliver(&bytes);
            if answers_us {
                return StreamEnd::Answered;
            }
        }
    }
    StreamEnd::Ended
}

fn is_response_to(bytes: &[u8], id: &RequestId) -> bool {
    let Ok(v) = serde_json::from_slice::<Value>(bytes) else {
        return false;
    };
    v.get("method").is_none() && v.get("id").and_then(RequestId::from_value).as_ref() == Some(id)
}

/// Reads a POST's SSE answer; in the legacy era a stream that ends before the response is resumed with
/// GET + `Last-Event-ID` after the server's `retry:` delay.
async fn read_sse_answer(
    shared: &Arc<Shared>,
    resp: Response<Incoming>,
    id: Option<&RequestId>,
    is_tools_list: bool,
) -> Result<(), String> {
    let mut parser = SseParser::new();
    if let StreamEnd::Answered = pump_sse(shared, resp, &mut parser, id, is_tools_list).await {
        return Ok(());
    }
    if id.is_none() {
        return Ok(());
    }
    for _ in 0..MAX_RESUMES {
        let legacy = shared.era_version().0 == Era::Legacy;
        let Some(last) = parser.last_event_id.clone().filter(|_| legacy) else {
            return Err("the response stream ended before the response".into());
        };
        tokio::time::sleep(parser.retry_ms.map_or(DEFAULT_RETRY, Duration::from_millis)).await;
        let resp = match get_stream(shared, Some(&last)).await {
            Ok(r) => r,
            Err(e) => return Err(format!("resuming the response stream failed: {e}")),
        };
        if let StreamEnd::Answered = pump_sse(shared, resp, &mut parser, id, is_tools_list).await {
            return Ok(());
        }
    }
    Err("the response stream kept ending before the response".into())
}

/// GET on the endpoint for an SSE stream (legacy), optionally resuming after `last_event_id`.
async fn get_stream(
    shared: &Arc<Shared>,
    last_event_id: Option<&str>,
) -> Result<Response<Incoming>, String> {
    let mut b = shared.base_request(Method::GET, None);
    if let Some(last) = last_event_id {
        b = b.header("last-event-id", last);
    }
    let req = b.body(Full::new(Bytes::new())).map_err(|e| e.to_string())?;
    let resp = shared.http.request(req).await.map_err(|e| describe(&e))?;
    let status = resp.status();
    if status.is_success() && content_type(&resp).starts_with("text/event-stream") {
        Ok(resp)
    } else {
        Err(format!("HTTP {status}"))
    }
}

/// Opens the legacy session's GET stream for server-initiated messages, reconnecting (with
/// `Last-Event-ID`, after `retry:`) when the server closes it. A 405 means the server offers none.
/// The returned receiver resolves once the first GET has its answer.
fn open_get_stream(shared: &Arc<Shared>) -> oneshot::Receiver<()> {
    let (opened_tx, opened) = oneshot::channel();
    // An HTTP+SSE session already has its one stream.
    if shared.era_version().0 != Era::Legacy
        || shared.closed.load(Ordering::SeqCst)
        || shared.sse_endpoint.lock().is_some()
    {
        return opened;
    }
    let task_shared = shared.clone();
    let handle = tokio::spawn(async move {
        let shared = task_shared;
        let mut parser = SseParser::new();
        let mut failures = 0u32;
        let mut opened_tx = Some(opened_tx);
        // Ends with the client: on close, or once the engine is gone (a client dropped unclosed).
        while !shared.closed.load(Ordering::SeqCst) && shared.conn().is_some() {
            let last = parser.last_event_id.clone();
            let answer = get_stream(&shared, last.as_deref()).await;
            if let Some(tx) = opened_tx.take() {
                let _ = tx.send(());
            }
            match answer {
                Ok(resp) => {
                    failures = 0;
                    pump_sse(&shared, resp, &mut parser, None, false).await;
                }
                Err(e) => {
                    if e.starts_with("HTTP 405") || failures >= MAX_RESUMES {
                        return;
                    }
                    failures += 1;
                }
            }
            tokio::time::sleep(parser.retry_ms.map_or(DEFAULT_RETRY, Duration::from_millis)).await;
        }
    });
    if let Some(old) = shared.get_stream.lock().replace(handle.abort_handle()) {
        old.abort();
    }
    opened
}
