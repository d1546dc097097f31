//! Tools: definitions, annotations, `tools/list` and `tools/call`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::common::{JsonObject, Meta};
use super::content::ContentBlock;
use super::mrtr::{InputResponses, ResultType};
use super::pagination::paginated_result;
pub use super::tool::{Tool, ToolAnnotations};

paginated_result!(
    /// Result of `tools/list`.
    ListToolsResult { tools: Vec<Tool> },
    "tools"
);

/// Params of `tools/call`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolParams {
    /// The tool to call.
    pub name: String,
    /// The arguments, an object matching the tool's input schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<JsonObject>,
    /// Answers to the previous round's input requests (MRTR retry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// The previous round's `requestState`, echoed unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// 2025-11-25 only: the legacy task request `{ttl}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<JsonObject>,
    /// Request metadata (required in 2026-07-28).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl CallToolParams {
    /// Calls `name` with `arguments`.
    pub fn new(name: impl Into<String>, arguments: Option<JsonObject>) -> Self {
        CallToolParams {
            name: name.into(),
            arguments,
            input_responses: None,
            request_state: None,
            task: None,
            meta: None,
        }
    }
}

/// The complete result of `tools/call`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// `complete` from 2026-07-28 servers; absent from legacy ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Unstructured result blocks.
    pub content: Vec<ContentBlock>,
    /// Structured result: any JSON, conforming to the tool's output schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// True when the tool failed (input validation, API or business errors).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl CallToolResult {
    /// A successful result with `content`.
    pub fn new(content: Vec<ContentBlock>) -> Self {
        CallToolResult {
            result_type: Some(ResultType::Complete),
            content,
            structured_content: None,
            is_error: None,
            meta: None,
        }
    }

    /// A successful result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        CallToolResult::new(vec![ContentBlock::text(text)])
    }

    /// A tool-level error (`isError: true`) with one text block, for the model to read.
    pub fn error(message: impl Into<String>) -> Self {
        CallToolResult {
            is_error: Some(true),
            ..CallToolResult::text(message)
        }
    }

    /// A structured result, with its serialised JSON also given as a text block (as the spec advises).
    pub fn structured(value: Value) -> Self {
        CallToolResult {
            structured_content: Some(value.clone()),
            ..CallToolResult::text(value.to_string())
        }
    }

    /// The text of the first text block, if there is one.
    pub fn first_text(&self) -> Option<&str> {
        self.content.iter().find_map(ContentBlock::as_text)
    }

    /// True when `isError` is set.
    pub fn is_error(&self) -> bool {
        self.is_error == Some(true)
    }
}
