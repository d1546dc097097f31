//! The one diagnostics sink of the engine's hosts: the process's `tracing` subscriber, which keeps
//! the events of the engine (targets under `libmcp`) and of the host's own crate, drops those below
//! the level the host asked for where they are emitted (one atomic load), and hands each of the
//! others to the host as a [`Diagnostic`]. A host only maps it onto its own logging (a C callback,
//! Python's `logging`, a Node listener): the filter, the levels and the text are decided here.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};

use parking_lot::RwLock;
use serde_json::{Map, Value};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Metadata, Subscriber};

/// The severity of a diagnostic, least severe first (`tracing`'s TRACE counts as `Debug`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DiagnosticLevel {
    /// Detail for whoever debugs the engine.
    Debug = 0,
    /// Something worth knowing that needs no action (a child server's stderr line).
    Info = 1,
    /// Something went wrong for one request or peer and the engine answered for it (a rejected
    /// result, a handler past its deadline, a refused HTTP request).
    Warn = 2,
    /// The engine lost something (a transport, a store).
    Error = 3,
}

impl DiagnosticLevel {
    /// The name every host uses for the level: `"debug"`, `"info"`, `"warn"` or `"error"`.
    pub fn name(self) -> &'static str {
        match self {
            DiagnosticLevel::Debug => "debug",
            DiagnosticLevel::Info => "info",
            DiagnosticLevel::Warn => "warn",
            DiagnosticLevel::Error => "error",
        }
    }

    fn of(level: &tracing::Level) -> DiagnosticLevel {
        match *level {
            tracing::Level::ERROR => DiagnosticLevel::Error,
            tracing::Level::WARN => DiagnosticLevel::Warn,
            tracing::Level::INFO => DiagnosticLevel::Info,
            _ => DiagnosticLevel::Debug,
        }
    }
}

/// One event of the engine as every host receives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Its severity.
    pub level: DiagnosticLevel,
    /// The module that emitted it, e.g. `libmcp::server::answer`, or `libmcp::child_stderr` for a
    /// line a child server wrote to its stderr.
    pub target: String,
    /// The event's message.
    pub message: String,
    /// The event's other fields as JSON values (numbers and booleans as such, anything else as its
    /// text), for a host whose events keep structure (Node).
    pub fields: Map<String, Value>,
    /// The message followed by each other field as ` key=value`, in the order emitted: the one
    /// flat text of the event, for a host that shows one string (C, Python).
    pub text: String,
}

/// What a host does with each diagnostic; called on the thread that emitted it (a runtime thread or
/// the caller's own), possibly on several at once.
pub type DiagnosticsSink = Arc<dyn Fn(&Diagnostic) + Send + Sync>;

/// The host's sink and the crate roots whose events it gets besides the engine's.
struct Installed {
    sink: DiagnosticsSink,
    roots: &'static [&'static str],
}

/// Above every level: nothing is delivered.
const OFF: u8 = u8::MAX;
static MIN: AtomicU8 = AtomicU8::new(OFF);
static SINK: RwLock<Option<Arc<Installed>>> = RwLock::new(None);

/// The process already has another `tracing` subscriber (a Rust host's own), which gets the
/// engine's events instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("this process has another tracing subscriber, which gets the engine's events")]
pub struct OtherSubscriber;

/// Sends the engine's diagnostics of `min` or more severe to `sink`, with those of the crates
/// under `roots` (the host's own, e.g. `["libmcp_node"]`); `None` stops them (events are then
/// dropped where they are emitted). Process-wide: a later call replaces the sink. The first call
/// that sets one makes this the process's `tracing` subscriber; it fails with [`OtherSubscriber`]
/// when the process has another.
pub fn set_diagnostics_sink(
    min: DiagnosticLevel,
    roots: &'static [&'static str],
    sink: Option<DiagnosticsSink>,
) -> Result<(), OtherSubscriber> {
    let Some(sink) = sink else {
        MIN.store(OFF, Ordering::Relaxed);
        // The old sink is dropped outside the lock: it may still be running on another thread.
        let old = SINK.write().take();
        drop(old);
        return Ok(());
    };
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    let installed = *INSTALLED.get_or_init(|| {
        tracing::dispatcher::set_global_default(tracing::Dispatch::new(Diagnostics)).is_ok()
    });
    if !installed {
        return Err(OtherSubscriber);
    }
    let old = SINK.write().replace(Arc::new(Installed { sink, roots }));
    MIN.store(min as u8, Ordering::Relaxed);
    drop(old);
    Ok(())
}

