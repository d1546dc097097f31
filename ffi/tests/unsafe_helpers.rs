//! The C ABI's pointer-handling entry points called as C would call them, with good and bad
//! arguments: owned strings, borrowed views, out-parameters, the JSON accessors and the config
//! objects. The point is the memory: run under Miri (`scripts/miri.sh`) these detect any
//! out-of-bounds read, use after free, double free, misaligned access or leak in the helpers
//! behind them (`string.rs`, `json.rs`, the `try_*` macros); under `cargo test` they check the
//! statuses. Nothing here starts a runtime or a thread, so all of it runs under Miri.

use std::ffi::{CStr, c_char};
use std::ptr;

use mcp::*;

fn bytes(s: &str) -> (*const c_char, usize) {
    (s.as_ptr().cast(), s.len())
}

/// The text of an owned string (checking its NUL), freed.
fn take(s: *mut mcp_string) -> String {
    assert!(!s.is_null());
    let len = mcp_string_len(s);
    let data = mcp_string_data(s);
    // SAFETY: the library promises `len` bytes and a NUL at `data` until the free below.
    let text = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), len + 1) };
    assert_eq!(text[len], 0, "no NUL after the text");
    let out = String::from_utf8(text[..len].to_vec()).unwrap();
    mcp_string_free(s);
    out
}

#[test]
fn owned_strings_round_trip_and_reject_bad_input() {
    let mut s = ptr::null_mut();
    let (p, n) = bytes("héllo");
    assert_eq!(mcp_string_new(p, n, &mut s), mcp_status::MCP_STATUS_OK);
    assert_eq!(take(s), "héllo");

    // A view of part of a buffer: only `len` bytes are read.
    let (p, _) = bytes("abcdef");
    assert_eq!(mcp_string_new(p, 3, &mut s), mcp_status::MCP_STATUS_OK);
    assert_eq!(take(s), "abc");

    assert_eq!(
        mcp_string_new(ptr::null(), 0, &mut s),
        mcp_status::MCP_STATUS_OK
    );
    assert_eq!(take(s), "");

    let bad = [0x66u8, 0xff, 0x6f];
    let mut s = ptr::null_mut();
    let status = mcp_string_new(bad.as_ptr().cast(), bad.len(), &mut s);
    assert_eq!(status, mcp_status::MCP_STATUS_INVALID_UTF8);
    assert!(s.is_null());
    assert_eq!(
        mcp_string_new(ptr::null(), 4, &mut s),
        mcp_status::MCP_STATUS_NULL_PARAMETER
    );
    let (p, n) = bytes("x");
    assert_eq!(
        mcp_string_new(p, n, ptr::null_mut()),
        mcp_status::MCP_STATUS_NULL_PARAMETER
    );
    // NULL is an empty string to the accessors and nothing to free.
    assert_eq!(mcp_string_len(ptr::null()), 0);
    // SAFETY: the library returns a static "" for NULL.
    assert_eq!(unsafe { CStr::from_ptr(mcp_string_data(ptr::null())) }, c"");
    mcp_string_free(ptr::null_mut());
}

const DOC: &str =
    r#"{"name": "tool", "n": 42, "x": 1.5, "on": true, "tags": ["a", "b"], "o": {"k": null}}"#;

fn get(pointer: &str) -> (mcp_status, Option<String>) {
    let (j, jn) = bytes(DOC);
    let (p, pn) = bytes(pointer);
    let mut out = ptr::null_mut();
    let status = mcp_json_get(j, jn, p, pn, &mut out);
    (status, (!out.is_null()).then(|| take(out)))
}

