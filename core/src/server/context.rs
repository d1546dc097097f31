//! What a handler receives: a [`RequestContext`] describing the request (its accessors and the
//! notifications it may send), and a [`Responder`] it completes exactly once with a [`Reply`] (see
//! `responder`).

use serde_json::{Map, Value, json};

pub use super::cancel::CancelFlag;
pub use super::state::{RequestContext, Responder};

use crate::auth::AuthInfo;
use crate::error::RpcError;
use crate::jsonrpc::{RequestId, encode_notification};
use crate::meta;
use crate::model::logging::LoggingLevel;
use crate::outgoing::{OutKind, Outgoing};
use crate::version::{Era, ProtocolVersion};

static EMPTY_OBJECT: std::sync::LazyLock<Value> =
    std::sync::LazyLock::new(|| Value::Object(Map::new()));

impl RequestContext {
    /// The JSON-RPC id of the request.
    pub fn id(&self) -> &RequestId {
        &self.0.id
    }

    /// The method (`tools/call`, `resources/read`, ...).
    pub fn method(&self) -> &str {
        &self.0.method
    }

    /// The full params object of the request (including `_meta`).
    pub fn params(&self) -> &Value {
        &self.0.params
    }

    /// `params.arguments`, or `{}` when absent (a missing `arguments` reads as an empty object).
    pub fn arguments(&self) -> &Value {
        self.0.params.get("arguments").unwrap_or(&EMPTY_OBJECT)
    }

    /// `params.name` (tools/call, prompts/get).
    pub fn name(&self) -> Option<&str> {
        self.0.params.get("name").and_then(Value::as_str)
    }

    /// `params.uri` (resources/read).
    pub fn uri(&self) -> Option<&str> {
        self.0.params.get("uri").and_then(Value::as_str)
    }

    /// The variables a resource template matched, for reads routed to a template.
    pub fn template_vars(&self) -> Option<&Map<String, Value>> {
        self.0.template_vars.as_ref()
    }

