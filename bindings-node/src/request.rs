//! The requests being served by JS handlers. Each invocation is parked in one table under a number;
//! the JS handler gets that number and the request's params (JSON text), and answers through the
//! functions below, which complete the engine's responder exactly once (a result, an error, or
//! input required). A number is a plain JS value, so a request costs no JS object wrapping native
//! memory (and no finalizer) on the way in; the rest of the context is read only when asked for.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};

use libmcp::RpcError;
use libmcp::server::{InputRequired, Reply, RequestContext, Responder};
use napi::bindgen_prelude::Function;
use napi::threadsafe_function::ThreadsafeFunctionCallMode;
use napi_derive::napi;
use parking_lot::Mutex;
use serde_json::{Map, Value, json};
use tokio::sync::oneshot;

use crate::error::{invalid, parse};
use crate::js_strings::{JsStrings, JsText};

/// A request a JS handler has not answered yet.
struct Pending {
    ctx: RequestContext,
    responder: Responder,
    /// Dispatched while this thread fed stdin (see `stdio.rs`): answered from this thread, which
    /// writes stdout itself.
    fed: bool,
    /// Ends the cancellation watcher (if one was started) once the request is answered.
    answered: Option<oneshot::Sender<()>>,
}

/// Unanswered requests by number. Numbers are never reused (a JS number holds 2^53 of them), so
/// a late call with an answered request's number finds nothing instead of another request.
static PENDING: LazyLock<Mutex<HashMap<u64, Pending, Numbers>>> = LazyLock::new(Default::default);

/// Hashes request numbers. They are handed out in order by this module, not chosen by a peer, so
/// the default SipHash (which defends against chosen keys) is not needed: one multiplication
/// spreads them over the table.
#[derive(Default)]
struct NumberHasher(u64);

