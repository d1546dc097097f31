//! Sampling (deprecated, still normative): the server asks the client's model for a message,
//! possibly with tools.

use serde::de::Deserializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::common::{JsonObject, Meta, from_value, ser_opt_f64, str_field};
use super::content::{AudioContent, ContentBlock, ImageContent, Role, TextContent};
use super::tool::Tool;

/// `{"type":"tool_use"}`: the model asks to call a tool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "tool_use", rename_all = "camelCase")]
pub struct ToolUseContent {
    /// Identifier matched by the answering `tool_result`.
    pub id: String,
    /// The tool name.
    pub name: String,
    /// The arguments.
    pub input: JsonObject,
    /// Block metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// `{"type":"tool_result"}`: the outcome of a tool use, sent back to the model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "tool_result", rename_all = "camelCase")]
pub struct ToolResultContent {
    /// The `id` of the tool use answered.
    pub tool_use_id: String,
    /// Unstructured result blocks.
    pub content: Vec<ContentBlock>,
    /// Structured result, any JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the tool failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// Block metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A block of a sampling message (`SamplingMessageContentBlock`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SamplingContent {
    /// `text`.
    Text(TextContent),
    /// `image`.
    Image(ImageContent),
    /// `audio`.
    Audio(AudioContent),
    /// `tool_use`.
    ToolUse(ToolUseContent),
    /// `tool_result`.
    ToolResult(ToolResultContent),
}

impl<'de> Deserialize<'de> for SamplingContent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        match str_field(&v, "type") {
            Some("text") => from_value(v).map(SamplingContent::Text),
            Some("image") => from_value(v).map(SamplingContent::Image),
            Some("audio") => from_value(v).map(SamplingContent::Audio),
            Some("tool_use") => from_value(v).map(SamplingContent::ToolUse),
            Some("tool_result") => from_value(v).map(SamplingContent::ToolResult),
            other => Err(serde::de::Error::custom(format!(
                "not a sampling content type: {other:?}"
            ))),
        }
    }
}

/// The `content` of a sampling message: one block or several.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SamplingMessageContent {
    /// A single block.
    Single(SamplingContent),
    /// An array of blocks.
    Multiple(Vec<SamplingContent>),
}

impl SamplingMessageContent {
    /// The blocks as a slice, whichever form was used.
    pub fn blocks(&self) -> &[SamplingContent] {
        match self {
            SamplingMessageContent::Single(b) => std::slice::from_ref(b),
            SamplingMessageContent::Multiple(v) => v,
        }
    }
}

/// One message of a sampling conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SamplingMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: SamplingMessageContent,
    /// Message metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl SamplingMessage {
    /// A one-block text message from `role`.
    pub fn text(role: Role, text: impl Into<String>) -> Self {
        SamplingMessage {
            role,
            content: SamplingMessageContent::Single(SamplingContent::Text(TextContent::new(text))),
            meta: None,
        }
    }
}

/// A model name hint, matched as a substring.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelHint {
    /// The (partial) model name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// The server's model preferences; every priority is in 0..=1.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelPreferences {
    /// Model name hints, in order of preference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<Vec<ModelHint>>,
    /// How much cost matters.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_f64"
    )]
    pub cost_priority: Option<f64>,
    /// How much speed matters.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_f64"
    )]
    pub speed_priority: Option<f64>,
    /// How much capability matters.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_f64"
    )]
    pub intelligence_priority: Option<f64>,
}

/// Which MCP servers' context to include (`thisServer` and `allServers` are deprecated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum IncludeContext {
    /// No context.
    None,
    /// Context from the requesting server.
    ThisServer,
    /// Context from every connected server.
    AllServers,
}

/// How the model may use the offered tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolChoiceMode {
    /// The model decides (default).
    Auto,
    /// The model must use at least one tool.
    Required,
    /// The model must not use tools.
    None,
}

/// Tool selection for a sampling request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolChoice {
    /// The mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<ToolChoiceMode>,
}

/// Params of `sampling/createMessage`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageParams {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// Model selection preferences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<ModelPreferences>,
    /// A system prompt the client may use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// Context to include.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_context: Option<IncludeContext>,
    /// Sampling temperature.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_f64"
    )]
    pub temperature: Option<f64>,
    /// The most tokens to sample; the client must respect it.
    pub max_tokens: u64,
    /// Sequences that stop sampling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Vec<String>>,
    /// Provider-specific metadata, passed through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonObject>,
    /// Tools the model may use (needs `sampling.tools`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Tool>>,
    /// How the model may use them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice>,
    /// 2025-11-25 only: the legacy task request `{ttl}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<JsonObject>,
    /// Request metadata (legacy revisions).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl CreateMessageParams {
    /// A request to continue `messages` with at most `max_tokens` tokens.
    pub fn new(messages: Vec<SamplingMessage>, max_tokens: u64) -> Self {
        CreateMessageParams {
            messages,
            model_preferences: None,
            system_prompt: None,
            include_context: None,
            temperature: None,
            max_tokens,
            stop_sequences: None,
            metadata: None,
            tools: None,
            tool_choice: None,
            task: None,
            meta: None,
        }
    }
}

/// Result of `sampling/createMessage` (a bare object inside `inputResponses` in 2026-07-28).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageResult {
    /// Who speaks (normally the assistant).
    pub role: Role,
    /// The sampled content.
    pub content: SamplingMessageContent,
    /// The model that produced it.
    pub model: String,
    /// Why sampling stopped: `endTurn`, `stopSequence`, `maxTokens`, `toolUse`, or another string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl CreateMessageResult {
    /// An assistant text answer from `model`, stopped at end of turn.
    pub fn text(model: impl Into<String>, text: impl Into<String>) -> Self {
        CreateMessageResult {
            role: Role::Assistant,
            content: SamplingMessageContent::Single(SamplingContent::Text(TextContent::new(text))),
            model: model.into(),
            stop_reason: Some("endTurn".into()),
            meta: None,
        }
    }
}
