//! The flat shape of an elicitation form's `requestedSchema` (2026-07-28, 11.11).

use serde_json::{Map, Value};

use super::error::SchemaError;

fn fail<T>(reason: impl Into<String>) -> Result<T, SchemaError> {
    Err(SchemaError::NotAnElicitationSchema(reason.into()))
}

/// Checks the restricted form shape: `{type:"object", properties:{..primitive..}, required?}`.
///
/// Each property is a string, number/integer or boolean schema, a single-select enum (`enum` or
/// titled `oneOf[{const,title}]`), or a multi-select array whose `items` hold `enum` or
/// `anyOf[{const,title}]`. Extra annotation keywords (title, description, ...) are tolerated, as the
/// official schema does; nesting is not.
pub(super) fn check_shape(schema: &Value) -> Result<(), SchemaError> {
    let Some(root) = schema.as_object() else {
        return fail("must be a JSON object");
    };
    if root.get("type").and_then(Value::as_str) != Some("object") {
        return fail("\"type\": \"object\" is required");
    }
    let Some(properties) = root.get("properties").and_then(Value::as_object) else {
        return fail("\"properties\" must be an object");
    };
    if let Some(required) = root.get("required") {
        let names = required
            .as_array()
            .filter(|r| r.iter().all(Value::is_string));
        if names.is_none() {
            return fail("\"required\" must be an array of strings");
        }
    }
    for (name, property) in properties {
        check_property(property).or_else(|e| match e {
            SchemaError::NotAnElicitationSchema(why) => fail(format!("property {name:?}: {why}")),
            other => Err(other),
        })?;
    }
    Ok(())
}

fn check_property(property: &Value) -> Result<(), SchemaError> {
    let Some(map) = property.as_object() else {
        return fail("must be a JSON object");
    };
    match map.get("type").and_then(Value::as_str) {
        Some("string") => {
            if let Some(one_of) = map.get("oneOf") {
                check_titled_options(one_of, "oneOf")?;
            }
            if let Some(values) = map.get("enum") {
                check_strings(values, "enum")?;
            }
            Ok(())
        }
        Some("number" | "integer" | "boolean") => Ok(()),
        Some("array") => {
            let Some(items) = map.get("items").and_then(Value::as_object) else {
                return fail("a multi-select array needs an \"items\" object");
            };
            check_multi_select_items(items)
        }
        Some("object") => fail("nested objects are not allowed"),
        Some(other) => fail(format!("type {other:?} is not allowed")),
        None => fail("\"type\" must be a string: string, number, integer, boolean or array"),
    }
}

fn check_multi_select_items(items: &Map<String, Value>) -> Result<(), SchemaError> {
    match (items.get("enum"), items.get("anyOf")) {
        (Some(values), None) => check_strings(values, "items.enum"),
        (None, Some(options)) => check_titled_options(options, "items.anyOf"),
        _ => fail("\"items\" must hold exactly one of \"enum\" or \"anyOf\""),
    }
}

fn check_strings(values: &Value, at: &str) -> Result<(), SchemaError> {
    match values.as_array() {
        Some(values) if values.iter().all(Value::is_string) => Ok(()),
        _ => fail(format!("\"{at}\" must be an array of strings")),
    }
}

fn check_titled_options(options: &Value, at: &str) -> Result<(), SchemaError> {
    let ok = options.as_array().is_some_and(|options| {
        options.iter().all(|o| {
            o.get("const").is_some_and(Value::is_string)
                && o.get("title").is_some_and(Value::is_string)
        })
    });
    if ok {
        Ok(())
    } else {
        fail(format!(
            "\"{at}\" must be an array of {{const, title}} string pairs"
        ))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::schema::{SchemaError, check_elicitation_schema};

    #[test]
    fn elicitation_schema_shape() {
        let good = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": "Name", "minLength": 1, "format": "email"},
                "age": {"type": "integer", "minimum": 0},
                "ratio": {"type": "number", "default": 0.5},
                "ok": {"type": "boolean", "default": true},
                "color": {"type": "string", "enum": ["red", "green"]},
                "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}]},
                "legacy": {"type": "string", "enum": ["a"], "enumNames": ["A"]},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "maxItems": 2},
                "picks": {"type": "array", "items": {"anyOf": [{"const": "p", "title": "P"}]}}
            },
            "required": ["name"]
        });
        assert_eq!(check_elicitation_schema(&good), Ok(()));
        let table = [
            (json!([]), "must be a JSON object"),
            (
                json!({"type": "object"}),
                "\"properties\" must be an object",
            ),
            (
                json!({"type": "string", "properties": {}}),
                "\"type\": \"object\"",
            ),
            (
                json!({"type": "object", "properties": {}, "required": [1]}),
                "array of strings",
            ),
            (
                json!({"type": "object", "properties": {"o": {"type": "object"}}}),
                "nested objects",
            ),
            (
                json!({"type": "object", "properties": {"o": {"type": "null"}}}),
                "\"null\" is not allowed",
            ),
            (
                json!({"type": "object", "properties": {"o": {}}}),
                "\"type\" must be a string",
            ),
            (
                json!({"type": "object", "properties": {"a": {"type": "array"}}}),
                "\"items\" object",
            ),
            (
                json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object"}}}}),
                "exactly one of",
            ),
            (
                json!({"type": "object", "properties": {"s": {"type": "string", "oneOf": [{"const": "x"}]}}}),
                "{const, title}",
            ),
            (
                json!({"type": "object", "properties": {"s": {"type": "string", "enum": [1]}}}),
                "\"enum\"",
            ),
        ];
        for (schema, why) in table {
            let err = check_elicitation_schema(&schema).unwrap_err();
            assert!(
                matches!(err, SchemaError::NotAnElicitationSchema(_)),
                "{schema}: {err:?}"
            );
            assert!(err.to_string().contains(why), "{schema}: {err}");
        }
        // Shape is fine, compiling is not.
        let err = check_elicitation_schema(&json!({
            "type": "object", "properties": {"s": {"type": "string", "minLength": "x"}}
        }));
        assert!(matches!(err, Err(SchemaError::Invalid(_))), "{err:?}");
    }
}
