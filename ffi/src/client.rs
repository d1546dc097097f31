//! `mcp_client_builder` and `mcp_client`: connecting to a server over stdio and calling it, blocking
//! or with a completion callback.

use std::ffi::{c_char, c_void};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use libmcp::client::{CallOptions, Client, ClientBuilder, ClientConfig, VersionPreference};
use libmcp::transport::child::ChildSpec;
use libmcp::{Era, ProtocolVersion};
use serde_json::{Value, json};

use crate::error::mcp_error;
use crate::handler::{Userdata, mcp_userdata_free_cb};
use crate::input::{input_handler, mcp_input_cb};
use crate::request::mcp_era;
use crate::runtime::{block_on, mcp_runtime};
use crate::status::mcp_status;
use crate::string::{mcp_str, mcp_string, nul_terminated, str_from_raw};

/// Collects a client's name, version, handlers and timeouts. Use it from one thread at a time;
/// connecting consumes its contents; free the handle afterwards either way.
pub struct mcp_client_builder {
    pub(crate) inner: Option<ClientBuilder>,
    pub(crate) config: ClientConfig,
    pub(crate) http: crate::client_tls::HttpSettings,
    /// Where a child server's stderr goes (`mcp_client_builder_set_child_stderr`).
    pub(crate) child_stderr: crate::child::mcp_child_stderr,
    /// Variables added to the child's environment (`mcp_client_builder_add_child_env`).
    pub(crate) child_env: Vec<(String, String)>,
    /// The child's working directory (`mcp_client_builder_set_child_cwd`).
    pub(crate) child_cwd: Option<std::path::PathBuf>,
}

/// A connected client. Calls may be made from any thread, also concurrently, except from the
/// library's own callbacks (blocking calls there would stall the runtime).
pub struct mcp_client {
    pub(crate) client: Client,
    pub(crate) rt: Arc<crate::runtime::Runtime>,
}

/// Creates a client builder (`name`, `version` UTF-8, copied). Free with `mcp_client_builder_free`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_new(
    name: *const c_char,
    name_len: usize,
    version: *const c_char,
    version_len: usize,
    builder_out: *mut *mut mcp_client_builder,
) -> mcp_status {
    ffi_boundary!({
        let name = try_str!(name, name_len);
        let version = try_str!(version, version_len);
        try_out!(builder_out);
        let b = Box::new(mcp_client_builder {
            inner: Some(Client::builder(name, version)),
            config: ClientConfig::default(),
            http: Default::default(),
            child_stderr: crate::child::mcp_child_stderr::MCP_CHILD_STDERR_LOG,
            child_env: Vec::new(),
            child_cwd: None,
        });
        unsafe { *builder_out = Box::into_raw(b) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Sets the idle timeout of each request in milliseconds (progress notifications restart it;
/// default 60000). 0 is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_set_timeout_ms(
    builder: *mut mcp_client_builder,
    timeout_ms: u64,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        if timeout_ms == 0 {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        b.config.request_timeout = Duration::from_millis(timeout_ms);
        mcp_status::MCP_STATUS_OK
    })
}

/// Asks the server for log messages at `level` (an `mcp_log_level` value) and above: per request in
/// the modern era, with `logging/setLevel` after connecting in the legacy one. Others:
/// `MCP_STATUS_INVALID_ARGUMENT`. Messages arrive through `mcp_client_builder_on_notification`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_set_log_level(
    builder: *mut mcp_client_builder,
    level: u32,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        match crate::responder::log_level(level) {
            Some(l) => {
                b.config.log_level = Some(l);
                mcp_status::MCP_STATUS_OK
            }
            None => mcp_status::MCP_STATUS_INVALID_ARGUMENT,
        }
    })
}

/// Pins the protocol version (UTF-8, copied): a modern-era version ("2026-07-28") skips the legacy
/// fallback; a legacy one ("2025-11-25", "2025-06-18", ...) uses the `initialize` handshake. By
/// default the client probes with `server/discover` and falls back to `initialize`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_set_protocol_version(
    builder: *mut mcp_client_builder,
    version: *const c_char,
    version_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        let version = ProtocolVersion::new(try_str!(version, version_len));
        let Some(inner) = b.inner.take() else {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        };
        let preference = match version.era() {
            Era::Legacy => VersionPreference::Legacy(version),
            _ => VersionPreference::Modern(version),
        };
        b.inner = Some(inner.version_preference(preference));
        mcp_status::MCP_STATUS_OK
    })
}

