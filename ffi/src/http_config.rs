//! `mcp_http_server_config`: how the Streamable HTTP server binds, routes and protects itself
//! (`HttpServerConfig`), with one setter per option.

use std::ffi::c_char;
use std::net::SocketAddr;

use libmcp::transport::http::HttpServerConfig;

use crate::config_change::change;
use crate::setting_values::ms;
use crate::status::mcp_status;

/// Options of `mcp_server_serve_http`, starting from safe defaults: bind 127.0.0.1:3000, path
/// "/mcp", legacy sessions on, HTTP+SSE (2024-11-05) off, DNS-rebinding protection on with hosts
/// localhost, 127.0.0.1 and `[::1]`, 4 MiB bodies, 1024 sessions, 30 min idle timeout, 15 s SSE
/// keep-alive. A plain value: use it from one thread at a time; serving copies it.
pub struct mcp_http_server_config {
    pub(crate) config: HttpServerConfig,
    /// Sessions, events and the relay in Redis (`mcp_http_server_config_set_redis`), set up when
    /// serving.
    pub(crate) redis: Option<libmcp::store::redis::RedisStore>,
}

/// Creates a configuration holding the defaults. Free with `mcp_http_server_config_free`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_new(
    config_out: *mut *mut mcp_http_server_config,
) -> mcp_status {
    ffi_boundary!({ new_config(config_out, HttpServerConfig::default()) })
}

/// Creates a configuration for an endpoint mounted in the host's own web server
/// (`mcp_http_endpoint_new`): the defaults of `mcp_http_server_config_new` except the allowed hosts,
/// none here, so that neither `Host` nor `Origin` is checked, because the host (or the proxy in front
/// of it) owns `Host`; names added with `mcp_http_server_config_add_allowed_host` or
/// `_add_allowed_origin` are checked (the engine's rule, the same in Python, Node and Rust). Bind
/// address and path are not used by an endpoint. Free with `mcp_http_server_config_free`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_new_for_mount(
    config_out: *mut *mut mcp_http_server_config,
) -> mcp_status {
    ffi_boundary!({ new_config(config_out, HttpServerConfig::for_mount()) })
}

/// Writes a configuration holding `config` to `*config_out`.
fn new_config(
    config_out: *mut *mut mcp_http_server_config,
    config: HttpServerConfig,
) -> mcp_status {
    try_out!(config_out);
    let c = Box::new(mcp_http_server_config {
        config,
        redis: None,
    });
    unsafe { *config_out = Box::into_raw(c) };
    mcp_status::MCP_STATUS_OK
}

impl mcp_http_server_config {
    /// The engine configuration of `config` (NULL: `default`), with the Redis stores and relay of
    /// `mcp_http_server_config_set_redis` set up; connecting to Redis needs a runtime, so this runs
    /// on one. A Redis that does not answer is the error, as text.
    pub(crate) fn prepare(
        config: *const mcp_http_server_config,
        default: HttpServerConfig,
    ) -> impl std::future::Future<Output = Result<HttpServerConfig, String>> + Send + 'static {
        let (mut config, redis) = match unsafe { config.as_ref() } {
            Some(c) => (c.config.clone(), c.redis.clone()),
            None => (default, None),
        };
        async move {
            if let Some(redis) = redis {
                redis.configure(&mut config);
                config.relay = Some(redis.relay().await.map_err(|e| e.to_string())?);
            }
            Ok(config)
        }
    }
}

/// Frees a configuration. NULL is ignored.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_free(config: *mut mcp_http_server_config) {
    ffi_boundary!((), {
        if !config.is_null() {
            drop(unsafe { Box::from_raw(config) });
        }
    })
}

/// Sets the address to listen on, `"IP:PORT"` (UTF-8, e.g. "127.0.0.1:0"; port 0 picks a free port,
/// see `mcp_http_server_local_addr`; IPv6 as `"[::1]:8080"`). Also turns DNS-rebinding protection on
/// for a loopback address and off for any other (set the allowed hosts and call
/// `mcp_http_server_config_set_dns_rebinding_protection` afterwards to protect a public address).
/// Text that is not an address is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_bind(
    config: *mut mcp_http_server_config,
    addr: *const c_char,
    addr_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let Ok(addr) = try_str!(addr, addr_len).parse::<SocketAddr>() else {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        };
        c.config.bind = addr;
        c.config.dns_rebinding_protection = addr.ip().is_loopback();
        mcp_status::MCP_STATUS_OK
    })
}

/// Sets the one MCP endpoint path (default "/mcp"); it must start with `/` and hold no `?`, `#` or
/// space, else `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_path(
    config: *mut mcp_http_server_config,
    path: *const c_char,
    path_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let path = try_str!(path, path_len);
        change(&mut try_mut!(config).config, |c| c.path = path.into())
    })
}

