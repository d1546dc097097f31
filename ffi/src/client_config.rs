//! `mcp_client_config`: a client's tunables (`ClientConfig`), version preference, implementation info
//! and optional capabilities, applied to a builder with `mcp_client_builder_set_config`.

use std::ffi::c_char;
use std::time::Duration;

use libmcp::client::{ClientConfig, VersionPreference};
use libmcp::{Era, ProtocolVersion};
use serde_json::{Map, Value};

use crate::client::mcp_client_builder;
use crate::status::mcp_status;

/// Client options with the defaults: 60 s idle timeout per request, 600 s hard limit, 5 s era probe,
/// 10 input rounds, 8 MiB messages, no log level, era probed automatically. A plain value: use it from
/// one thread at a time; applying it copies it.
pub struct mcp_client_config {
    config: ClientConfig,
    preference: Option<VersionPreference>,
    info: Map<String, Value>,
    elicitation_url: bool,
    sampling_tools: bool,
    pub(crate) http: crate::client_tls::HttpSettings,
}

/// Creates a configuration holding the defaults. Free with `mcp_client_config_free`. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_new(config_out: *mut *mut mcp_client_config) -> mcp_status {
    ffi_boundary!({
        try_out!(config_out);
        let c = Box::new(mcp_client_config {
            config: ClientConfig::default(),
            preference: None,
            info: Map::new(),
            elicitation_url: false,
            sampling_tools: false,
            http: Default::default(),
        });
        unsafe { *config_out = Box::into_raw(c) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Frees a configuration. NULL is ignored.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_free(config: *mut mcp_client_config) {
    ffi_boundary!((), {
        if !config.is_null() {
            drop(unsafe { Box::from_raw(config) });
        }
    })
}

/// Sets the timeouts in milliseconds: `request_ms` is the idle timeout of each request (progress
/// restarts it), `total_ms` the hard limit of one request, `probe_ms` how long the `server/discover`
/// probe waits before assuming a legacy server. A zero keeps that value; `request_ms` above `total_ms`
/// (after applying) is `MCP_STATUS_INVALID_ARGUMENT` and changes nothing.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_set_timeouts_ms(
    config: *mut mcp_client_config,
    request_ms: u64,
    total_ms: u64,
    probe_ms: u64,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let mut next = c.config.clone();
        if request_ms > 0 {
            next.request_timeout = Duration::from_millis(request_ms);
        }
        if total_ms > 0 {
            next.max_total_timeout = Duration::from_millis(total_ms);
        }
        if probe_ms > 0 {
            next.probe_timeout = Duration::from_millis(probe_ms);
        }
        if next.request_timeout > next.max_total_timeout {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        c.config = next;
        mcp_status::MCP_STATUS_OK
    })
}

/// Sets the most input rounds (MRTR) one call may take before the client gives up, and the largest
/// accepted message from the server in bytes. Zero keeps that value.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_set_limits(
    config: *mut mcp_client_config,
    max_input_rounds: u32,
    max_message_bytes: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        if max_input_rounds > 0 {
            c.config.max_input_rounds = max_input_rounds;
        }
        if max_message_bytes > 0 {
            c.config.max_message_bytes = max_message_bytes;
        }
        mcp_status::MCP_STATUS_OK
    })
}

/// Asks for log messages at `level` (an `mcp_log_level` value) and above, as
/// `mcp_client_builder_set_log_level` does. Others: `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_set_log_level(
    config: *mut mcp_client_config,
    level: u32,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        match crate::responder::log_level(level) {
            Some(l) => {
                c.config.log_level = Some(l);
                mcp_status::MCP_STATUS_OK
            }
            None => mcp_status::MCP_STATUS_INVALID_ARGUMENT,
        }
    })
}

/// Sets the version preference (UTF-8, copied): a known modern revision ("2026-07-28") connects only
/// in the modern era, a known legacy one ("2025-11-25", ...) only with the `initialize` handshake, and
/// "auto" probes with `server/discover` and falls back (the default). Anything else is
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_set_version(
    config: *mut mcp_client_config,
    version: *const c_char,
    version_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let v = try_str!(version, version_len);
        if v == "auto" {
            c.preference = Some(VersionPreference::Auto);
            return mcp_status::MCP_STATUS_OK;
        }
        let Some(known) = ProtocolVersion::KNOWN.iter().find(|k| k.as_str() == v) else {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        };
        c.preference = Some(match known.era() {
            Era::Legacy => VersionPreference::Legacy(known.clone()),
            _ => VersionPreference::Modern(known.clone()),
        });
        mcp_status::MCP_STATUS_OK
    })
}

/// Sets a field of the client's implementation object (`clientInfo`), e.g. "title" or
/// "description", to the JSON value `value_json` (copied). "name" and "version" come from
/// `mcp_client_builder_new` and are `MCP_STATUS_INVALID_ARGUMENT` here.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_set_info_field(
    config: *mut mcp_client_config,
    key: *const c_char,
    key_len: usize,
    value_json: *const c_char,
    value_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let key = try_str!(key, key_len);
        let value = try_json!(value_json, value_len);
        if key.is_empty() || key == "name" || key == "version" {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        c.info.insert(key.to_string(), value);
        mcp_status::MCP_STATUS_OK
    })
}

/// Declares the optional client capabilities that need no handler of their own: URL-mode
/// elicitation (`elicitation.url`, next to the form mode an elicitation handler declares) and tool
/// use inside sampling (`sampling.tools`). Both off by default.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_set_capabilities(
    config: *mut mcp_client_config,
    elicitation_url: bool,
    sampling_tools: bool,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        c.elicitation_url = elicitation_url;
        c.sampling_tools = sampling_tools;
        mcp_status::MCP_STATUS_OK
    })
}

/// Applies a copy of `config` to the builder: its timeouts, limits and log level replace those set
/// before (also by `mcp_client_builder_set_timeout_ms` / `_set_log_level`), and its version
/// preference, info fields and capabilities are added; its HTTP settings (OAuth, TLS roots) replace
/// those applied before. `MCP_STATUS_ALREADY_USED` after connecting.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_set_config(
    builder: *mut mcp_client_builder,
    config: *const mcp_client_config,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        let c = try_ref!(config);
        let Some(mut inner) = b.inner.take() else {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        };
        b.config = c.config.clone();
        b.http = c.http.clone();
        if let Some(p) = &c.preference {
            inner = inner.version_preference(p.clone());
        }
        for (k, v) in &c.info {
            inner = inner.info_field(k, v.clone());
        }
        inner = inner
            .elicitation_url(c.elicitation_url)
            .sampling_tools(c.sampling_tools);
        b.inner = Some(inner);
        mcp_status::MCP_STATUS_OK
    })
}
