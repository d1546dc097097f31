//! Strings across the boundary: `mcp_str` (a borrowed view) and `mcp_string` (owned by C until
//! `mcp_string_free`).

use std::ffi::c_char;

use crate::status::mcp_status;

/// A borrowed UTF-8 view: `data` points at `len` bytes followed by a NUL (not counted in `len`).
/// `data` is never NULL in views the library returns. How long the view lives is stated by the
/// function that returns it. As an input (argument lists), `data` may be NULL only when `len` is 0.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mcp_str {
    /// The first byte.
    pub data: *const c_char,
    /// The length in bytes, without the terminating NUL.
    pub len: usize,
}

impl mcp_str {
    /// A view of `s`, which must end with a NUL that the view does not count.
    pub(crate) fn of_nul_terminated(s: &str) -> mcp_str {
        debug_assert!(s.ends_with('\0'));
        mcp_str {
            data: s.as_ptr().cast(),
            len: s.len() - 1,
        }
    }

    /// The empty view (a static "").
    pub(crate) fn empty() -> mcp_str {
        mcp_str {
            data: c"".as_ptr(),
            len: 0,
        }
    }
}

/// An owned UTF-8 string returned by the library. Read it with `mcp_string_data` / `mcp_string_len`;
/// release it with `mcp_string_free`, exactly once.
pub struct mcp_string {
    /// The text followed by one NUL.
    text: String,
}

impl mcp_string {
    /// Boxes `s` for C.
    pub(crate) fn new_raw(s: impl Into<String>) -> *mut mcp_string {
        let mut text = s.into();
        text.push('\0');
        Box::into_raw(Box::new(mcp_string { text }))
    }

    /// The text, without the NUL.
    pub(crate) fn into_text(mut self) -> String {
        self.text.pop();
        self.text
    }
}

/// Text kept with a NUL terminator, for views handed out by accessors.
pub(crate) fn nul_terminated(s: impl Into<String>) -> String {
    let mut s = s.into();
    s.push('\0');
    s
}

/// Borrows `(ptr, len)` as UTF-8. `(NULL, 0)` is the empty string.
///
/// # Safety
/// `ptr` must be NULL or point at `len` readable bytes that stay valid for `'a`.
pub(crate) unsafe fn str_from_raw<'a>(
    ptr: *const c_char,
    len: usize,
) -> Result<&'a str, mcp_status> {
    if ptr.is_null() {
        return if len == 0 {
            Ok("")
        } else {
            Err(mcp_status::MCP_STATUS_NULL_PARAMETER)
        };
    }
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    std::str::from_utf8(bytes).map_err(|_| mcp_status::MCP_STATUS_INVALID_UTF8)
}

/// The bytes of `s`, NUL-terminated (the NUL is not counted by `mcp_string_len`). Valid until
/// `mcp_string_free(s)`. Returns "" when `s` is NULL. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_string_data(s: *const mcp_string) -> *const c_char {
    ffi_boundary!(c"".as_ptr(), {
        match unsafe { s.as_ref() } {
            Some(s) => s.text.as_ptr().cast(),
            None => c"".as_ptr(),
        }
    })
}

/// The length of `s` in bytes, without the NUL; 0 when `s` is NULL. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_string_len(s: *const mcp_string) -> usize {
    ffi_boundary!(0, {
        match unsafe { s.as_ref() } {
            Some(s) => s.text.len() - 1,
            None => 0,
        }
    })
}

/// Creates a string holding a copy of `len` bytes of UTF-8 at `data` (NULL with length 0 is ""), for
/// callbacks that hand a string to the library (e.g. `mcp_authorize_cb`). Free it with
/// `mcp_string_free` unless ownership passes to the library. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_string_new(
    data: *const c_char,
    len: usize,
    string_out: *mut *mut mcp_string,
) -> mcp_status {
    ffi_boundary!({
        let s = try_str!(data, len);
        try_out!(string_out);
        unsafe { *string_out = mcp_string::new_raw(s) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Frees a string the library returned. NULL is ignored. After this call `s` and every pointer from
/// `mcp_string_data(s)` are invalid. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_string_free(s: *mut mcp_string) {
    ffi_boundary!((), {
        if !s.is_null() {
            drop(unsafe { Box::from_raw(s) });
        }
    })
}