impl Hasher for NumberHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(self.0 ^ u64::from(*b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Numbers = BuildHasherDefault<NumberHasher>;
static NEXT: AtomicU64 = AtomicU64::new(1);

/// The number of the next request parked (see [`park`]).
pub(crate) fn next_number() -> u64 {
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Parks a request for a JS handler under `id`, from [`next_number`]; `fed` when it was
/// dispatched while this thread fed stdin.
pub(crate) fn park(id: u64, ctx: RequestContext, responder: Responder, fed: bool) {
    PENDING.lock().insert(
        id,
        Pending {
            ctx,
            responder,
            fed,
            answered: None,
        },
    );
}

/// Drops a parked request unanswered (its handler could not be called): the responder answers
/// with an internal error.
pub(crate) fn abandon(id: u64) {
    let pending = PENDING.lock().remove(&id);
    drop(pending);
}

/// The context of a pending request (a cheap clone), if it is still pending.
pub(crate) fn context_of(id: f64) -> Option<RequestContext> {
    PENDING.lock().get(&(id as u64)).map(|p| p.ctx.clone())
}

/// Answers in the order they were given.
type Answers = Vec<(Responder, Reply)>;

thread_local! {
    /// Answers given on the JS thread since the last `requestFlush`, in order: those of requests
    /// fed from stdin, and the others.
    static OUTBOX: RefCell<(Answers, Answers)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// Completes request `id` with `reply` at the next `requestFlush`; `false` if it was answered
/// already (or never existed). Handing the engine every answer of one event-loop turn together
/// costs one write (over stdio, from this thread) or one wake-up of the writer per turn, not one
/// per answer.
pub(crate) fn finish(id: f64, reply: Reply) -> bool {
    let Some(p) = PENDING.lock().remove(&(id as u64)) else {
        return false;
    };
    drop(p.answered);
    OUTBOX
        .with_borrow_mut(|(fed, other)| if p.fed { fed } else { other }.push((p.responder, reply)));
    true
}

/// Hands the answers given since the last call to the engine (the JS layer calls it once per
/// event-loop turn in which it answered, see `lib/server.js`).
#[napi]
pub fn request_flush() {
    let (fed, other) = OUTBOX.with_borrow_mut(std::mem::take);
    if !fed.is_empty() {
        // Answers may start engine work (legacy input rounds spawn tasks and call handlers again,
        // which parks requests: the table is not locked here): give them the runtime. Over stdio
        // the batch is written from this thread with one `write` when the writer is idle.
        napi::bindgen_prelude::within_runtime_if_available(|| {
            libmcp::transport::stdio::batched(|| {
                for (responder, reply) in fed {
                    responder.reply(reply);
                }
            })
        });
    }
    if !other.is_empty() {
        // The others (HTTP, or stdio read by an engine thread) are answered on the runtime: one
        // wake-up of it for the whole batch, where answering here woke it for each connection
        // whose task was asleep.
        let answer = move || {
            for (responder, reply) in other {
                responder.reply(reply);
            }
        };
        napi::bindgen_prelude::within_runtime_if_available(move || {
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => drop(runtime.spawn(async move { answer() })),
                // No runtime (Node is shutting down): answered here.
                Err(_) => answer(),
            }
        });
    }
}

/// The request's params as JSON text and their large strings, absent when there are none (what
/// the JS handler is called with, see `large_strings.rs`).
pub(crate) fn params_json(ctx: &RequestContext) -> (String, Option<Vec<String>>) {
    crate::large_strings::to_json(ctx.params())
}

/// The request's context as one JSON object (what `ctx` shows in JS, besides the params).
fn context_json(ctx: &RequestContext) -> String {
    let era = libmcp::host::era_name(ctx.era());
    let mut o = Map::new();
    o.insert("id".into(), ctx.id().to_value());
    o.insert("method".into(), json!(ctx.method()));
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
        ("taskId", ctx.task_id().map(|t| json!(t))),
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
    if let Some(headers) = headers_json(ctx) {
        o.insert("headers".into(), Value::Object(headers));
        if let Some(id) = ctx.http_session_id() {
            o.insert("sessionId".into(), json!(id));
        }
        if let Some(n) = crate::host_request::host_request(ctx) {
            o.insert("hostRequest".into(), json!(n));
        }
    }
    Value::Object(o).to_string()
}

/// The HTTP request's headers as Node's `IncomingMessage.headers` shows them: names lowercase,
/// the values of a repeated name joined with `, ` (`; ` for `cookie`); a value that is not UTF-8
/// has its invalid bytes replaced. `None` when the request did not come over HTTP.
fn headers_json(ctx: &RequestContext) -> Option<Map<String, Value>> {
    let mut o = Map::new();
    for (name, value) in &ctx.http_request()?.headers {
        let value = String::from_utf8_lossy(value.as_bytes());
        match o.get_mut(name.as_str()) {
            Some(Value::String(s)) => {
                s.push_str(if name == "cookie" { "; " } else { ", " });
                s.push_str(&value);
            }
            _ => {
                o.insert(name.as_str().to_owned(), json!(value));
            }
        }
    }
    Some(o)
}

/// The context of pending request `id`: `{id, method, protocolVersion, era, clientCapabilities,
/// round, clientInfo?, templateVars?, inputResponses?, requestState?, taskId?, auth?}`, and over
/// HTTP `headers`, `sessionId?` (a legacy session's) and `hostRequest?` (see `mount.rs`), as JSON
/// text; `null` once it is answered.
#[napi]
pub fn request_context(id: f64) -> Option<String> {
    context_of(id).map(|ctx| context_json(&ctx))
}

/// Answers request `id` with `{content: [{type: "text", text}]}` at the next `requestFlush`, the
/// result most tools give, without the JSON text `requestReply` takes (no `JSON.stringify` in JS,
/// no parse here); `false` if it was answered already.
#[napi]
pub fn request_reply_text(id: f64, #[napi(ts_arg_type = "string")] text: JsText) -> bool {
    // The binding kit's text fast path (see `tool_result.rs` for the other tool outcomes).
    finish(id, libmcp::host::ToolResult::Text(text.0).into_reply())
}

/// Answers request `id` with a result object (JSON text) at the next `requestFlush`; `false` if
/// it was answered already. `strings` are the result's large strings, written in `result` as the
/// marker of `large_strings.rs` followed by their index.
#[napi]
pub fn request_reply(
    id: f64,
    #[napi(ts_arg_type = "string")] result: JsText,
    #[napi(ts_arg_type = "Array<string> | undefined | null")] strings: Option<JsStrings>,
) -> bool {
    let reply = match serde_json::from_str::<Value>(&result.0) {
        Ok(mut v) => {
            if strings.is_none_or(|strings| crate::large_strings::restore(&mut v, strings.0)) {
                Reply::Result(v)
            } else {
                Reply::Error(RpcError::internal(
                    "a large string of the handler's result was lost on its way to the engine",
                ))
            }
        }
        Err(e) => Reply::Error(RpcError::internal(format!(
            "the handler's result is not JSON: {e}"
        ))),
    };
    finish(id, reply)
}

/// Answers request `id` with a JSON-RPC error; `data` is JSON text.
#[napi]
pub fn request_reply_error(id: f64, code: i32, message: String, data: Option<String>) -> bool {
    let mut err = RpcError::new(code, message);
    if let Some(d) = data.and_then(|d| serde_json::from_str(&d).ok()) {
        err = err.with_data(d);
    }
    finish(id, Reply::Error(err))
}

/// Asks the client for input on behalf of request `id`: `requests` is a JSON object of `{method,
/// params}` input requests keyed by the handler's names, `state` comes back sealed on the retry.
#[napi]
pub fn request_input_required(
    id: f64,
    requests: String,
    state: Option<String>,
) -> napi::Result<bool> {
    let Value::Object(requests) = parse("input requests", &requests)? else {
        return Err(invalid("input requests must be an object keyed by name"));
    };
    Ok(finish(
        id,
        Reply::InputRequired(InputRequired { requests, state }),
    ))
}

/// Runs pending request `id` as a task if it may (a tool with task support, a client that takes
/// tasks, not a task already): the client gets the task at once, and the request's answer given
/// later completes the task. Resolves to the task's id, or `null` when the request stays a plain
/// request (or was answered already).
#[napi]
pub fn request_start_task(id: f64) -> Option<String> {
    let key = id as u64;
    let mut p = PENDING.lock().remove(&key)?;
    if !p.ctx.can_run_as_task() {
        PENDING.lock().insert(key, p);
        return None;
    }
    // Starting stores the task and answers the request with it: engine work, given the runtime.
    p.responder = napi::bindgen_prelude::within_runtime_if_available(|| p.responder.start_task());
    let task = p.ctx.task_id().map(str::to_owned);
    PENDING.lock().insert(key, p);
    task
}

/// Answers request `id` with an internal error if it is still pending: its handler's context was
/// garbage-collected with the request unanswered (a promise that can never settle).
#[napi]
pub fn request_abandoned(id: f64) {
    abandon(id as u64);
}

/// Sends `notifications/progress` for request `id` (when the client asked for progress and the
/// value increases); `false` if not sent.
#[napi]
pub fn request_progress(
    id: f64,
    progress: f64,
    total: Option<f64>,
    message: Option<String>,
) -> bool {
    context_of(id).is_some_and(|ctx| ctx.notify_progress(progress, total, message.as_deref()))
}

/// Sends `notifications/message` at `level` for request `id` if the client asked for it; `data`
/// is JSON text.
#[napi]
pub fn request_log(
    id: f64,
    level: String,
    logger: Option<String>,
    data: String,
) -> napi::Result<bool> {
    let level = serde_json::from_value(json!(level))
        .map_err(|_| invalid(format!("unknown log level {level:?}")))?;
    let data = parse("log data", &data)?;
    Ok(context_of(id).is_some_and(|ctx| ctx.log(level, logger.as_deref(), data)))
}

/// Whether the client of request `id` declared the capability at `path` (e.g. `["elicitation",
/// "url"]`), by the core's rules (a bare `elicitation: {}` means form mode).
#[napi]
pub fn request_has_client_capability(id: f64, path: Vec<String>) -> bool {
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    context_of(id).is_some_and(|ctx| ctx.has_client_capability(&path))
}

/// Closes the stream request `id`'s messages travel on while it keeps running (resumable legacy
/// HTTP sessions: the client reconnects with `Last-Event-ID`); `false` where the transport cannot
/// resume.
#[napi]
pub fn request_close_stream(id: f64) -> bool {
    context_of(id).is_some_and(|ctx| ctx.close_stream())
}

/// The answer under `key` to the form elicitation request `id` asked with `requested_schema` (JSON
/// text), checked by the engine against that schema (`RequestContext::elicitation_answer`), as
/// JSON text; `null` when there is none (or the request is answered). A malformed answer, or
/// accepted content that does not match, throws the -32602 error.
#[napi]
pub fn request_elicitation_answer(
    id: f64,
    key: String,
    requested_schema: String,
) -> napi::Result<Option<String>> {
    let schema = crate::error::parse("requestedSchema", &requested_schema)?;
    let Some(ctx) = context_of(id) else {
        return Ok(None);
    };
    ctx.elicitation_answer(&key, &schema)
        .map(|a| a.map(Value::to_string))
        .map_err(|e| crate::error::engine(libmcp::Error::Rpc(e)))
}

/// Whether the client cancelled request `id` (`false` once it is answered).
#[napi]
pub fn request_cancelled(id: f64) -> bool {
    context_of(id).is_some_and(|ctx| ctx.is_cancelled())
}

/// Calls `callback` once if request `id` is cancelled before it is answered.
#[napi]
pub fn request_on_cancel(id: f64, callback: Function<(), ()>) -> napi::Result<()> {
    let (tx, rx) = oneshot::channel();
    let flag = {
        let mut table = PENDING.lock();
        let Some(p) = table.get_mut(&(id as u64)) else {
            return Ok(());
        };
        p.answered = Some(tx);
        p.ctx.cancel_flag().clone()
    };
    let tsfn = callback
        .build_threadsafe_function::<()>()
        .weak::<true>()
        .callee_handled::<false>()
        .build()?;
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

/// Sends `method` with `params` (JSON text) to the client of legacy request `id` as a request of
/// its own and resolves to the client's result as JSON text (`RequestContext::request_client`:
/// the handler waits for the answer within its run). Rejects with the engine's error: a
/// capability the client did not declare, a request the revision cannot express, the client's
/// error, no answer in time, a 2026-07-28 request, or a request answered already.
#[napi]
pub async fn request_client(
    id: f64,
    method: String,
    params: Option<String>,
) -> napi::Result<String> {
    let Some(ctx) = context_of(id) else {
        return Err(crate::error::engine(libmcp::Error::Rpc(
            libmcp::error::RpcError::internal(format!(
                "{method} cannot be sent: the request was answered already"
            )),
        )));
    };
    let params = params
        .map(|p| crate::error::parse("params", &p))
        .transpose()?;
    ctx.request_client(&method, params)
        .await
        .map(|v| v.to_string())
        .map_err(|e| crate::error::engine(libmcp::Error::Rpc(e)))
}
