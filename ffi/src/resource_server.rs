//! `mcp_resource_server_config` and `mcp_token_responder`: the HTTP server as an OAuth 2.1 resource
//! server, with the bearer token checked by a C callback. Wraps `libmcp::auth::ResourceServerConfig`,
//! which enforces expiry, audience, required and per-tool scopes and serves the RFC 9728 metadata.

use std::ffi::{c_char, c_void};
use std::sync::Arc;
use std::time::Duration;

use libmcp::auth::{
    AuthInfo, ResourceServerConfig, ResourceServerConfigBuilder, TokenRejection, TokenVerifier,
    VerifyFuture,
};
use parking_lot::Mutex;
use tokio::sync::oneshot;

use crate::error::mcp_error;
use crate::handler::{Userdata, mcp_userdata_free_cb};
use crate::status::mcp_status;
use crate::string::nul_terminated;

/// Checks one bearer token. Called on a runtime thread once per HTTP request that carries
/// `Authorization: Bearer ...`, possibly on several threads at once. `token` (`token_len` bytes,
/// NUL-terminated) stays valid until `responder` is freed. The callee owns `responder`: answer it
/// once with `mcp_token_responder_accept` or `_reject`, now or later from any thread (a slow check,
/// such as an introspection call, belongs on a thread of your own: blocking library functions fail
/// here with `MCP_STATUS_WRONG_THREAD`), then free it with `mcp_token_responder_free`. A responder
/// freed unanswered, or no answer within the verify timeout, answers the request 503. It must not
/// unwind.
pub type mcp_token_verify_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        token: *const c_char,
        token_len: usize,
        responder: *mut mcp_token_responder,
    ),
>;

/// Why a verifier refuses a token (`mcp_token_responder_reject`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum mcp_token_rejection {
    /// Unknown, malformed, revoked, expired or not for this resource: 401 `invalid_token`, the
    /// message as `error_description`.
    MCP_TOKEN_INVALID = 0,
    /// The verifier cannot decide now (its key set or introspection endpoint is unreachable): 503,
    /// so the client retries instead of authorizing again.
    MCP_TOKEN_UNAVAILABLE = 1,
}

/// The answer channel of one token check. Every function on it may be called from any thread.
pub struct mcp_token_responder {
    /// The token with a NUL, as handed to the callback.
    token: String,
    answer: Mutex<Option<oneshot::Sender<Result<AuthInfo, TokenRejection>>>>,
}

/// The C callback as the core's verifier.
struct CVerifier {
    cb: unsafe extern "C" fn(*mut c_void, *const c_char, usize, *mut mcp_token_responder),
    userdata: Userdata,
}

impl TokenVerifier for CVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        let (tx, rx) = oneshot::channel();
        let responder = Box::into_raw(Box::new(mcp_token_responder {
            token: nul_terminated(token),
            answer: Mutex::new(Some(tx)),
        }));
        let token_ptr = unsafe { (*responder).token.as_ptr().cast() };
        unsafe { (self.cb)(self.userdata.ptr(), token_ptr, token.len(), responder) };
        Box::pin(async move {
            rx.await.unwrap_or_else(|_| {
                Err(TokenRejection::Unavailable(
                    "the token verifier freed its responder without an answer".into(),
                ))
            })
        })
    }
}

/// How the HTTP server protects itself: the resource identifier, the verifier callback, the
/// authorization servers and scopes it advertises and requires. A plain value: use it from one
/// thread at a time; `mcp_http_server_config_set_auth` checks and copies it (the copies share the
/// callback and its userdata).
pub struct mcp_resource_server_config {
    builder: Option<ResourceServerConfigBuilder>,
}

impl mcp_resource_server_config {
    /// The checked core configuration, or why it is refused.
    pub(crate) fn build(&self) -> Result<Arc<ResourceServerConfig>, mcp_error> {
        let builder = self.builder.clone().expect("the builder is always present");
        builder.build().map(Arc::new).map_err(|e| {
            mcp_error::new(
                mcp_status::MCP_STATUS_INVALID_ARGUMENT,
                format!("resource server: {e}"),
            )
        })
    }
}

/// Applies `f` to the builder of `config`.
fn update(
    config: *mut mcp_resource_server_config,
    f: impl FnOnce(ResourceServerConfigBuilder) -> ResourceServerConfigBuilder,
) -> mcp_status {
    let c = try_mut!(config);
    let b = c.builder.take().expect("the builder is always present");
    c.builder = Some(f(b));
    mcp_status::MCP_STATUS_OK
}

