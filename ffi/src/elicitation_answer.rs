//! The client's answer to a form elicitation, checked against the schema the handler asked with:
//! `RequestContext::elicitation_answer`, as the official SDKs' `elicitInput` / `ctx.elicit` check it.

use std::ffi::c_char;

use crate::error::mcp_error;
use crate::request::mcp_request;
use crate::status::mcp_status;
use crate::string::mcp_string;

/// The client's answer (an `ElicitResult` as JSON text) to the form elicitation this handler asked
/// under `key` with `requested_schema` (the JSON Schema it sent as `requestedSchema`), checked
/// against that schema, written to `*answer_out` (free it with `mcp_string_free`). The same in both
/// eras and in tasks; `mcp_request_input_responses` gives the answers unchecked.
///
/// `MCP_STATUS_NOT_FOUND` when there is no answer under `key` (yet: the first round);
/// `MCP_STATUS_RPC_ERROR` with `*error_out` (when not NULL) when the answer does not fit: code
/// -32602 (invalid params) for a malformed `ElicitResult` or accepted `content` that does not match
/// the schema, -32603 when `requested_schema` is not a schema that compiles. The handler answers
/// with that error (`mcp_responder_error` with `mcp_error_code` and `mcp_error_message`), as the
/// SDKs' servers do, or asks again. A declined or cancelled answer is not checked. Also
/// `MCP_STATUS_NULL_PARAMETER`, `MCP_STATUS_INVALID_UTF8` and `MCP_STATUS_INVALID_JSON`
/// (`requested_schema`) for bad arguments. `key` and `requested_schema` are read during the call.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_elicitation_answer(
    request: *const mcp_request,
    key: *const c_char,
    key_len: usize,
    requested_schema: *const c_char,
    requested_schema_len: usize,
    answer_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(request);
        let key = try_str!(key, key_len);
        let schema = try_json!(requested_schema, requested_schema_len);
        try_out!(answer_out);
        match r.ctx.elicitation_answer(key, &schema) {
            Ok(Some(answer)) => {
                unsafe { *answer_out = mcp_string::new_raw(answer.to_string()) };
                mcp_status::MCP_STATUS_OK
            }
            Ok(None) => mcp_status::MCP_STATUS_NOT_FOUND,
            Err(e) => mcp_error::from_engine(&libmcp::Error::Rpc(e)).store(error_out),
        }
    })
}
