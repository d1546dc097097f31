//! `mcp_status`: what every fallible function returns.

use std::ffi::c_char;

/// The outcome of a call. Append-only: values are never renumbered or reused.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum mcp_status {
    /// Success; `*_out` parameters were written.
    MCP_STATUS_OK = 0,
    /// A required pointer was NULL (FFI misuse).
    MCP_STATUS_NULL_PARAMETER = 1,
    /// A string was not valid UTF-8 (FFI misuse).
    MCP_STATUS_INVALID_UTF8 = 2,
    /// The handle was already consumed: a builder already built, a responder already answered (FFI
    /// misuse).
    MCP_STATUS_ALREADY_USED = 3,
    /// The library panicked; the call had no effect that can be relied on.
    MCP_STATUS_PANIC = 4,
    /// A string that must be JSON did not parse (or was not the expected kind of value).
    MCP_STATUS_INVALID_JSON = 5,
    /// A value was rejected: a bad definition, an unknown level, an out-of-range number.
    MCP_STATUS_INVALID_ARGUMENT = 6,
    /// The peer answered with a JSON-RPC error; see the `mcp_error` for code, message and data.
    MCP_STATUS_RPC_ERROR = 7,
    /// The transport failed or closed.
    MCP_STATUS_TRANSPORT = 8,
    /// No response arrived in time.
    MCP_STATUS_TIMEOUT = 9,
    /// The request was cancelled.
    MCP_STATUS_CANCELLED = 10,
    /// The peer broke the protocol.
    MCP_STATUS_PROTOCOL = 11,
    /// No protocol version acceptable to both sides.
    MCP_STATUS_NEGOTIATION = 12,
    /// An operating-system error (spawning a process, starting threads, reading stdin).
    MCP_STATUS_IO = 13,
    /// What was looked up does not exist (a JSON pointer that names nothing).
    MCP_STATUS_NOT_FOUND = 14,
    /// A blocking function was called on one of the library's own threads, from a callback, where
    /// it could only deadlock; nothing was done. Call it from a thread of your own.
    MCP_STATUS_WRONG_THREAD = 15,
    /// A handler's result breaks the protocol's rules for it (a tool's `content` that is not an
    /// array, `structuredContent` that violates the tool's `outputSchema`); the client was answered
    /// with an internal error (-32603) carrying the same reason.
    MCP_STATUS_INVALID_RESULT = 16,
    /// The request belongs to no session (`mcp_request_session`): a 2026-07-28 request (that
    /// revision has no sessions), or a legacy request served without one.
    MCP_STATUS_NO_SESSION = 17,
}

/// A static, NUL-terminated English description of `status`; never NULL, never freed. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_status_describe(status: mcp_status) -> *const c_char {
    let s: &'static [u8] = match status {
        mcp_status::MCP_STATUS_OK => b"ok\0",
        mcp_status::MCP_STATUS_NULL_PARAMETER => b"a required pointer was NULL\0",
        mcp_status::MCP_STATUS_INVALID_UTF8 => b"a string was not valid UTF-8\0",
        mcp_status::MCP_STATUS_ALREADY_USED => b"the handle was already used\0",
        mcp_status::MCP_STATUS_PANIC => b"the library panicked\0",
        mcp_status::MCP_STATUS_INVALID_JSON => b"invalid JSON\0",
        mcp_status::MCP_STATUS_INVALID_ARGUMENT => b"invalid argument\0",
        mcp_status::MCP_STATUS_RPC_ERROR => b"the peer answered with an error\0",
        mcp_status::MCP_STATUS_TRANSPORT => b"transport error\0",
        mcp_status::MCP_STATUS_TIMEOUT => b"timed out\0",
        mcp_status::MCP_STATUS_CANCELLED => b"cancelled\0",
        mcp_status::MCP_STATUS_PROTOCOL => b"protocol violation\0",
        mcp_status::MCP_STATUS_NEGOTIATION => b"version negotiation failed\0",
        mcp_status::MCP_STATUS_IO => b"operating-system error\0",
        mcp_status::MCP_STATUS_NOT_FOUND => b"not found\0",
        mcp_status::MCP_STATUS_WRONG_THREAD => {
            b"a blocking call was made on a library thread (from a callback)\0"
        }
        mcp_status::MCP_STATUS_INVALID_RESULT => b"the handler's result was invalid\0",
        mcp_status::MCP_STATUS_NO_SESSION => b"the request belongs to no session\0",
    };
    s.as_ptr().cast()
}