/// Space-separated scope tokens (RFC 6749 §3.3 syntax) as a list.
fn scope_list(scopes: &str) -> Vec<String> {
    scopes
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// Hands the scope list `(scopes, len)` to the builder method `set`.
fn set_scopes(
    config: *mut mcp_resource_server_config,
    scopes: *const c_char,
    len: usize,
    set: fn(ResourceServerConfigBuilder, Vec<String>) -> ResourceServerConfigBuilder,
) -> mcp_status {
    let scopes = scope_list(try_str!(scopes, len));
    update(config, |b| set(b, scopes))
}

/// Creates a configuration for the resource `resource` (UTF-8, copied: the canonical URL of the MCP
/// endpoint as clients reach it, e.g. `"https://mcp.example.com/mcp"`), whose bearer tokens `verify`
/// checks. The library owns `userdata` from this call on, also when it fails, and calls
/// `userdata_free(userdata)` exactly once, when the last server using it has stopped and every copy
/// of the configuration is freed. Defaults: tokens must name the resource in their audience, no
/// required scopes, 10 s verify timeout, bearer tokens in the header only. The resource and the
/// authorization servers are checked by `mcp_http_server_config_set_auth`. Free with
/// `mcp_resource_server_config_free`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_resource_server_config_new(
    resource: *const c_char,
    resource_len: usize,
    verify: mcp_token_verify_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
    config_out: *mut *mut mcp_resource_server_config,
) -> mcp_status {
    ffi_boundary!({
        let userdata = Userdata::new(userdata, userdata_free);
        let resource = try_str!(resource, resource_len);
        try_out!(config_out);
        let Some(cb) = verify else {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        };
        let verifier = CVerifier { cb, userdata };
        let c = Box::new(mcp_resource_server_config {
            builder: Some(ResourceServerConfig::builder(resource, verifier)),
        });
        unsafe { *config_out = Box::into_raw(c) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Frees a configuration. NULL is ignored. Servers configured with it keep their copy.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_resource_server_config_free(config: *mut mcp_resource_server_config) {
    ffi_boundary!((), {
        if !config.is_null() {
            drop(unsafe { Box::from_raw(config) });
        }
    })
}

/// Adds an authorization server by its issuer identifier (an absolute http(s) URL, UTF-8, copied),
/// listed in the protected resource metadata (RFC 9728 `authorization_servers`). At least one is
/// required.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_resource_server_config_add_authorization_server(
    config: *mut mcp_resource_server_config,
    issuer: *const c_char,
    issuer_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let issuer = try_str!(issuer, issuer_len);
        update(config, |b| b.authorization_server(issuer))
    })
}

/// Sets the scopes advertised as `scopes_supported` (space-separated, UTF-8, copied), which clients
/// request when a challenge names none.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_resource_server_config_set_scopes_supported(
    config: *mut mcp_resource_server_config,
    scopes: *const c_char,
    scopes_len: usize,
) -> mcp_status {
    ffi_boundary!({ set_scopes(config, scopes, scopes_len, |b, s| b.scopes_supported(s)) })
}

/// Sets the scopes every request needs (space-separated, UTF-8, copied); a token without one of
/// them gets 403 `insufficient_scope`, and every challenge names them.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_resource_server_config_set_required_scopes(
    config: *mut mcp_resource_server_config,
    scopes: *const c_char,
    scopes_len: usize,
) -> mcp_status {
    ffi_boundary!({ set_scopes(config, scopes, scopes_len, |b, s| b.required_scopes(s)) })
}

/// Sets the scopes a `tools/call` of the tool `tool` needs beyond the required ones
/// (space-separated, UTF-8, both copied; a later call for the same tool replaces them). A call
/// without them gets 403 `insufficient_scope` naming the full set, so the client can step up.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_resource_server_config_set_tool_scopes(
    config: *mut mcp_resource_server_config,
    tool: *const c_char,
    tool_len: usize,
    scopes: *const c_char,
    scopes_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let tool = try_str!(tool, tool_len);
        let scopes = scope_list(try_str!(scopes, scopes_len));
        if tool.is_empty() {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        update(config, |b| b.tool_scopes(tool, scopes))
    })
}

