//! `mcp_client_builder`: a client's name, version, handlers and settings, and connecting it over
//! stdio (HTTP: `client_http.rs`; the child process's settings: `child.rs`).

use std::ffi::{c_char, c_void};
use std::future::Future;

use libmcp::client::{Client, ClientBuilder, ClientConfig};
use libmcp::transport::child::ChildSpec;
use serde_json::Value;

use crate::client::mcp_client;
use crate::config_change::change;
use crate::error::mcp_error;
use crate::fd_stream::FdStream;
use crate::handler::{Userdata, mcp_userdata_free_cb};
use crate::input::{input_handler, mcp_input_cb};
use crate::runtime::{block_on, mcp_runtime};
use crate::setting_values::ms;
use crate::setting_values::{set_log_level, version_preference};
use crate::status::mcp_status;
use crate::string::{mcp_str, nul_terminated, str_from_raw};

/// Collects a client's name, version, handlers and timeouts. Use it from one thread at a time;
/// connecting consumes its contents; free the handle afterwards either way.
pub struct mcp_client_builder {
    pub(crate) inner: Option<ClientBuilder>,
    pub(crate) config: ClientConfig,
    pub(crate) http: crate::client_http_settings::HttpSettings,
    /// Where a child server's stderr goes (`mcp_client_builder_set_child_stderr`).
    pub(crate) child_stderr: crate::child_stderr::mcp_child_stderr,
    /// Variables added to the child's environment (`mcp_client_builder_add_child_env`).
    pub(crate) child_env: Vec<(String, String)>,
    /// The child's working directory (`mcp_client_builder_set_child_cwd`).
    pub(crate) child_cwd: Option<std::path::PathBuf>,
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
            child_stderr: crate::child_stderr::mcp_child_stderr::MCP_CHILD_STDERR_LOG,
            child_env: Vec::new(),
            child_cwd: None,
        });
        unsafe { *builder_out = Box::into_raw(b) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Sets the idle timeout of each request in milliseconds (progress notifications restart it;
/// default 60000), by the rules of `mcp_client_config_set_timeouts_ms`: 0, or a value above the
/// total timeout (default 600000), is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_set_timeout_ms(
    builder: *mut mcp_client_builder,
    timeout_ms: u64,
) -> mcp_status {
    ffi_boundary!({
        change(&mut try_mut!(builder).config, |c| {
            c.request_timeout = ms(timeout_ms)
        })
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
    ffi_boundary!({ set_log_level(&mut try_mut!(builder).config, level) })
}

/// Pins the protocol version (UTF-8, copied) by the rule of `mcp_client_config_set_version`: a
/// modern-era version ("2026-07-28") skips the legacy fallback; a legacy one ("2025-11-25",
/// "2025-06-18", ...) uses the `initialize` handshake; "auto" (the default) probes with
/// `server/discover` and falls back to `initialize`. A revision libmcp does not know is
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_set_protocol_version(
    builder: *mut mcp_client_builder,
    version: *const c_char,
    version_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        let preference = match version_preference(try_str!(version, version_len)) {
            Ok(p) => p,
            Err(status) => return status,
        };
        crate::builder_slot::update(&mut b.inner, |inner| inner.version_preference(preference))
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
    let h = input_handler(cb, userdata);
    crate::builder_slot::update(&mut b.inner, |inner| match kind {
        InputKind::Elicitation => inner.on_elicitation(h),
        InputKind::Sampling => inner.on_sampling(h),
        InputKind::Roots => inner.on_roots(h),
    })
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
        crate::builder_slot::update(&mut b.inner, |inner| {
            inner.on_notification(move |method: &str, params: &Value| {
                let method = nul_terminated(method);
                let params = nul_terminated(params.to_string());
                unsafe {
                    cb(
                        userdata.ptr(),
                        mcp_str::of_nul_terminated(&method),
                        mcp_str::of_nul_terminated(&params),
                    )
                }
            })
        })
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
        let program = try_str!(program, program_len).to_string();
        let argv = match unsafe { views(args, nargs) } {
            Ok(argv) => argv,
            Err(status) => return status,
        };
        let out = (client_out, error_out);
        connect(builder, runtime, "mcp_client_connect_stdio", out, |b, c| {
            let mut spec = ChildSpec::new(program, argv);
            spec.stderr = crate::child_stderr::sink(b.child_stderr, &spec.program);
            spec.env = b.child_env.clone();
            spec.cwd = b.child_cwd.clone();
            c.connect_stdio(spec)
        })
    })
}

/// Connects over descriptors the host already has, as `mcp_client_builder_connect_stdio` does over a
/// child's pipes: `read_fd` carries the server's messages in, `write_fd` the client's out (the same
/// number twice for a connected socket), newline-delimited JSON. Negotiates the era and writes the
/// client to `*client_out`; blocks until connected. The library owns the descriptors from this call
/// on, also when it fails: it sets `O_NONBLOCK` on them and closes them when the client is closed or
/// freed. A negative descriptor is `MCP_STATUS_INVALID_ARGUMENT` (the reason in `*error_out`); one the reactor cannot watch (a
/// regular file) `MCP_STATUS_IO` with the reason; other failures as for `connect_stdio`, with the reason in
/// `*error_out` (may be NULL; written only on failure). `MCP_STATUS_ALREADY_USED` after a connect.
/// Not from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_connect_fds(
    builder: *mut mcp_client_builder,
    runtime: *const mcp_runtime,
    read_fd: i32,
    write_fd: i32,
    client_out: *mut *mut mcp_client,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    // Owned at once, so every failure below closes them.
    let fds = crate::fd_stream::owned_pair(read_fd, write_fd);
    ffi_boundary!({
        let Some((reader, writer)) = fds else {
            let why = format!(
                "descriptors must be 0 or more (read_fd {read_fd}, write_fd {write_fd}); a duplicate of the read descriptor could not be made when both are the same"
            );
            return mcp_error::new(mcp_status::MCP_STATUS_INVALID_ARGUMENT, why).store(error_out);
        };
        let rt = try_ref!(runtime).rt.clone();
        let streams = {
            // Registration needs the runtime's reactor.
            let _entered = rt.enter();
            FdStream::new(reader).and_then(|r| Ok((r, FdStream::new(writer)?)))
        };
        let (reader, writer) = match streams {
            Ok(pair) => pair,
            Err(e) => {
                let why = format!("the reactor cannot watch the descriptor: {e}");
                return mcp_error::new(mcp_status::MCP_STATUS_IO, why).store(error_out);
            }
        };
        let out = (client_out, error_out);
        connect(builder, runtime, "mcp_client_connect_fds", out, |_, c| {
            c.connect_io(reader, writer)
        })
    })
}