#[test]
fn json_accessors_read_only_their_bytes_and_fill_out_params_only_on_success() {
    assert_eq!(
        get("/tags"),
        (mcp_status::MCP_STATUS_OK, Some(r#"["a","b"]"#.into()))
    );
    assert_eq!(
        get("/o/k"),
        (mcp_status::MCP_STATUS_OK, Some("null".into()))
    );
    assert_eq!(get("/missing"), (mcp_status::MCP_STATUS_NOT_FOUND, None));

    let (j, jn) = bytes(DOC);
    let (p, pn) = bytes("/name");
    let mut s = ptr::null_mut();
    assert_eq!(
        mcp_json_get_string(j, jn, p, pn, &mut s),
        mcp_status::MCP_STATUS_OK
    );
    assert_eq!(take(s), "tool");
    let (p, pn) = bytes("/n");
    let mut s = ptr::null_mut();
    assert_ne!(
        mcp_json_get_string(j, jn, p, pn, &mut s),
        mcp_status::MCP_STATUS_OK
    );
    assert!(s.is_null(), "an out-parameter is written only on success");
    let mut i = -1i64;
    assert_eq!(
        mcp_json_get_int64(j, jn, p, pn, &mut i),
        mcp_status::MCP_STATUS_OK
    );
    assert_eq!(i, 42);
    let (p, pn) = bytes("/x");
    let mut d = 0.0f64;
    assert_eq!(
        mcp_json_get_double(j, jn, p, pn, &mut d),
        mcp_status::MCP_STATUS_OK
    );
    assert_eq!(d, 1.5);
    let mut i = -1i64;
    assert_ne!(
        mcp_json_get_int64(j, jn, p, pn, &mut i),
        mcp_status::MCP_STATUS_OK
    );
    assert_eq!(i, -1);
    let (p, pn) = bytes("/on");
    let mut b = false;
    assert_eq!(
        mcp_json_get_bool(j, jn, p, pn, &mut b),
        mcp_status::MCP_STATUS_OK
    );
    assert!(b);
    assert_eq!(
        mcp_json_get_bool(j, jn, p, pn, ptr::null_mut()),
        mcp_status::MCP_STATUS_NULL_PARAMETER
    );

    let (p, pn) = bytes("");
    let mut keys = ptr::null_mut();
    assert_eq!(
        mcp_json_keys(j, jn, p, pn, &mut keys),
        mcp_status::MCP_STATUS_OK
    );
    assert_eq!(take(keys), r#"["n","name","o","on","tags","x"]"#);

    // Truncated, not UTF-8, NULL with a length: each its own status, nothing allocated.
    let truncated = &DOC[..DOC.len() / 2];
    let (t, tn) = bytes(truncated);
    let (p, pn) = bytes("/name");
    let mut s = ptr::null_mut();
    assert_eq!(
        mcp_json_get(t, tn, p, pn, &mut s),
        mcp_status::MCP_STATUS_INVALID_JSON
    );
    assert!(s.is_null());
    let bad = [b'"', 0xc3, b'"'];
    assert_eq!(
        mcp_json_get(bad.as_ptr().cast(), bad.len(), p, pn, &mut s),
        mcp_status::MCP_STATUS_INVALID_UTF8
    );
    assert_eq!(
        mcp_json_get(ptr::null(), 3, p, pn, &mut s),
        mcp_status::MCP_STATUS_NULL_PARAMETER
    );
    assert!(s.is_null());
}

#[test]
fn json_quote_escapes_exactly() {
    let (p, n) = bytes("a \"q\"\n\u{1}é");
    let mut s = ptr::null_mut();
    assert_eq!(mcp_json_quote(p, n, &mut s), mcp_status::MCP_STATUS_OK);
    assert_eq!(take(s), "\"a \\\"q\\\"\\n\\u0001é\"");
}

#[test]
fn config_objects_take_their_settings_and_refuse_bad_ones() {
    let mut c = ptr::null_mut();
    assert_eq!(mcp_server_config_new(&mut c), mcp_status::MCP_STATUS_OK);
    assert_eq!(
        mcp_server_config_set_page_size(c, 10),
        mcp_status::MCP_STATUS_OK
    );
    assert_eq!(
        mcp_server_config_set_page_size(c, 0),
        mcp_status::MCP_STATUS_INVALID_ARGUMENT
    );
    let (v, vn) = bytes("2025-06-18");
    assert_eq!(
        mcp_server_config_add_version(c, v, vn),
        mcp_status::MCP_STATUS_OK
    );
    let (v, vn) = bytes("not-a-version");
    assert_eq!(
        mcp_server_config_add_version(c, v, vn),
        mcp_status::MCP_STATUS_INVALID_ARGUMENT
    );
    let key = [7u8; 32];
    assert_eq!(
        mcp_server_config_set_state_key(c, key.as_ptr(), key.len()),
        mcp_status::MCP_STATUS_OK
    );
    assert_eq!(
        mcp_server_config_set_state_key(c, key.as_ptr(), 3),
        mcp_status::MCP_STATUS_INVALID_ARGUMENT
    );
    assert_eq!(
        mcp_server_config_set_page_size(ptr::null_mut(), 10),
        mcp_status::MCP_STATUS_NULL_PARAMETER
    );
    mcp_server_config_free(c);
    mcp_server_config_free(ptr::null_mut());

    let mut c = ptr::null_mut();
    assert_eq!(mcp_client_config_new(&mut c), mcp_status::MCP_STATUS_OK);
    let (k, kn) = bytes("title");
    let (j, jn) = bytes("\"Soak\"");
    assert_eq!(
        mcp_client_config_set_info_field(c, k, kn, j, jn),
        mcp_status::MCP_STATUS_OK
    );
    let (j, jn) = bytes("{\"unterminated\"");
    assert_eq!(
        mcp_client_config_set_info_field(c, k, kn, j, jn),
        mcp_status::MCP_STATUS_INVALID_JSON
    );
    let (v, vn) = bytes("2026-07-28");
    assert_eq!(
        mcp_client_config_set_version(c, v, vn),
        mcp_status::MCP_STATUS_OK
    );
    assert_eq!(
        mcp_client_config_set_capabilities(c, true, true),
        mcp_status::MCP_STATUS_OK
    );
    mcp_client_config_free(c);
}

#[test]
fn every_status_has_a_static_description() {
    for s in [
        mcp_status::MCP_STATUS_OK,
        mcp_status::MCP_STATUS_NULL_PARAMETER,
        mcp_status::MCP_STATUS_INVALID_UTF8,
        mcp_status::MCP_STATUS_INVALID_JSON,
        mcp_status::MCP_STATUS_INVALID_ARGUMENT,
        mcp_status::MCP_STATUS_NOT_FOUND,
        mcp_status::MCP_STATUS_INVALID_RESULT,
        mcp_status::MCP_STATUS_NO_SESSION,
    ] {
        // SAFETY: descriptions are static NUL-terminated strings.
        let d = unsafe { CStr::from_ptr(mcp_status_describe(s)) };
        assert!(!d.to_bytes().is_empty(), "{s:?}");
    }
    // SAFETY: as above.
    let v = unsafe { CStr::from_ptr(mcp_version()) };
    assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}
