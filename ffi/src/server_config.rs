//! `mcp_server_config`: the tunables of a server (`ServerConfig`), the revisions it serves and the key
//! that seals `requestState`, applied to a builder with `mcp_server_builder_set_config`.

use std::ffi::c_char;

use libmcp::ProtocolVersion;
use libmcp::server::{CacheScope, ServerConfig};

use crate::config_change::change;
use crate::server::mcp_server_builder;
use crate::setting_values::ms;
use crate::status::mcp_status;

/// Server tunables with safe defaults (100 items per page, 8 MiB messages, 10 input rounds, 600 s
/// request-state lifetime, 300 s for a client to answer a legacy server-to-client request, 10 s
/// shutdown grace, results not cacheable). A plain value: use it from one thread at a time; applying
/// it copies it, so it may be freed or changed afterwards.
pub struct mcp_server_config {
    pub(crate) config: ServerConfig,
    pub(crate) versions: Vec<ProtocolVersion>,
    pub(crate) state_key: Option<[u8; 32]>,
}

/// Creates a configuration holding the defaults. Free with `mcp_server_config_free`. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_new(config_out: *mut *mut mcp_server_config) -> mcp_status {
    ffi_boundary!({
        try_out!(config_out);
        let c = Box::new(mcp_server_config {
            config: ServerConfig::default(),
            versions: Vec::new(),
            state_key: None,
        });
        unsafe { *config_out = Box::into_raw(c) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Frees a configuration. NULL is ignored.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_free(config: *mut mcp_server_config) {
    ffi_boundary!((), {
        if !config.is_null() {
            drop(unsafe { Box::from_raw(config) });
        }
    })
}

/// Sets how many items one page of `tools/list` (and the other lists) holds. 0 is
/// `MCP_STATUS_INVALID_ARGUMENT` (nothing changes).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_page_size(
    config: *mut mcp_server_config,
    page_size: usize,
) -> mcp_status {
    ffi_boundary!({ change(&mut try_mut!(config).config, |c| c.page_size = page_size) })
}

/// Sets the largest accepted message in bytes (larger ones get -32600; the connection carries on).
/// 0 is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_max_message_bytes(
    config: *mut mcp_server_config,
    bytes: usize,
) -> mcp_status {
    ffi_boundary!({
        change(&mut try_mut!(config).config, |c| {
            c.max_message_bytes = bytes
        })
    })
}

/// Sets how long a sealed `requestState` stays valid, in milliseconds. 0 is
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_state_ttl_ms(
    config: *mut mcp_server_config,
    ttl_ms: u64,
) -> mcp_status {
    ffi_boundary!({ change(&mut try_mut!(config).config, |c| c.state_ttl = ms(ttl_ms)) })
}

/// Sets how many requests one session (a stdio connection, a legacy HTTP session) may have in
/// flight; a request beyond that gets -32603 with `data.maxInFlight` and the session serves on.
/// 0 is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_max_in_flight(
    config: *mut mcp_server_config,
    requests: usize,
) -> mcp_status {
    ffi_boundary!({ change(&mut try_mut!(config).config, |c| c.max_in_flight = requests) })
}

/// Sets the largest `requestState` a handler may return, in bytes before sealing (default 256 KiB):
/// a larger one fails its request with -32603 naming both sizes, and a client's token longer than
/// the sealing of that many bytes gets -32602 before any decoding. 0 is
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_max_request_state_bytes(
    config: *mut mcp_server_config,
    bytes: usize,
) -> mcp_status {
    ffi_boundary!({
        change(&mut try_mut!(config).config, |c| {
            c.max_request_state_bytes = bytes
        })
    })
}

/// Sets how many input rounds one legacy request may take before it fails. 0 is
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_max_input_rounds(
    config: *mut mcp_server_config,
    rounds: u32,
) -> mcp_status {
    ffi_boundary!({
        change(&mut try_mut!(config).config, |c| {
            c.max_input_rounds = rounds
        })
    })
}

