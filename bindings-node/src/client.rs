//! `NativeClient`: a connected core `Client`. Calls return their result as JSON text; each call may
//! carry an id that `cancel` uses (the core then tells the server, `notifications/cancelled`), a
//! timeout, and a progress callback. Input requests from the server go to JS async functions.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use libmcp::client::{CallOptions, Client, ClientBuilder, TaskCall, WireDirection};
use libmcp::model::Task;
use libmcp::skills::SkillEntry;
use libmcp::{Error, RpcError};
use napi::bindgen_prelude::{Function, Promise, PromiseRaw};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::{Env, Status};
use napi_derive::napi;
use parking_lot::Mutex;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::client_options;
use crate::error::{engine, invalid, parse};
use crate::js_strings::{JsStrings, JsText};

/// A JS input handler: called with the request's params as JSON text, resolves to
/// `{"result": ...}` or `{"error": {code, message, data?}}` as JSON text.
type InputFn = ThreadsafeFunction<String, Promise<String>, String, Status, false, true>;

/// A connected client.
#[napi]
pub struct NativeClient {
    client: Client,
    calls: Arc<Mutex<HashMap<u32, oneshot::Sender<()>>>>,
}

fn input_fn(f: &Function<String, Promise<String>>) -> napi::Result<Arc<InputFn>> {
    Ok(Arc::new(
        f.build_threadsafe_function::<String>()
            .weak::<true>()
            .callee_handled::<false>()
            .build()?,
    ))
}

/// Runs a JS input handler and decodes its answer.
async fn run_input(f: Arc<InputFn>, params: Value) -> Result<Value, RpcError> {
    let internal = |e: napi::Error| RpcError::internal(format!("the client's handler failed: {e}"));
    let promise = f
        .call_async_catch(params.to_string())
        .await
        .map_err(internal)?;
    let text = promise.await.map_err(internal)?;
    let mut answer: Value = serde_json::from_str(&text).map_err(RpcError::internal)?;
    if let Some(result) = answer.get_mut("result") {
        return Ok(result.take());
    }
    let e = &answer["error"];
    let mut err = RpcError::new(
        e["code"]
            .as_i64()
            .and_then(|c| i32::try_from(c).ok())
            .unwrap_or(-32603),
        e["message"]
            .as_str()
            .unwrap_or("the client's handler failed"),
    );
    if let Some(d) = e.get("data").filter(|d| !d.is_null()) {
        err = err.with_data(d.clone());
    }
    Err(err)
}

/// Calls JS function `f` with a text from any thread, queued on the JS thread (held weakly: it
/// does not keep the process alive).
fn text_callback(
    f: &Function<String, ()>,
) -> napi::Result<impl Fn(String) + Send + Sync + 'static> {
    let tsfn = f
        .build_threadsafe_function::<String>()
        .weak::<true>()
        .callee_handled::<false>()
        .build()?;
    Ok(move |text: String| {
        tsfn.call(text, ThreadsafeFunctionCallMode::NonBlocking);
    })
}

/// Whether a frame from the server can be a JSON-RPC message: after blanks, it begins an object
/// or an array (a batch). What a server prints on stdout besides its messages (a banner, a log
/// line) does not; telling them apart by the first byte costs no second parse of every message.
fn may_be_message(bytes: &[u8]) -> bool {
    matches!(
        bytes.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'{' | b'[')
    )
}

