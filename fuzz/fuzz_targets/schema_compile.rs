//! JSON Schema compilation of hostile schemas: (first byte 0 mod 5) any document from the input,
//! or one built to be deep (past the depth bound, through every kind of subschema keyword), to carry a pathological
//! `pattern`, a huge `enum`, or `$ref` cycles. Compiling is bounded, refusals are errors, and a
//! compiled schema validates any instance with `is_valid` agreeing with `validate`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libmcp::schema::{
    CompiledSchema, SchemaCache, check_elicitation_schema, check_tool_input_schema,
};
use serde_json::{Map, Value, json};

const KEYWORDS: [&str; 10] = [
    "items",
    "not",
    "additionalProperties",
    "contains",
    "if",
    "then",
    "propertyNames",
    "anyOf",
    "allOf",
    "properties",
];

fn nest(keyword: &str, inner: Value) -> Value {
    match keyword {
        "anyOf" | "allOf" => json!({ keyword: [inner, true] }),
        "properties" => json!({"properties": {"p": inner}}),
        _ => json!({ keyword: inner }),
    }
}

/// The schema the input describes: its first byte picks the kind, the bytes up to the first NUL
/// describe it.
fn build(kind: u8, spec: &[u8]) -> Option<Value> {
    let byte = |i: usize| spec.get(i).copied().unwrap_or(0);
    Some(match kind % 5 {
        0 => serde_json::from_slice(spec).ok()?,
        1 => {
            let mut v = json!({"type": "string"});
            for i in 0..usize::from(byte(0)) {
                let k = spec
                    .get(1 + i % spec.len().saturating_sub(1).max(1))
                    .copied()
                    .unwrap_or(0);
                v = nest(KEYWORDS[usize::from(k) % KEYWORDS.len()], v);
            }
            v
        }
        2 => {
            let p = libmcp_fuzz::text(spec);
            json!({"type": "object", "properties": {"s": {"type": "string", "pattern": p}},
                   "patternProperties": {p.clone(): {"type": "integer"}}})
        }
        3 => {
            let size = usize::from(u16::from_le_bytes([byte(0), byte(1)]));
            let distinct = byte(2) & 1 == 1;
            let items: Vec<Value> = (0..size)
                .map(|i| {
                    if distinct {
                        json!(i)
                    } else {
                        json!({"k": [i % 3]})
                    }
                })
                .collect();
            json!({"type": "object", "properties": {"e": {"enum": items}}})
        }
        _ => {
            let mut defs = Map::new();
            for pair in spec.chunks(2) {
                let (from, to) = (pair[0] % 8, pair.get(1).copied().unwrap_or(0) % 8);
                defs.insert(
                    format!("d{from}"),
                    json!({"$ref": format!("#/$defs/d{to}"), "items": {"$ref": "#"}}),
                );
            }
            json!({"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/d0"}}})
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let (kind, rest) = data.split_first().unwrap_or((&0, &[]));
    let parts = libmcp_fuzz::split_nul(rest, 2);
    let Some(schema) = build(*kind, parts[0]) else {
        return;
    };
    let instance: Value = parts
        .get(1)
        .and_then(|b| serde_json::from_slice(b).ok())
        .unwrap_or(Value::Null);
    let _ = check_tool_input_schema(&schema);
    let _ = check_elicitation_schema(&schema);
    let cache = SchemaCache::new(2);
    let cached = cache.compile(&schema);
    match CompiledSchema::new(&schema) {
        Ok(compiled) => {
            assert!(cached.is_ok());
            for candidate in [
                &instance,
                &json!({"s": instance, "e": instance, "x": instance}),
            ] {
                assert_eq!(
                    compiled.is_valid(candidate),
                    compiled.validate(candidate).is_ok()
                );
            }
        }
        Err(e) => {
            assert!(cached.is_err());
            assert!(!e.to_string().is_empty());
        }
    }
});
