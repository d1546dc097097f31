//! The JSON Schema dialects validated, and how a schema names its own.

use serde_json::Value;

use super::error::SchemaError;

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

    /// The order of the dialects by publication, for "draft-06 and later" rules.
    pub(super) fn rank(self) -> u8 {
        match self {
            Dialect::Draft4 => 4,
            Dialect::Draft6 => 6,
            Dialect::Draft7 => 7,
            Dialect::Draft201909 => 19,
            Dialect::Draft202012 => 20,
        }
    }

    /// Before 2019-09 a `$ref` makes every keyword beside it ignored, `$id` included.
    pub(super) fn ref_hides_siblings(self) -> bool {
        self.rank() <= 7
    }

    /// 2019-09 and later name anchors with `$anchor` (before, with a fragment-only `$id`).
    pub(super) fn has_anchor_keyword(self) -> bool {
        self.rank() >= 19
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
