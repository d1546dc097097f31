//! `mcp_error`: why a call failed, with the JSON-RPC code, message and data of a protocol error.

use libmcp::Error;

use crate::status::mcp_status;
use crate::string::{mcp_str, nul_terminated};

/// An error returned through an `error_out` parameter. Owned by the caller; release it with
/// `mcp_error_free`.
pub struct mcp_error {
    status: mcp_status,
    code: i32,
    message: String,
    data: Option<String>,
}

impl mcp_error {
    /// An error of the given kind with a message and no JSON-RPC code.
    pub(crate) fn new(status: mcp_status, message: impl Into<String>) -> mcp_error {
        mcp_error {
            status,
            code: 0,
            message: nul_terminated(message),
            data: None,
        }
    }

    /// The error of a failed engine call.
    pub(crate) fn from_engine(e: &Error) -> mcp_error {
        match e {
            Error::Rpc(rpc) => mcp_error {
                status: mcp_status::MCP_STATUS_RPC_ERROR,
                code: rpc.code,
                message: nul_terminated(rpc.message.clone()),
                data: rpc.data.as_ref().map(|d| nul_terminated(d.to_string())),
            },
            other => mcp_error::new(status_of(other), detail(other)),
        }
    }

    /// The status this error stands for.
    pub(crate) fn status(&self) -> mcp_status {
        self.status
    }

    /// Writes this error to `out` when `out` is not NULL (and drops it otherwise); returns its status.
    pub(crate) fn store(self, out: *mut *mut mcp_error) -> mcp_status {
        let status = self.status;
        if !out.is_null() {
            unsafe { *out = Box::into_raw(Box::new(self)) };
        }
        status
    }
}

/// What an engine error says beyond its status: printed as the header's examples print errors
/// (`mcp_status_describe(status)`, then this), the kind is not said twice ("transport error:
/// connection refused", not "transport error: transport error: connection refused").
fn detail(e: &Error) -> String {
    match e {
        Error::Transport(t) => t.to_string(),
        Error::Timeout(after) => format!("no answer within {after:?}"),
        Error::Cancelled => "by this side, before the answer arrived".into(),
        Error::Closed => "the connection closed".into(),
        Error::Protocol(m) | Error::Negotiation(m) | Error::InvalidArgument(m) => m.clone(),
        // These keep their own words: the status they share does not name them.
        other => other.to_string(),
    }
}

/// The status that stands for an engine error.
pub(crate) fn status_of(e: &Error) -> mcp_status {
    match e {
        Error::Rpc(_) => mcp_status::MCP_STATUS_RPC_ERROR,
        Error::Transport(_) => mcp_status::MCP_STATUS_TRANSPORT,
        Error::Timeout(_) => mcp_status::MCP_STATUS_TIMEOUT,
        Error::Cancelled => mcp_status::MCP_STATUS_CANCELLED,
        Error::Protocol(_) => mcp_status::MCP_STATUS_PROTOCOL,
        Error::InvalidArgument(_) => mcp_status::MCP_STATUS_INVALID_ARGUMENT,
        Error::Negotiation(_) => mcp_status::MCP_STATUS_NEGOTIATION,
        // Both end a connection's transport, as before they had their own kinds.
        Error::Closed | Error::Authorization(_) => mcp_status::MCP_STATUS_TRANSPORT,
        Error::InvalidDefinitions(_) | Error::InvalidConfig(_) => {
            mcp_status::MCP_STATUS_INVALID_ARGUMENT
        }
        _ => mcp_status::MCP_STATUS_PROTOCOL,
    }
}

/// The kind of failure (never `MCP_STATUS_OK`); `MCP_STATUS_NULL_PARAMETER` when `error` is NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_error_status(error: *const mcp_error) -> mcp_status {
    ffi_boundary!({ try_ref!(error).status })
}

/// The JSON-RPC error code when the status is `MCP_STATUS_RPC_ERROR`, else 0 (also 0 for NULL).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_error_code(error: *const mcp_error) -> i32 {
    ffi_boundary!(0, {
        match unsafe { error.as_ref() } {
            Some(e) => e.code,
            None => 0,
        }
    })
}

/// The message (UTF-8, NUL-terminated). Valid until `mcp_error_free(error)`; empty for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_error_message(error: *const mcp_error) -> mcp_str {
    ffi_boundary!(mcp_str::empty(), {
        match unsafe { error.as_ref() } {
            Some(e) => mcp_str::of_nul_terminated(&e.message),
            None => mcp_str::empty(),
        }
    })
}

/// The JSON-RPC `data` as JSON text, or an empty view when there is none. Valid until
/// `mcp_error_free(error)`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_error_data(error: *const mcp_error) -> mcp_str {
    ffi_boundary!(mcp_str::empty(), {
        match unsafe { error.as_ref() }.and_then(|e| e.data.as_deref()) {
            Some(d) => mcp_str::of_nul_terminated(d),
            None => mcp_str::empty(),
        }
    })
}

/// Frees an error. NULL is ignored. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_error_free(error: *mut mcp_error) {
    ffi_boundary!((), {
        if !error.is_null() {
            drop(unsafe { Box::from_raw(error) });
        }
    })
}