    /// The request's `_meta` object, if any.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        meta::of(Some(&self.0.params))
    }

    /// The protocol version this request is served under.
    pub fn protocol_version(&self) -> &ProtocolVersion {
        &self.0.version
    }

    /// The era of this request.
    pub fn era(&self) -> Era {
        self.0.version.era()
    }

    /// The client capabilities in force: declared on this request (modern) or at `initialize` (legacy).
    pub fn client_capabilities(&self) -> &Value {
        &self.0.client_capabilities
    }

    /// Whether the client declared the capability at this path, e.g. `["elicitation", "url"]`.
    /// `["elicitation", "form"]` is also true for a bare `elicitation: {}` (form mode is the default).
    pub fn has_client_capability(&self, path: &[&str]) -> bool {
        client_has_capability(&self.0.client_capabilities, path)
    }

    /// The self-reported client implementation, if known.
    pub fn client_info(&self) -> Option<&Value> {
        self.0.client_info.as_ref()
    }

    /// The progress token of the request, if the client asked for progress.
    pub fn progress_token(&self) -> Option<&Value> {
        self.meta()?.get(meta::PROGRESS_TOKEN)
    }

    /// The answers to earlier input requests (MRTR), keyed as the handler asked.
    pub fn input_responses(&self) -> Option<&Map<String, Value>> {
        self.0.input_responses.as_ref()
    }

    /// One answer to an earlier input request.
    pub fn input_response(&self, key: &str) -> Option<&Value> {
        self.0.input_responses.as_ref()?.get(key)
    }

    /// The verified state the handler attached to its last `input_required` answer.
    pub fn request_state(&self) -> Option<&str> {
        self.0.request_state.as_deref()
    }

    /// How many input rounds preceded this invocation (0 on the first).
    pub fn round(&self) -> u32 {
        self.0.round
    }

    /// The verified access token of the request (HTTP with `HttpServerConfig::auth`); `None` when
    /// the transport does not authenticate.
    pub fn auth(&self) -> Option<&AuthInfo> {
        self.0.caller.auth.as_deref()
    }

    /// The head of the HTTP request this message came in (method, URI, headers, and the
    /// extensions the host application's middleware set, e.g. an authenticated principal when the
    /// endpoint is mounted in an axum router); `None` over stdio and for requests that did not come
    /// over HTTP. For a message on a legacy session this is the POST that carried it.
    #[cfg(feature = "http")]
    pub fn http_request(&self) -> Option<&hyper::http::request::Parts> {
        self.0.caller.http.as_deref()
    }

    /// One header of the HTTP request this message came in (name case-insensitive), if present
    /// and valid UTF-8.
    #[cfg(feature = "http")]
    pub fn http_header(&self, name: &str) -> Option<&str> {
        self.http_request()?.headers.get(name)?.to_str().ok()
    }

    /// A value of type `T` the host application attached to the HTTP request (an axum/tower
    /// middleware's `request.extensions_mut().insert(..)`, or `ExchangeRequest::extension`).
    #[cfg(feature = "http")]
    pub fn http_extension<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.http_request()?.extensions.get::<T>()
    }

    /// The legacy session this request belongs to (`Mcp-Session-Id`), if it came over HTTP on one.
    #[cfg(feature = "http")]
    pub fn http_session_id(&self) -> Option<&str> {
        self.http_header("mcp-session-id")
    }

    /// Whether this request may run as a task: a `tools/call` of a tool with task support from a
    /// client that can take one (see [`Responder::start_task`]).
    pub fn can_run_as_task(&self) -> bool {
        self.0.task_offer.is_some() && self.0.task_id.get().is_none()
    }

    /// The id of the task this request runs as, once started.
    pub fn task_id(&self) -> Option<&str> {
        self.0.task_id.get().map(String::as_str)
    }

    /// The cancellation signal of this request (inside a task: set by `tasks/cancel`).
    pub fn cancel_flag(&self) -> &CancelFlag {
        &self.0.cancel
    }

    /// Whether the request was cancelled (the response will be dropped).
    pub fn is_cancelled(&self) -> bool {
        self.0.cancel.is_cancelled()
    }

    /// Sends `notifications/progress` if the client asked for progress. Values that do not strictly
    /// increase are dropped (the spec requires increasing progress). Returns whether it was sent.
    pub fn notify_progress(
        &self,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> bool {
        let Some(token) = self.progress_token() else {
            return false;
        };
        if self.is_cancelled() {
            return false;
        }
        {
            let mut last = self.0.last_progress.lock();
            if last.is_some_and(|l| progress <= l) {
                return false;
            }
            *last = Some(progress);
        }
        let mut params = json!({ "progressToken": token, "progress": progress });
        if let Some(t) = total {
            params["total"] = json!(t);
        }
        if let Some(m) = message {
            params["message"] = json!(m);
        }
        self.send_notification("notifications/progress", params)
    }

    /// Sends `notifications/message` for this request if the client asked for that level: per request
    /// (`_meta` logLevel, modern) or per session (`logging/setLevel`, legacy). Returns whether it was sent.
    pub fn log(&self, level: LoggingLevel, logger: Option<&str>, data: Value) -> bool {
        if self.is_cancelled() {
            return false;
        }
        let threshold = match self.era() {
            Era::Modern => match self.0.log_level {
                Some(l) => l,
                None => return false,
            },
            Era::Legacy => self
                .0
                .session
                .legacy_log_level()
                .unwrap_or(LoggingLevel::Debug),
        };
        if level < threshold {
            return false;
        }
        let mut params = json!({ "level": level.as_str(), "data": data });
        if let Some(l) = logger {
            params["logger"] = json!(l);
        }
        self.send_notification("notifications/message", params)
    }

    /// Closes the response stream this request's messages travel on, while the request keeps
    /// running: on a resumable Streamable HTTP session (2025-11-25) the client reconnects with
    /// `Last-Event-ID` and receives what the handler sends afterwards, the result included
    /// (SEP-1699 polling). Returns `false`, and does nothing, on transports that cannot resume
    /// (stdio, stateless 2026-07-28 requests, batches).
    pub fn close_stream(&self) -> bool {
        self.0.sink.close_stream()
    }

    fn send_notification(&self, method: &str, mut params: Value) -> bool {
        if self.task_id().is_some() {
            // Progress and log notifications are not delivered for tasks (tasks extension).
            return false;
        }
        // What the session's revision cannot carry is not sent (crate::shapes).
        if crate::shapes::notification(self.protocol_version(), method, &mut params).is_err() {
            return false;
        }
        self.0.sink.send(Outgoing {
            kind: OutKind::Notification,
            bytes: encode_notification(method, Some(&params)),
        })
    }
}

