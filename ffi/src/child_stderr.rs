//! Where the lines a child server writes to its stderr go (`mcp_child_stderr`), as the engine's sink.

use std::io::Write as _;
use std::sync::Arc;

use libmcp::transport::child::StderrSink;

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