/// Sets the caching hints put on cacheable results (lists, reads, discovery) that carry none of
/// their own: `ttlMs` = `ttl_ms` (0 means "do not reuse") and `cacheScope` "public" when `public_scope`
/// is true, else "private". Cannot fail except on NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_cache(
    config: *mut mcp_server_config,
    ttl_ms: u64,
    public_scope: bool,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        c.config.cache_ttl_ms = ttl_ms;
        c.config.cache_scope = if public_scope {
            CacheScope::Public
        } else {
            CacheScope::Private
        };
        mcp_status::MCP_STATUS_OK
    })
}

/// Sets the longest a handler may take to answer its request, in milliseconds (legacy input rounds
/// included); 0, the default, sets no limit. When it passes first, the engine answers -32603 with
/// `data.handlerTimeoutMs`, cancels the request (callbacks of `mcp_responder_on_cancel` run) and
/// drops the handler's later answer. A request run as a task is answered at once, so the task is
/// not limited. Cannot fail except on NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_handler_timeout_ms(
    config: *mut mcp_server_config,
    timeout_ms: u64,
) -> mcp_status {
    ffi_boundary!({
        change(&mut try_mut!(config).config, |c| {
            c.handler_timeout = (timeout_ms > 0).then(|| ms(timeout_ms))
        })
    })
}

/// Sets how long a legacy server-to-client request (sampling, elicitation, roots) may wait for the
/// client, in milliseconds. 0 is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_client_request_timeout_ms(
    config: *mut mcp_server_config,
    timeout_ms: u64,
) -> mcp_status {
    ffi_boundary!({
        change(&mut try_mut!(config).config, |c| {
            c.client_request_timeout = ms(timeout_ms)
        })
    })
}

/// Sets how long a stdio serve waits for in-flight requests after stdin closes or
/// `mcp_serve_stop`, in milliseconds (0: not at all).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_shutdown_grace_ms(
    config: *mut mcp_server_config,
    grace_ms: u64,
) -> mcp_status {
    ffi_boundary!({
        change(&mut try_mut!(config).config, |c| {
            c.shutdown_grace = ms(grace_ms)
        })
    })
}

/// Adds a protocol revision to serve (UTF-8, copied): once any is added, only the added ones are
/// served (default: every known revision of both eras). A revision libmcp does not know is
/// `MCP_STATUS_INVALID_ARGUMENT`; adding one twice has no further effect.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_add_version(
    config: *mut mcp_server_config,
    version: *const c_char,
    version_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let version = ProtocolVersion::new(try_str!(version, version_len));
        if !version.is_known() {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        if !c.versions.contains(&version) {
            c.versions.push(version);
        }
        mcp_status::MCP_STATUS_OK
    })
}

/// Sets the 32-byte key that seals `requestState` (default: random per server), so that servers
/// behind one load balancer accept each other's states. `key_len` other than 32 is
/// `MCP_STATUS_INVALID_ARGUMENT`. The bytes are copied.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_state_key(
    config: *mut mcp_server_config,
    key: *const u8,
    key_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        if key.is_null() {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        }
        if key_len != 32 {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        let mut k = [0u8; 32];
        k.copy_from_slice(unsafe { std::slice::from_raw_parts(key, 32) });
        c.state_key = Some(k);
        mcp_status::MCP_STATUS_OK
    })
}

/// Applies a copy of `config` to the builder (replacing an earlier one). `MCP_STATUS_ALREADY_USED`
/// after `mcp_server_builder_build`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_set_config(
    builder: *mut mcp_server_builder,
    config: *const mcp_server_config,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(config);
        let b = try_mut!(builder);
        crate::builder_slot::update(&mut b.inner, |mut inner| {
            inner = inner.config(c.config.clone());
            if !c.versions.is_empty() {
                inner = inner.versions(c.versions.clone());
            }
            match c.state_key {
                Some(key) => inner.state_key(key),
                None => inner,
            }
        })
    })
}
