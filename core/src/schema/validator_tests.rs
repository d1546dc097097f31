//! The validator's own wording, locations and limits (the official suite, in
//! `core/tests/json_schema_suite.rs`, checks its verdicts).

use serde_json::{Value, json};

use super::{CompiledSchema, SchemaError};

fn errors(schema: Value, instance: Value) -> Vec<(String, String, String)> {
    let compiled = CompiledSchema::new(&schema).expect("compiles");
    match compiled.validate(&instance) {
        Ok(()) => Vec::new(),
        Err(e) => e
            .entries()
            .iter()
            .map(|x| {
                (
                    x.instance_path.clone(),
                    x.schema_path.clone(),
                    x.message.clone(),
                )
            })
            .collect(),
    }
}

fn one(path: &str, schema_path: &str, message: &str) -> Vec<(String, String, String)> {
    vec![(path.to_owned(), schema_path.to_owned(), message.to_owned())]
}

#[test]
fn messages_name_the_value_and_the_rule() {
    let cases = [
        (
            json!({"type": "integer"}),
            json!("x"),
            "\"x\" is not of type \"integer\"",
        ),
        (
            json!({"type": ["string", "null"]}),
            json!(1),
            "1 is not of types \"string\", \"null\"",
        ),
        (
            json!({"required": ["a"]}),
            json!({}),
            "\"a\" is a required property",
        ),
        (json!({"enum": [1, 2]}), json!(3), "3 is not one of 1 or 2"),
        (
            json!({"enum": ["a", "b", "c"]}),
            json!("d"),
            "\"d\" is not one of \"a\", \"b\" or \"c\"",
        ),
        (
            json!({"enum": [1, 2, 3, 4, 5]}),
            json!(0),
            "0 is not one of 1, 2 or 3 other candidates",
        ),
        (json!({"const": "on"}), json!("off"), "\"on\" was expected"),
        (
            json!({"minimum": 0}),
            json!(-1),
            "-1 is less than the minimum of 0",
        ),
        (
            json!({"maximum": 1.5}),
            json!(2),
            "2 is greater than the maximum of 1.5",
        ),
        (
            json!({"exclusiveMinimum": 0}),
            json!(0),
            "0 is less than or equal to the minimum of 0",
        ),
        (
            json!({"exclusiveMaximum": 0}),
            json!(0),
            "0 is greater than or equal to the maximum of 0",
        ),
        (
            json!({"multipleOf": 3}),
            json!(4),
            "4 is not a multiple of 3",
        ),
        (
            json!({"minLength": 2}),
            json!("é"),
            "\"é\" is shorter than 2 characters",
        ),
        (
            json!({"maxLength": 1}),
            json!("ab"),
            "\"ab\" is longer than 1 character",
        ),
        (
            json!({"pattern": "^a"}),
            json!("b"),
            "\"b\" does not match \"^a\"",
        ),
        (json!({"minItems": 1}), json!([]), "[] has less than 1 item"),
        (
            json!({"maxItems": 0}),
            json!([1]),
            "[1] has more than 0 items",
        ),
        (
            json!({"uniqueItems": true}),
            json!([1, 1.0]),
            "[1,1.0] has non-unique elements",
        ),
        (
            json!({"minProperties": 1}),
            json!({}),
            "{} has less than 1 property",
        ),
        (
            json!({"maxProperties": 0}),
            json!({"a": 1}),
            "{\"a\":1} has more than 0 properties",
        ),
        (
            json!({"not": {"type": "null"}}),
            json!(null),
            "{\"type\":\"null\"} is not allowed for null",
        ),
        (json!(false), json!(1), "False schema does not allow 1"),
        (
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            json!(1),
            "1 is not valid under any of the schemas listed in the 'anyOf' keyword",
        ),
        (
            json!({"oneOf": [{"type": "number"}, {"type": "integer"}]}),
            json!(1),
            "1 is valid under more than one of the schemas listed in the 'oneOf' keyword",
        ),
        (
            json!({"contains": {"type": "null"}}),
            json!([1]),
            "None of [1] are valid under the given schema",
        ),
        (
            json!({"properties": {"a": true}, "additionalProperties": false}),
            json!({"a": 1, "b": 2, "c": 3}),
            "Additional properties are not allowed ('b', 'c' were unexpected)",
        ),
        (
            json!({"prefixItems": [true], "items": false}),
            json!([1, 2]),
            "Additional items are not allowed (2 was unexpected)",
        ),
        (
            json!({"unevaluatedProperties": false, "allOf": [{"properties": {"a": true}}]}),
            json!({"a": 1, "b": 2}),
            "Unevaluated properties are not allowed ('b' was unexpected)",
        ),
    ];
    for (schema, instance, want) in cases {
        let got = errors(schema.clone(), instance);
        assert_eq!(got.len(), 1, "{schema}: {got:?}");
        assert_eq!(got[0].2, want, "{schema}");
    }
}

