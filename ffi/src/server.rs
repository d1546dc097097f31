//! `mcp_server_builder`, `mcp_server` and `mcp_serve`: registering C handlers and serving stdio.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use libmcp::server::{Server, ServerBuilder};
use parking_lot::{Condvar, Mutex};
use serde_json::Value;

use crate::error::mcp_error;
use crate::handler::{Userdata, handler, mcp_handler_cb, mcp_userdata_free_cb};
use crate::runtime::mcp_runtime;
use crate::status::mcp_status;

/// Collects a server's name, version and handlers. Single-threaded: use it from one thread at a
/// time. `mcp_server_builder_build` consumes its contents; free the handle afterwards either way.
pub struct mcp_server_builder {
    pub(crate) inner: Option<ServerBuilder>,
    /// Joined to the change fan-out once built (`mcp_server_builder_set_redis`).
    pub(crate) redis: Option<crate::redis_shared::SharedRedis>,
}

/// A built server: cheap to serve several times, usable from any thread.
pub struct mcp_server {
    pub(crate) server: Server,
}

/// Creates a builder for a server called `name` at `version` (UTF-8, copied). Free with
/// `mcp_server_builder_free`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_new(
    name: *const c_char,
    name_len: usize,
    version: *const c_char,
    version_len: usize,
    builder_out: *mut *mut mcp_server_builder,
) -> mcp_status {
    ffi_boundary!({
        let name = try_str!(name, name_len);
        let version = try_str!(version, version_len);
        try_out!(builder_out);
        let b = Box::new(mcp_server_builder {
            inner: Some(Server::builder(name, version)),
            redis: None,
        });
        unsafe { *builder_out = Box::into_raw(b) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Sets the instructions sent to clients (UTF-8, copied).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_instructions(
    builder: *mut mcp_server_builder,
    text: *const c_char,
    len: usize,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        let text = try_str!(text, len);
        crate::builder_slot::update(&mut b.inner, |inner| inner.instructions(text))
    })
}

/// What kind of handler a registration adds.
#[derive(Clone, Copy)]
enum Kind {
    Tool,
    Resource,
    Template,
    Prompt,
    Completion,
}

/// Shared body of the registration functions. Takes ownership of `userdata` in every case: on
/// failure `userdata_free` has run by the time this returns.
fn register(
    builder: *mut mcp_server_builder,
    kind: Kind,
    definition: Option<(*const c_char, usize)>,
    cb: mcp_handler_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    let userdata = Userdata::new(userdata, userdata_free);
    let b = try_mut!(builder);
    let Some(cb) = cb else {
        return mcp_status::MCP_STATUS_NULL_PARAMETER;
    };
    let definition = match definition {
        Some((ptr, len)) => {
            let v = try_json!(ptr, len);
            if !v.is_object() {
                return mcp_status::MCP_STATUS_INVALID_JSON;
            }
            v
        }
        None => Value::Null,
    };
    let h = handler(cb, userdata);
    crate::builder_slot::update(&mut b.inner, |inner| match kind {
        Kind::Tool => inner.tool_handler(definition, h),
        Kind::Resource => inner.resource_handler(definition, h),
        Kind::Template => inner.template_handler(definition, h),
        Kind::Prompt => inner.prompt_handler(definition, h),
        Kind::Completion => inner.completion_handler(h),
    })
}

/// Registers a tool: `definition` is its JSON definition (`{"name", "inputSchema", ...}`, copied);
/// `cb` answers `tools/call` for it (see `mcp_handler_cb`; arguments are validated against the input
/// schema before the call). The library owns `userdata` from this call on, also when it fails, and
/// calls `userdata_free(userdata)` exactly once when it no longer needs it. A definition the engine
/// rejects (bad name, bad schema) makes `mcp_server_builder_build` fail with the reason.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_add_tool(
    builder: *mut mcp_server_builder,
    definition: *const c_char,
    definition_len: usize,
    cb: mcp_handler_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    ffi_boundary!({
        let definition = Some((definition, definition_len));
        register(builder, Kind::Tool, definition, cb, userdata, userdata_free)
    })
}

/// Registers a static resource (`{"uri", "name", ...}`); `cb` answers `resources/read` with a
/// ReadResourceResult. Ownership of `userdata` as in `mcp_server_builder_add_tool`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_add_resource(
    builder: *mut mcp_server_builder,
    definition: *const c_char,
    definition_len: usize,
    cb: mcp_handler_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    ffi_boundary!({
        let definition = Some((definition, definition_len));
        register(
            builder,
            Kind::Resource,
            definition,
            cb,
            userdata,
            userdata_free,
        )
    })
}

