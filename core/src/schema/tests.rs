use std::io::ErrorKind;
use std::net::TcpListener;
use std::sync::Arc;

use serde_json::{Value, json};

use super::*;

fn compile(schema: Value) -> Result<Arc<CompiledSchema>, SchemaError> {
    SchemaCache::new(8).compile(&schema)
}

#[test]
fn default_dialect_is_2020_12() {
    let s = compile(json!({"type": "array", "prefixItems": [{"type": "string"}]})).unwrap();
    assert_eq!(s.dialect(), Dialect::Draft202012);
    assert!(s.validate(&json!(["a", 1])).is_ok());
    assert!(s.validate(&json!([1])).is_err());
}

#[test]
fn every_supported_dialect_uri_is_recognised() {
    let table = [
        ("json-schema.org/draft-04/schema", Dialect::Draft4),
        ("json-schema.org/draft-06/schema", Dialect::Draft6),
        ("json-schema.org/draft-07/schema", Dialect::Draft7),
        ("json-schema.org/draft/2019-09/schema", Dialect::Draft201909),
        ("json-schema.org/draft/2020-12/schema", Dialect::Draft202012),
    ];
    for (rest, dialect) in table {
        for scheme in ["http://", "https://"] {
            for tail in ["", "#"] {
                let uri = format!("{scheme}{rest}{tail}");
                let s = compile(json!({"$schema": uri, "type": "string"}))
                    .unwrap_or_else(|e| panic!("{uri}: {e}"));
                assert_eq!(s.dialect(), dialect, "{uri}");
                assert!(s.is_valid(&json!("x")) && !s.is_valid(&json!(1)), "{uri}");
            }
        }
        assert_eq!(Dialect::from_uri(dialect.uri()), Ok(dialect));
    }
}

#[test]
fn declared_dialect_semantics_apply() {
    // draft-07: array-form `items` is a tuple.
    let s = compile(json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "items": [{"type": "string"}]
    }))
    .unwrap();
    assert!(s.is_valid(&json!(["a", 2])));
    assert!(!s.is_valid(&json!([1])));
    // draft-04: boolean exclusiveMaximum.
    let s = compile(json!({
        "$schema": "http://json-schema.org/draft-04/schema#",
        "maximum": 5, "exclusiveMaximum": true
    }))
    .unwrap();
    assert!(s.is_valid(&json!(4)));
    assert!(!s.is_valid(&json!(5)));
}

#[test]
fn unsupported_dialects_are_rejected() {
    for uri in [
        "http://json-schema.org/draft-03/schema#",
        "https://example.com/my-meta-schema",
        "json-schema.org/draft/2020-12/schema",
        "",
    ] {
        let err = compile(json!({"$schema": uri})).unwrap_err();
        assert_eq!(err, SchemaError::UnsupportedDialect(uri.to_owned()));
        assert!(err.to_string().contains("unsupported JSON Schema dialect"));
    }
    assert!(matches!(
        compile(json!({"$schema": 7})),
        Err(SchemaError::Invalid(_))
    ));
}

#[test]
fn in_document_references_resolve() {
    let s = compile(json!({
        "$defs": {"pos": {"type": "integer", "minimum": 1}, "named": {"$anchor": "nm", "type": "string"}},
        "properties": {"n": {"$ref": "#/$defs/pos"}, "s": {"$ref": "#nm"}}
    }))
    .unwrap();
    assert!(s.is_valid(&json!({"n": 3, "s": "x"})));
    assert!(!s.is_valid(&json!({"n": 0})));
    assert!(!s.is_valid(&json!({"s": 1})));
    // A urn that is an in-document `$id` is not external.
    let s = compile(json!({
        "$id": "urn:example:root",
        "$defs": {"b": {"$id": "urn:example:b", "type": "boolean"}},
        "$ref": "urn:example:b"
    }))
    .unwrap();
    assert!(s.is_valid(&json!(true)) && !s.is_valid(&json!("t")));
    // Recursive in-document reference.
    let s = compile(json!({
        "type": "object",
        "properties": {"child": {"$ref": "#"}},
        "additionalProperties": false
    }))
    .unwrap();
    assert!(s.is_valid(&json!({"child": {"child": {}}})));
    assert!(!s.is_valid(&json!({"child": {"x": 1}})));
}