/// Serves legacy (2025-03-26 .. 2025-11-25) sessions on the same endpoint (`initialize`,
/// `Mcp-Session-Id`, GET and DELETE); default on. When off, GET and DELETE get 405.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_legacy_sessions(
    config: *mut mcp_http_server_config,
    on: bool,
) -> mcp_status {
    ffi_boundary!({
        try_mut!(config).config.legacy_sessions = on;
        mcp_status::MCP_STATUS_OK
    })
}

/// Serves a POST carrying neither a session, `_meta` nor a version header as 2025-03-26, statelessly
/// (default off: such a POST gets 400).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_assume_2025_03_26(
    config: *mut mcp_http_server_config,
    on: bool,
) -> mcp_status {
    ffi_boundary!({
        try_mut!(config).config.assume_2025_03_26 = on;
        mcp_status::MCP_STATUS_OK
    })
}

/// Also serves the 2024-11-05 HTTP+SSE transport (default off): GET `sse_path` opens a session's event
/// stream and the client POSTs to `messages_path`. Both paths follow the rules of
/// `mcp_http_server_config_set_path`; NULL with length 0 keeps the current one ("/sse", "/messages").
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_http_sse(
    config: *mut mcp_http_server_config,
    on: bool,
    sse_path: *const c_char,
    sse_path_len: usize,
    messages_path: *const c_char,
    messages_path_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let sse = try_str!(sse_path, sse_path_len);
        let messages = try_str!(messages_path, messages_path_len);
        change(&mut try_mut!(config).config, |c| {
            c.http_sse = on;
            if !sse.is_empty() {
                c.sse_path = sse.into();
            }
            if !messages.is_empty() {
                c.messages_path = messages.into();
            }
        })
    })
}

/// Checks `Host` and `Origin` against the allowed hosts and origins (DNS-rebinding protection; a
/// foreign host gets 403). Default on.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_dns_rebinding_protection(
    config: *mut mcp_http_server_config,
    on: bool,
) -> mcp_status {
    ffi_boundary!({
        try_mut!(config).config.dns_rebinding_protection = on;
        mcp_status::MCP_STATUS_OK
    })
}

/// Adds a host name (without port, UTF-8, copied) accepted in `Host`, and in `Origin` with any scheme
/// and port. An empty name is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_add_allowed_host(
    config: *mut mcp_http_server_config,
    host: *const c_char,
    host_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let host = try_str!(host, host_len).to_ascii_lowercase();
        change(&mut try_mut!(config).config, |c| c.allowed_hosts.push(host))
    })
}

/// Adds an exact origin (`scheme://host[:port]`, UTF-8, copied) accepted in `Origin`. Text without
/// `://` is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_add_allowed_origin(
    config: *mut mcp_http_server_config,
    origin: *const c_char,
    origin_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let origin = try_str!(origin, origin_len).to_string();
        change(&mut try_mut!(config).config, |c| {
            c.allowed_origins.push(origin)
        })
    })
}

/// Sets the largest accepted request body in bytes (larger ones get 413). 0 is
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_max_body_bytes(
    config: *mut mcp_http_server_config,
    bytes: usize,
) -> mcp_status {
    ffi_boundary!({ change(&mut try_mut!(config).config, |c| c.max_body_bytes = bytes) })
}

/// Sets the largest request head (request line and headers) in bytes, 64 KiB by default; a larger
/// one gets HTTP 431 and its connection is closed. Below 8192 is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_max_header_bytes(
    config: *mut mcp_http_server_config,
    bytes: usize,
) -> mcp_status {
    ffi_boundary!({ change(&mut try_mut!(config).config, |c| c.max_header_bytes = bytes) })
}

/// Sets how many header fields one request may carry, 100 by default; more get HTTP 431 and the
/// connection is closed. 0 is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_max_headers(
    config: *mut mcp_http_server_config,
    headers: usize,
) -> mcp_status {
    ffi_boundary!({ change(&mut try_mut!(config).config, |c| c.max_headers = headers) })
}

/// Sets how many legacy sessions may live at once (`initialize` beyond that gets 503). 0 is
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_max_sessions(
    config: *mut mcp_http_server_config,
    sessions: usize,
) -> mcp_status {
    ffi_boundary!({ change(&mut try_mut!(config).config, |c| c.max_sessions = sessions) })
}

/// Sets after how many milliseconds without a request or open stream a legacy session ends. 0 is
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_session_idle_timeout_ms(
    config: *mut mcp_http_server_config,
    timeout_ms: u64,
) -> mcp_status {
    ffi_boundary!({
        change(&mut try_mut!(config).config, |c| {
            c.session_idle_timeout = ms(timeout_ms)
        })
    })
}

/// Sets the interval of SSE keep-alive comments on open streams, in milliseconds. 0 is
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_sse_keepalive_ms(
    config: *mut mcp_http_server_config,
    interval_ms: u64,
) -> mcp_status {
    ffi_boundary!({
        change(&mut try_mut!(config).config, |c| {
            c.sse_keepalive = ms(interval_ms)
        })
    })
}