/// Copies `n` views at `list` (NULL only when `n` is 0).
///
/// # Safety
/// `list` must be NULL or point at `n` views, each valid as `str_from_raw` requires.
pub(crate) unsafe fn views(list: *const mcp_str, n: usize) -> Result<Vec<String>, mcp_status> {
    if list.is_null() {
        return if n == 0 {
            Ok(Vec::new())
        } else {
            Err(mcp_status::MCP_STATUS_NULL_PARAMETER)
        };
    }
    (0..n)
        .map(|i| {
            let v = unsafe { *list.add(i) };
            unsafe { str_from_raw(v.data, v.len) }.map(str::to_string)
        })
        .collect()
}

/// The body every `mcp_client_builder_connect_*` shares once its arguments are converted: takes the
/// builder's contents (`MCP_STATUS_ALREADY_USED` when a connect took them before) with its config,
/// runs `open` on the runtime until connected, and stores the client in `*out.0` or the reason in
/// `*out.1`.
pub(crate) fn connect<F, Fut>(
    builder: *mut mcp_client_builder,
    runtime: *const mcp_runtime,
    what: &str,
    (client_out, error_out): (*mut *mut mcp_client, *mut *mut mcp_error),
    open: F,
) -> mcp_status
where
    F: FnOnce(&mcp_client_builder, ClientBuilder) -> Fut,
    Fut: Future<Output = libmcp::Result<Client>> + Send + 'static,
{
    let b = try_mut!(builder);
    let rt = try_ref!(runtime).rt.clone();
    try_out!(client_out);
    let Some(inner) = b.inner.take() else {
        return mcp_status::MCP_STATUS_ALREADY_USED;
    };
    let connecting = open(b, inner.config(b.config.clone()));
    match block_on(&rt, what, connecting) {
        Ok(Ok(client)) => {
            unsafe { *client_out = Box::into_raw(Box::new(mcp_client { client, rt })) };
            mcp_status::MCP_STATUS_OK
        }
        Ok(Err(e)) => mcp_error::from_engine(&e).store(error_out),
        Err(e) => e.store(error_out),
    }
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
