//! The engine's diagnostics (`tracing` events of the engine, targets `libmcp::...`, and of this
//! extension, `_native::...`) delivered to a Python callable, which hands them to the `logging`
//! logger `libmcp.engine`. Events below the level Python set are dropped before the GIL is taken,
//! so a disabled level costs one atomic load per event.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

use parking_lot::RwLock;
use pyo3::prelude::*;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Level, Metadata, Subscriber};

/// `logging`'s numeric levels.
const DEBUG: u8 = 10;
const INFO: u8 = 20;
const WARNING: u8 = 30;
const ERROR: u8 = 40;
/// Above every level: nothing is delivered.
const OFF: u8 = u8::MAX;

/// The least severe `logging` level delivered.
static MIN: AtomicU8 = AtomicU8::new(OFF);
/// `emit(level, target, message)`, called with the GIL.
static SINK: RwLock<Option<Py<PyAny>>> = RwLock::new(None);

fn level_of(level: &Level) -> u8 {
    match *level {
        Level::ERROR => ERROR,
        Level::WARN => WARNING,
        Level::INFO => INFO,
        _ => DEBUG,
    }
}

fn ours(target: &str) -> bool {
    let under = |root: &str| {
        target
            .strip_prefix(root)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
    };
    under("libmcp") || under("_native")
}

struct PythonLogging;

impl Subscriber for PythonLogging {
    fn register_callsite(&self, meta: &'static Metadata<'static>) -> Interest {
        // `sometimes`: asked again on every event, so a changed level takes effect at once.
        if ours(meta.target()) {
            Interest::sometimes()
        } else {
            Interest::never()
        }
    }

    fn enabled(&self, meta: &Metadata<'_>) -> bool {
        ours(meta.target()) && level_of(meta.level()) >= MIN.load(Ordering::Relaxed)
    }

    fn new_span(&self, _span: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _span: &Id, _values: &Record<'_>) {}

    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let level = level_of(event.metadata().level());
        if level < MIN.load(Ordering::Relaxed) {
            return;
        }
        let mut line = Line::default();
        event.record(&mut line);
        let message = line.text();
        let target = event.metadata().target();
        Python::attach(|py| {
            let sink = SINK.read().as_ref().map(|s| s.clone_ref(py));
            if let Some(sink) = sink
                && let Err(e) = sink.call1(py, (level, target, message))
            {
                // The logging call itself failed (a broken handler): nothing to report it to.
                e.print(py);
            }
        });
    }

    fn enter(&self, _span: &Id) {}

    fn exit(&self, _span: &Id) {}
}

/// An event as one line: its message, then its other fields in parentheses.
#[derive(Default)]
struct Line {
    message: String,
    fields: Vec<String>,
}

impl Line {
    fn text(self) -> String {
        if self.fields.is_empty() {
            self.message
        } else {
            format!("{} ({})", self.message, self.fields.join(", "))
        }
    }
}

impl Visit for Line {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "message" => self.message = value.to_owned(),
            name => self.fields.push(format!("{name}={value}")),
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        match field.name() {
            "message" => self.message = format!("{value:?}"),
            name => self.fields.push(format!("{name}={value:?}")),
        }
    }
}

/// Sends the engine's diagnostics at `min_level` (a `logging` level) or more severe to
/// `emit(level, target, message)`; `emit=None` stops them. Returns False when the process already
/// has another `tracing` subscriber (then nothing is delivered).
#[pyfunction]
#[pyo3(signature = (min_level, emit))]
pub fn set_engine_log(min_level: u32, emit: Option<Py<PyAny>>) -> bool {
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    let installed = *INSTALLED.get_or_init(|| {
        tracing::dispatcher::set_global_default(tracing::Dispatch::new(PythonLogging)).is_ok()
    });
    let on = emit.is_some();
    *SINK.write() = emit;
    let min = if on {
        u8::try_from(min_level.max(1)).unwrap_or(OFF)
    } else {
        OFF
    };
    MIN.store(min, Ordering::Relaxed);
    installed
}

/// Stops delivering (at exit: no Python call after the interpreter starts finalizing).
pub fn stop() {
    MIN.store(OFF, Ordering::Relaxed);
    *SINK.write() = None;
}

#[cfg(test)]
mod tests {
    use super::ours;

    #[test]
    fn only_the_engines_and_this_extensions_targets() {
        for t in [
            "libmcp",
            "libmcp::server::answer",
            "_native",
            "_native::executor",
        ] {
            assert!(ours(t), "{t}");
        }
        for t in ["libmcpx", "hyper::proto", "_nativeish", "tokio"] {
            assert!(!ours(t), "{t}");
        }
    }
}