/// Requires OAuth 2.1 bearer tokens on every MCP request, checked by `auth`'s callback (see
/// `mcp_resource_server_config_new`), and serves its protected resource metadata (RFC 9728) at
/// `/.well-known/oauth-protected-resource` plus the resource's path. Requests without a valid token
/// get 401 with a `WWW-Authenticate: Bearer` challenge naming the metadata; missing scopes get 403
/// `insufficient_scope`. Handlers read the caller with `mcp_request_auth` and its kin. `auth` is
/// checked and copied here: a resource that is not an absolute http(s) URL, no authorization server,
/// or an invalid scope is `MCP_STATUS_INVALID_ARGUMENT` with the reason in `*error_out` (may be
/// NULL; written only on failure). NULL `auth` turns OAuth off again.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_auth(
    config: *mut mcp_http_server_config,
    auth: *const crate::resource_server::mcp_resource_server_config,
    error_out: *mut *mut crate::error::mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        c.config.auth = match unsafe { auth.as_ref() } {
            None => None,
            Some(a) => match a.build() {
                Ok(built) => Some(built),
                Err(e) => return e.store(error_out),
            },
        };
        mcp_status::MCP_STATUS_OK
    })
}

/// Keeps the server's legacy sessions in a store of the host's (a database, a cache shared by
/// several instances behind one load balancer) through three callbacks, instead of this process's
/// memory: an instance that receives a session it does not run loads its record and serves it
/// (negotiated version, client capabilities and info, log level, subscriptions, principal), every
/// change is saved, DELETE and expiry remove it. Requests in flight, server-to-client requests and
/// open streams stay with the instance that holds them (route by `Mcp-Session-Id` for those). The
/// library owns `userdata` from this call on, also when it fails, and calls `userdata_free`
/// exactly once when the last server and configuration using the store are gone. Any callback NULL
/// is `MCP_STATUS_NULL_PARAMETER`. See `mcp_session_load_cb` for the threads the callbacks run on.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_session_store(
    config: *mut mcp_http_server_config,
    load: crate::session_store::mcp_session_load_cb,
    save: crate::session_store::mcp_session_save_cb,
    remove: crate::session_store::mcp_session_remove_cb,
    userdata: *mut std::ffi::c_void,
    userdata_free: crate::handler::mcp_userdata_free_cb,
) -> mcp_status {
    let userdata = crate::handler::Userdata::new(userdata, userdata_free);
    ffi_boundary!({
        let callbacks = load.zip(save).zip(remove);
        set_store(config, callbacks, |c, ((load, save), remove)| {
            let store = crate::session_store::CSessionStore::new(load, save, remove, userdata);
            c.session_store = std::sync::Arc::new(store);
        })
    })
}

/// Keeps the SSE events of legacy sessions (what a client resuming with `Last-Event-ID` gets again)
/// in a store of the host's through three callbacks, instead of this process's memory: shared by
/// several instances together with a session store (`mcp_http_server_config_set_session_store`), a
/// client resumes on any instance the events already recorded. The library owns `userdata` from
/// this call on, also when it fails, and calls `userdata_free` exactly once when the last server
/// and configuration using the store are gone. Any callback NULL is `MCP_STATUS_NULL_PARAMETER`.
/// See `mcp_event_append_cb` for the threads the callbacks run on (they must not block).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_event_store(
    config: *mut mcp_http_server_config,
    append: crate::event_store::mcp_event_append_cb,
    replay: crate::event_store::mcp_event_replay_cb,
    remove: crate::event_store::mcp_event_remove_cb,
    userdata: *mut std::ffi::c_void,
    userdata_free: crate::handler::mcp_userdata_free_cb,
) -> mcp_status {
    let userdata = crate::handler::Userdata::new(userdata, userdata_free);
    ffi_boundary!({
        let callbacks = append.zip(replay).zip(remove);
        set_store(config, callbacks, |c, ((append, replay), remove)| {
            let store = crate::event_store::CEventStore {
                append,
                replay,
                remove,
                userdata,
            };
            c.event_store = std::sync::Arc::new(store);
        })
    })
}

/// The body of the store setters: every callback given (else `MCP_STATUS_NULL_PARAMETER`), then
/// `install` puts the store built from them on the configuration.
fn set_store<T>(
    config: *mut mcp_http_server_config,
    callbacks: Option<T>,
    install: impl FnOnce(&mut HttpServerConfig, T),
) -> mcp_status {
    let c = try_mut!(config);
    let Some(callbacks) = callbacks else {
        return mcp_status::MCP_STATUS_NULL_PARAMETER;
    };
    install(&mut c.config, callbacks);
    mcp_status::MCP_STATUS_OK
}
