//! Shrinks the legacy revisions' official schemas before `shapes::spec` embeds them: each
//! `spec/<revision>/schema.json` is parsed and written to `OUT_DIR/schema-<revision>.json` compact,
//! without the `description` annotations (a string under that key; a property *named*
//! `description` maps to an object and is kept). The engine reads the definitions' structure only,
//! and the annotations and indentation are three quarters of the 460 KB the four files take.

use std::path::Path;

use serde_json::Value;

/// The revisions `core/src/shapes/spec.rs` embeds.
const REVISIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

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

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for revision in REVISIONS {
        let source = format!("spec/{revision}/schema.json");
        println!("cargo:rerun-if-changed={source}");
        let text =
            std::fs::read_to_string(&source).unwrap_or_else(|e| panic!("reading {source}: {e}"));
        let mut schema: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {source}: {e}"));
        strip_descriptions(&mut schema);
        let compact = serde_json::to_string(&schema).expect("a JSON value serializes");
        let dest = Path::new(&out).join(format!("schema-{revision}.json"));
        std::fs::write(&dest, compact)
            .unwrap_or_else(|e| panic!("writing {}: {e}", dest.display()));
    }
}
