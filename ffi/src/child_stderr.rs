//! `mcp_child_stderr`: where the stderr lines of a server started by
//! `mcp_client_builder_connect_stdio` go.

use std::io::Write as _;
use std::sync::Arc;

use libmcp::transport::child::StderrSink;

use crate::client::mcp_client_builder;
use crate::status::mcp_status;

/// What happens to the lines a child server writes to its stderr.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum mcp_child_stderr {
    /// The default: each line is a diagnostic (`MCP_LOG_INFO`, target `libmcp::child_stderr`) for the
    /// callback of `mcp_set_log_callback`, and dropped when none is installed.
    MCP_CHILD_STDERR_LOG = 0,
    /// Each line is written to this process's stderr as `[program] line`.
    MCP_CHILD_STDERR_FORWARD = 1,
    /// Lines are read and dropped.
    MCP_CHILD_STDERR_DISCARD = 2,
}

/// The engine's sink for `mode` (`None`: the engine's default, a `tracing` event per line).
pub(crate) fn sink(mode: mcp_child_stderr, program: &str) -> Option<StderrSink> {
    match mode {
        mcp_child_stderr::MCP_CHILD_STDERR_LOG => None,
        mcp_child_stderr::MCP_CHILD_STDERR_FORWARD => {
            let prefix = format!("[{program}] ");
            Some(Arc::new(move |line: &str| {
                // One write per line, so lines of concurrent children do not interleave.
                let _ = std::io::stderr().write_all(format!("{prefix}{line}\n").as_bytes());
            }))
        }
        mcp_child_stderr::MCP_CHILD_STDERR_DISCARD => Some(Arc::new(|_: &str| {})),
    }
}

/// Chooses where the child's stderr lines go (`mode`: an `mcp_child_stderr` value; others are
/// `MCP_STATUS_INVALID_ARGUMENT`). Applies to `mcp_client_builder_connect_stdio`; nothing is
/// written to this process's stderr unless `MCP_CHILD_STDERR_FORWARD` is chosen.
/// `MCP_STATUS_ALREADY_USED` after connecting. Use the builder from one thread at a time.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_set_child_stderr(
    builder: *mut mcp_client_builder,
    mode: u32,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        if b.inner.is_none() {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        }
        b.child_stderr = match mode {
            0 => mcp_child_stderr::MCP_CHILD_STDERR_LOG,
            1 => mcp_child_stderr::MCP_CHILD_STDERR_FORWARD,
            2 => mcp_child_stderr::MCP_CHILD_STDERR_DISCARD,
            _ => return mcp_status::MCP_STATUS_INVALID_ARGUMENT,
        };
        mcp_status::MCP_STATUS_OK
    })
}
