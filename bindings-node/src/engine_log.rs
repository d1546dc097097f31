//! `setEngineLog` of `lib/engine_log.js`: the engine's own diagnostics (the `tracing` events of the
//! core, targets under `libmcp`, and of this addon, `libmcp_node`) handed to one JS function, each
//! as a JSON text `{"level", "target", "message", "fields"}`. The addon is the process's `tracing`
//! subscriber from the first call on; an event below the level asked for is dropped where it is
//! emitted (one atomic load), so nothing crosses to JS for a level nobody listens to.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

use napi::Status;
use napi::bindgen_prelude::Function;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use parking_lot::RwLock;
use serde_json::{Map, Value, json};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Level, Metadata, Subscriber};

/// The JS side's receiver of one event (JSON text), queued on the JS thread from any thread; weak,
/// so a listener never keeps the process alive.
type Listener = ThreadsafeFunction<String, (), String, Status, false, true>;

/// The severities a listener can ask for, least severe first (the index is the rank).
const NAMES: [&str; 4] = ["debug", "info", "warn", "error"];
/// A rank above every severity: nothing is delivered.
const SILENT: u8 = NAMES.len() as u8;

/// The least severe rank delivered now.
static THRESHOLD: AtomicU8 = AtomicU8::new(SILENT);
static LISTENER: RwLock<Option<Listener>> = RwLock::new(None);

/// The rank of a `tracing` level; TRACE counts as debug.
fn rank(level: &Level) -> u8 {
    if *level == Level::ERROR {
        3
    } else if *level == Level::WARN {
        2
    } else if *level == Level::INFO {
        1
    } else {
        0
    }
}

/// Whether `target` is the engine's or this addon's (a crate name, alone or with a module path).
fn engine_target(target: &str) -> bool {
    ["libmcp", "libmcp_node"].iter().any(|krate| {
        target == *krate
            || target
                .strip_prefix(krate)
                .is_some_and(|rest| rest.starts_with("::"))
    })
}

/// An event's fields: `message` apart, the others as JSON values (numbers and booleans as such,
/// anything else as its text).
#[derive(Default)]
struct Fields {
    message: String,
    others: Map<String, Value>,
}

impl Fields {
    fn put(&mut self, field: &Field, value: Value) {
        if field.name() == "message" {
            self.message = match value {
                Value::String(s) => s,
                other => other.to_string(),
            };
        } else {
            self.others.insert(field.name().to_owned(), value);
        }
    }
}

impl Visit for Fields {
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.put(field, json!(value));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.put(field, json!(value));
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        self.put(field, json!(value));
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

/// The subscriber: events only (the engine's spans carry nothing a listener is given).
struct ToJs;

impl Subscriber for ToJs {
    fn register_callsite(&self, meta: &'static Metadata<'static>) -> Interest {
        // Asked again at each event (`enabled`), so a new threshold applies at once.
        if engine_target(meta.target()) {
            Interest::sometimes()
        } else {
            Interest::never()
        }
    }

    fn enabled(&self, meta: &Metadata<'_>) -> bool {
        engine_target(meta.target()) && rank(meta.level()) >= THRESHOLD.load(Ordering::Relaxed)
    }

    fn new_span(&self, _attrs: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _span: &Id, _values: &Record<'_>) {}

    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let meta = event.metadata();
        let level = rank(meta.level());
        if level < THRESHOLD.load(Ordering::Relaxed) {
            return;
        }
        let mut fields = Fields::default();
        event.record(&mut fields);
        let text = json!({
            "level": NAMES[usize::from(level)],
            "target": meta.target(),
            "message": fields.message,
            "fields": fields.others,
        })
        .to_string();
        if let Some(listener) = LISTENER.read().as_ref() {
            // Queued for the JS thread; a closing environment refuses it, and then nobody listens.
            let _ = listener.call(text, ThreadsafeFunctionCallMode::NonBlocking);
        }
    }

    fn enter(&self, _span: &Id) {}

    fn exit(&self, _span: &Id) {}
}

/// Hands the engine's events of severity `level` ("debug", "info", "warn" or "error") or more to
/// `listener` (JSON text each), or none when `listener` is absent. False when the process has
/// another `tracing` subscriber already, which then gets the events instead.
#[napi]
pub fn set_engine_log(level: String, listener: Option<Function<String, ()>>) -> napi::Result<bool> {
    let threshold = NAMES.iter().position(|n| *n == level).ok_or_else(|| {
        napi::Error::new(
            Status::InvalidArg,
            format!("level must be one of {}, got {level:?}", NAMES.join(", ")),
        )
    })?;
    let listener = listener
        .map(|f| {
            f.build_threadsafe_function::<String>()
                .weak::<true>()
                .callee_handled::<false>()
                .build()
        })
        .transpose()?;
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    let installed = *INSTALLED.get_or_init(|| {
        tracing::dispatcher::set_global_default(tracing::Dispatch::new(ToJs)).is_ok()
    });
    let on = listener.is_some();
    *LISTENER.write() = listener;
    let threshold = if on {
        u8::try_from(threshold).unwrap_or(SILENT)
    } else {
        SILENT
    };
    THRESHOLD.store(threshold, Ordering::Relaxed);
    Ok(installed)
}

#[cfg(test)]
mod tests {
    use super::{engine_target, rank};
    use tracing::Level;

    #[test]
    fn the_engines_and_the_addons_targets_only() {
        for t in [
            "libmcp",
            "libmcp::server::deadline",
            "libmcp_node",
            "libmcp_node::mount",
        ] {
            assert!(engine_target(t), "{t}");
        }
        for t in [
            "libmcpx",
            "libmcp_python",
            "hyper::proto",
            "tokio",
            "libmcp_node_extra",
        ] {
            assert!(!engine_target(t), "{t}");
        }
    }

    #[test]
    fn ranks_go_up_with_severity() {
        let ranks: Vec<u8> = [
            Level::TRACE,
            Level::DEBUG,
            Level::INFO,
            Level::WARN,
            Level::ERROR,
        ]
        .iter()
        .map(rank)
        .collect();
        assert_eq!(ranks, [0, 0, 1, 2, 3]);
    }
}
