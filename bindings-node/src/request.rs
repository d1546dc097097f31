//! One invocation of a JS handler: the request's context as JSON, and the engine's responder behind
//! methods that complete it exactly once (a result, an error, or input required).

use std::sync::Arc;

use libmcp::server::{InputRequired, Reply, RequestContext, Responder};
use libmcp::{Era, RpcError};
use napi::bindgen_prelude::Function;
use napi::threadsafe_function::ThreadsafeFunctionCallMode;
use napi_derive::napi;
use parking_lot::Mutex;
use serde_json::{Map, Value, json};
use tokio::sync::oneshot;

use crate::error::{invalid, parse};

/// A request being served by a JS handler. The JS layer answers it once; an instance collected
/// unanswered answers with an internal error (the engine's responder does that when dropped).
#[napi]
pub struct NativeRequest {
    ctx: RequestContext,
    responder: Mutex<Option<Responder>>,
    /// Ends the cancellation watcher (if one was started) once the request is answered.
    answered: Mutex<Option<oneshot::Sender<()>>>,
}

impl NativeRequest {
    pub(crate) fn new(ctx: RequestContext, responder: Responder) -> Self {
        NativeRequest {
            ctx,
            responder: Mutex::new(Some(responder)),
            answered: Mutex::new(None),
        }
    }

    fn finish(&self, reply: Reply) -> bool {
        let Some(responder) = self.responder.lock().take() else {
            return false;
        };
        self.answered.lock().take();
        // Answers may start engine work (legacy input rounds spawn tasks): give them the runtime.
        napi::bindgen_prelude::within_runtime_if_available(|| responder.reply(reply));
        true
    }
}

/// The request's context as one JSON object (what `ctx` shows in JS).
fn context_json(ctx: &RequestContext) -> String {
    let era = match ctx.era() {
        Era::Modern => "modern",
        Era::Legacy => "legacy",
    };
    let mut o = Map::new();
    o.insert("id".into(), ctx.id().to_value());
    o.insert("method".into(), json!(ctx.method()));
    o.insert("params".into(), ctx.params().clone());
    o.insert(
        "protocolVersion".into(),
        json!(ctx.protocol_version().as_str()),
    );
    o.insert("era".into(), json!(era));
    o.insert(
        "clientCapabilities".into(),
        ctx.client_capabilities().clone(),
    );
    o.insert("round".into(), json!(ctx.round()));
    let optional = [
        ("clientInfo", ctx.client_info().cloned()),
        (
            "templateVars",
            ctx.template_vars().cloned().map(Value::Object),
        ),
        (
            "inputResponses",
            ctx.input_responses().cloned().map(Value::Object),
        ),
        ("requestState", ctx.request_state().map(|s| json!(s))),
        (
            "auth",
            ctx.auth().map(|a| {
                json!({"subject": a.subject, "clientId": a.client_id, "scopes": a.scopes,
                   "expiresAt": a.expires_at, "audience": a.audience, "claims": a.claims})
            }),
        ),
    ];
    for (k, v) in optional {
        if let Some(v) = v {
            o.insert(k.into(), v);
        }
    }
    Value::Object(o).to_string()
}

#[napi]
impl NativeRequest {
    /// The request's context: `{id, method, params, protocolVersion, era, clientCapabilities, round,
    /// clientInfo?, templateVars?, inputResponses?, requestState?, auth?}` as JSON text.
    #[napi]
    pub fn context(&self) -> String {
        context_json(&self.ctx)
    }

    /// Answers with a result object (JSON text); `false` if the request was answered already.
    #[napi]
    pub fn reply(&self, result: String) -> bool {
        let reply = match serde_json::from_str::<Value>(&result) {
            Ok(v) => Reply::Result(v),
            Err(e) => Reply::Error(RpcError::internal(format!(
                "the handler's result is not JSON: {e}"
            ))),
        };
        self.finish(reply)
    }

    /// Answers with a JSON-RPC error; `data` is JSON text.
    #[napi]
    pub fn reply_error(&self, code: i32, message: String, data: Option<String>) -> bool {
        let mut err = RpcError::new(code, message);
        if let Some(d) = data.and_then(|d| serde_json::from_str(&d).ok()) {
            err = err.with_data(d);
        }
        self.finish(Reply::Error(err))
    }

    /// Asks the client for input: `requests` is a JSON object of `{method, params}` input requests
    /// keyed by the handler's names, `state` comes back sealed on the retry.
    #[napi]
    pub fn input_required(&self, requests: String, state: Option<String>) -> napi::Result<bool> {
        let Value::Object(requests) = parse("input requests", &requests)? else {
            return Err(invalid("input requests must be an object keyed by name"));
        };
        Ok(self.finish(Reply::InputRequired(InputRequired { requests, state })))
    }

    /// Sends `notifications/progress` (when the client asked for progress and the value increases).
    #[napi]
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<String>) -> bool {
        self.ctx
            .notify_progress(progress, total, message.as_deref())
    }

    /// Sends `notifications/message` at `level` if the client asked for it; `data` is JSON text.
    #[napi]
    pub fn log(&self, level: String, logger: Option<String>, data: String) -> napi::Result<bool> {
        let level = serde_json::from_value(json!(level))
            .map_err(|_| invalid(format!("unknown log level {level:?}")))?;
        Ok(self
            .ctx
            .log(level, logger.as_deref(), parse("log data", &data)?))
    }

    /// Whether the client declared the capability at `path` (e.g. `["elicitation", "url"]`), by the
    /// core's rules (a bare `elicitation: {}` means form mode).
    #[napi]
    pub fn has_client_capability(&self, path: Vec<String>) -> bool {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        self.ctx.has_client_capability(&path)
    }

    /// Closes the stream this request's messages travel on while it keeps running (resumable
    /// legacy HTTP sessions: the client reconnects with `Last-Event-ID`); `false` where the
    /// transport cannot resume.
    #[napi]
    pub fn close_stream(&self) -> bool {
        self.ctx.close_stream()
    }

    /// Whether the client cancelled the request.
    #[napi(getter)]
    pub fn cancelled(&self) -> bool {
        self.ctx.is_cancelled()
    }

    /// Calls `callback` once if the request is cancelled before it is answered.
    #[napi]
    pub fn on_cancel(&self, callback: Function<(), ()>) -> napi::Result<()> {
        if self.responder.lock().is_none() {
            return Ok(());
        }
        let tsfn = callback
            .build_threadsafe_function::<()>()
            .weak::<true>()
            .callee_handled::<false>()
            .build()?;
        let (tx, rx) = oneshot::channel();
        *self.answered.lock() = Some(tx);
        let flag = self.ctx.cancel_flag().clone();
        let tsfn = Arc::new(tsfn);
        napi::bindgen_prelude::spawn(async move {
            tokio::select! {
                _ = flag.cancelled() => {
                    tsfn.call((), ThreadsafeFunctionCallMode::NonBlocking);
                }
                _ = rx => {}
            }
        });
        Ok(())
    }
}