#[derive(Clone, Copy)]
enum InputKind {
    Elicitation,
    Sampling,
    Roots,
}

fn set_input(
    builder: *mut mcp_client_builder,
    kind: InputKind,
    cb: mcp_input_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    let userdata = Userdata::new(userdata, userdata_free);
    let b = try_mut!(builder);
    let Some(cb) = cb else {
        return mcp_status::MCP_STATUS_NULL_PARAMETER;
    };
    let Some(inner) = b.inner.take() else {
        return mcp_status::MCP_STATUS_ALREADY_USED;
    };
    let h = input_handler(cb, userdata);
    b.inner = Some(match kind {
        InputKind::Elicitation => inner.on_elicitation(h),
        InputKind::Sampling => inner.on_sampling(h),
        InputKind::Roots => inner.on_roots(h),
    });
    mcp_status::MCP_STATUS_OK
}

/// Answers `elicitation/create` with `cb` (declares form elicitation). The library owns `userdata`
/// from this call on, also when it fails, and calls `userdata_free(userdata)` exactly once when it
/// no longer needs it.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_on_elicitation(
    builder: *mut mcp_client_builder,
    cb: mcp_input_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    ffi_boundary!({ set_input(builder, InputKind::Elicitation, cb, userdata, userdata_free) })
}

/// Answers `sampling/createMessage` with `cb` (declares sampling). Ownership as for elicitation.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_on_sampling(
    builder: *mut mcp_client_builder,
    cb: mcp_input_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    ffi_boundary!({ set_input(builder, InputKind::Sampling, cb, userdata, userdata_free) })
}

/// Answers `roots/list` with `cb` (declares roots). Ownership as for elicitation.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_on_roots(
    builder: *mut mcp_client_builder,
    cb: mcp_input_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    ffi_boundary!({ set_input(builder, InputKind::Roots, cb, userdata, userdata_free) })
}

/// Sees a notification from the server (progress, log messages, list changes): `method` and
/// `params_json` are valid only during the call. Called on a runtime thread, one notification at a
/// time, in arrival order. Must not block for long, call the client, or unwind.
pub type mcp_notification_cb =
    Option<unsafe extern "C" fn(userdata: *mut c_void, method: mcp_str, params_json: mcp_str)>;

/// Calls `cb` with every notification the server sends. Ownership of `userdata` as for
/// `mcp_client_builder_on_elicitation`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_on_notification(
    builder: *mut mcp_client_builder,
    cb: mcp_notification_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    ffi_boundary!({
        let userdata = Userdata::new(userdata, userdata_free);
        let b = try_mut!(builder);
        let Some(cb) = cb else {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        };
        let Some(inner) = b.inner.take() else {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        };
        b.inner = Some(inner.on_notification(move |method: &str, params: &Value| {
            let method = nul_terminated(method);
            let params = nul_terminated(params.to_string());
            unsafe {
                cb(
                    userdata.ptr(),
                    mcp_str::of_nul_terminated(&method),
                    mcp_str::of_nul_terminated(&params),
                )
            }
        }));
        mcp_status::MCP_STATUS_OK
    })
}

