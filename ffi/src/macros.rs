//! The small macros every extern fn uses: a panic boundary and pointer, UTF-8 and JSON checks that
//! return the matching `mcp_status`. Each extern fn is still written out literally so cbindgen sees it.

/// Runs the body, turning a panic into `MCP_STATUS_PANIC` (or into `$default` for non-status returns).
macro_rules! ffi_boundary {
    ($body:block) => {
        ffi_boundary!($crate::status::mcp_status::MCP_STATUS_PANIC, $body)
    };
    ($default:expr, $body:block) => {
        match ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| $body)) {
            Ok(v) => v,
            Err(_) => $default,
        }
    };
}

/// Borrows `*const T` as `&T`, or returns `MCP_STATUS_NULL_PARAMETER`.
macro_rules! try_ref {
    ($ptr:expr) => {
        match unsafe { $ptr.as_ref() } {
            Some(r) => r,
            None => return $crate::status::mcp_status::MCP_STATUS_NULL_PARAMETER,
        }
    };
}

/// Borrows `*mut T` as `&mut T`, or returns `MCP_STATUS_NULL_PARAMETER`.
macro_rules! try_mut {
    ($ptr:expr) => {
        match unsafe { $ptr.as_mut() } {
            Some(r) => r,
            None => return $crate::status::mcp_status::MCP_STATUS_NULL_PARAMETER,
        }
    };
}

/// Checks that an out pointer is not NULL.
macro_rules! try_out {
    ($ptr:expr) => {
        if $ptr.is_null() {
            return $crate::status::mcp_status::MCP_STATUS_NULL_PARAMETER;
        }
    };
}

/// Borrows `(ptr, len)` as `&str`: NULL with a non-zero length is `MCP_STATUS_NULL_PARAMETER`, bad
/// UTF-8 is `MCP_STATUS_INVALID_UTF8`.
macro_rules! try_str {
    ($ptr:expr, $len:expr) => {
        match unsafe { $crate::string::str_from_raw($ptr, $len) } {
            Ok(s) => s,
            Err(status) => return status,
        }
    };
}

/// Parses `(ptr, len)` as JSON: adds `MCP_STATUS_INVALID_JSON` to the checks of `try_str!`.
macro_rules! try_json {
    ($ptr:expr, $len:expr) => {
        match ::serde_json::from_str::<::serde_json::Value>(try_str!($ptr, $len)) {
            Ok(v) => v,
            Err(_) => return $crate::status::mcp_status::MCP_STATUS_INVALID_JSON,
        }
    };
}

/// Like `try_json!`, and `(NULL, 0)` stands for the empty object `{}` (optional arguments/params).
macro_rules! try_json_or_empty {
    ($ptr:expr, $len:expr) => {
        if $ptr.is_null() && $len == 0 {
            ::serde_json::json!({})
        } else {
            try_json!($ptr, $len)
        }
    };
}
