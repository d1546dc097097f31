//! `mcp_json_get`, `_get_string`, `_get_double`, `_get_int64`, `_get_bool`: reading one value out of a JSON document by JSON Pointer
//! (RFC 6901), so C handlers can inspect arguments and input responses without a JSON library.

use std::ffi::c_char;

use serde_json::Value;

use crate::status::mcp_status;
use crate::string::mcp_string;

/// Looks up `pointer` in `json`; the status says why not.
fn lookup(
    json: *const c_char,
    json_len: usize,
    pointer: *const c_char,
    pointer_len: usize,
) -> Result<Value, mcp_status> {
    let doc = unsafe { crate::string::str_from_raw(json, json_len) }?;
    let pointer = unsafe { crate::string::str_from_raw(pointer, pointer_len) }?;
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return Err(mcp_status::MCP_STATUS_INVALID_ARGUMENT);
    }
    let mut v: Value =
        serde_json::from_str(doc).map_err(|_| mcp_status::MCP_STATUS_INVALID_JSON)?;
    match v.pointer_mut(pointer) {
        Some(found) => Ok(found.take()),
        None => Err(mcp_status::MCP_STATUS_NOT_FOUND),
    }
}

/// Finds the value at JSON Pointer `pointer` (RFC 6901: "" is the whole document, "/a/0/b" walks
/// object keys and array indexes, `~1` stands for `/` and `~0` for `~`) in the JSON text `json` and
/// writes it, re-serialized as compact JSON, to `*value_out` (free with `mcp_string_free`). Fails with
/// `MCP_STATUS_INVALID_JSON` when `json` does not parse, `MCP_STATUS_INVALID_ARGUMENT` when `pointer`
/// is neither empty nor starts with `/`, `MCP_STATUS_NOT_FOUND` when nothing is there; nothing is
/// written on failure. Inputs are only read during the call. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_json_get(
    json: *const c_char,
    json_len: usize,
    pointer: *const c_char,
    pointer_len: usize,
    value_out: *mut *mut mcp_string,
) -> mcp_status {
    ffi_boundary!({
        try_out!(value_out);
        match lookup(json, json_len, pointer, pointer_len) {
            Ok(v) => {
                unsafe { *value_out = mcp_string::new_raw(v.to_string()) };
                mcp_status::MCP_STATUS_OK
            }
            Err(status) => status,
        }
    })
}

/// Like `mcp_json_get`, for a value that must be a JSON string: writes its content (unescaped, without
/// quotes) to `*value_out`. A value of another type is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_json_get_string(
    json: *const c_char,
    json_len: usize,
    pointer: *const c_char,
    pointer_len: usize,
    value_out: *mut *mut mcp_string,
) -> mcp_status {
    ffi_boundary!({
        try_out!(value_out);
        match lookup(json, json_len, pointer, pointer_len) {
            Ok(Value::String(s)) => {
                unsafe { *value_out = mcp_string::new_raw(s) };
                mcp_status::MCP_STATUS_OK
            }
            Ok(_) => mcp_status::MCP_STATUS_INVALID_ARGUMENT,
            Err(status) => status,
        }
    })
}

/// Looks up a scalar with `pick` and writes it to `*out`: `MCP_STATUS_INVALID_ARGUMENT` when the value
/// there is not of the kind `pick` accepts.
fn get_scalar<T>(
    json: *const c_char,
    json_len: usize,
    pointer: *const c_char,
    pointer_len: usize,
    out: *mut T,
    pick: impl FnOnce(&Value) -> Option<T>,
) -> mcp_status {
    try_out!(out);
    match lookup(json, json_len, pointer, pointer_len) {
        Ok(v) => match pick(&v) {
            Some(x) => {
                unsafe { *out = x };
                mcp_status::MCP_STATUS_OK
            }
            None => mcp_status::MCP_STATUS_INVALID_ARGUMENT,
        },
        Err(status) => status,
    }
}

/// Like `mcp_json_get`, for a JSON number: writes it to `*value_out` as a double (integers beyond
/// 2^53 lose precision). A value of another type is `MCP_STATUS_INVALID_ARGUMENT`. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_json_get_double(
    json: *const c_char,
    json_len: usize,
    pointer: *const c_char,
    pointer_len: usize,
    value_out: *mut f64,
) -> mcp_status {
    ffi_boundary!({
        get_scalar(
            json,
            json_len,
            pointer,
            pointer_len,
            value_out,
            Value::as_f64,
        )
    })
}

/// Like `mcp_json_get`, for a JSON integer that fits an `int64_t` (written to `*value_out`). A number
/// with a fraction or an exponent (`3.0`, `1e3`), one out of range, or a value of another type is
/// `MCP_STATUS_INVALID_ARGUMENT`. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_json_get_int64(
    json: *const c_char,
    json_len: usize,
    pointer: *const c_char,
    pointer_len: usize,
    value_out: *mut i64,
) -> mcp_status {
    ffi_boundary!({
        get_scalar(
            json,
            json_len,
            pointer,
            pointer_len,
            value_out,
            Value::as_i64,
        )
    })
}

/// Like `mcp_json_get`, for `true` or `false` (written to `*value_out`). A value of another type is
/// `MCP_STATUS_INVALID_ARGUMENT`. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_json_get_bool(
    json: *const c_char,
    json_len: usize,
    pointer: *const c_char,
    pointer_len: usize,
    value_out: *mut bool,
) -> mcp_status {
    ffi_boundary!({
        get_scalar(
            json,
            json_len,
            pointer,
            pointer_len,
            value_out,
            Value::as_bool,
        )
    })
}

/// Writes `text` (UTF-8) as a JSON string literal, quotes included, to `*json_out` (free with
/// `mcp_string_free`): the safe way to splice user text into JSON built with `snprintf`. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_json_quote(
    text: *const c_char,
    text_len: usize,
    json_out: *mut *mut mcp_string,
) -> mcp_status {
    ffi_boundary!({
        let text = try_str!(text, text_len);
        try_out!(json_out);
        unsafe { *json_out = mcp_string::new_raw(Value::from(text).to_string()) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Writes the keys of the object at JSON Pointer `pointer` in `json` (order not guaranteed) as a JSON
/// array of strings to `*keys_out` (free with `mcp_string_free`); read them back with
/// `mcp_json_get_string(keys, "/0")`, "/1", ... Fails like `mcp_json_get`, and with
/// `MCP_STATUS_INVALID_ARGUMENT` when the value is not an object. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_json_keys(
    json: *const c_char,
    json_len: usize,
    pointer: *const c_char,
    pointer_len: usize,
    keys_out: *mut *mut mcp_string,
) -> mcp_status {
    ffi_boundary!({
        try_out!(keys_out);
        match lookup(json, json_len, pointer, pointer_len) {
            Ok(Value::Object(m)) => {
                let keys: Vec<&String> = m.keys().collect();
                let text = serde_json::to_string(&keys).unwrap_or_else(|_| "[]".into());
                unsafe { *keys_out = mcp_string::new_raw(text) };
                mcp_status::MCP_STATUS_OK
            }
            Ok(_) => mcp_status::MCP_STATUS_INVALID_ARGUMENT,
            Err(status) => status,
        }
    })
}
