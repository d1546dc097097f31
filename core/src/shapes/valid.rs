//! Checks a value against a schema node of one revision, after the walk (`walk`) fitted it: the
//! keywords the official schemas use for message shapes (`$ref`, `type`, `required`, `properties`,
//! `additionalProperties`, `items`, `enum`, `const`, `anyOf`/`oneOf`). A handler's own notification
//! ([`super::session_notification`]) is checked this way before it leaves the server, so a missing
//! required property or a value of the wrong type is refused with its path instead of reaching the
//! client.

use serde_json::{Map, Value};

use super::spec::Spec;
use super::walk::Refusal;

/// Checks `value` against `node` of `spec`.
pub(crate) fn check(
    spec: &'static Spec,
    node: &'static Value,
    value: &Value,
) -> Result<(), Refusal> {
    let node = spec.resolve(node);
    if let Some(members) = node
        .get("anyOf")
        .or_else(|| node.get("oneOf"))
        .and_then(Value::as_array)
    {
        if !members.iter().any(|m| check(spec, m, value).is_ok()) {
            return Err(Refusal::new("matches none of the forms the schema allows"));
        }
    }
    if let Some(t) = node.get("type") {
        let allowed: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !allowed.is_empty() && !allowed.iter().any(|t| is_type(t, value)) {
            return Err(Refusal::new(format!(
                "must be of type {}, not {}",
                allowed.join(" or "),
                type_of(value)
            )));
        }
    }
    if let Some(c) = node.get("const")
        && c != value
    {
        return Err(Refusal::new(format!("must be {c}")));
    }
    if let Some(options) = node.get("enum").and_then(Value::as_array)
        && !options.contains(value)
    {
        return Err(Refusal::new(format!(
            "must be one of {}",
            Value::Array(options.clone())
        )));
    }
    match value {
        Value::Object(map) => check_object(spec, node, map),
        Value::Array(items) => match node.get("items") {
            Some(each) => items
                .iter()
                .enumerate()
                .try_for_each(|(i, item)| check(spec, each, item).map_err(|e| e.at(i.to_string()))),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

fn check_object(
    spec: &'static Spec,
    node: &'static Value,
    map: &Map<String, Value>,
) -> Result<(), Refusal> {
    let required = node.get("required").and_then(Value::as_array);
    if let Some(missing) = required
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|r| !map.contains_key(*r))
    {
        return Err(Refusal::new(format!("lacks the required {missing:?}")));
    }
    let props = node.get("properties").and_then(Value::as_object);
    let extra = node.get("additionalProperties").filter(|e| e.is_object());
    for (k, v) in map.iter().filter(|(k, _)| *k != "_meta") {
        let schema = props.and_then(|p| p.get(k)).or(extra);
        if let Some(schema) = schema {
            check(spec, schema, v).map_err(|e| e.at(k.as_str()))?;
        }
    }
    Ok(())
}

fn is_type(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => true,
    }
}

fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
