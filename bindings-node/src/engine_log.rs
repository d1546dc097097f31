//! `setEngineLog` of `lib/engine_log.js`: the engine's own diagnostics (the binding kit's sink,
//! `libmcp::host::set_diagnostics_sink`: events of the core, targets under `libmcp`, and of this
//! addon, `libmcp_node`) handed to one JS function, each as a JSON text `{"level", "target",
//! "message", "fields"}` (the kit's `Diagnostic`, its fields as JSON). An event below the level asked for is dropped
//! by the kit where it is emitted (one atomic load), so nothing crosses to JS for a level nobody
//! listens to.

use std::sync::Arc;

use libmcp::host::{Diagnostic, DiagnosticLevel, set_diagnostics_sink};
use napi::Status;
use napi::bindgen_prelude::Function;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use serde_json::json;

/// The JS side's receiver of one event (JSON text), queued on the JS thread from any thread; weak,
/// so a listener never keeps the process alive.
type Listener = ThreadsafeFunction<String, (), String, Status, false, true>;

/// The severities a listener can ask for, least severe first, as the kit names them.
const LEVELS: [DiagnosticLevel; 4] = [
    DiagnosticLevel::Debug,
    DiagnosticLevel::Info,
    DiagnosticLevel::Warn,
    DiagnosticLevel::Error,
];

/// The crates whose diagnostics JS gets besides the engine's: this addon's.
const ROOTS: &[&str] = &["libmcp_node"];

/// The event as the listener receives it (JSON text).
fn entry(d: &Diagnostic) -> String {
    json!({
        "level": d.level.name(),
        "target": d.target,
        "message": d.message,
        "fields": d.fields,
    })
    .to_string()
}

/// Hands the engine's events of severity `level` ("debug", "info", "warn" or "error") or more to
/// `listener` (JSON text each), or none when `listener` is absent. False when the process has
/// another `tracing` subscriber already, which then gets the events instead.
#[napi]
pub fn set_engine_log(level: String, listener: Option<Function<String, ()>>) -> napi::Result<bool> {
    let least = LEVELS
        .into_iter()
        .find(|l| l.name() == level)
        .ok_or_else(|| {
            let names: Vec<&str> = LEVELS.iter().map(|l| l.name()).collect();
            napi::Error::new(
                Status::InvalidArg,
                format!("level must be one of {}, got {level:?}", names.join(", ")),
            )
        })?;
    let listener: Option<Listener> = listener
        .map(|f| {
            f.build_threadsafe_function::<String>()
                .weak::<true>()
                .callee_handled::<false>()
                .build()
        })
        .transpose()?;
    let sink = listener.map(|listener| {
        Arc::new(move |d: &Diagnostic| {
            // Queued for the JS thread; a closing environment refuses it, and then nobody listens.
            let _ = listener.call(entry(d), ThreadsafeFunctionCallMode::NonBlocking);
        }) as libmcp::host::DiagnosticsSink
    });
    Ok(set_diagnostics_sink(least, ROOTS, sink).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_the_kits_level_target_message_and_fields() {
        let mut fields = serde_json::Map::new();
        fields.insert("method".into(), json!("tools/call"));
        let d = Diagnostic {
            level: DiagnosticLevel::Warn,
            target: "libmcp::server::answer".into(),
            message: "rejected".into(),
            fields,
            text: "rejected method=tools/call".into(),
        };
        let got: serde_json::Value = serde_json::from_str(&entry(&d)).unwrap();
        assert_eq!(
            got,
            json!({"level": "warn", "target": "libmcp::server::answer",
                   "message": "rejected", "fields": {"method": "tools/call"}})
        );
    }
}
