//! The HTTP side of an `mcp_request`: a header of the request that carried it, its legacy session,
//! and what the host's middleware attached to it (`mcp_http_host_context`).

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use crate::handler::{Userdata, mcp_userdata_free_cb};
use crate::request::mcp_request;
use crate::status::mcp_status;
use crate::string::{mcp_str, nul_terminated};

/// What the host's own middleware established about one HTTP request, handed to
/// `mcp_http_endpoint_handle` and read back by handlers with `mcp_request_http_principal` and
/// `mcp_request_http_userdata`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mcp_http_host_context {
    /// Who the host authenticated (a user name, an account id; UTF-8, copied), or an empty view
    /// (`data` may then be NULL) for none.
    pub principal: mcp_str,
    /// Anything else of the host's (a tenant, its session record), or NULL. Handlers may read it
    /// from any thread for as long as they hold the request, which may be after the exchange ended.
    pub userdata: *mut c_void,
    /// Releases `userdata` once no handler can read it any more: called exactly once, on whichever
    /// thread drops the last reference (also when `mcp_http_endpoint_handle` fails). May be NULL.
    pub userdata_free: mcp_userdata_free_cb,
}

/// The value the endpoint attaches to the engine's request (`RequestContext::http_extension`).
#[derive(Clone)]
pub(crate) struct HostContext(Arc<HostValues>);

struct HostValues {
    /// NUL-terminated; `None` when the host named no principal.
    principal: Option<String>,
    userdata: Userdata,
}

impl HostContext {
    /// Takes ownership of `host`'s userdata at once (its finalizer runs even if `principal` turns
    /// out not to be UTF-8, the error then).
    pub(crate) unsafe fn new(host: &mcp_http_host_context) -> Result<HostContext, mcp_status> {
        let userdata = Userdata::new(host.userdata, host.userdata_free);
        let principal =
            unsafe { crate::string::str_from_raw(host.principal.data, host.principal.len) }?;
        Ok(HostContext(Arc::new(HostValues {
            principal: (!principal.is_empty()).then(|| nul_terminated(principal)),
            userdata,
        })))
    }
}

/// One header of the HTTP request that carried `request` (for a message on a legacy session, the
/// POST that carried it; over `mcp_server_serve_http` as through `mcp_http_endpoint_handle`): its
/// first value, written to `*value_out` as a view valid until the request's responder is freed.
/// `name` (UTF-8, read during the call) is case-insensitive. `MCP_STATUS_NOT_FOUND` when the
/// header is absent, its value is not UTF-8, or the request did not come over HTTP (stdio);
/// `MCP_STATUS_NULL_PARAMETER`, `MCP_STATUS_INVALID_UTF8` for bad arguments. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_http_header(
    request: *const mcp_request,
    name: *const c_char,
    name_len: usize,
    value_out: *mut mcp_str,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(request);
        let name = try_str!(name, name_len).to_ascii_lowercase();
        try_out!(value_out);
        match header(r, &name) {
            Some(v) => {
                unsafe { *value_out = v };
                mcp_status::MCP_STATUS_OK
            }
            None => mcp_status::MCP_STATUS_NOT_FOUND,
        }
    })
}

/// The view of header `name` (lowercase), kept by the request once looked up.
fn header(r: &mcp_request, name: &str) -> Option<mcp_str> {
    r.http_headers
        .view(name, || {
            r.ctx.http_header(name).map(str::to_owned).ok_or(())
        })
        .ok()
}

/// The legacy session (`Mcp-Session-Id`) the request belongs to, or empty (a 2026-07-28 request,
/// stdio, NULL). Valid until the request's responder is freed. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_http_session_id(request: *const mcp_request) -> mcp_str {
    ffi_boundary!(mcp_str::empty(), {
        unsafe { request.as_ref() }
            .and_then(|r| header(r, "mcp-session-id"))
            .unwrap_or_else(mcp_str::empty)
    })
}

/// The principal the host attached with `mcp_http_host_context` to the HTTP request that carried
/// `request`, or empty when it attached none (or for NULL). Valid until the request's responder is
/// freed. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_http_principal(request: *const mcp_request) -> mcp_str {
    ffi_boundary!(mcp_str::empty(), {
        unsafe { request.as_ref() }
            .and_then(|r| r.ctx.http_extension::<HostContext>())
            .and_then(|h| h.0.principal.as_deref())
            .map(mcp_str::of_nul_terminated)
            .unwrap_or_else(mcp_str::empty)
    })
}

/// The `userdata` the host attached with `mcp_http_host_context` to the HTTP request that carried
/// `request`, or NULL when it attached none (or for NULL). It stays valid while the handler holds
/// the request (its `userdata_free` runs only after). Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_http_userdata(request: *const mcp_request) -> *mut c_void {
    ffi_boundary!(std::ptr::null_mut(), {
        unsafe { request.as_ref() }
            .and_then(|r| r.ctx.http_extension::<HostContext>())
            .map(|h| h.0.userdata.ptr())
            .unwrap_or(std::ptr::null_mut())
    })
}
