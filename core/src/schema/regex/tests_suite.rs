//! The official JSON-Schema-Test-Suite cases that test regular expressions, run directly on the engine:
//! every case whose schema is only `pattern`, `patternProperties` (with `type`, `$schema` and
//! `additionalProperties: false` beside them) or `format: "regex"`, and whose data is a string (for
//! `pattern` and `format`: the string matched, or the pattern compiled) or an object (for
//! `patternProperties`, whose keys are the strings matched). The `format: "regex"` cases are in
//! draft 7's optional format tests (2020-12 only annotates `format`).

use std::path::PathBuf;

use serde_json::{Map, Value};

use super::Regex;

/// The tests of the two `\p{digit}` groups. `digit` is not an ECMA-262 property name (22.2.2.9 accepts
/// only the names in its tables; the category would be `Nd` / `Decimal_Number`). V8 accepts it anyway.
/// We refuse it, as we refuse `Nd` (std has no Decimal_Number predicate): the pattern is a RegexError
/// rather than a set that silently matches the wrong code points.
const P_DIGIT: &[&str] = &[
    "ascii digits",
    "ascii non-digits",
    "non-ascii digits (BENGALI DIGIT FOUR, BENGALI DIGIT TWO)",
];

/// Cases we do not pass: group description, test descriptions, and the error they must fail with (so
/// the list cannot outlive a fix or hide another failure).
const KNOWN: &[(&str, &[&str], &str)] = &[
    (
        "pattern with non-ASCII digits",
        P_DIGIT,
        "at offset 1: unsupported Unicode property 'digit'",
    ),
    (
        "patternProperties with non-ASCII digits",
        P_DIGIT,
        "at offset 1: unsupported Unicode property 'digit'",
    ),
];

fn suite_file(draft: &str, name: &str) -> Vec<Value> {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests/data/json-schema-test-suite/tests",
        draft,
        name,
    ]
    .iter()
    .collect();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The verdict of a `patternProperties` value's subschema, for the keywords these files use.
fn subschema_accepts(schema: &Value, value: &Value) -> bool {
    let Value::Object(map) = schema else {
        return schema
            .as_bool()
            .expect("a subschema is an object or a boolean");
    };
    map.iter()
        .all(|(keyword, arg)| match (keyword.as_str(), arg) {
            ("type", Value::String(t)) => match t.as_str() {
                "integer" => value.as_f64().is_some_and(|n| n.fract() == 0.0),
                "number" => value.is_number(),
                "boolean" => value.is_boolean(),
                "null" => value.is_null(),
                "string" => value.is_string(),
                other => panic!("type {other} is not used by these files"),
            },
            ("maximum", max) => value.as_f64().is_none_or(|n| Some(n) <= max.as_f64()),
            (other, _) => panic!("keyword {other} in a patternProperties subschema is not handled"),
        })
}

/// The verdict of one test, or `None` when it is not a regex case (its data is of another type).
/// A pattern the engine refuses or gives up on yields `Some(Err(..))`.
fn verdict(schema: &Map<String, Value>, data: &Value) -> Option<Result<bool, String>> {
    for keyword in schema.keys() {
        let known = [
            "$schema",
            "type",
            "pattern",
            "patternProperties",
            "additionalProperties",
            "format",
        ];
        assert!(
            known.contains(&keyword.as_str()),
            "unexpected keyword {keyword}"
        );
    }
    if let Some(format) = schema.get("format") {
        assert_eq!(format, "regex", "only format: regex is handled");
        return Some(Ok(Regex::new(data.as_str()?).is_ok()));
    }
    if let Some(pattern) = schema.get("pattern") {
        let hay = data.as_str()?;
        let re = Regex::new(pattern.as_str().expect("a string pattern")).map_err(|e| e.to_string());
        return Some(re.and_then(|re| re.is_match(hay).map_err(|e| e.to_string())));
    }
    let properties = schema.get("patternProperties")?.as_object()?;
    let object = data.as_object()?;
    let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
    let mut valid = true;
    for (key, value) in object {
        let mut matched = false;
        for (pattern, sub) in properties {
            let re = match Regex::new(pattern) {
                Ok(re) => re,
                Err(e) => return Some(Err(e.to_string())),
            };
            match re.is_match(key) {
                Ok(true) => {
                    matched = true;
                    valid &= subschema_accepts(sub, value);
                }
                Ok(false) => {}
                Err(e) => return Some(Err(e.to_string())),
            }
        }
        valid &= matched || !closed;
    }
    Some(Ok(valid))
}

#[test]
fn official_suite_regex_cases() {
    let files = [
        ("draft2020-12", "optional/ecmascript-regex.json"),
        ("draft2020-12", "optional/non-bmp-regex.json"),
        ("draft2020-12", "pattern.json"),
        ("draft2020-12", "patternProperties.json"),
        ("draft7", "optional/format/regex.json"),
        ("draft7", "optional/format/ecmascript-regex.json"),
    ];
    let (mut ran, mut failed) = (0, Vec::new());
    for (draft, file) in files {
        for group in suite_file(draft, file) {
            let group_desc = group["description"].as_str().unwrap_or_default();
            let schema = group["schema"].as_object().expect("a schema object");
            for test in group["tests"].as_array().expect("tests") {
                let desc = test["description"].as_str().unwrap_or_default();
                let Some(got) = verdict(schema, &test["data"]) else {
                    continue;
                };
                ran += 1;
                let known = KNOWN
                    .iter()
                    .find(|&&(g, tests, _)| g == group_desc && tests.contains(&desc))
                    .map(|&(.., error)| Err(error.to_owned()));
                let passed = got.as_ref().ok() == test["valid"].as_bool().as_ref();
                match known {
                    Some(want) if got != want => failed.push(format!(
                        "{file}: {group_desc} / {desc}: listed as failing with {want:?}, got {got:?}"
                    )),
                    None if !passed => {
                        failed.push(format!("{file}: {group_desc} / {desc}: got {got:?}"));
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // Guards against the files or the filter silently running fewer cases.
    assert_eq!(ran, 114 + 2 + 12);
}
