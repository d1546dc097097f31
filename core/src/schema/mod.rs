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
mod elicitation;
mod report;
#[cfg(test)]
mod tests;

use serde_json::Value;

pub use cache::SchemaCache;
pub use report::{ValidationErrorEntry, ValidationErrors};

/// Deepest JSON nesting (objects and arrays, root = 1) accepted in a schema document.
pub const MAX_SCHEMA_DEPTH: usize = 64;
/// Most JSON values (objects, arrays and scalars together) accepted in one schema document.
pub const MAX_SCHEMA_NODES: usize = 10_000;
/// Backtracking steps allowed to one `pattern` / `patternProperties` regex match.
pub const REGEX_BACKTRACK_LIMIT: usize = 1_000_000;
/// Default number of compiled schemas kept by [`SchemaCache::default`].
pub const DEFAULT_CACHE_CAPACITY: usize = 256;

/// Why a schema could not be accepted or compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaError {
    /// `$schema` names a dialect this engine does not implement.
    #[error(
        "unsupported JSON Schema dialect {0:?}: supported are 2020-12 (the default), 2019-09, \
         draft-07, draft-06 and draft-04"
    )]
    UnsupportedDialect(String),
    /// A `$ref` points outside the schema document; MCP forbids fetching it.
    #[error(
        "external $ref {0:?} is not resolved: references outside the schema document are never fetched"
    )]
    ExternalRef(String),
    /// The schema exceeds the depth or size bounds.
    #[error("schema too complex: {0}")]
    TooComplex(String),
    /// A tool `inputSchema` breaks the MCP shape rule (an object with `"type": "object"`).
    #[error("invalid tool inputSchema: {0}")]
    NotAnObjectSchema(String),
    /// An elicitation `requestedSchema` breaks the flat form shape (11.11).
    #[error("invalid elicitation requestedSchema: {0}")]
    NotAnElicitationSchema(String),
    /// The schema is not valid under its dialect, or an in-document reference does not resolve.
    #[error("invalid schema: {0}")]
    Invalid(String),
}

/// A JSON Schema dialect this engine validates with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// JSON Schema draft-04.
    Draft4,
    /// JSON Schema draft-06.
    Draft6,
    /// JSON Schema draft-07.
    Draft7,
    /// JSON Schema 2019-09.
    Draft201909,
    /// JSON Schema 2020-12, the MCP default.
    Draft202012,
}

impl Dialect {
    /// The canonical `$schema` URI of this dialect.
    pub fn uri(self) -> &'static str {
        match self {
            Dialect::Draft4 => "http://json-schema.org/draft-04/schema#",
            Dialect::Draft6 => "http://json-schema.org/draft-06/schema#",
            Dialect::Draft7 => "http://json-schema.org/draft-07/schema#",
            Dialect::Draft201909 => "https://json-schema.org/draft/2019-09/schema",
            Dialect::Draft202012 => "https://json-schema.org/draft/2020-12/schema",
        }
    }

    /// The dialect of a schema: its `$schema`, or 2020-12 when absent (or when the schema is a boolean).
    pub fn of(schema: &Value) -> Result<Dialect, SchemaError> {
        match schema.get("$schema") {
            None => Ok(Dialect::Draft202012),
            Some(Value::String(uri)) => Dialect::from_uri(uri),
            Some(other) => Err(SchemaError::Invalid(format!(
                "$schema must be a string, got {other}"
            ))),
        }
    }

    /// The dialect named by a `$schema` URI (http or https, with or without a trailing `#`).
    pub fn from_uri(uri: &str) -> Result<Dialect, SchemaError> {
        let bare = uri.strip_suffix('#').unwrap_or(uri);
        let rest = bare
            .strip_prefix("https://")
            .or_else(|| bare.strip_prefix("http://"));
        match rest {
            Some("json-schema.org/draft/2020-12/schema") => Ok(Dialect::Draft202012),
            Some("json-schema.org/draft/2019-09/schema") => Ok(Dialect::Draft201909),
            Some("json-schema.org/draft-07/schema") => Ok(Dialect::Draft7),
            Some("json-schema.org/draft-06/schema") => Ok(Dialect::Draft6),
            Some("json-schema.org/draft-04/schema") => Ok(Dialect::Draft4),
            _ => Err(SchemaError::UnsupportedDialect(uri.to_owned())),
        }
    }
}

/// A schema compiled once, ready to validate many instances; share it through `Arc`.
pub struct CompiledSchema {
    validator: jsonschema::Validator,
    dialect: Dialect,
}

impl std::fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledSchema")
            .field("dialect", &self.dialect)
            .finish_non_exhaustive()
    }
}

impl CompiledSchema {
    /// Compiles `schema` without caching (prefer [`SchemaCache::compile`] on hot paths).
    pub fn new(schema: &Value) -> Result<CompiledSchema, SchemaError> {
        compile::check_bounds(schema)?;
        compile::build(schema)
    }

    /// The dialect the schema is validated under.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Whether `instance` satisfies the schema (faster than [`validate`](Self::validate) on failure).
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.validator.is_valid(instance)
    }

    /// Validates `instance`, listing what is wrong and where when it does not conform.
    pub fn validate(&self, instance: &Value) -> Result<(), ValidationErrors> {
        if self.validator.is_valid(instance) {
            return Ok(());
        }
        Err(ValidationErrors::collect(
            self.validator.iter_errors(instance),
        ))
    }
}

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