#[test]
fn external_references_are_refused() {
    let table = [
        (
            json!({"$ref": "https://example.com/s.json"}),
            "https://example.com/s.json",
        ),
        (json!({"$ref": "file:///etc/passwd"}), "file:///etc/passwd"),
        (
            json!({"$ref": "urn:example:missing"}),
            "urn:example:missing",
        ),
        (
            json!({"$id": "https://example.com/root.json", "properties": {"a": {"$ref": "other.json"}}}),
            "https://example.com/other.json",
        ),
    ];
    for (schema, uri) in table {
        match compile(schema) {
            Err(SchemaError::ExternalRef(got)) => assert_eq!(got, uri),
            other => panic!("{uri}: expected ExternalRef, got {other:?}"),
        }
    }
}

#[test]
fn external_reference_is_never_fetched() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let uri = format!("http://127.0.0.1:{port}/x.json");
    let err = CompiledSchema::new(&json!({"properties": {"a": {"$ref": uri}}})).unwrap_err();
    assert_eq!(err, SchemaError::ExternalRef(uri));
    match listener.accept() {
        Err(e) if e.kind() == ErrorKind::WouldBlock => {}
        other => panic!("the validator contacted the listener: {other:?}"),
    }
}

#[test]
fn dangling_in_document_pointer_is_invalid() {
    let err = compile(json!({"$ref": "#/$defs/missing"})).unwrap_err();
    assert!(matches!(err, SchemaError::Invalid(_)), "{err:?}");
}

#[test]
fn malformed_schema_is_invalid() {
    let err = compile(json!({"type": 12})).unwrap_err();
    assert!(matches!(err, SchemaError::Invalid(_)), "{err:?}");
}

#[test]
fn resource_bounds() {
    let mut deep = json!({"type": "string"});
    for _ in 0..MAX_SCHEMA_DEPTH {
        deep = json!({"not": deep});
    }
    assert!(matches!(compile(deep), Err(SchemaError::TooComplex(_))));

    let wide: serde_json::Map<String, Value> = (0..MAX_SCHEMA_NODES)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let err = compile(json!({"properties": wide})).unwrap_err();
    assert!(err.to_string().contains("too complex"), "{err}");

    // Comfortably inside the bounds.
    let mut ok = json!({"type": "string"});
    for _ in 0..20 {
        ok = json!({"properties": {"a": ok}});
    }
    assert!(compile(ok).is_ok());
}

#[test]
fn tool_input_schema_shape() {
    assert!(check_tool_input_schema(&json!({"type": "object"})).is_ok());
    assert!(
        check_tool_input_schema(&json!({"type": "object", "additionalProperties": false})).is_ok()
    );
    for bad in [
        json!(true),
        json!([]),
        json!({}),
        json!({"type": "string"}),
        json!({"type": ["object", "null"]}),
    ] {
        assert!(
            matches!(
                check_tool_input_schema(&bad),
                Err(SchemaError::NotAnObjectSchema(_))
            ),
            "{bad}"
        );
    }
    // Shape is fine, contents are not.
    let err = check_tool_input_schema(&json!({"type": "object", "properties": {"a": {"type": 3}}}));
    assert!(matches!(err, Err(SchemaError::Invalid(_))));
    let err = check_tool_input_schema(&json!({"type": "object", "$ref": "http://x.invalid/s"}));
    assert!(matches!(err, Err(SchemaError::ExternalRef(_))));
}