/// Whether `target` is `root` itself or a module under it.
fn under(target: &str, root: &str) -> bool {
    target
        .strip_prefix(root)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
}

/// Whether a diagnostic of `target` goes to a sink that asked for the crates under `roots`.
fn wanted(target: &str, roots: &[&str]) -> bool {
    under(target, "libmcp") || roots.iter().any(|r| under(target, r))
}

/// Whether any host could want `target` (the engine's or a host crate's): decided once per
/// call site, so that a dependency's events cost nothing.
fn any_host(target: &str) -> bool {
    wanted(target, &["libmcp_ffi", "mcp", "_native", "libmcp_node"])
}

/// The subscriber behind the sink: events only (the engine's spans carry nothing a host is given).
struct Diagnostics;

impl Subscriber for Diagnostics {
    fn register_callsite(&self, meta: &'static Metadata<'static>) -> Interest {
        // `sometimes`: asked again on every event, so a changed level or sink applies at once.
        if any_host(meta.target()) {
            Interest::sometimes()
        } else {
            Interest::never()
        }
    }

    fn enabled(&self, meta: &Metadata<'_>) -> bool {
        DiagnosticLevel::of(meta.level()) as u8 >= MIN.load(Ordering::Relaxed)
            && any_host(meta.target())
    }

    fn new_span(&self, _span: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _span: &Id, _values: &Record<'_>) {}

    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let meta = event.metadata();
        let level = DiagnosticLevel::of(meta.level());
        if (level as u8) < MIN.load(Ordering::Relaxed) {
            return;
        }
        // A clone, so the lock is not held while the host runs (the sink may replace itself).
        let Some(installed) = SINK.read().clone() else {
            return;
        };
        if !wanted(meta.target(), installed.roots) {
            return;
        }
        let mut fields = Fields::default();
        event.record(&mut fields);
        (installed.sink)(&fields.into_diagnostic(level, meta.target()));
    }

    fn enter(&self, _span: &Id) {}

    fn exit(&self, _span: &Id) {}
}

/// An event's fields: `message` apart, the others in the order recorded.
#[derive(Default)]
struct Fields {
    message: String,
    others: Map<String, Value>,
    text: String,
}

impl Fields {
    fn put(&mut self, field: &Field, value: Value) {
        if field.name() == "message" {
            self.message = match value {
                Value::String(s) => s,
                other => other.to_string(),
            };
            return;
        }
        match &value {
            Value::String(s) => {
                let _ = write!(self.text, " {}={s}", field.name());
            }
            other => {
                let _ = write!(self.text, " {}={other}", field.name());
            }
        }
        self.others.insert(field.name().to_owned(), value);
    }

    fn into_diagnostic(self, level: DiagnosticLevel, target: &str) -> Diagnostic {
        Diagnostic {
            level,
            target: target.to_owned(),
            text: self.message.clone() + &self.text,
            message: self.message,
            fields: self.others,
        }
    }
}

impl Visit for Fields {
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.put(field, Value::from(value));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.put(field, Value::from(value));
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        self.put(field, Value::from(value));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.put(field, Value::Bool(value));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.put(field, Value::String(value.to_owned()));
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.put(field, Value::String(format!("{value:?}")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engines_targets_and_the_hosts_own_only() {
        for t in ["libmcp", "libmcp::server::answer", "libmcp::child_stderr"] {
            assert!(wanted(t, &[]), "{t}");
        }
        assert!(wanted("libmcp_node::mount", &["libmcp_node"]));
        assert!(!wanted("libmcp_node::mount", &["_native"]));
        for t in ["libmcpx", "hyper::proto", "_nativeish", "tokio", "mcpx"] {
            assert!(!any_host(t), "{t}");
        }
        for t in [
            "mcp",
            "mcp::log",
            "libmcp_ffi",
            "_native::executor",
            "libmcp_node",
        ] {
            assert!(any_host(t), "{t}");
        }
    }

    #[test]
    fn levels_go_up_with_severity() {
        let levels: Vec<DiagnosticLevel> = [
            tracing::Level::TRACE,
            tracing::Level::DEBUG,
            tracing::Level::INFO,
            tracing::Level::WARN,
            tracing::Level::ERROR,
        ]
        .iter()
        .map(DiagnosticLevel::of)
        .collect();
        use DiagnosticLevel::*;
        assert_eq!(levels, [Debug, Debug, Info, Warn, Error]);
        assert!(Debug < Info && Info < Warn && Warn < Error);
        assert_eq!(Warn.name(), "warn");
    }
}
