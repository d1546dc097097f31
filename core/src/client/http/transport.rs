//! The bytes side of the Streamable HTTP client: one POST per outgoing message, JSON or SSE answers fed
//! back to the [`Connection`], the legacy session (`Mcp-Session-Id`, the GET stream, `Last-Event-ID`
//! resumption honouring `retry:`), and the header rules of the 2026-07-28 revision.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{Method, Response, StatusCode};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::legacy_sse;
use super::shared::{Job, SESSION_ID, Shared, http_status_message};
use super::sse::SseParser;
use crate::error::Error;
use crate::jsonrpc::RequestId;
use crate::net::describe;
use crate::transport::{OutKind, Outbound, Outgoing};
use crate::version::Era;

/// How long to wait before reconnecting an SSE stream when the server named no `retry:`.
const DEFAULT_RETRY: Duration = Duration::from_millis(1000);
/// Reconnection attempts for one stream before giving up.
const MAX_RESUMES: u32 = 5;

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
