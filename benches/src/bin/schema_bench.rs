//! The JSON Schema validator of `libmcp::schema` beside the `jsonschema` crate it replaced: the
//! time to compile typical tool schemas and to check arguments against them (valid and invalid),
//! in the same process, one after the other.
//!
//! Usage: `schema-bench [MILLISECONDS]` (default 300 per row). Prints one row per case: ns per
//! operation for each and the ratio (jsonschema / libmcp: above 1 means libmcp is faster).

use std::hint::black_box;
use std::time::{Duration, Instant};

use libmcp::schema::CompiledSchema;
use serde_json::{Value, json};

/// Runs `f` for about `budget`, returns nanoseconds per call.
fn time(budget: Duration, mut f: impl FnMut()) -> f64 {
    let mut n = 0u64;
    let start = Instant::now();
    while start.elapsed() < budget {
        for _ in 0..64 {
            f();
        }
        n += 64;
    }
    start.elapsed().as_nanos() as f64 / n as f64
}

fn cases() -> Vec<(&'static str, Value, Value, Value)> {
    let echo =
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
    let form = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[A-Za-z][A-Za-z0-9_-]*$"},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "email": {"type": "string"},
            "role": {"enum": ["admin", "user", "guest"]},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 10}
        },
        "required": ["name", "age"],
        "additionalProperties": false
    });
    let nested = json!({
        "$defs": {"item": {"type": "object", "properties": {"id": {"type": "integer"}, "qty": {"type": "number", "exclusiveMinimum": 0}}, "required": ["id", "qty"]}},
        "type": "object",
        "properties": {"order": {"type": "array", "items": {"$ref": "#/$defs/item"}, "minItems": 1}},
        "required": ["order"]
    });
    let items: Vec<Value> = (0..20).map(|i| json!({"id": i, "qty": 1.5})).collect();
    vec![
        (
            "echo",
            echo,
            json!({"text": "hello world"}),
            json!({"text": 7}),
        ),
        (
            "form",
            form,
            json!({"name": "ada_l", "age": 36, "role": "admin", "tags": ["a", "b"]}),
            json!({"name": "1ada", "age": -1, "role": "root", "extra": true}),
        ),
        (
            "nested 20 items",
            nested,
            json!({"order": items}),
            json!({"order": [{"id": "x"}]}),
        ),
    ]
}

fn main() {
    let ms: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let budget = Duration::from_millis(ms);
    println!("| case | operation | libmcp ns | jsonschema ns | jsonschema / libmcp |");
    println!("|---|---|---:|---:|---:|");
    for (name, schema, good, bad) in cases() {
        let ours = CompiledSchema::new(&schema).expect("compiles");
        let theirs = jsonschema::validator_for(&schema).expect("compiles");
        assert!(
            ours.is_valid(&good) && theirs.is_valid(&good),
            "{name}: good"
        );
        assert!(
            !ours.is_valid(&bad) && !theirs.is_valid(&bad),
            "{name}: bad"
        );
        let rows: [(&str, f64, f64); 4] = [
            (
                "compile",
                time(budget, || {
                    drop(black_box(CompiledSchema::new(black_box(&schema))))
                }),
                time(budget, || {
                    drop(black_box(jsonschema::validator_for(black_box(&schema))))
                }),
            ),
            (
                "is_valid (valid)",
                time(budget, || assert!(ours.is_valid(black_box(&good)))),
                time(budget, || assert!(theirs.is_valid(black_box(&good)))),
            ),
            (
                "is_valid (invalid)",
                time(budget, || assert!(!ours.is_valid(black_box(&bad)))),
                time(budget, || assert!(!theirs.is_valid(black_box(&bad)))),
            ),
            (
                "all errors (invalid)",
                time(budget, || drop(black_box(ours.validate(black_box(&bad))))),
                time(budget, || {
                    let all: Vec<String> = theirs
                        .iter_errors(black_box(&bad))
                        .map(|e| e.to_string())
                        .collect();
                    black_box(all);
                }),
            ),
        ];
        for (op, a, b) in rows {
            println!("| {name} | {op} | {a:.0} | {b:.0} | {:.2}x |", b / a);
        }
    }
}
