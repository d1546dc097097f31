//! `mcp_set_log_callback`: the engine's diagnostics (`tracing` events under targets starting with
//! `libmcp`) delivered to a C callback. The library prints nothing itself; without a callback the
//! events go nowhere.

use std::ffi::c_void;
use std::fmt::Write as _;
use std::sync::Arc;

use parking_lot::RwLock;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Level, Metadata, Subscriber};

use crate::handler::{Userdata, mcp_userdata_free_cb};
use crate::responder::mcp_log_level;
use crate::status::mcp_status;
use crate::string::{mcp_str, nul_terminated};

/// Receives one diagnostic of the library: its severity, the `target` it comes from (a Rust module
/// path such as `libmcp::server::answer`, or `libmcp::child_stderr` for a line a child server
/// wrote to its stderr) and the message, with any extra fields appended as ` key=value`. Both views
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

static SINK: RwLock<Option<Arc<Sink>>> = RwLock::new(None);

/// The C level of a `tracing` level (TRACE folds into DEBUG).
fn level_of(level: &Level) -> mcp_log_level {
    match *level {
        Level::ERROR => mcp_log_level::MCP_LOG_ERROR,
        Level::WARN => mcp_log_level::MCP_LOG_WARNING,
        Level::INFO => mcp_log_level::MCP_LOG_INFO,
        _ => mcp_log_level::MCP_LOG_DEBUG,
    }
}

/// Only the engine's own events: dependencies' diagnostics are theirs. The C ABI crate's own
/// module paths start with `mcp` (its library name); events may also name `libmcp_ffi` explicitly.
fn ours(meta: &Metadata<'_>) -> bool {
    ours_target(meta.target())
}

fn ours_target(t: &str) -> bool {
    let under = |root: &str| {
        t.strip_prefix(root)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
    };
    under("libmcp") || under("mcp") || under("libmcp_ffi")
}

/// The subscriber behind the callback: events only (the engine opens no spans).
struct CallbackSubscriber;

impl Subscriber for CallbackSubscriber {
    fn register_callsite(&self, meta: &'static Metadata<'static>) -> Interest {
        // Asked again on every event, so a changed level or callback takes effect at once.
        if ours(meta) {
            Interest::sometimes()
        } else {
            Interest::never()
        }
    }

    fn enabled(&self, meta: &Metadata<'_>) -> bool {
        ours(meta)
            && SINK
                .read()
                .as_ref()
                .is_some_and(|s| level_of(meta.level()) as u32 >= s.min as u32)
    }

    fn new_span(&self, _span: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _span: &Id, _values: &Record<'_>) {}

    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}

    fn event(&self, event: &Event<'_>) {
        // A clone, so the lock is not held while C runs (the callback may replace itself).
        let Some(sink) = SINK.read().clone() else {
            return;
        };
        let level = level_of(event.metadata().level());
        if (level as u32) < sink.min as u32 {
            return;
        }
        let mut text = Text::default();
        event.record(&mut text);
        let message = nul_terminated(text.message + &text.fields);
        let target = nul_terminated(event.metadata().target());
        unsafe {
            (sink.cb)(
                sink.userdata.ptr(),
                level,
                mcp_str::of_nul_terminated(&target),
                mcp_str::of_nul_terminated(&message),
            )
        };
    }

    fn enter(&self, _span: &Id) {}

    fn exit(&self, _span: &Id) {}
}

/// An event's `message` and its other fields as ` key=value`.
#[derive(Default)]
struct Text {
    message: String,
    fields: String,
}

impl Visit for Text {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message.push_str(value);
        } else {
            let _ = write!(self.fields, " {}={value}", field.name());
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.message, "{value:?}");
        } else {
            let _ = write!(self.fields, " {}={value:?}", field.name());
        }
    }
}

/// Installs the subscriber as the process's `tracing` default, once. False when another one was
/// installed first (a Rust host with its own subscriber).
fn install() -> bool {
    static INSTALLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *INSTALLED.get_or_init(|| {
        tracing::dispatcher::set_global_default(tracing::Dispatch::new(CallbackSubscriber)).is_ok()
    })
}

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
        let new = match cb {
            Some(cb) => {
                if !install() {
                    return mcp_status::MCP_STATUS_ALREADY_USED;
                }
                Some(Arc::new(Sink { cb, userdata, min }))
            }
            None => None,
        };
        let old = std::mem::replace(&mut *SINK.write(), new);
        // Finalized outside the lock: the old callback may still be running on another thread.
        drop(old);
        mcp_status::MCP_STATUS_OK
    })
}

#[cfg(test)]
mod tests {
    use super::ours_target;

    #[test]
    fn the_engines_and_this_crates_targets_are_ours_and_no_others() {
        for t in [
            "libmcp",
            "libmcp::transport::stdio",
            "mcp",
            "mcp::log",
            "libmcp_ffi",
        ] {
            assert!(ours_target(t), "{t}");
        }
        for t in [
            "hyper::proto",
            "mcpx",
            "libmcpx::a",
            "rustls",
            "libmcp_macros_other",
        ] {
            assert!(!ours_target(t), "{t}");
        }
    }
}
