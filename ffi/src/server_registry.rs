//! Changing a built server while it serves: tools, prompts and resources added and removed at
//! runtime, and `notifications/resources/updated` for subscribers.

use std::ffi::{c_char, c_void};

use libmcp::server::Change;

use crate::error::mcp_error;
use crate::handler::{Userdata, handler, mcp_handler_cb, mcp_userdata_free_cb};
use crate::server::mcp_server;
use crate::status::mcp_status;

/// What a runtime registration adds or removes.
#[derive(Clone, Copy)]
enum Entry {
    Tool,
    Prompt,
    Resource,
}

/// The body of `mcp_server_add_*`: takes ownership of `userdata` in every case (on failure its
/// finalizer has run by the time this returns).
fn add(
    server: *const mcp_server,
    entry: Entry,
    (definition, definition_len): (*const c_char, usize),
    cb: mcp_handler_cb,
    userdata: Userdata,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    let s = try_ref!(server);
    let Some(cb) = cb else {
        return mcp_status::MCP_STATUS_NULL_PARAMETER;
    };
    let definition = try_json!(definition, definition_len);
    let h = handler(cb, userdata);
    let added = match entry {
        Entry::Tool => s.server.add_tool(definition, h),
        Entry::Prompt => s.server.add_prompt(definition, h),
        Entry::Resource => s.server.add_resource(definition, h),
    };
    match added {
        Ok(()) => mcp_status::MCP_STATUS_OK,
        Err(e) => mcp_error::from_engine(&e).store(error_out),
    }
}

/// The body of `mcp_server_remove_*` (and `mcp_server_remove_skill`): removes the entry named
/// `key` (a name, or a URI for resources) with `op` and writes whether there was one to
/// `*removed_out` (may be NULL).
pub(crate) fn remove(
    server: *const mcp_server,
    key: *const c_char,
    key_len: usize,
    removed_out: *mut bool,
    op: impl FnOnce(&libmcp::server::Server, &str) -> bool,
) -> mcp_status {
    let s = try_ref!(server);
    let key = try_str!(key, key_len);
    let removed = op(&s.server, key);
    if !removed_out.is_null() {
        unsafe { *removed_out = removed };
    }
    mcp_status::MCP_STATUS_OK
}

/// Registers (or replaces) a tool on a built server, even while it serves, and tells listening
/// clients the tool list changed. Ownership of `userdata` as in `mcp_server_builder_add_tool` (taken
/// also on failure). A rejected definition is `MCP_STATUS_INVALID_ARGUMENT` with the reason in
/// `*error_out` (may be NULL; written only on failure). Any thread, also from a handler.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_add_tool(
    server: *const mcp_server,
    definition: *const c_char,
    definition_len: usize,
    cb: mcp_handler_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let userdata = Userdata::new(userdata, userdata_free);
        let definition = (definition, definition_len);
        add(server, Entry::Tool, definition, cb, userdata, error_out)
    })
}

/// Removes tool `name` and tells listening clients; writes whether there was one to `*removed_out`
/// (may be NULL). Its userdata is finalized once no call uses it any more. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_remove_tool(
    server: *const mcp_server,
    name: *const c_char,
    name_len: usize,
    removed_out: *mut bool,
) -> mcp_status {
    ffi_boundary!({ remove(server, name, name_len, removed_out, |s, k| s.remove_tool(k)) })
}

/// Registers (or replaces) a prompt on a built server, even while it serves, and tells listening
/// clients the prompt list changed. `definition` as in `mcp_server_builder_add_prompt`; ownership of
/// `userdata` as in `mcp_server_builder_add_tool` (taken also on failure). A rejected definition is
/// `MCP_STATUS_INVALID_ARGUMENT` with the reason in `*error_out` (may be NULL; written only on
/// failure). Any thread, also from a handler.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_add_prompt(
    server: *const mcp_server,
    definition: *const c_char,
    definition_len: usize,
    cb: mcp_handler_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let userdata = Userdata::new(userdata, userdata_free);
        let definition = (definition, definition_len);
        add(server, Entry::Prompt, definition, cb, userdata, error_out)
    })
}

/// Removes prompt `name` and tells listening clients; writes whether there was one to `*removed_out`
/// (may be NULL). Its userdata is finalized once no call uses it any more. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_remove_prompt(
    server: *const mcp_server,
    name: *const c_char,
    name_len: usize,
    removed_out: *mut bool,
) -> mcp_status {
    ffi_boundary!({
        remove(server, name, name_len, removed_out, |s, k| {
            s.remove_prompt(k)
        })
    })
}

/// Registers (or replaces) a static resource on a built server and tells listening clients the
/// resource list changed. `definition` as in `mcp_server_builder_add_resource`; ownership and
/// failures as in `mcp_server_add_prompt`. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_add_resource(
    server: *const mcp_server,
    definition: *const c_char,
    definition_len: usize,
    cb: mcp_handler_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let userdata = Userdata::new(userdata, userdata_free);
        let definition = (definition, definition_len);
        add(server, Entry::Resource, definition, cb, userdata, error_out)
    })
}

/// Removes the static resource `uri` and tells listening clients; writes whether there was one to
/// `*removed_out` (may be NULL). Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_remove_resource(
    server: *const mcp_server,
    uri: *const c_char,
    uri_len: usize,
    removed_out: *mut bool,
) -> mcp_status {
    ffi_boundary!({
        remove(server, uri, uri_len, removed_out, |s, k| {
            s.remove_resource(k)
        })
    })
}

/// Tells the clients subscribed to `uri` (legacy `resources/subscribe`, or a listen stream naming it
/// in `resourceSubscriptions`) that the resource changed (`notifications/resources/updated`). An
/// empty URI is `MCP_STATUS_INVALID_ARGUMENT`. Any thread, also from a handler.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_notify_resource_updated(
    server: *const mcp_server,
    uri: *const c_char,
    uri_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let s = try_ref!(server);
        let uri = try_str!(uri, uri_len);
        if uri.is_empty() {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        s.server.notify(Change::ResourceUpdated(uri.to_string()));
        mcp_status::MCP_STATUS_OK
    })
}