/// Registers a resource template (`{"uriTemplate", "name", ...}`); `cb` answers `resources/read`
/// for matching URIs (`mcp_request_uri` gives the URI). Ownership of `userdata` as in
/// `mcp_server_builder_add_tool`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_add_template(
    builder: *mut mcp_server_builder,
    definition: *const c_char,
    definition_len: usize,
    cb: mcp_handler_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    ffi_boundary!({
        let definition = Some((definition, definition_len));
        register(
            builder,
            Kind::Template,
            definition,
            cb,
            userdata,
            userdata_free,
        )
    })
}

/// Registers a prompt (`{"name", "arguments": [...], ...}`); `cb` answers `prompts/get` with a
/// GetPromptResult. Ownership of `userdata` as in `mcp_server_builder_add_tool`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_add_prompt(
    builder: *mut mcp_server_builder,
    definition: *const c_char,
    definition_len: usize,
    cb: mcp_handler_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    ffi_boundary!({
        let definition = Some((definition, definition_len));
        register(
            builder,
            Kind::Prompt,
            definition,
            cb,
            userdata,
            userdata_free,
        )
    })
}

/// Sets the `completion/complete` handler (declares the completions capability); `cb` answers with
/// a CompleteResult (`mcp_request_params` holds `ref` and `argument`). Ownership of `userdata` as in
/// `mcp_server_builder_add_tool`; a second call replaces (and finalizes) the first.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_set_completion(
    builder: *mut mcp_server_builder,
    cb: mcp_handler_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    ffi_boundary!({ register(builder, Kind::Completion, None, cb, userdata, userdata_free) })
}

/// Builds the server and writes it to `*server_out`. Fails with `MCP_STATUS_INVALID_ARGUMENT` when a
/// registration was invalid (every reason in the message written to `*error_out`, which may be NULL
/// and is written only on failure) and with `MCP_STATUS_ALREADY_USED` on a second call. With
/// `mcp_server_builder_set_redis`, it also joins the change fan-out (at once, or once Redis answers
/// when it cannot be reached now; not from a callback then). The builder still has to be freed.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_build(
    builder: *mut mcp_server_builder,
    server_out: *mut *mut mcp_server,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        try_out!(server_out);
        let Some(inner) = b.inner.take() else {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        };
        match inner.build() {
            Ok(server) => {
                if let Some(redis) = b.redis.take() {
                    let joining = server.clone();
                    let store = redis.store.clone();
                    let joined = redis.block_on("mcp_server_builder_build", async move {
                        store.fan_out_changes(&joining).await
                    });
                    if let Err(e) = joined {
                        return e.store(error_out);
                    }
                }
                unsafe { *server_out = Box::into_raw(Box::new(mcp_server { server })) };
                mcp_status::MCP_STATUS_OK
            }
            Err(e) => mcp_error::from_engine(&e).store(error_out),
        }
    })
}

/// Frees a builder, finalizing the userdata of handlers it still holds. NULL is ignored.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_free(builder: *mut mcp_server_builder) {
    ffi_boundary!((), {
        if !builder.is_null() {
            drop(unsafe { Box::from_raw(builder) });
        }
    })
}

/// Frees the caller's server handle. Serving sessions keep the server alive until they end; handler
/// userdata is finalized when the last of them goes. NULL is ignored.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_free(server: *mut mcp_server) {
    ffi_boundary!((), {
        if !server.is_null() {
            drop(unsafe { Box::from_raw(server) });
        }
    })
}