#[test]
fn locations_follow_the_instance_and_the_evaluation_path() {
    let schema = json!({
        "$defs": {"n": {"type": "integer"}},
        "properties": {"a/b": {"$ref": "#/$defs/n"}, "list": {"items": {"minimum": 0}}}
    });
    assert_eq!(
        errors(schema.clone(), json!({"a/b": "x"})),
        one(
            "/a~1b",
            "/properties/a~1b/$ref/type",
            "\"x\" is not of type \"integer\""
        )
    );
    assert_eq!(
        errors(schema, json!({"list": [0, -1]})),
        one(
            "/list/1",
            "/properties/list/items/minimum",
            "-1 is less than the minimum of 0"
        )
    );
}

#[test]
fn every_failure_is_listed_and_is_valid_agrees() {
    let schema = json!({"properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["c"]});
    let compiled = CompiledSchema::new(&schema).unwrap();
    let instance = json!({"a": 1, "b": 2});
    assert!(!compiled.is_valid(&instance));
    let err = compiled.validate(&instance).unwrap_err();
    assert_eq!(err.total(), 3, "{err}");
}

#[test]
fn format_is_asserted_before_2019_09_only() {
    let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "format": "email"});
    assert_eq!(
        errors(draft7.clone(), json!("nobody")),
        one("", "/format", "\"nobody\" is not a \"email\"")
    );
    assert!(errors(draft7, json!("a@example.com")).is_empty());
    assert!(errors(json!({"format": "email"}), json!("nobody")).is_empty());
    // An unknown format is not checked under any dialect.
    let unknown = json!({"$schema": "http://json-schema.org/draft-07/schema#", "format": "colour"});
    assert!(errors(unknown, json!("?")).is_empty());
}

#[test]
fn malformed_keywords_are_refused_where_they_are() {
    for (schema, want) in [
        (
            json!({"type": "text"}),
            "type must be one of null, boolean, object, array, number, string, integer or an array of them, got \"text\"",
        ),
        (
            json!({"properties": {"a": {"minimum": "0"}}}),
            "at /properties/a: minimum must be a number, got \"0\"",
        ),
        (
            json!({"required": "a"}),
            "required must be an array of strings, got \"a\"",
        ),
        (
            json!({"$defs": {"x": {"multipleOf": 0}}}),
            "at /$defs/x: multipleOf must be greater than 0, got 0",
        ),
        (json!({"allOf": []}), "allOf must not be empty"),
        (
            json!({"items": 3}),
            "at /items: a schema must be an object or a boolean, got 3",
        ),
        (
            json!({"$ref": "#/$defs/missing"}),
            "unresolved $ref \"#/$defs/missing\": nothing at /$defs/missing",
        ),
        (
            json!({"$ref": "#nowhere"}),
            "unresolved $ref \"#nowhere\": no anchor \"nowhere\" in json-schema:///",
        ),
    ] {
        match CompiledSchema::new(&schema) {
            Err(SchemaError::Invalid(got)) => assert_eq!(got, want, "{schema}"),
            other => panic!("{schema}: {other:?}"),
        }
    }
}

#[test]
fn a_reference_cycle_fails_instead_of_looping() {
    // Evaluated on a thread with a small stack: the depth bound keeps it well inside.
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let got = errors(json!({"$ref": "#"}), json!(1));
            assert_eq!(got.len(), 1);
            assert_eq!(got[0].2, "schema evaluation nested deeper than 512 levels (a $ref cycle?)");
            let two = json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
            assert!(!CompiledSchema::new(&two).unwrap().is_valid(&json!(null)));
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn a_deep_instance_under_a_recursive_schema_is_checked_on_a_small_stack() {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let tree = json!({"type": "object", "properties": {"child": {"$ref": "#"}, "v": {"type": "integer"}}});
            let mut deep = json!({"v": 0});
            for _ in 0..120 {
                deep = json!({"child": deep, "v": 1});
            }
            let compiled = CompiledSchema::new(&tree).unwrap();
            assert!(compiled.is_valid(&deep));
            let mut bad = json!({"v": "x"});
            for _ in 0..120 {
                bad = json!({"child": bad});
            }
            let err = compiled.validate(&bad).unwrap_err();
            assert!(err.entries()[0].instance_path.ends_with("/child/v"), "{err}");
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn each_type_name_accepts_its_own_values() {
    let samples = [
        ("null", json!(null)),
        ("boolean", json!(true)),
        ("object", json!({})),
        ("array", json!([])),
        ("number", json!(1.5)),
        ("string", json!("s")),
        ("integer", json!(2)),
    ];
    for (name, _) in &samples {
        let compiled = CompiledSchema::new(&json!({"type": name})).unwrap();
        for (other, sample) in &samples {
            let integral_number = *name == "number" && *other == "integer";
            let want = name == other || integral_number;
            assert_eq!(compiled.is_valid(sample), want, "{name} on {other}");
        }
    }
    assert!(
        CompiledSchema::new(&json!({"type": "integer"}))
            .unwrap()
            .is_valid(&json!(2.0))
    );
}