#[test]
fn errors_name_the_instance_path() {
    let s = compile(json!({
        "type": "object",
        "properties": {"age": {"type": "integer"}, "tags": {"items": {"type": "string"}}},
        "required": ["name"]
    }))
    .unwrap();
    let errs = s
        .validate(&json!({"age": "x", "tags": ["a", 2]}))
        .unwrap_err();
    assert_eq!(errs.total(), 3);
    let mut paths: Vec<&str> = errs
        .entries()
        .iter()
        .map(|e| e.instance_path.as_str())
        .collect();
    paths.sort_unstable();
    assert_eq!(paths, ["", "/age", "/tags/1"]);
    let text = errs.to_string();
    assert!(
        text.contains("/age: \"x\" is not of type \"integer\""),
        "{text}"
    );
    assert!(
        text.contains("(root): \"name\" is a required property"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 3);
}

#[test]
fn error_list_is_capped() {
    let s = compile(json!({"items": {"type": "string"}})).unwrap();
    let errs = s.validate(&json!((0..25).collect::<Vec<_>>())).unwrap_err();
    assert_eq!(errs.total(), 25);
    assert_eq!(errs.entries().len(), 25);
    let text = errs.to_string();
    assert_eq!(text.lines().count(), 11);
    assert!(
        text.starts_with("/0: 0 is not of type \"string\""),
        "{text}"
    );
    assert!(text.ends_with("... and 15 more"), "{text}");
}

#[test]
fn cache_shares_equal_content_regardless_of_key_order() {
    let cache = SchemaCache::default();
    assert_eq!(cache.capacity(), DEFAULT_CACHE_CAPACITY);
    let a: Value = serde_json::from_str(
        r#"{"type":"object","properties":{"x":{"type":"string","minLength":1},"y":{"type":"integer"}}}"#,
    )
    .unwrap();
    let b: Value = serde_json::from_str(
        r#"{"properties":{"y":{"type":"integer"},"x":{"minLength":1,"type":"string"}},"type":"object"}"#,
    )
    .unwrap();
    let first = cache.compile(&a).unwrap();
    let second = cache.clone().compile(&b).unwrap();
    assert!(Arc::ptr_eq(&first, &second));
    assert_eq!(cache.len(), 1);
    let other = cache.compile(&json!({"type": "object"})).unwrap();
    assert!(!Arc::ptr_eq(&first, &other));
    assert_eq!(cache.len(), 2);
}

#[test]
fn cache_evicts_least_recently_used() {
    let cache = SchemaCache::new(2);
    let (a, b, c) = (
        json!({"type": "string"}),
        json!({"type": "integer"}),
        json!({"type": "null"}),
    );
    let a1 = cache.compile(&a).unwrap();
    let b1 = cache.compile(&b).unwrap();
    assert!(Arc::ptr_eq(&a1, &cache.compile(&a).unwrap())); // touch a
    cache.compile(&c).unwrap(); // evicts b
    assert_eq!(cache.len(), 2);
    assert!(Arc::ptr_eq(&a1, &cache.compile(&a).unwrap()));
    assert!(!Arc::ptr_eq(&b1, &cache.compile(&b).unwrap()));
    cache.clear();
    assert!(cache.is_empty());
    assert_eq!(SchemaCache::new(0).capacity(), 1);
}

#[test]
fn failures_are_not_cached() {
    let cache = SchemaCache::new(4);
    assert!(cache.compile(&json!({"type": 1})).is_err());
    assert!(
        cache
            .compile(&json!({"$ref": "https://e.invalid/"}))
            .is_err()
    );
    assert!(cache.is_empty());
}

#[test]
fn cache_is_shared_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<SchemaCache>();
    assert_send_sync::<CompiledSchema>();
    let cache = SchemaCache::new(16);
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let cache = cache.clone();
            std::thread::spawn(move || {
                let s = cache
                    .compile(&json!({"type": "integer", "minimum": i % 2}))
                    .unwrap();
                assert!(s.is_valid(&json!(1)));
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(cache.len(), 2);
}

#[test]
fn external_reference_in_unused_definition_is_refused() {
    let err =
        compile(json!({"$defs": {"u": {"$ref": "https://e.invalid/x.json"}}, "type": "object"}));
    assert_eq!(
        err.unwrap_err(),
        SchemaError::ExternalRef("https://e.invalid/x.json".into())
    );
}

#[test]
fn unknown_dialect_of_embedded_resource_is_refused() {
    let err = compile(json!({
        "$defs": {"x": {"$id": "urn:example:x", "$schema": "https://example.com/meta", "type": "string"}},
        "properties": {"a": {"$ref": "urn:example:x"}}
    }))
    .unwrap_err();
    assert!(
        matches!(
            err,
            SchemaError::ExternalRef(_) | SchemaError::UnsupportedDialect(_)
        ),
        "{err:?}"
    );
}
