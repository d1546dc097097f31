//! Strings between JS and Rust in fewer passes than napi-rs's generic `String` conversion, for
//! the texts every call carries (a result's JSON text, the large strings of `large_strings.rs`).
//!
//! From JS, napi-rs asks V8 for the UTF-8 length (a pass over the string), zeroes a buffer of that
//! length (a second), has V8 write into it (a third) and checks it is UTF-8 (a fourth);
//! [`string_from_js`] lets V8 write into an uninitialized buffer of the string's length in UTF-16
//! units, which holds it whole when it is ASCII, and checks that with one pass (`is_ascii`). Other
//! strings are measured and written again into a buffer of their UTF-8 length. To JS, an ASCII
//! string is made with `napi_create_string_latin1` (a copy) instead of V8's UTF-8 decoder (a scan
//! for multi-byte sequences, then the copy).

use std::ptr;

use napi::bindgen_prelude::{FromNapiValue, ToNapiValue, TypeName, ValidateNapiValue, ValueType};
use napi::{Error, Status, sys};

/// Fails with `what` unless `status` is `napi_ok`.
fn check(status: sys::napi_status, what: &str) -> napi::Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(Status::from(status), what.to_owned()))
    }
}

/// Copies the JS string `value` into a Rust `String`; a `StringExpected` error when it is not a
/// string.
///
/// # Safety
/// `env` and `value` must be valid for the current N-API call.
pub(crate) unsafe fn string_from_js(
    env: sys::napi_env,
    value: sys::napi_value,
) -> napi::Result<String> {
    let mut units = 0usize;
    // With no buffer, the length in UTF-16 units: no pass over the characters.
    let status =
        unsafe { sys::napi_get_value_string_utf16(env, value, ptr::null_mut(), 0, &mut units) };
    if status == sys::Status::napi_string_expected {
        return Err(Error::new(
            Status::StringExpected,
            "expected a string".to_owned(),
        ));
    }
    check(status, "could not read a JS string's length")?;
    // An ASCII string is `units` bytes of UTF-8; V8 writes at most `units` here (plus the NUL).
    let ascii = unsafe { write_utf8(env, value, units + 1)? };
    if ascii.len() == units && ascii.is_ascii() {
        // SAFETY: checked ASCII just above.
        return Ok(unsafe { String::from_utf8_unchecked(ascii) });
    }
    // Not ASCII: V8 measures its UTF-8 (one more pass) and writes it into a buffer of that size.
    let mut len = 0usize;
    check(
        unsafe { sys::napi_get_value_string_utf8(env, value, ptr::null_mut(), 0, &mut len) },
        "could not measure a JS string",
    )?;
    let bytes = unsafe { write_utf8(env, value, len + 1)? };
    if bytes.len() != len {
        return Err(Error::new(
            Status::GenericFailure,
            "a JS string changed length while it was copied".to_owned(),
        ));
    }
    String::from_utf8(bytes).map_err(|_| {
        Error::new(
            Status::GenericFailure,
            "a JS string came out of V8 as invalid UTF-8".to_owned(),
        )
    })
}

/// Has V8 write `value` as UTF-8 into a new buffer of `capacity` bytes (the last for its NUL),
/// and returns the bytes written (fewer than the string's when it does not fit).
///
/// # Safety
/// `env` and `value` must be valid for the current N-API call.
unsafe fn write_utf8(
    env: sys::napi_env,
    value: sys::napi_value,
    capacity: usize,
) -> napi::Result<Vec<u8>> {
    let mut buf: Vec<u8> = Vec::with_capacity(capacity);
    let mut written = 0usize;
    check(
        unsafe {
            sys::napi_get_value_string_utf8(
                env,
                value,
                buf.as_mut_ptr().cast(),
                capacity,
                &mut written,
            )
        },
        "could not copy a JS string",
    )?;
    // N-API writes at most `capacity - 1` bytes and a NUL.
    if written >= capacity {
        return Err(Error::new(
            Status::GenericFailure,
            "N-API wrote a JS string past its buffer".to_owned(),
        ));
    }
    // SAFETY: V8 initialized `written` bytes, fewer than the capacity (checked above).
    unsafe { buf.set_len(written) };
    Ok(buf)
}

/// The JS string for `s`.
///
/// # Safety
/// `env` must be valid for the current N-API call.
pub(crate) unsafe fn string_to_js(env: sys::napi_env, s: &str) -> napi::Result<sys::napi_value> {
    let mut out = ptr::null_mut();
    let len = s.len() as isize;
    let status = if s.is_ascii() {
        // ASCII is Latin-1, byte for byte.
        unsafe { sys::napi_create_string_latin1(env, s.as_ptr().cast(), len, &mut out) }
    } else {
        unsafe { sys::napi_create_string_utf8(env, s.as_ptr().cast(), len, &mut out) }
    };
    check(status, "could not make a JS string")?;
    Ok(out)
}

/// A string converted with [`string_from_js`] and [`string_to_js`]; `string` in TypeScript
/// (functions and fields of this type say so with `ts_arg_type` / `ts_type`).
pub struct JsText(pub String);

impl TypeName for JsText {
    fn type_name() -> &'static str {
        "string"
    }

    fn value_type() -> ValueType {
        ValueType::String
    }
}

impl ValidateNapiValue for JsText {}

impl FromNapiValue for JsText {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> napi::Result<Self> {
        unsafe { string_from_js(env, value) }.map(JsText)
    }
}

impl ToNapiValue for JsText {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
        unsafe { string_to_js(env, &val.0) }
    }
}

/// An array of strings converted one by one with [`string_from_js`] and [`string_to_js`];
/// `Array<string>` in TypeScript.
pub struct JsStrings(pub Vec<String>);

impl TypeName for JsStrings {
    fn type_name() -> &'static str {
        "Array<string>"
    }

    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ValidateNapiValue for JsStrings {}

impl FromNapiValue for JsStrings {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> napi::Result<Self> {
        let mut is_array = false;
        check(
            unsafe { sys::napi_is_array(env, value, &mut is_array) },
            "could not check for an array",
        )?;
        if !is_array {
            return Err(Error::new(
                Status::ArrayExpected,
                "expected an array of strings".to_owned(),
            ));
        }
        let mut len = 0u32;
        check(
            unsafe { sys::napi_get_array_length(env, value, &mut len) },
            "could not read an array's length",
        )?;
        let mut strings = Vec::with_capacity(len as usize);
        for i in 0..len {
            let mut item = ptr::null_mut();
            check(
                unsafe { sys::napi_get_element(env, value, i, &mut item) },
                "could not read an array's item",
            )?;
            let s = unsafe { string_from_js(env, item) }.map_err(|e| {
                Error::new(
                    e.status,
                    format!("item {i} of an array of strings: {}", e.reason),
                )
            })?;
            strings.push(s);
        }
        Ok(JsStrings(strings))
    }
}

impl ToNapiValue for JsStrings {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
        let mut array = ptr::null_mut();
        check(
            unsafe { sys::napi_create_array_with_length(env, val.0.len(), &mut array) },
            "could not make a JS array",
        )?;
        for (i, s) in val.0.iter().enumerate() {
            let item = unsafe { string_to_js(env, s)? };
            check(
                unsafe { sys::napi_set_element(env, array, i as u32, item) },
                "could not fill a JS array",
            )?;
        }
        Ok(array)
    }
}
