//! Why a schema was refused.

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
