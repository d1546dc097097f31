//! Shrinks the legacy revisions' official schemas before `shapes::spec` embeds them, and reads their
//! method tables off them. Each `spec/<revision>/schema.json` is parsed, and
//! `OUT_DIR/schema-<revision>.rs` gets a `Tables` expression:
//! - every definition as its own compact JSON text, without the `description` annotations (a
//!   string under that key; a property *named* `description` maps to an object and is kept), sorted
//!   by name: the engine parses a definition the first time a walk needs it, so a session pays for
//!   the few its messages use, not for all of them (their parsed trees are some twenty times the
//!   text);
//! - client request method → its request definition and → the definition of its result
//!   (`<X>Result`, or `EmptyResult`), server request method → its request definition, server
//!   notification method → its definition, each sorted by method, from the `ClientRequest`,
//!   `ServerRequest` and `ServerNotification` unions.
//!
//! 2026-07-28 is embedded as well: the engine does not fit its messages to it (its shapes are the
//! engine's own), but checks what a host's handler of a method the specification defines is given
//! and answers against it (`shapes::check`).

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Map, Value};

/// The revisions `core/src/shapes/spec.rs` embeds.
const REVISIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

fn strip_descriptions(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|key, v| !(key == "description" && v.is_string()));
            map.values_mut().for_each(strip_descriptions);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_descriptions),
        _ => {}
    }
}

/// (method, definition name) of each member of the union `union`, sorted by method.
fn methods(defs: &Map<String, Value>, union: &str) -> Vec<(String, String)> {
    let members = defs
        .get(union)
        .and_then(|u| u.get("anyOf"))
        .and_then(Value::as_array);
    let mut table: Vec<(String, String)> = members
        .into_iter()
        .flatten()
        .filter_map(|m| {
            let name = m.get("$ref")?.as_str()?.rsplit('/').next()?;
            let method = defs
                .get(name)?
                .pointer("/properties/method/const")?
                .as_str()?;
            Some((method.to_owned(), name.to_owned()))
        })
        .collect();
    table.sort();
    table
}

/// `&[("a", "b"), ...]`: Rust's `{:?}` of a string is a valid string literal.
fn pairs<'a>(items: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut out = String::from("&[");
    for (a, b) in items {
        write!(out, "({a:?}, {b:?}),").expect("writing to a String");
    }
    out.push(']');
    out
}

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    println!("cargo:rerun-if-changed=build.rs");
    for revision in REVISIONS {
        let source = format!("spec/{revision}/schema.json");
        println!("cargo:rerun-if-changed={source}");
        let text =
            std::fs::read_to_string(&source).unwrap_or_else(|e| panic!("reading {source}: {e}"));
        let mut schema: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {source}: {e}"));
        strip_descriptions(&mut schema);
        let dialect = schema
            .get("$schema")
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("{source} names no $schema"))
            .to_owned();
        let (defs_key, defs) = match schema.as_object_mut().and_then(|d| {
            d.remove("definitions")
                .map(|v| ("definitions", v))
                .or_else(|| d.remove("$defs").map(|v| ("$defs", v)))
        }) {
            Some((key, Value::Object(m))) => (key, m),
            _ => panic!("{source} has no definitions"),
        };
        let mut texts: Vec<(String, String)> = defs
            .iter()
            .map(|(name, def)| (name.clone(), def.to_string()))
            .collect();
        texts.sort();
        let mut results: Vec<(String, String)> = methods(&defs, "ClientRequest")
            .into_iter()
            .map(|(method, request)| {
                let own = format!("{}Result", request.trim_end_matches("Request"));
                match defs.contains_key(&own) {
                    true => (method, own),
                    false => (method, "EmptyResult".to_owned()),
                }
            })
            .collect();
        results.sort();
        let as_pairs = |t: &[(String, String)]| pairs(t.iter().map(|(a, b)| (&**a, &**b)));
        let tables = format!(
            "Tables {{ dialect: {dialect:?}, defs_key: {defs_key:?}, defs: {}, client_requests: {}, results: {}, requests: {}, notifications: {} }}\n",
            as_pairs(&texts),
            as_pairs(&methods(&defs, "ClientRequest")),
            as_pairs(&results),
            as_pairs(&methods(&defs, "ServerRequest")),
            as_pairs(&methods(&defs, "ServerNotification")),
        );
        let dest = Path::new(&out).join(format!("schema-{revision}.rs"));
        std::fs::write(&dest, tables).unwrap_or_else(|e| panic!("writing {}: {e}", dest.display()));
    }
}
