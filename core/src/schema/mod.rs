//! JSON Schema validation for tool `inputSchema` / `outputSchema` and elicitation `requestedSchema`.
//!
//! The validator is this crate's own: a document is compiled once into nodes of checks with every
//! `$ref` resolved (`compiler.rs`, `resources.rs`, `uri.rs`, `program.rs`) and run on instances
//! (`eval.rs`), with an ECMA-262 regular expression engine of its own (`regex/`). It passes the
//! official JSON-Schema-Test-Suite's required tests of drafts 4, 6, 7, 2019-09 and 2020-12 (vendored
//! data, run by `core/tests/json_schema_suite.rs`, which lists the cases answered otherwise on
//! purpose: remote references, embedded meta-schemas, IDNA formats).
//!
//! Rules from the MCP dialect section (2026-07-28, 11.15) that this module enforces:
//! - a schema without `$schema` is JSON Schema 2020-12; draft-04, draft-06, draft-07 and 2019-09 are
//!   also accepted when declared, anything else is [`SchemaError::UnsupportedDialect`];
//! - a `$ref` that leaves the schema document is never dereferenced: it fails with
//!   [`SchemaError::ExternalRef`] instead of being treated as permissive, even in a subschema
//!   nothing uses (every subschema is compiled);
//! - resource use is bounded: [`MAX_SCHEMA_DEPTH`], [`MAX_SCHEMA_NODES`], a regex backtracking limit
//!   ([`REGEX_BACKTRACK_LIMIT`]) and a bound on nested evaluation (a `$ref` cycle fails).
//!
//! Shape checks come first where MCP narrows JSON Schema: [`check_tool_input_schema`] (an object
//! schema) and [`check_elicitation_schema`] (the flat form subset).
//!
//! `format` follows the dialect's default: asserted under drafts 4 to 7 for the formats `format.rs`
//! lists, an annotation in 2019-09 and 2020-12.
//!
//! Compiling is the expensive step, so [`SchemaCache`] keeps compiled schemas keyed by a hash of their
//! canonical content (object keys sorted), bounded by entry count.

mod cache;
mod compile;
mod compiler;
mod dialect;
mod elicitation;
mod equal;
mod error;
mod eval;
mod format;
mod keywords;
pub(crate) use keywords::{Slot, subschema_slot};
mod limits;
mod pointer;
mod program;
mod regex;
mod report;
mod resources;
#[cfg(test)]
mod tests;
mod uri;
#[cfg(test)]
mod validator_tests;

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
