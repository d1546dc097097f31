//! The C ABI's JSON entry points: the `mcp_json_get*` lookups on any document and pointer, and
//! server definitions (tool, resource, template, prompt) passed as JSON text to the builder and to
//! a running server. A status never is `MCP_STATUS_PANIC`, and nothing is written on failure.
//! Input: NUL-separated JSON document, JSON Pointer, definition; the first byte of the pointer part
//! picks the kind of definition.
#![no_main]

use std::ffi::{c_char, c_void};
use std::ptr;

use libfuzzer_sys::fuzz_target;
use mcp::*;

unsafe extern "C" fn no_op(_: *mut c_void, _: *const mcp_request, _: *mut mcp_responder) {}

fn raw(b: &[u8]) -> (*const c_char, usize) {
    (b.as_ptr().cast(), b.len())
}

fn lookups(doc: &[u8], pointer: &[u8]) {
    let ((d, dl), (p, pl)) = (raw(doc), raw(pointer));
    let mut s: *mut mcp_string = ptr::null_mut();
    let status = mcp_json_get(d, dl, p, pl, &mut s);
    assert_ne!(status, mcp_status::MCP_STATUS_PANIC);
    assert_eq!(status == mcp_status::MCP_STATUS_OK, !s.is_null());
    if !s.is_null() {
        let len = mcp_string_len(s);
        let bytes = unsafe { std::slice::from_raw_parts(mcp_string_data(s).cast::<u8>(), len) };
        serde_json::from_slice::<serde_json::Value>(bytes).expect("mcp_json_get writes JSON");
        mcp_string_free(s);
    }
    let mut s: *mut mcp_string = ptr::null_mut();
    let status = mcp_json_get_string(d, dl, p, pl, &mut s);
    assert_eq!(status == mcp_status::MCP_STATUS_OK, !s.is_null());
    mcp_string_free(s);
    let mut f = f64::NAN;
    let status = mcp_json_get_double(d, dl, p, pl, &mut f);
    assert!(status == mcp_status::MCP_STATUS_OK || f.is_nan());
    let mut i = 0x5a5a_i64;
    let status = mcp_json_get_int64(d, dl, p, pl, &mut i);
    assert!(status == mcp_status::MCP_STATUS_OK || i == 0x5a5a);
    let mut b = false;
    let status = mcp_json_get_bool(d, dl, p, pl, &mut b);
    assert!(status == mcp_status::MCP_STATUS_OK || !b);
}

fn definitions(kind: u8, definition: &[u8]) {
    let (name, version) = (raw(b"fuzz"), raw(b"1"));
    let mut builder: *mut mcp_server_builder = ptr::null_mut();
    assert_eq!(
        mcp_server_builder_new(name.0, name.1, version.0, version.1, &mut builder),
        mcp_status::MCP_STATUS_OK
    );
    let (d, dl) = raw(definition);
    let add = match kind % 4 {
        0 => mcp_server_builder_add_tool,
        1 => mcp_server_builder_add_resource,
        2 => mcp_server_builder_add_template,
        _ => mcp_server_builder_add_prompt,
    };
    let status = add(builder, d, dl, Some(no_op), ptr::null_mut(), None);
    assert_ne!(status, mcp_status::MCP_STATUS_PANIC);
    let mut server: *mut mcp_server = ptr::null_mut();
    let mut error: *mut mcp_error = ptr::null_mut();
    let status = mcp_server_builder_build(builder, &mut server, &mut error);
    assert_ne!(status, mcp_status::MCP_STATUS_PANIC);
    assert_eq!(status == mcp_status::MCP_STATUS_OK, !server.is_null());
    assert_eq!(status == mcp_status::MCP_STATUS_OK, error.is_null());
    mcp_error_free(error);
    mcp_server_builder_free(builder);
    if server.is_null() {
        return;
    }
    let mut error: *mut mcp_error = ptr::null_mut();
    let status = mcp_server_add_tool(
        server,
        d,
        dl,
        Some(no_op),
        ptr::null_mut(),
        None,
        &mut error,
    );
    assert_ne!(status, mcp_status::MCP_STATUS_PANIC);
    mcp_error_free(error);
    mcp_server_free(server);
}

fuzz_target!(|data: &[u8]| {
    let parts = libmcp_fuzz::split_nul(data, 3);
    let doc = parts[0];
    let pointer = parts.get(1).copied().unwrap_or_default();
    lookups(doc, pointer);
    let definition = parts.get(2).copied().unwrap_or(doc);
    definitions(pointer.first().copied().unwrap_or(0), definition);
});
