//! `mcp_client_config`: a client's tunables (`ClientConfig`), version preference, implementation info,
//! optional capabilities and HTTP settings (OAuth, TLS roots), applied to a builder with
//! `mcp_client_builder_set_config`.

use std::ffi::c_char;

use libmcp::client::{ClientConfig, VersionPreference};
use serde_json::{Map, Value};

use crate::client_builder::mcp_client_builder;
use crate::config_change::change;
use crate::oauth::mcp_oauth_config;
use crate::setting_values::{ms, set_log_level, version_preference};
use crate::status::mcp_status;

/// Sets `field` to `convert(value)` unless `value` is zero (the C convention "0 keeps it").
fn keep_zero<N: PartialEq + Default, T>(field: &mut T, value: N, convert: impl Fn(N) -> T) {
    if value != N::default() {
        *field = convert(value);
    }
}

/// Client options with the defaults: 60 s idle timeout per request, 600 s hard limit, 5 s era probe,
/// 10 input rounds, 8 MiB messages, no log level, era probed automatically. A plain value: use it from
/// one thread at a time; applying it copies it.
pub struct mcp_client_config {
    config: ClientConfig,
    preference: Option<VersionPreference>,
    info: Map<String, Value>,
    elicitation_url: bool,
    sampling_tools: bool,
    pub(crate) http: crate::client_http_settings::HttpSettings,
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
        change(&mut try_mut!(config).config, |c| {
            keep_zero(&mut c.request_timeout, request_ms, ms);
            keep_zero(&mut c.max_total_timeout, total_ms, ms);
            keep_zero(&mut c.probe_timeout, probe_ms, ms);
        })
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
        change(&mut try_mut!(config).config, |c| {
            keep_zero(&mut c.max_input_rounds, max_input_rounds, |n| n);
            keep_zero(&mut c.max_message_bytes, max_message_bytes, |n| n);
        })
    })
}

/// Asks for log messages at `level` (an `mcp_log_level` value) and above, as
/// `mcp_client_builder_set_log_level` does. Others: `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_set_log_level(
    config: *mut mcp_client_config,
    level: u32,
) -> mcp_status {
    ffi_boundary!({ set_log_level(&mut try_mut!(config).config, level) })
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
        match version_preference(try_str!(version, version_len)) {
            Ok(p) => {
                c.preference = Some(p);
                mcp_status::MCP_STATUS_OK
            }
            Err(status) => status,
        }
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
        let status = crate::builder_slot::update(&mut b.inner, |mut inner| {
            if let Some(p) = &c.preference {
                inner = inner.version_preference(p.clone());
            }
            for (k, v) in &c.info {
                inner = inner.info_field(k, v.clone());
            }
            inner
                .elicitation_url(c.elicitation_url)
                .sampling_tools(c.sampling_tools)
        });
        if status == mcp_status::MCP_STATUS_OK {
            b.config = c.config.clone();
            b.http = c.http.clone();
        }
        status
    })
}

/// Authorizes the HTTP client with a copy of `oauth` (NULL turns authorization off again): the
/// client sends its bearer token with every request and, on a 401 or a 403 `insufficient_scope`
/// challenge, discovers the authorization server, registers, authorizes and retries. Tokens are kept
/// in `oauth`'s store. Used by `mcp_client_builder_connect_http` only.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_set_oauth(
    config: *mut mcp_client_config,
    oauth: *const mcp_oauth_config,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        c.http.oauth = unsafe { oauth.as_ref() }.map(|o| o.config().clone());
        mcp_status::MCP_STATUS_OK
    })
}

/// Trusts the certificates of a PEM bundle (`pem_len` bytes holding one or more `-----BEGIN
/// CERTIFICATE-----` sections, e.g. a private CA or a self-signed server certificate; copied) for
/// `https://` URLs, next to the bundled Mozilla roots. Text without a CERTIFICATE section is
/// `MCP_STATUS_INVALID_ARGUMENT`; a section that does not decode fails the connect with
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_add_root_certificates_pem(
    config: *mut mcp_client_config,
    pem: *const c_char,
    pem_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let pem = try_str!(pem, pem_len);
        if !pem.contains("-----BEGIN CERTIFICATE-----") {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        c.http.root_certificates.push(pem.as_bytes().to_vec());
        mcp_status::MCP_STATUS_OK
    })
}

/// Trusts only the roots added with `mcp_client_config_add_root_certificates_pem`, not the bundled
/// Mozilla roots (default off). With none added, an `https://` connect fails with
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_set_skip_default_roots(
    config: *mut mcp_client_config,
    skip: bool,
) -> mcp_status {
    ffi_boundary!({
        try_mut!(config).http.skip_default_roots = skip;
        mcp_status::MCP_STATUS_OK
    })
}