/// Adds the JS input handlers given to the builder (each declares its capability), the
/// notification callback (called with `{method, params}` as JSON text) and the noise callback
/// (called at once with a line from the server that is not a JSON-RPC message, which the engine
/// then skips).
fn with_handlers(
    mut b: ClientBuilder,
    elicitation: Option<Function<String, Promise<String>>>,
    sampling: Option<Function<String, Promise<String>>>,
    roots: Option<Function<String, Promise<String>>>,
    notification: Option<Function<String, ()>>,
    noise: Option<Function<String, ()>>,
) -> napi::Result<ClientBuilder> {
    if let Some(f) = noise {
        let tell = text_callback(&f)?;
        b = b.on_wire(move |direction, bytes| {
            if direction == WireDirection::Received && !may_be_message(bytes) {
                tell(String::from_utf8_lossy(bytes).trim_end().to_string());
            }
        });
    }
    if let Some(f) = notification {
        let tell = text_callback(&f)?;
        b = b.on_notification(move |method, params| {
            tell(json!({ "method": method, "params": params }).to_string());
        });
    }
    if let Some(f) = elicitation {
        let f = input_fn(&f)?;
        b = b.on_elicitation(move |p| run_input(f.clone(), p));
    }
    if let Some(f) = sampling {
        let f = input_fn(&f)?;
        b = b.on_sampling(move |p| run_input(f.clone(), p));
    }
    if let Some(f) = roots {
        let f = input_fn(&f)?;
        b = b.on_roots(move |p| run_input(f.clone(), p));
    }
    Ok(b)
}

/// Connects a client: `options` (JSON text) has `transport` (`"stdio"` with `command`, `args`,
/// `env`, `cwd`, `stderr`; or `"http"` with `url`, `headers`, `oauth`) plus the client settings of
/// `bindings-node/src/client_options.rs`. `notification` sees every notification from the server;
/// `authorize` is the OAuth user-interaction step (`client_auth.rs`); `noise` sees each line from
/// the server that is not a JSON-RPC message (see `with_handlers`).
// The JS callbacks are separate arguments: each is a JS function the addon holds as its own
// thread-safe function.
#[allow(clippy::too_many_arguments)]
#[napi]
pub fn connect<'env>(
    env: &'env Env,
    options: String,
    elicitation: Option<Function<String, Promise<String>>>,
    sampling: Option<Function<String, Promise<String>>>,
    roots: Option<Function<String, Promise<String>>>,
    notification: Option<Function<String, ()>>,
    authorize: Option<Function<String, Promise<String>>>,
    noise: Option<Function<String, ()>>,
) -> napi::Result<PromiseRaw<'env, NativeClient>> {
    let Value::Object(o) = parse("client options", &options)? else {
        return Err(invalid("client options must be an object"));
    };
    let builder = with_handlers(
        client_options::builder(&o)?,
        elicitation,
        sampling,
        roots,
        notification,
        noise,
    )?;
    let connecting = match o.get("transport").and_then(Value::as_str) {
        Some("stdio") => {
            if authorize.is_some() {
                return Err(invalid("onAuthorize is for HTTP connections (OAuth)"));
            }
            let spec = client_options::child(&o)?;
            Box::pin(async move { builder.connect_stdio(spec).await })
                as std::pin::Pin<Box<dyn std::future::Future<Output = _> + Send>>
        }
        Some("http") => {
            let url = o
                .get("url")
                .and_then(Value::as_str)
                .ok_or_else(|| invalid("url must be a string"))?
                .to_string();
            let http = client_options::http(&o, authorize.as_ref())?;
            Box::pin(async move { builder.connect_http_with(&url, http).await })
        }
        other => return Err(invalid(format!("unknown transport {other:?}"))),
    };
    env.spawn_future(async move {
        let client = connecting.await.map_err(engine)?;
        Ok(NativeClient {
            client,
            calls: Arc::new(Mutex::new(HashMap::new())),
        })
    })
}

/// A string member of call params.
fn member<'a>(p: &'a Value, k: &str) -> napi::Result<&'a str> {
    p.get(k)
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(format!("{k} must be a string")))
}

/// A result of `call`: JSON text, each large string of it written as a marker and given in
/// `strings` (absent when there are none, see `large_strings.rs`).
#[napi(object)]
pub struct CallResult {
    #[napi(ts_type = "string")]
    pub text: JsText,
    #[napi(ts_type = "Array<string>")]
    pub strings: Option<JsStrings>,
}

impl CallResult {
    fn of(value: &Value) -> CallResult {
        let (text, strings) = crate::large_strings::to_json(value);
        CallResult {
            text: JsText(text),
            strings: strings.map(JsStrings),
        }
    }
}