/// Spawns `program` with `args` (`nargs` views, may be NULL when 0; all copied), connects over its
/// stdin/stdout on `runtime`, negotiates the era, and writes the client to `*client_out`. Blocks
/// until connected. On failure writes the reason to `*error_out` (may be NULL; written only on
/// failure): `MCP_STATUS_IO`/`_TRANSPORT` when the process cannot start or talk,
/// `MCP_STATUS_NEGOTIATION`, `MCP_STATUS_TIMEOUT`. A second call is `MCP_STATUS_ALREADY_USED`. Not
/// from a callback (`MCP_STATUS_WRONG_THREAD` there). Free the client with `mcp_client_free`. The
/// child's stderr lines go where `mcp_client_builder_set_child_stderr` says (by default to the log
/// callback, never to this process's stderr); its environment and working directory are this
/// process's plus what `mcp_client_builder_add_child_env` / `_set_child_cwd` set.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_connect_stdio(
    builder: *mut mcp_client_builder,
    runtime: *const mcp_runtime,
    program: *const c_char,
    program_len: usize,
    args: *const mcp_str,
    nargs: usize,
    client_out: *mut *mut mcp_client,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        let rt = try_ref!(runtime).rt.clone();
        let program = try_str!(program, program_len).to_string();
        try_out!(client_out);
        if args.is_null() && nargs > 0 {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        }
        let mut argv = Vec::with_capacity(nargs);
        for i in 0..nargs {
            let a = unsafe { *args.add(i) };
            match unsafe { str_from_raw(a.data, a.len) } {
                Ok(s) => argv.push(s.to_string()),
                Err(status) => return status,
            }
        }
        let Some(inner) = b.inner.take() else {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        };
        let inner = inner.config(b.config.clone());
        let mut spec = ChildSpec::new(program, argv);
        spec.stderr = crate::child::sink(b.child_stderr, &spec.program);
        spec.env = b.child_env.clone();
        spec.cwd = b.child_cwd.clone();
        match block_on(&rt, "mcp_client_connect_stdio", inner.connect_stdio(spec)) {
            Ok(Ok(client)) => {
                unsafe { *client_out = Box::into_raw(Box::new(mcp_client { client, rt })) };
                mcp_status::MCP_STATUS_OK
            }
            Ok(Err(e)) => mcp_error::from_engine(&e).store(error_out),
            Err(e) => e.store(error_out),
        }
    })
}

/// Frees a client builder (finalizing handler userdata it still holds). NULL is ignored.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_free(builder: *mut mcp_client_builder) {
    ffi_boundary!((), {
        if !builder.is_null() {
            drop(unsafe { Box::from_raw(builder) });
        }
    })
}

/// The era in use; `MCP_ERA_MODERN` for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_era(client: *const mcp_client) -> mcp_era {
    ffi_boundary!(mcp_era::MCP_ERA_MODERN, {
        match unsafe { client.as_ref() }.map(|c| c.client.era()) {
            Some(Era::Legacy) => mcp_era::MCP_ERA_LEGACY,
            _ => mcp_era::MCP_ERA_MODERN,
        }
    })
}

/// What the client learned when it connected, as a JSON object `{"era", "protocolVersion",
/// "supportedVersions", "capabilities", "serverInfo", "instructions"}` written to `*json_out` (free
/// with `mcp_string_free`).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_server_info(
    client: *const mcp_client,
    json_out: *mut *mut mcp_string,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        try_out!(json_out);
        let d = c.client.server();
        let era = match d.era {
            Era::Legacy => "legacy",
            _ => "modern",
        };
        let v = json!({
            "era": era,
            "protocolVersion": d.version.as_str(),
            "supportedVersions": d.supported_versions,
            "capabilities": d.capabilities,
            "serverInfo": d.server_info,
            "instructions": d.instructions,
        });
        unsafe { *json_out = mcp_string::new_raw(v.to_string()) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Runs one client operation to completion and stores its JSON result or its error.
fn run<F, Fut>(
    c: &mcp_client,
    op: F,
    out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status
where
    F: FnOnce(Client) -> Fut,
    Fut: Future<Output = libmcp::Result<Value>> + Send + 'static,
{
    match block_on(&c.rt, "a client call", op(c.client.clone())) {
        Ok(Ok(v)) => {
            unsafe { *out = mcp_string::new_raw(v.to_string()) };
            mcp_status::MCP_STATUS_OK
        }
        Ok(Err(e)) => mcp_error::from_engine(&e).store(error_out),
        Err(e) => e.store(error_out),
    }
}

pub(crate) fn options(timeout_ms: u64) -> CallOptions {
    CallOptions {
        timeout: (timeout_ms > 0).then(|| Duration::from_millis(timeout_ms)),
        on_progress: None,
    }
}

/// Lists every tool (following pagination) and writes the JSON array of tool definitions to
/// `*json_out`. Blocking calls (`mcp_client_list_*`, `_call_tool`, `_read_resource`, `_get_prompt`,
/// `_complete`, `_call`) share one contract: on success the result JSON goes to `*json_out` (free with
/// `mcp_string_free`); on failure the status says why and `*error_out` (may be NULL) gets the details,
/// with code, message and data for `MCP_STATUS_RPC_ERROR`. Not from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_list_tools(
    client: *const mcp_client,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        try_out!(json_out);
        run(
            c,
            |cl| async move { cl.list_all_raw("tools/list").await.map(Value::from) },
            json_out,
            error_out,
        )
    })
}

