//! Checks of what a host's handler of a method the specification defines is given and answers
//! (`server::owned`), against the official schema of the revision the request is served under:
//! the request as the client sent it (its `<X>Request` definition) before the handler runs, and
//! the handler's result (its `<X>Result`, or `CreateTaskResult` for a task created by
//! `tools/call`) before it is sent. The engine's own answers need no such check: it builds them to
//! these shapes.
//!
//! Each check compiles, once per revision and definition, a document holding the definition and
//! every definition it reaches through `$ref`, with the revision's own dialect; the compiled
//! validators are kept for the life of the process (a few per method a host owns).

use std::collections::BTreeMap;
use std::sync::Arc;

use parking_lot::RwLock;
use serde_json::{Map, Value, json};

use super::spec::{Spec, def_name, spec};
use crate::schema::CompiledSchema;
use crate::version::ProtocolVersion;

/// Compiled validators by (revision, definition). A `BTreeMap`, as in `spec`: valgrind reports a
/// process-wide hash table as "possibly lost" in every C host.
type Compiled = BTreeMap<(&'static str, &'static str), Arc<CompiledSchema>>;

static COMPILED: RwLock<Compiled> = RwLock::new(BTreeMap::new());

/// The request of the client request `method` (id, method and `params` as received) against its
/// definition in `version`: `Err` names the path and what is wrong there. A method the revision
/// does not define (an extension's) has no definition to check against and passes.
pub(crate) fn request(
    version: &ProtocolVersion,
    id: &Value,
    method: &str,
    params: Option<&Value>,
) -> Result<(), String> {
    let Some(spec) = spec(version.as_str()) else {
        return Ok(());
    };
    let Some(def) = spec.client_request_def(method) else {
        return Ok(());
    };
    let mut message = json!({"jsonrpc": "2.0", "id": id, "method": method});
    if let Some(p) = params {
        message["params"] = p.clone();
    }
    against(spec, def, &message)
}

/// The result `result` of the client request `method` against its definition in `version`:
/// `CreateTaskResult` when `created_task` (a `tools/call` answered with a task), otherwise the
/// method's own result. A revision without that definition has nothing to check against and
/// passes.
pub(crate) fn result(
    version: &ProtocolVersion,
    method: &str,
    created_task: bool,
    result: &Value,
) -> Result<(), String> {
    let Some(spec) = spec(version.as_str()) else {
        return Ok(());
    };
    let def = match created_task {
        true => spec.def("CreateTaskResult").map(|_| "CreateTaskResult"),
        false => spec.result_def(method),
    };
    match def {
        Some(def) => against(spec, def, result),
        None => Ok(()),
    }
}

/// Whether `version` defines a result for a task created by a request (`CreateTaskResult`).
pub(crate) fn defines_created_task(version: &ProtocolVersion) -> bool {
    spec(version.as_str()).is_some_and(|s| s.def("CreateTaskResult").is_some())
}

fn against(spec: &'static Spec, def: &'static str, instance: &Value) -> Result<(), String> {
    let validator = validator(spec, def)?;
    validator.validate(instance).map_err(|e| {
        format!(
            "{def} of {}: {}",
            spec.revision,
            e.to_string().replace('\n', "; ")
        )
    })
}

fn validator(spec: &'static Spec, def: &'static str) -> Result<Arc<CompiledSchema>, String> {
    let key = (spec.revision, def);
    if let Some(v) = COMPILED.read().get(&key) {
        return Ok(v.clone());
    }
    let compiled = Arc::new(
        CompiledSchema::new(&document(spec, def))
            .map_err(|e| format!("{def} of {} does not compile: {e}", spec.revision))?,
    );
    Ok(COMPILED.write().entry(key).or_insert(compiled).clone())
}

/// A schema document whose root is definition `def`, with every definition it reaches.
fn document(spec: &'static Spec, def: &'static str) -> Value {
    let mut reached: Map<String, Value> = Map::new();
    let mut pending = vec![def];
    while let Some(name) = pending.pop() {
        if reached.contains_key(name) {
            continue;
        }
        let Some(node) = spec.def(name) else {
            continue;
        };
        refs(node, &mut pending);
        reached.insert(name.to_owned(), node.clone());
    }
    let key = spec.defs_key();
    json!({
        "$schema": spec.dialect(),
        "$ref": format!("#/{key}/{def}"),
        key: reached,
    })
}

/// Pushes the definition name of every `$ref` under `node`.
fn refs(node: &'static Value, out: &mut Vec<&'static str>) {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                out.push(def_name(r));
            }
            map.values().for_each(|v| refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_results_are_checked_against_their_revision() {
        let v = ProtocolVersion::V2025_11_25;
        let ok = json!({"name": "echo", "arguments": {"text": "hi"}});
        assert_eq!(request(&v, &json!(1), "tools/call", Some(&ok)), Ok(()));
        let bad = json!({"arguments": {}});
        let e = request(&v, &json!(1), "tools/call", Some(&bad)).unwrap_err();
        assert!(e.contains("CallToolRequest of 2025-11-25"), "{e}");
        assert!(e.contains("name"), "{e}");
        let good = json!({"content": [{"type": "text", "text": "x"}]});
        assert_eq!(result(&v, "tools/call", false, &good), Ok(()));
        let e = result(&v, "tools/call", false, &json!({"content": 3})).unwrap_err();
        assert!(e.contains("CallToolResult of 2025-11-25: /content"), "{e}");
        let task = json!({"task": {"taskId": "t1", "status": "working", "ttl": null,
            "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:00Z"}});
        assert_eq!(result(&v, "tools/call", true, &task), Ok(()));
        assert!(result(&v, "tools/call", false, &task).is_err());
        assert!(defines_created_task(&v));
        assert!(!defines_created_task(&ProtocolVersion::V2025_06_18));
        // A method the revision does not define has nothing to be checked against.
        assert_eq!(
            request(&ProtocolVersion::V2024_11_05, &json!(1), "tasks/get", None),
            Ok(())
        );
    }
}
