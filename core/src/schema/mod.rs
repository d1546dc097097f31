//! JSON Schema validation for tool `inputSchema` / `outputSchema` and elicitation `requestedSchema`.
//!
//! Rules from the MCP dialect section (2026-07-28, 11.15) that this module enforces:
//! - a schema without `$schema` is JSON Schema 2020-12; draft-04, draft-06, draft-07 and 2019-09 are
//!   also accepted when declared, anything else is [`SchemaError::UnsupportedDialect`];
//! - a `$ref` that leaves the schema document is never dereferenced: the compiler's retriever refuses
//!   every fetch, so an unresolved external reference fails with [`SchemaError::ExternalRef`] instead of
//!   being treated as permissive;
//! - resource use is bounded: [`MAX_SCHEMA_DEPTH`], [`MAX_SCHEMA_NODES`] and a regex backtracking
//!   limit ([`REGEX_BACKTRACK_LIMIT`]).
//!
//! Shape checks come first where MCP narrows JSON Schema: [`check_tool_input_schema`] (an object
//! schema) and [`check_elicitation_schema`] (the flat form subset).
//!
//! `format` follows the dialect's default (an annotation in 2019-09 and 2020-12, so not asserted).
//!
//! Compiling is the expensive step, so [`SchemaCache`] keeps compiled schemas keyed by a hash of their
//! canonical content (object keys sorted), bounded by entry count.

mod cache;
mod compile;
pub(crate) use compile::{Slot, subschema_slot};
mod dialect;
mod elicitation;
mod error;
mod limits;
mod regex;
mod report;
#[cfg(test)]
mod tests;

use serde_json::Value;

pub use cache::SchemaCache;
pub use compile::CompiledSchema;
pub use dialect::Dialect;
pub use error::SchemaError;
pub use limits::{
    DEFAULT_CACHE_CAPACITY, MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, REGEX_BACKTRACK_LIMIT,
};
pub use report::{ValidationErrorEntry, ValidationErrors};

/// Checks the MCP shape of a tool `inputSchema` (an object with `"type": "object"`), then compiles it.
pub fn check_tool_input_schema(schema: &Value) -> Result<(), SchemaError> {
    check_object_shape(schema)?;
    CompiledSchema::new(schema).map(drop)
}

/// Checks the flat form shape of an elicitation `requestedSchema` (11.11), then compiles it.
pub fn check_elicitation_schema(schema: &Value) -> Result<(), SchemaError> {
    compile::check_bounds(schema)?;
    elicitation::check_shape(schema)?;
    compile::build(schema).map(drop)
}

/// The shape rule alone: a JSON object whose `type` is the string `"object"`.
fn check_object_shape(schema: &Value) -> Result<(), SchemaError> {
    let Some(map) = schema.as_object() else {
        return Err(SchemaError::NotAnObjectSchema(format!(
            "must be a JSON object, got {}",
            json_kind(schema)
        )));
    };
    match map.get("type") {
        Some(Value::String(t)) if t == "object" => Ok(()),
        Some(other) => Err(SchemaError::NotAnObjectSchema(format!(
            "\"type\" must be \"object\", got {other}"
        ))),
        None => Err(SchemaError::NotAnObjectSchema(
            "\"type\": \"object\" is required".to_owned(),
        )),
    }
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