/// Lists every resource: a JSON array. See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_list_resources(
    client: *const mcp_client,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        try_out!(json_out);
        run(
            c,
            |cl| async move { cl.list_all_raw("resources/list").await.map(Value::from) },
            json_out,
            error_out,
        )
    })
}

/// Lists every resource template: a JSON array. See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_list_resource_templates(
    client: *const mcp_client,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        try_out!(json_out);
        run(
            c,
            |cl| async move {
                cl.list_all_raw("resources/templates/list")
                    .await
                    .map(Value::from)
            },
            json_out,
            error_out,
        )
    })
}

/// Lists every prompt: a JSON array. See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_list_prompts(
    client: *const mcp_client,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        try_out!(json_out);
        run(
            c,
            |cl| async move { cl.list_all_raw("prompts/list").await.map(Value::from) },
            json_out,
            error_out,
        )
    })
}

/// Calls tool `name` with `arguments` (a JSON object; NULL with length 0 means `{}`), fulfilling
/// input requests with the registered handlers; the CallToolResult goes to `*json_out` (a tool error
/// is a success with `"isError": true`). See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_call_tool(
    client: *const mcp_client,
    name: *const c_char,
    name_len: usize,
    arguments: *const c_char,
    arguments_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        let name = try_str!(name, name_len).to_string();
        let args = try_json_or_empty!(arguments, arguments_len);
        try_out!(json_out);
        run(
            c,
            |cl| async move { cl.call_tool_raw(&name, args).await },
            json_out,
            error_out,
        )
    })
}

/// Reads resource `uri`; the ReadResourceResult goes to `*json_out`. See `mcp_client_list_tools`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_read_resource(
    client: *const mcp_client,
    uri: *const c_char,
    uri_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        let uri = try_str!(uri, uri_len).to_string();
        try_out!(json_out);
        run(
            c,
            |cl| async move { cl.read_resource_raw(&uri).await },
            json_out,
            error_out,
        )
    })
}

/// Gets prompt `name` with `arguments` (a JSON object of strings; NULL with length 0 means `{}`); the
/// GetPromptResult goes to `*json_out`. See `mcp_client_list_tools`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_get_prompt(
    client: *const mcp_client,
    name: *const c_char,
    name_len: usize,
    arguments: *const c_char,
    arguments_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        let name = try_str!(name, name_len).to_string();
        let args = try_json_or_empty!(arguments, arguments_len);
        try_out!(json_out);
        run(
            c,
            |cl| async move { cl.get_prompt_raw(&name, args).await },
            json_out,
            error_out,
        )
    })
}

/// Asks for completions of argument `argument` (typed so far: `value`) of `reference` (JSON:
/// `{"type": "ref/prompt", "name": ...}` or `{"type": "ref/resource", "uri": ...}`); the
/// CompleteResult goes to `*json_out`. See `mcp_client_list_tools`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_complete(
    client: *const mcp_client,
    reference: *const c_char,
    reference_len: usize,
    argument: *const c_char,
    argument_len: usize,
    value: *const c_char,
    value_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        let reference = try_json!(reference, reference_len);
        let argument = try_str!(argument, argument_len).to_string();
        let value = try_str!(value, value_len).to_string();
        try_out!(json_out);
        run(
            c,
            |cl| async move { cl.complete_raw(reference, &argument, &value, None).await },
            json_out,
            error_out,
        )
    })
}

/// Sends any request `method` with `params` (a JSON object; NULL with length 0 means `{}`), fulfilling
/// input requests; `timeout_ms` overrides the idle timeout when non-zero. See
/// `mcp_client_list_tools`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_call(
    client: *const mcp_client,
    method: *const c_char,
    method_len: usize,
    params: *const c_char,
    params_len: usize,
    timeout_ms: u64,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        let method = try_str!(method, method_len).to_string();
        let params = try_json_or_empty!(params, params_len);
        try_out!(json_out);
        run(
            c,
            |cl| async move { cl.call(&method, params, &options(timeout_ms)).await },
            json_out,
            error_out,
        )
    })
}

