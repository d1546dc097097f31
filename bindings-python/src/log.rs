//! The engine's diagnostics (the binding kit's sink, `libmcp::host::set_diagnostics_sink`: events of
//! the engine, targets `libmcp::...`, and of this extension, `_native::...`) delivered to a Python
//! callable, which hands them to the `logging` logger `libmcp.engine`. Events below the level
//! Python set are dropped by the kit before the GIL is taken, so a disabled level costs one atomic
//! load per event.

use std::sync::Arc;

use libmcp::host::{Diagnostic, DiagnosticLevel, set_diagnostics_sink};
use pyo3::prelude::*;

/// `logging`'s numeric levels.
const DEBUG: u32 = 10;
const INFO: u32 = 20;
const WARNING: u32 = 30;
const ERROR: u32 = 40;

/// The crates whose diagnostics Python gets besides the engine's: this extension's.
const ROOTS: &[&str] = &["_native"];

/// The `logging` level of a diagnostic.
fn level_of(level: DiagnosticLevel) -> u32 {
    match level {
        DiagnosticLevel::Error => ERROR,
        DiagnosticLevel::Warn => WARNING,
        DiagnosticLevel::Info => INFO,
        DiagnosticLevel::Debug => DEBUG,
    }
}

/// The least severe diagnostic level a logger at `logging` level `min` takes, or `None` when it
/// takes none of them (above ERROR).
fn least_for(min: u32) -> Option<DiagnosticLevel> {
    [
        DiagnosticLevel::Debug,
        DiagnosticLevel::Info,
        DiagnosticLevel::Warn,
        DiagnosticLevel::Error,
    ]
    .into_iter()
    .find(|l| level_of(*l) >= min)
}

/// Sends the engine's diagnostics at `min_level` (a `logging` level) or more severe to
/// `emit(level, target, message)`, called with the GIL, the message the kit's flat text (the
/// event's message, then its fields as ` key=value`); `emit=None` stops them. Returns False when the
/// process already has another `tracing` subscriber (then nothing is delivered).
#[pyfunction]
#[pyo3(signature = (min_level, emit))]
pub fn set_engine_log(min_level: u32, emit: Option<Py<PyAny>>) -> bool {
    let least = least_for(min_level.max(1));
    let sink = match (emit, least) {
        (Some(emit), Some(_)) => Some(Arc::new(move |d: &Diagnostic| {
            Python::attach(|py| {
                let args = (level_of(d.level), d.target.as_str(), d.text.as_str());
                if let Err(e) = emit.call1(py, args) {
                    // The logging call itself failed (a broken handler): nothing to report it to.
                    e.print(py);
                }
            })
        }) as libmcp::host::DiagnosticsSink),
        _ => None,
    };
    set_diagnostics_sink(least.unwrap_or(DiagnosticLevel::Error), ROOTS, sink).is_ok()
}

/// Stops delivering (at exit: no Python call after the interpreter starts finalizing).
pub fn stop() {
    let _ = set_diagnostics_sink(DiagnosticLevel::Error, ROOTS, None);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logging_level_takes_the_diagnostics_at_or_above_it() {
        assert_eq!(least_for(1), Some(DiagnosticLevel::Debug));
        assert_eq!(least_for(DEBUG), Some(DiagnosticLevel::Debug));
        assert_eq!(least_for(15), Some(DiagnosticLevel::Info));
        assert_eq!(least_for(WARNING), Some(DiagnosticLevel::Warn));
        assert_eq!(least_for(ERROR), Some(DiagnosticLevel::Error));
        assert_eq!(least_for(50), None);
    }
}
