//! `mcp_set_log_callback`: the engine's diagnostics (`tracing` events under targets starting with
//! `libmcp`) delivered to a C callback. The library prints nothing itself; without a callback the
//! events go nowhere.

use std::ffi::c_void;
use std::sync::Arc;

use libmcp::host::{Diagnostic, DiagnosticLevel, set_diagnostics_sink};

use crate::handler::{Userdata, mcp_userdata_free_cb};
use crate::responder::mcp_log_level;
use crate::status::mcp_status;
use crate::string::{mcp_str, nul_terminated};

/// Receives one diagnostic of the library: its severity, the `target` it comes from (a Rust module
/// path such as `libmcp::server::answer`, or `libmcp::child_stderr` for a line a child server
/// wrote to its stderr) and the message, with any extra fields appended as ` key=value` (the text
/// every host of the engine shows, `libmcp::host::Diagnostic`). Both views
/// are valid only during the call. Called on the thread that emitted the event (a runtime thread,
/// or the caller's own thread inside a library call such as `mcp_responder_result`), possibly on
/// several threads at once. It must return quickly, must not call blocking library functions
/// (`MCP_STATUS_WRONG_THREAD` on runtime threads) and must not unwind.
pub type mcp_log_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        level: mcp_log_level,
        target: mcp_str,
        message: mcp_str,
    ),
>;

/// The installed callback and the least severe level it receives.
struct Sink {
    cb: unsafe extern "C" fn(*mut c_void, mcp_log_level, mcp_str, mcp_str),
    userdata: Userdata,
    min: mcp_log_level,
}

impl Sink {
    fn deliver(&self, d: &Diagnostic) {
        let level = level_of(d.level);
        if (level as u32) < self.min as u32 {
            return;
        }
        let message = nul_terminated(d.text.as_str());
        let target = nul_terminated(d.target.as_str());
        unsafe {
            (self.cb)(
                self.userdata.ptr(),
                level,
                mcp_str::of_nul_terminated(&target),
                mcp_str::of_nul_terminated(&message),
            )
        };
    }
}

/// The C level of a diagnostic's.
fn level_of(level: DiagnosticLevel) -> mcp_log_level {
    match level {
        DiagnosticLevel::Error => mcp_log_level::MCP_LOG_ERROR,
        DiagnosticLevel::Warn => mcp_log_level::MCP_LOG_WARNING,
        DiagnosticLevel::Info => mcp_log_level::MCP_LOG_INFO,
        DiagnosticLevel::Debug => mcp_log_level::MCP_LOG_DEBUG,
    }
}

/// The least severe diagnostic level that can reach a callback asking for `min` and more severe
/// (the engine emits nothing between its levels: NOTICE and above ask for WARNING).
fn least_for(min: mcp_log_level) -> DiagnosticLevel {
    match min {
        mcp_log_level::MCP_LOG_DEBUG => DiagnosticLevel::Debug,
        mcp_log_level::MCP_LOG_INFO => DiagnosticLevel::Info,
        mcp_log_level::MCP_LOG_NOTICE | mcp_log_level::MCP_LOG_WARNING => DiagnosticLevel::Warn,
        _ => DiagnosticLevel::Error,
    }
}

/// The crates whose diagnostics the callback gets besides the engine's: this one, whose module
/// paths start with `mcp` (its library name) and whose events may name `libmcp_ffi` explicitly.
const ROOTS: &[&str] = &["mcp", "libmcp_ffi"];

/// Sends the library's diagnostics to `cb(userdata, level, target, message)` (see `mcp_log_cb`):
/// every event at `min_level` (an `mcp_log_level` value) or more severe. Without a callback the
/// library reports nothing and writes nothing to stderr; a child server's stderr lines
/// (`mcp_client_builder_connect_stdio`) arrive here as `MCP_LOG_INFO` events with target
/// `libmcp::child_stderr`. Process-wide: a later call replaces the callback (and level), a NULL `cb`
/// removes it. `userdata_free(userdata)` (may be NULL) runs exactly once, when the callback is
/// replaced or removed and no call of it is still running, on the thread that lets go of it last;
/// also at once when this call fails. A callback still installed at exit is never finalized. Fails
/// with `MCP_STATUS_INVALID_ARGUMENT` for an unknown level and `MCP_STATUS_ALREADY_USED` when the
/// process already has another `tracing` subscriber (a Rust host's). Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_set_log_callback(
    min_level: u32,
    cb: mcp_log_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    let userdata = Userdata::new(userdata, userdata_free);
    ffi_boundary!({
        let min = match min_level {
            0 => mcp_log_level::MCP_LOG_DEBUG,
            1 => mcp_log_level::MCP_LOG_INFO,
            2 => mcp_log_level::MCP_LOG_NOTICE,
            3 => mcp_log_level::MCP_LOG_WARNING,
            4 => mcp_log_level::MCP_LOG_ERROR,
            5 => mcp_log_level::MCP_LOG_CRITICAL,
            6 => mcp_log_level::MCP_LOG_ALERT,
            7 => mcp_log_level::MCP_LOG_EMERGENCY,
            _ => return mcp_status::MCP_STATUS_INVALID_ARGUMENT,
        };
        let sink = cb.map(|cb| Arc::new(Sink { cb, userdata, min }));
        let deliver = sink
            .map(|s| Arc::new(move |d: &Diagnostic| s.deliver(d)) as libmcp::host::DiagnosticsSink);
        // The old callback is finalized when its last running call returns.
        if set_diagnostics_sink(least_for(min), ROOTS, deliver).is_err() {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        }
        mcp_status::MCP_STATUS_OK
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_c_level_asks_for_the_least_diagnostic_level_it_can_receive() {
        use mcp_log_level::*;
        for (c, least) in [
            (MCP_LOG_DEBUG, DiagnosticLevel::Debug),
            (MCP_LOG_INFO, DiagnosticLevel::Info),
            (MCP_LOG_NOTICE, DiagnosticLevel::Warn),
            (MCP_LOG_WARNING, DiagnosticLevel::Warn),
            (MCP_LOG_ERROR, DiagnosticLevel::Error),
            (MCP_LOG_EMERGENCY, DiagnosticLevel::Error),
        ] {
            assert_eq!(least_for(c), least, "{c:?}");
            assert!(level_of(least) as u32 >= c as u32 || c as u32 > MCP_LOG_ERROR as u32);
        }
    }
}