/// Receives the outcome of `mcp_client_call_async` or `mcp_client_call_tool_async`: exactly once, on a
/// runtime thread. On success
/// `status` is `MCP_STATUS_OK`, `result` the JSON result and `error` NULL; on failure `result` is
/// NULL and `error` says why. The callee owns both (free with `mcp_string_free` / `mcp_error_free`).
/// It must not unwind; blocking client calls from it fail with `MCP_STATUS_WRONG_THREAD` (start
/// another call with `mcp_client_call_tool_async`, or hand the work to a thread of your own).
pub type mcp_call_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        status: mcp_status,
        result: *mut mcp_string,
        error: *mut mcp_error,
    ),
>;

/// Sees the progress notifications of one call made with `mcp_client_call_async`: `progress`, then
/// `total` when `has_total`, and `message` (empty when none; valid only during the call). Called on
/// a runtime thread, never concurrently for one call, always before that call's `mcp_call_cb`. Must
/// not unwind.
pub type mcp_progress_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        progress: f64,
        has_total: bool,
        total: f64,
        message: mcp_str,
    ),
>;

/// One call in flight, returned by `mcp_client_call_async` when asked for: lets the caller cancel it.
/// Free it with `mcp_call_free` (which does not cancel). Any thread.
pub struct mcp_call {
    pub(crate) cancel: parking_lot::Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
}

/// Cancels the call: the server is told (`notifications/cancelled`) and the call's `mcp_call_cb` runs
/// with `MCP_STATUS_CANCELLED`, unless the outcome was already on its way. Idempotent. Any thread,
/// also from the call's own callbacks.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_call_cancel(call: *const mcp_call) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(call);
        if let Some(tx) = c.cancel.lock().take() {
            let _ = tx.send(());
        }
        mcp_status::MCP_STATUS_OK
    })
}

/// Frees a call handle without cancelling the call. NULL is ignored. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_call_free(call: *mut mcp_call) {
    ffi_boundary!((), {
        if !call.is_null() {
            drop(unsafe { Box::from_raw(call) });
        }
    })
}

/// Like `mcp_client_call`, but returns at once and delivers the outcome to `cb(userdata, ...)`.
/// When `progress` is not NULL the request asks for progress and each notification reaches
/// `progress(userdata, ...)` (and restarts the idle timeout). Arguments are copied before return.
/// When `call_out` is not NULL, a handle to cancel the call is written there (free it with
/// `mcp_call_free`). When this returns an error status, neither callback is ever called and nothing
/// is written; `userdata` must stay valid until `cb` has run.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_call_async(
    client: *const mcp_client,
    method: *const c_char,
    method_len: usize,
    params: *const c_char,
    params_len: usize,
    timeout_ms: u64,
    progress: mcp_progress_cb,
    cb: mcp_call_cb,
    userdata: *mut c_void,
    call_out: *mut *mut mcp_call,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        let method = try_str!(method, method_len).to_string();
        let params = try_json_or_empty!(params, params_len);
        let Some(cb) = cb else {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        };
        // No finalizer: `userdata` stays the caller's (see above).
        crate::client_async::start_call(
            c,
            timeout_ms,
            progress,
            cb,
            Userdata::new(userdata, None),
            call_out,
            |cl, opts| async move { cl.call(&method, params, &opts).await },
        );
        mcp_status::MCP_STATUS_OK
    })
}

/// Closes the connection: the server's stdin is closed, then the process is stopped. Calls in flight
/// fail with `MCP_STATUS_TRANSPORT`. Idempotent; blocks until the process is gone. Not from a
/// callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_close(client: *const mcp_client) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        let cl = c.client.clone();
        match block_on(&c.rt, "mcp_client_close", async move { cl.close().await }) {
            Ok(()) => mcp_status::MCP_STATUS_OK,
            Err(e) => e.status(),
        }
    })
}

/// Closes (see `mcp_client_close`) and frees the client. NULL is ignored. Not from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_free(client: *mut mcp_client) {
    ffi_boundary!((), {
        if client.is_null() {
            return;
        }
        let c = unsafe { Box::from_raw(client) };
        let cl = c.client;
        let close = async move {
            cl.close().await;
            drop(cl);
        };
        if crate::runtime::wrong_thread("mcp_client_free").is_some() {
            // From a callback: closing cannot be waited for here, so it finishes on its own.
            c.rt.spawn(close);
            return;
        }
        let _ = block_on(&c.rt, "mcp_client_free", close);
    })
}