/// A running serve (one connection over this process's stdin and stdout, or over descriptors given
/// to `mcp_server_serve_fds`).
pub struct mcp_serve {
    /// Keeps the runtime running while the serve lives.
    _runtime: Arc<crate::runtime::Runtime>,
    stop: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    done: Arc<(Mutex<Option<libmcp::Result<()>>>, Condvar)>,
    waited: Mutex<bool>,
}

/// Where a serve task leaves its outcome, and how `mcp_serve_wait` learns of it.
pub(crate) type ServeDone = Arc<(Mutex<Option<libmcp::Result<()>>>, Condvar)>;

impl mcp_serve {
    /// The handle of a serve task that stops when `stop` fires and reports through `done`.
    pub(crate) fn new(
        runtime: Arc<crate::runtime::Runtime>,
        stop: tokio::sync::oneshot::Sender<()>,
        done: ServeDone,
    ) -> mcp_serve {
        mcp_serve {
            _runtime: runtime,
            stop: Mutex::new(Some(stop)),
            done,
            waited: Mutex::new(false),
        }
    }
}

/// Starts serving `server` over this process's stdin and stdout on `runtime` and writes the running
/// serve to `*serve_out`. Nothing else may write to stdout meanwhile. The serve ends when stdin
/// closes (after in-flight requests finish) or `mcp_serve_stop` is called. Free with
/// `mcp_serve_free`. The server and runtime handles may be freed while it runs.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_serve_stdio(
    server: *const mcp_server,
    runtime: *const mcp_runtime,
    serve_out: *mut *mut mcp_serve,
) -> mcp_status {
    ffi_boundary!({
        let server = try_ref!(server).server.clone();
        let rt = try_ref!(runtime).rt.clone();
        try_out!(serve_out);
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let done = Arc::new((Mutex::new(None), Condvar::new()));
        let finished = done.clone();
        rt.spawn(async move {
            // A stop acts like stdin closing: in-flight requests are still answered.
            let result = server
                .serve_stdio_until(async {
                    let _ = stop_rx.await;
                })
                .await;
            *finished.0.lock() = Some(result);
            finished.1.notify_all();
        });
        let serve = Box::new(mcp_serve::new(rt, stop_tx, done));
        unsafe { *serve_out = Box::into_raw(serve) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Asks the serve to stop; returns at once (use `mcp_serve_wait` to wait). Idempotent. Any thread,
/// also a handler callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_serve_stop(serve: *const mcp_serve) -> mcp_status {
    ffi_boundary!({
        let s = try_ref!(serve);
        if let Some(stop) = s.stop.lock().take() {
            let _ = stop.send(());
        }
        mcp_status::MCP_STATUS_OK
    })
}

/// Blocks until the serve ends. `MCP_STATUS_IO` (with the reason in `*error_out`, which may be NULL)
/// when reading or writing failed; `MCP_STATUS_ALREADY_USED` on a second call. Not from a callback:
/// there it fails at once with `MCP_STATUS_WRONG_THREAD` (the reason in `*error_out`).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_serve_wait(
    serve: *const mcp_serve,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let s = try_ref!(serve);
        if let Some(e) = crate::runtime::wrong_thread("mcp_serve_wait") {
            return e.store(error_out);
        }
        {
            let mut waited = s.waited.lock();
            if *waited {
                return mcp_status::MCP_STATUS_ALREADY_USED;
            }
            *waited = true;
        }
        let mut done = s.done.0.lock();
        while done.is_none() {
            s.done.1.wait(&mut done);
        }
        match done.take() {
            Some(Err(e)) => mcp_error::new(mcp_status::MCP_STATUS_IO, e.detail()).store(error_out),
            _ => mcp_status::MCP_STATUS_OK,
        }
    })
}

/// Stops the serve if it still runs, waits for it to end, and frees it. NULL is ignored. Not from a
/// callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_serve_free(serve: *mut mcp_serve) {
    ffi_boundary!((), {
        if serve.is_null() {
            return;
        }
        let s = unsafe { Box::from_raw(serve) };
        if let Some(stop) = s.stop.lock().take() {
            let _ = stop.send(());
        }
        let mut done = s.done.0.lock();
        while done.is_none() && !*s.waited.lock() {
            s.done.1.wait(&mut done);
        }
        drop(done);
    })
}
