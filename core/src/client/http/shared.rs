//! The state one HTTP client connection shares between its dispatcher, its streams and the client:
//! the endpoint, the session, the requests in flight, authorization and closing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{HeaderName, HeaderValue, WWW_AUTHENTICATE};
use hyper::{Method, Request, Response, StatusCode, Uri};
use parking_lot::{Mutex, RwLock};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio::task::AbortHandle;

use super::super::connection::Connection;
use super::super::description::ServerDescription;
use crate::auth::client::{
    MAX_FLOWS_PER_REQUEST, OAuthClient, challenge_of, is_dpop_nonce_challenge,
};
use crate::error::{AuthError, Error, TransportError};
use crate::jsonrpc::RequestId;
use crate::names::{HeaderParam, encode_header_value, x_mcp_header_params};
use crate::net::{self, Connector, Http, describe};
use crate::transport::Outgoing;
use crate::version::{Era, ProtocolVersion};

/// Header lookups go through typed names: a `&str` key is lowercased into an uninitialised scratch
/// buffer first, which optimised code compares in wide loads that valgrind reports in C hosts.
pub(super) const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");

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
    pub(super) session: Mutex<Option<HeaderValue>>,
    pub(super) tool_headers: Mutex<HashMap<String, Vec<HeaderParam>>>,
    pub(super) inflight: Mutex<HashMap<RequestId, AbortHandle>>,
    /// The legacy GET stream's reader, or the HTTP+SSE session's stream reader.
    pub(super) get_stream: Mutex<Option<AbortHandle>>,
    /// The message endpoint, once the probe fell back to the 2024-11-05 HTTP+SSE transport.
    pub(super) sse_endpoint: Mutex<Option<Uri>>,
    /// Status of the last `server/discover` answer (the era probe reads it).
    pub(crate) probe_status: AtomicU16,
    pub(super) closed: AtomicBool,
    /// OAuth: the bearer token for every request, and the flow a 401/403 challenge runs.
    pub(super) auth: Option<OAuthClient>,
    /// The dispatcher's queue, weakly: closing asks it to flush without keeping it alive.
    pub(super) queue: OnceLock<mpsc::WeakUnboundedSender<Job>>,
    /// An authorization flow failed (the era probe must not fall back and ask the user again).
    pub(crate) auth_failed: AtomicBool,
    /// The legacy `initialize` message as sent, repeated to start a new session when the server
    /// answers 404 to the old one.
    pub(super) init_body: Mutex<Option<Bytes>>,
    /// Held while a lost session is being replaced, so that concurrent requests start one new session.
    pub(super) reinit: tokio::sync::Mutex<()>,
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

    pub(super) fn era_version(&self) -> (Era, ProtocolVersion) {
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
    pub(super) fn base_request(
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
    pub(super) async fn send_post(
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
    pub(super) fn mcp_headers(&self, msg: &Value) -> Vec<(String, String)> {
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
    pub(super) fn filter_tools(&self, frame: &[u8]) -> Option<Vec<u8>> {
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
