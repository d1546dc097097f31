//! One argument of a request read by name, without the whole `arguments` object as JSON text: the
//! fast path of a handler whose tool takes strings.

use std::ffi::c_char;

use serde_json::Value;

use crate::request::mcp_request;
use crate::status::mcp_status;
use crate::string::mcp_str;

/// `params.arguments[name]` when it is a JSON string: its text (unescaped, NUL-terminated) written
/// to `*value_out` as a view valid until the request's responder is freed. `name` (UTF-8, read
/// during the call) is the argument's exact key. `MCP_STATUS_NOT_FOUND` when the request has no
/// such argument; `MCP_STATUS_INVALID_ARGUMENT` when it is there but not a string (read it from
/// `mcp_request_arguments`); `MCP_STATUS_NULL_PARAMETER`, `MCP_STATUS_INVALID_UTF8` for bad
/// arguments. The engine has checked the arguments against the tool's `inputSchema` before the
/// handler runs, so an argument the schema declares a string is one. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_argument_string(
    request: *const mcp_request,
    name: *const c_char,
    name_len: usize,
    value_out: *mut mcp_str,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(request);
        let name = try_str!(name, name_len);
        try_out!(value_out);
        match string_argument(r, name) {
            Ok(v) => {
                unsafe { *value_out = v };
                mcp_status::MCP_STATUS_OK
            }
            Err(status) => status,
        }
    })
}

/// The view of argument `name`, kept by the request once looked up.
fn string_argument(r: &mcp_request, name: &str) -> Result<mcp_str, mcp_status> {
    r.string_arguments
        .view(name, || match r.ctx.arguments().get(name) {
            None => Err(mcp_status::MCP_STATUS_NOT_FOUND),
            Some(Value::String(s)) => {
                let mut text = String::with_capacity(s.len() + 1);
                text.push_str(s);
                Ok(text)
            }
            Some(_) => Err(mcp_status::MCP_STATUS_INVALID_ARGUMENT),
        })
}