/// Runs one operation of `call`.
async fn run(client: Client, op: String, p: Value, opts: CallOptions) -> libmcp::Result<Value> {
    let args = |p: &Value| p.get("arguments").cloned().unwrap_or_else(|| json!({}));
    let bad = |e: napi::Error| Error::InvalidArgument(e.reason.clone());
    match op.as_str() {
        "tools/call" => {
            client
                .call_tool_raw_with(member(&p, "name").map_err(bad)?, args(&p), &opts)
                .await
        }
        "resources/read" => {
            client
                .read_resource_raw(member(&p, "uri").map_err(bad)?)
                .await
        }
        "prompts/get" => {
            client
                .get_prompt_raw(member(&p, "name").map_err(bad)?, args(&p))
                .await
        }
        "completion/complete" => {
            let argument = &p["argument"];
            client
                .complete_raw(
                    p["ref"].clone(),
                    member(argument, "name").map_err(bad)?,
                    member(argument, "value").map_err(bad)?,
                    p.get("context").and_then(|c| c.get("arguments")).cloned(),
                )
                .await
        }
        "list" => Ok(Value::Array(
            client
                .list_all_raw(member(&p, "method").map_err(bad)?)
                .await?,
        )),
        "call" => {
            let method = member(&p, "method").map_err(bad)?;
            client.call(method, p["params"].clone(), &opts).await
        }
        "request" => {
            let method = member(&p, "method").map_err(bad)?;
            client.request(method, p["params"].clone(), &opts).await
        }
        "ping" => client.ping().await.map(|()| json!({})),
        "skills/list" => {
            let skills = client.list_all_skills().await?;
            serde_json::to_value(skills).map_err(|e| Error::Protocol(e.to_string()))
        }
        "skills/get" => {
            let entry = client.get_skill(member(&p, "uri").map_err(bad)?).await?;
            serde_json::to_value(entry).map_err(|e| Error::Protocol(e.to_string()))
        }
        "skills/read" => {
            let entry: SkillEntry = serde_json::from_value(p["entry"].clone())
                .map_err(|e| Error::InvalidArgument(format!("not a skill entry: {e}")))?;
            let uri = member(&p, "uri").map_err(bad)?;
            let bytes = client.read_skill_file(&entry, uri).await?;
            Ok(json!({ "blob": STANDARD.encode(bytes) }))
        }
        "tasks/call" => {
            let name = member(&p, "name").map_err(bad)?;
            Ok(match client.call_tool_as_task(name, args(&p)).await? {
                TaskCall::Task(t) => json!({ "task": t }),
                TaskCall::Complete(r) => json!({ "result": r }),
            })
        }
        "tasks/get" => {
            let task = client.get_task(member(&p, "taskId").map_err(bad)?).await?;
            serde_json::to_value(task).map_err(|e| Error::Protocol(e.to_string()))
        }
        "tasks/cancel" => client
            .cancel_task(member(&p, "taskId").map_err(bad)?)
            .await
            .map(|()| json!({})),
        "tasks/wait" => {
            let task: Task = serde_json::from_value(p["task"].clone())
                .map_err(|e| Error::InvalidArgument(format!("not a task: {e}")))?;
            let result = client.wait_task(&task).await?;
            serde_json::to_value(result).map_err(|e| Error::Protocol(e.to_string()))
        }
        other => Err(Error::InvalidArgument(format!(
            "unknown operation {other:?}"
        ))),
    }
}

impl NativeClient {
    /// The core client.
    pub(crate) fn client(&self) -> &Client {
        &self.client
    }
}

#[napi]
impl NativeClient {
    /// What the client learned about the server: `{era, protocolVersion, supportedVersions,
    /// capabilities, serverInfo, instructions}` as JSON text (the binding kit's description: every
    /// key present, `null` where the server sent nothing).
    #[napi]
    pub fn server(&self) -> String {
        libmcp::host::server_description(&self.client.server()).to_string()
    }