/// Sets the human-readable `resource_name` of the metadata (UTF-8, copied).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_resource_server_config_set_resource_name(
    config: *mut mcp_resource_server_config,
    name: *const c_char,
    name_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let name = try_str!(name, name_len);
        update(config, |b| b.resource_name(name))
    })
}

/// Whether a token's audience must name the resource (default on, as MCP requires; turn it off only
/// when the callback checks the audience itself).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_resource_server_config_set_check_audience(
    config: *mut mcp_resource_server_config,
    on: bool,
) -> mcp_status {
    ffi_boundary!({ update(config, |b| b.check_audience(on)) })
}

/// Sets how long the callback may take to answer before the request gets 503, in milliseconds
/// (default 10000). 0 is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_resource_server_config_set_verify_timeout_ms(
    config: *mut mcp_resource_server_config,
    timeout_ms: u64,
) -> mcp_status {
    ffi_boundary!({
        if timeout_ms == 0 {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        update(config, |b| {
            b.verify_timeout(Duration::from_millis(timeout_ms))
        })
    })
}

/// Takes the answer channel of `responder`, or `MCP_STATUS_ALREADY_USED`.
fn take_answer(
    responder: &mcp_token_responder,
) -> Result<oneshot::Sender<Result<AuthInfo, TokenRejection>>, mcp_error> {
    responder.answer.lock().take().ok_or_else(|| {
        mcp_error::new(
            mcp_status::MCP_STATUS_ALREADY_USED,
            "the token responder has answered already",
        )
    })
}

/// Accepts the token: `auth_json` (`auth_json_len` bytes, copied) describes who it stands for, as
/// `{"subject", "clientId", "scopes", "expiresAt", "audience", "claims"}` (the shape
/// `mcp_request_auth` returns; every member optional: `scopes` and `audience` arrays of strings,
/// `expiresAt` seconds since the Unix epoch, `claims` an object handlers read back). The library then
/// checks expiry, audience (it must name the resource unless turned off) and the required scopes.
/// Text that is not JSON is `MCP_STATUS_INVALID_JSON`, JSON of another shape (an unknown
/// member, a wrong type) `MCP_STATUS_INVALID_ARGUMENT`, with the reason in `*error_out` (may be
/// NULL; written only on failure); the responder can still answer then. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_token_responder_accept(
    responder: *const mcp_token_responder,
    auth_json: *const c_char,
    auth_json_len: usize,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(responder);
        let info = match serde_json::from_str::<AuthInfo>(try_str!(auth_json, auth_json_len)) {
            Ok(info) => info,
            Err(e) if e.classify() == serde_json::error::Category::Data => {
                return mcp_error::new(
                    mcp_status::MCP_STATUS_INVALID_ARGUMENT,
                    format!("not a token description: {e}"),
                )
                .store(error_out);
            }
            Err(e) => {
                return mcp_error::new(mcp_status::MCP_STATUS_INVALID_JSON, e.to_string())
                    .store(error_out);
            }
        };
        match take_answer(r) {
            Ok(tx) => {
                // The request may have given up waiting (timeout, client gone): nothing to do then.
                let _ = tx.send(Ok(info));
                mcp_status::MCP_STATUS_OK
            }
            Err(e) => e.store(error_out),
        }
    })
}

/// Refuses the token. `kind` is an `mcp_token_rejection` value (others:
/// `MCP_STATUS_INVALID_ARGUMENT`); `message` (UTF-8, copied; may be NULL with length 0) goes to the
/// client as `error_description`. `MCP_STATUS_ALREADY_USED` after an answer. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_token_responder_reject(
    responder: *const mcp_token_responder,
    kind: u32,
    message: *const c_char,
    message_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(responder);
        let message = try_str!(message, message_len).to_string();
        let rejection = match kind {
            0 => TokenRejection::Invalid(message),
            1 => TokenRejection::Unavailable(message),
            _ => return mcp_status::MCP_STATUS_INVALID_ARGUMENT,
        };
        match take_answer(r) {
            Ok(tx) => {
                let _ = tx.send(Err(rejection));
                mcp_status::MCP_STATUS_OK
            }
            Err(e) => e.status(),
        }
    })
}

/// Frees the responder (and the token view); unanswered, the request gets 503. NULL is ignored.
/// Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_token_responder_free(responder: *mut mcp_token_responder) {
    ffi_boundary!((), {
        if !responder.is_null() {
            drop(unsafe { Box::from_raw(responder) });
        }
    })
}
