//! Prompts: templates listed by the server and expanded by `prompts/get`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::common::{Meta, optional_setters};
use super::content::{ContentBlock, Role};
use super::implementation::Icon;
use super::mrtr::{InputResponses, ResultType};
use super::pagination::paginated_result;

/// A prompt template.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    /// Programmatic name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the prompt does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The arguments it accepts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<PromptArgument>>,
    /// Icons a client may display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Prompt metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl Prompt {
    /// A prompt named `name` with no arguments.
    pub fn new(name: impl Into<String>) -> Self {
        Prompt {
            name: name.into(),
            title: None,
            description: None,
            arguments: None,
            icons: None,
            meta: None,
        }
    }

    optional_setters! {
        "The same prompt with a display name." title: String,
        "The same prompt with a description." description: String,
        "The same prompt with icons." icons: Vec<Icon>,
        "The same prompt with `_meta`." meta: Meta,
    }

    /// The same prompt with one more argument.
    pub fn argument(mut self, argument: PromptArgument) -> Self {
        self.arguments.get_or_insert_with(Vec::new).push(argument);
        self
    }
}

/// An argument a prompt accepts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptArgument {
    /// Argument name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the argument means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether it must be given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
}

impl PromptArgument {
    /// An argument named `name`, required or not.
    pub fn new(name: impl Into<String>, required: bool) -> Self {
        PromptArgument {
            name: name.into(),
            title: None,
            description: None,
            required: Some(required),
        }
    }

    optional_setters! {
        "The same argument with a display name." title: String,
        "The same argument with a description." description: String,
    }
}

/// One message of an expanded prompt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: ContentBlock,
}

impl PromptMessage {
    /// A text message from `role`.
    pub fn text(role: Role, text: impl Into<String>) -> Self {
        PromptMessage {
            role,
            content: ContentBlock::text(text),
        }
    }
}

paginated_result!(
    /// Result of `prompts/list`.
    ListPromptsResult { prompts: Vec<Prompt> },
    "prompts"
);

/// Params of `prompts/get`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetPromptParams {
    /// The prompt to expand.
    pub name: String,
    /// String arguments for the template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<BTreeMap<String, String>>,
    /// Answers to the previous round's input requests (MRTR retry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// The previous round's `requestState`, echoed unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// Request metadata (required in 2026-07-28).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl GetPromptParams {
    /// Expands `name` with no arguments.
    pub fn new(name: impl Into<String>) -> Self {
        GetPromptParams {
            name: name.into(),
            arguments: None,
            input_responses: None,
            request_state: None,
            meta: None,
        }
    }
}

/// The complete result of `prompts/get`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetPromptResult {
    /// `complete` from 2026-07-28 servers; absent from legacy ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// A description of the expanded prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl GetPromptResult {
    /// A complete result with `messages`.
    pub fn new(messages: Vec<PromptMessage>) -> Self {
        GetPromptResult {
            result_type: Some(ResultType::Complete),
            description: None,
            messages,
            meta: None,
        }
    }
}
