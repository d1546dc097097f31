//! `mcp_client_builder_connect_http`: connecting a client to a Streamable HTTP endpoint, with the
//! HTTP settings (OAuth, TLS roots) an `mcp_client_config` carries.

use std::ffi::c_char;

use crate::client::mcp_client;
use crate::client_builder::{connect, mcp_client_builder, views};
use crate::error::mcp_error;
use crate::runtime::mcp_runtime;
use crate::status::mcp_status;
use crate::string::mcp_str;

/// One extra HTTP header: `name` and `value`, both UTF-8 views (read during the call only).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mcp_header {
    /// The header name, e.g. "Authorization".
    pub name: mcp_str,
    /// The header value.
    pub value: mcp_str,
}

/// Connects to the Streamable HTTP endpoint `url` ("http://host:port/path", or "https://..." checked
/// against the bundled Mozilla roots plus those of `mcp_client_config_add_root_certificates_pem`) on
/// `runtime`, authorizing with OAuth when `mcp_client_config_set_oauth` was applied (the authorization
/// callback may then run during this call, on another thread), sending the `nheaders` extra
/// `headers` (may be NULL when 0; copied) with every request, negotiates the era (as set with
/// `mcp_client_builder_set_protocol_version` or `mcp_client_config_set_version`; by default the
/// `server/discover` probe, remembered per origin for the life of the process) and writes the client
/// to `*client_out`. Blocks until connected. On failure writes the reason to `*error_out` (may be
/// NULL; written only on failure): `MCP_STATUS_INVALID_ARGUMENT` for a bad URL, header or TLS root,
/// `MCP_STATUS_TRANSPORT` when the server cannot be reached or authorization fails (the message
/// says why), `MCP_STATUS_NEGOTIATION`, `MCP_STATUS_TIMEOUT`. A second connect with the same builder
/// is `MCP_STATUS_ALREADY_USED`. Not from a callback. Free the client with `mcp_client_free` (which
/// ends a legacy session with DELETE).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_connect_http(
    builder: *mut mcp_client_builder,
    runtime: *const mcp_runtime,
    url: *const c_char,
    url_len: usize,
    headers: *const mcp_header,
    nheaders: usize,
    client_out: *mut *mut mcp_client,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let url = try_str!(url, url_len).to_string();
        if headers.is_null() && nheaders > 0 {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        }
        let mut extra = Vec::with_capacity(nheaders);
        for i in 0..nheaders {
            let h = unsafe { *headers.add(i) };
            match unsafe { views([h.name, h.value].as_ptr(), 2) } {
                Ok(mut pair) => {
                    let value = pair.pop().unwrap_or_default();
                    extra.push((pair.pop().unwrap_or_default(), value));
                }
                Err(status) => return status,
            }
        }
        let out = (client_out, error_out);
        connect(builder, runtime, "mcp_client_connect_http", out, |b, c| {
            let mut options = b.http.options();
            options.headers = extra;
            async move { c.connect_http_with(&url, options).await }
        })
    })
}