    /// The process id of a spawned server, while it runs.
    #[napi(getter)]
    pub fn server_pid(&self) -> Option<u32> {
        self.client.server_pid()
    }

    /// Runs `op` (`tools/call`, `resources/read`, `prompts/get`, `completion/complete`, `list`,
    /// `call`, `request`, `ping`; the tasks: `tasks/call` (a tool call offered as a task: `{task}`
    /// or `{result}`), `tasks/get`, `tasks/cancel`, `tasks/wait` (follows `task` to its result);
    /// the skills: `skills/list`, `skills/get`, `skills/read` (a file of `entry`, verified against
    /// it, as `{blob}` base64))
    /// with `params` (JSON text, its large strings in `strings`, see `large_strings.rs`);
    /// resolves to the result as JSON text with its large strings beside it (`{text, strings?}`).
    /// `callId` names the call for `cancel` (0: not cancellable); `timeoutMs` bounds it (progress
    /// resets the idle timeout of `tools/call`, `call` and `request`); `onProgress` receives
    /// `{progress, total?, message?}` as JSON text.
    #[napi(ts_return_type = "Promise<CallResult>")]
    #[allow(clippy::too_many_arguments)]
    pub fn call<'env>(
        &self,
        env: &'env Env,
        op: String,
        #[napi(ts_arg_type = "string")] params: JsText,
        #[napi(ts_arg_type = "Array<string> | undefined | null")] strings: Option<JsStrings>,
        call_id: u32,
        timeout_ms: Option<f64>,
        on_progress: Option<Function<String, ()>>,
    ) -> napi::Result<PromiseRaw<'env, CallResult>> {
        let mut params = parse("params", &params.0)?;
        if let Some(strings) = strings
            && !crate::large_strings::restore(&mut params, strings.0)
        {
            return Err(invalid(
                "a large string of the params was not found in their text",
            ));
        }
        let timeout = match timeout_ms {
            Some(ms) if ms.is_finite() && ms > 0.0 => Some(Duration::from_secs_f64(ms / 1000.0)),
            Some(_) => return Err(invalid("timeout must be a positive number of milliseconds")),
            None => None,
        };
        let mut opts = CallOptions {
            timeout,
            on_progress: None,
        };
        if let Some(f) = on_progress {
            let tsfn = f
                .build_threadsafe_function::<String>()
                .weak::<true>()
                .callee_handled::<false>()
                .build()?;
            opts.on_progress = Some(Arc::new(move |progress, total, message| {
                let p = json!({"progress": progress, "total": total, "message": message});
                tsfn.call(p.to_string(), ThreadsafeFunctionCallMode::NonBlocking);
            }));
        }
        let (cancel, cancelled) = oneshot::channel();
        if call_id != 0 {
            self.calls.lock().insert(call_id, cancel);
        }
        let calls = self.calls.clone();
        let client = self.client.clone();
        env.spawn_future(async move {
            // The core bounds tools/call, call and request itself (progress resets that timeout);
            // the other operations take no options, so the whole call is bounded here.
            let bounded = !matches!(op.as_str(), "tools/call" | "call" | "request");
            let work = run(client, op, params, opts);
            let result = tokio::select! {
                r = async {
                    match timeout {
                        Some(t) if bounded => tokio::time::timeout(t, work)
                            .await
                            .unwrap_or(Err(Error::Timeout(t))),
                        _ => work.await,
                    }
                } => r,
                Ok(()) = cancelled => Err(Error::Cancelled),
            };
            calls.lock().remove(&call_id);
            result.map(|v| CallResult::of(&v)).map_err(engine)
        })
    }

    /// Cancels the call named `callId`, if it is still running.
    #[napi]
    pub fn cancel(&self, call_id: u32) {
        if let Some(c) = self.calls.lock().remove(&call_id) {
            let _ = c.send(());
        }
    }

    /// Closes the connection (a spawned server is stopped and reaped).
    #[napi]
    pub async fn close(&self) {
        self.client.close().await;
    }
}