/// Whether a capabilities object declares the capability at `path`.
pub(crate) fn client_has_capability(caps: &Value, path: &[&str]) -> bool {
    let mut cur = caps;
    for (i, key) in path.iter().enumerate() {
        match cur.get(key) {
            Some(v) if v.is_object() => cur = v,
            // `elicitation: {}` means form mode only.
            None if i == 1 && path[0] == "elicitation" && *key == "form" => {
                return cur
                    .as_object()
                    .is_some_and(|o| !o.contains_key("url") || o.contains_key("form"));
            }
            _ => return false,
        }
    }
    true
}

/// Input the handler needs from the client before it can finish (MRTR).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InputRequired {
    /// The input requests, keyed by names the handler chooses: `{method, params}` objects whose method is
    /// `elicitation/create`, `sampling/createMessage` or `roots/list`.
    pub requests: Map<String, Value>,
    /// State to get back on the retry. Sealed against tampering by the engine before it leaves the server.
    pub state: Option<String>,
}

impl InputRequired {
    /// No requests yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an `elicitation/create` request in form mode.
    pub fn elicit(mut self, key: &str, message: &str, requested_schema: Value) -> Self {
        self.requests.insert(
            key.into(),
            json!({"method": "elicitation/create", "params": {"mode": "form", "message": message, "requestedSchema": requested_schema}}),
        );
        self
    }

    /// Adds an `elicitation/create` request in URL mode.
    pub fn elicit_url(mut self, key: &str, message: &str, url: &str) -> Self {
        self.requests.insert(
            key.into(),
            json!({"method": "elicitation/create", "params": {"mode": "url", "message": message, "url": url}}),
        );
        self
    }

    /// Adds a `sampling/createMessage` request with the given params.
    pub fn sample(mut self, key: &str, params: Value) -> Self {
        self.requests.insert(
            key.into(),
            json!({"method": "sampling/createMessage", "params": params}),
        );
        self
    }

    /// Adds a `roots/list` request.
    pub fn list_roots(mut self, key: &str) -> Self {
        self.requests
            .insert(key.into(), json!({"method": "roots/list"}));
        self
    }

    /// Attaches state to get back on the retry.
    pub fn with_state(mut self, state: impl Into<String>) -> Self {
        self.state = Some(state.into());
        self
    }
}

/// A handler's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A complete result object (for `tools/call`, a CallToolResult).
    Result(Value),
    /// A protocol error.
    Error(RpcError),
    /// Input is needed first (MRTR; legacy connections get real server-to-client requests).
    InputRequired(InputRequired),
}

impl Reply {
    /// A tool result with one text block.
    pub fn text(text: impl Into<String>) -> Reply {
        Reply::Result(json!({ "content": [{ "type": "text", "text": text.into() }] }))
    }

    /// A tool failure the model can see (`isError: true`), not a protocol error.
    pub fn tool_error(text: impl Into<String>) -> Reply {
        Reply::Result(
            json!({ "content": [{ "type": "text", "text": text.into() }], "isError": true }),
        )
    }
}

/// Typed results of the model become replies through their JSON form.
macro_rules! reply_from_model {
    ($($t:ty),* $(,)?) => {$(
        impl From<$t> for Reply {
            fn from(v: $t) -> Self {
                serde_json::to_value(v).map_or_else(|e| Reply::Error(RpcError::internal(e)), Reply::Result)
            }
        }
    )*};
}

reply_from_model!(
    crate::model::CallToolResult,
    crate::model::GetPromptResult,
    crate::model::ReadResourceResult,
    crate::model::CompleteResult,
);

impl From<Value> for Reply {
    fn from(v: Value) -> Self {
        Reply::Result(v)
    }
}

impl From<RpcError> for Reply {
    fn from(e: RpcError) -> Self {
        Reply::Error(e)
    }
}

impl From<InputRequired> for Reply {
    fn from(i: InputRequired) -> Self {
        Reply::InputRequired(i)
    }
}

impl<T: Into<Reply>, E: Into<Reply>> From<Result<T, E>> for Reply {
    fn from(r: Result<T, E>) -> Self {
        match r {
            Ok(v) => v.into(),
            Err(e) => e.into(),
        }
    }
}
