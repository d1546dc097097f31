//! A tool as a server lists it ([`Tool`], [`ToolAnnotations`]); also what a sampling request may
//! offer the model (public paths: `model::tools::{Tool, ToolAnnotations}`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::common::{JsonObject, Meta, optional_setters};
use super::implementation::Icon;

/// A tool the client can call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// Programmatic name (1-128 of `A-Za-z0-9_-.`, unique within the server).
    pub name: String,
    /// Display name; takes precedence over `annotations.title`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the arguments (`type: "object"`), kept verbatim.
    pub input_schema: Value,
    /// JSON Schema of `structuredContent`, kept verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Untrusted behaviour hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Icons a client may display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// 2025-11-25 only: `{taskSupport}` of the legacy tasks feature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<JsonObject>,
    /// Tool metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl Tool {
    /// A tool named `name` taking any object of arguments (`inputSchema: {"type": "object"}`); set
    /// the rest with the builder methods.
    pub fn new(name: impl Into<String>) -> Self {
        Tool {
            name: name.into(),
            title: None,
            description: None,
            input_schema: serde_json::json!({ "type": "object" }),
            output_schema: None,
            annotations: None,
            icons: None,
            execution: None,
            meta: None,
        }
    }

    optional_setters! {
        "The same tool with a display name." title: String,
        "The same tool with a description." description: String,
        "The same tool with an output schema (of `structuredContent`)." output_schema: Value,
        "The same tool with annotations." annotations: ToolAnnotations,
        "The same tool with icons." icons: Vec<Icon>,
        "The same tool with `_meta`." meta: Meta,
    }

    /// The same tool with an input schema (a JSON Schema object with `type: "object"`).
    pub fn input_schema(mut self, schema: Value) -> Self {
        self.input_schema = schema;
        self
    }

    /// The name to show a user: `title`, then `annotations.title`, then `name`.
    pub fn display_name(&self) -> &str {
        self.title
            .as_deref()
            .or_else(|| self.annotations.as_ref()?.title.as_deref())
            .unwrap_or(&self.name)
    }
}

impl From<&str> for Tool {
    fn from(name: &str) -> Self {
        Tool::new(name)
    }
}

impl From<String> for Tool {
    fn from(name: String) -> Self {
        Tool::new(name)
    }
}

/// Hints about a tool's behaviour; never trust them from an untrusted server.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not modify its environment (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy data (default true; meaningful when not read-only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Repeating a call with the same arguments has no further effect (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool talks to an open world of external entities (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}
