//! Request methods a C host answers itself: a method the specification does not define, or a
//! feature method it defines that a host may own (`tools/call`, `resources/read`, `tasks/get`, ...),
//! with the capabilities those need. The rules are the engine's (`Server::set_method_handler`,
//! `Server::declare_capabilities` in `core/src/server/runtime.rs`); this only converts.

use std::ffi::{c_char, c_void};

use crate::error::mcp_error;
use crate::handler::{Userdata, handler, mcp_handler_cb, mcp_userdata_free_cb};
use crate::server::{mcp_server, mcp_server_builder};
use crate::status::mcp_status;

/// Answers request method `method` (UTF-8, copied) with `cb` (see `mcp_handler_cb`): a method the
/// specification does not define (otherwise answered -32601, method not found), or one of the
/// feature methods a host may own: `tools/list`, `tools/call`, `resources/list`,
/// `resources/templates/list`, `resources/read`, `prompts/list`, `prompts/get`,
/// `completion/complete`, `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`. The handler is
/// called as a tool's is (same request accessors, same responder: answer now or later from any
/// thread, with a result, `mcp_responder_error`, or an input round), in both eras. For an owned
/// method the engine still applies the revision's rules: the method exists only where the revision
/// has it (-32601 elsewhere), the request is checked against the revision's schema before `cb` runs
/// (-32602 naming what is wrong, `cb` not called) and the result after (-32603 to the client,
/// `MCP_STATUS_INVALID_RESULT` from the answering function). A second call for the same method
/// replaces (and finalizes) the first. Ownership of `userdata` as in
/// `mcp_server_builder_add_tool` (taken also on failure); NULL `cb` is `MCP_STATUS_NULL_PARAMETER`.
///
/// What the engine refuses makes `mcp_server_builder_build` fail with `MCP_STATUS_INVALID_ARGUMENT`
/// and the reason: a method the engine keeps (`initialize`, `ping`, `server/discover`,
/// `tasks/update`, ...), a name in the `notifications/` namespace or beginning with `rpc.`, an empty
/// name, an owned method whose capability is not declared (`mcp_server_builder_declare_capabilities`),
/// or an owned method beside the engine's items for it (a tool registered and `tools/call` owned).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_set_method_handler(
    builder: *mut mcp_server_builder,
    method: *const c_char,
    method_len: usize,
    cb: mcp_handler_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    ffi_boundary!({
        let userdata = Userdata::new(userdata, userdata_free);
        let b = try_mut!(builder);
        let method = try_str!(method, method_len);
        let Some(cb) = cb else {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        };
        let h = handler(cb, userdata);
        crate::builder_slot::update(&mut b.inner, |inner| inner.method_handler(method, h))
    })
}

/// Declares capabilities of the host's own: `json` is a JSON object of capabilities (copied), as
/// `initialize` and `server/discover` carry them; each key is advertised as given, over what the
/// engine would declare for it (a later declaration of a key replaces the earlier one). The methods
/// the host owns need theirs: `tools`, `resources`, `prompts`, `completions`, `tasks`. Text that is
/// not JSON is `MCP_STATUS_INVALID_JSON`; JSON that is not an object makes
/// `mcp_server_builder_build` fail with `MCP_STATUS_INVALID_ARGUMENT` and the reason.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_declare_capabilities(
    builder: *mut mcp_server_builder,
    json: *const c_char,
    json_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        let capabilities = try_json!(json, json_len);
        crate::builder_slot::update(&mut b.inner, |inner| {
            inner.declare_capabilities(capabilities)
        })
    })
}

/// Sets (or replaces) the handler of request method `method` on a built server, even while it
/// serves; the method and the handler as in `mcp_server_builder_set_method_handler`. Ownership of
/// `userdata` as there (taken also on failure). Every refusal of the engine is
/// `MCP_STATUS_INVALID_ARGUMENT` with the reason in `*error_out` (may be NULL; written only on
/// failure): a method the engine keeps, a `notifications/` or `rpc.` name, an owned method whose
/// capability is not declared (`mcp_server_declare_capabilities`), an owned method while the engine
/// has items it would answer it for (then also a later `mcp_server_add_tool` and the like is
/// refused). Any thread, also from a handler.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_set_method_handler(
    server: *const mcp_server,
    method: *const c_char,
    method_len: usize,
    cb: mcp_handler_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let userdata = Userdata::new(userdata, userdata_free);
        let s = try_ref!(server);
        let method = try_str!(method, method_len);
        let Some(cb) = cb else {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        };
        match s
            .server
            .set_method_handler(method, Some(handler(cb, userdata)))
        {
            Ok(()) => mcp_status::MCP_STATUS_OK,
            Err(e) => mcp_error::from_engine(&e).store(error_out),
        }
    })
}

/// Removes the handler of request method `method`; writes whether there was one to `*removed_out`
/// (may be NULL). Its userdata is finalized once no call uses it any more. A name no handler may
/// have is refused as `mcp_server_set_method_handler` refuses it (`MCP_STATUS_INVALID_ARGUMENT`,
/// the reason in `*error_out`, which may be NULL and is written only on failure). Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_remove_method_handler(
    server: *const mcp_server,
    method: *const c_char,
    method_len: usize,
    removed_out: *mut bool,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let s = try_ref!(server);
        let method = try_str!(method, method_len);
        match s.server.remove_method_handler(method) {
            Ok(removed) => {
                if !removed_out.is_null() {
                    unsafe { *removed_out = removed };
                }
                mcp_status::MCP_STATUS_OK
            }
            Err(e) => mcp_error::from_engine(&e).store(error_out),
        }
    })
}

/// Declares capabilities of the host's own on a built server (see
/// `mcp_server_builder_declare_capabilities`), even while it serves. Text that is not JSON is
/// `MCP_STATUS_INVALID_JSON`; JSON that is not an object is `MCP_STATUS_INVALID_ARGUMENT` with the
/// reason in `*error_out` (may be NULL; written only on failure). Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_declare_capabilities(
    server: *const mcp_server,
    json: *const c_char,
    json_len: usize,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let s = try_ref!(server);
        let capabilities = try_json!(json, json_len);
        match s.server.declare_capabilities(capabilities) {
            Ok(()) => mcp_status::MCP_STATUS_OK,
            Err(e) => mcp_error::from_engine(&e).store(error_out),
        }
    })
}
