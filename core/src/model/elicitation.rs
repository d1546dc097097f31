//! Elicitation: asking the user for input through a flat form or an out-of-band URL.

use std::collections::BTreeMap;

use serde::de::Deserializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::common::{Meta, from_value, str_field};
pub use super::form_schema::{
    BooleanSchema, ElicitationSchema, LegacyTitledEnumSchema, NumberSchema, NumberType,
    PrimitiveSchemaDefinition, StringFormat, StringSchema, TitledEnumItems,
    TitledMultiSelectEnumSchema, TitledOption, TitledSingleSelectEnumSchema, UntitledEnumItems,
    UntitledMultiSelectEnumSchema, UntitledSingleSelectEnumSchema,
};

/// Params of `elicitation/create`: form mode or URL mode.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ElicitRequestParams {
    /// Form mode (`mode: "form"` or no mode).
    Form(ElicitRequestFormParams),
    /// URL mode (`mode: "url"`).
    Url(ElicitRequestUrlParams),
}

impl<'de> Deserialize<'de> for ElicitRequestParams {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        match str_field(&v, "mode") {
            Some("url") => from_value(v).map(ElicitRequestParams::Url),
            None | Some("form") => from_value(v).map(ElicitRequestParams::Form),
            Some(other) => Err(serde::de::Error::custom(format!(
                "unknown elicitation mode {other:?}"
            ))),
        }
    }
}

impl ElicitRequestParams {
    /// A form-mode request showing `message` and asking for `schema`.
    pub fn form(message: impl Into<String>, schema: ElicitationSchema) -> Self {
        ElicitRequestParams::Form(ElicitRequestFormParams {
            mode: Some(FormMode::Form),
            message: message.into(),
            requested_schema: schema,
            meta: None,
        })
    }

    /// A URL-mode request showing `message` and asking the user to open `url`.
    pub fn url(message: impl Into<String>, url: impl Into<String>) -> Self {
        ElicitRequestParams::Url(ElicitRequestUrlParams {
            message: message.into(),
            url: url.into(),
            elicitation_id: None,
            meta: None,
        })
    }
}

/// The only value of `mode` in form mode (which may also be omitted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FormMode {
    /// `"form"`.
    #[serde(rename = "form")]
    Form,
}

/// Form-mode params: a message and a flat schema of primitive fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitRequestFormParams {
    /// `Some(Form)` when the sender wrote `mode: "form"`; `None` when it left the mode out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<FormMode>,
    /// What is asked and why.
    pub message: String,
    /// The fields to fill.
    pub requested_schema: ElicitationSchema,
    /// Request metadata (legacy revisions).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// URL-mode params: the user is sent to a URL the client cannot inspect.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename = "url", rename_all = "camelCase")]
pub struct ElicitRequestUrlParams {
    /// What is asked and why.
    pub message: String,
    /// The URL to open.
    pub url: String,
    /// 2025-11-25 only: the id later named by `notifications/elicitation/complete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation_id: Option<String>,
    /// Request metadata (legacy revisions).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The user's answer to an elicitation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    /// The user submitted the form (or agreed to open the URL).
    Accept,
    /// The user said no.
    Decline,
    /// The user dismissed the request without choosing.
    Cancel,
}

/// One submitted form value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ElicitValue {
    /// A boolean field.
    Bool(bool),
    /// A numeric field, exactly as written.
    Number(serde_json::Number),
    /// A string or single-select field.
    String(String),
    /// A multi-select field.
    StringArray(Vec<String>),
}

/// Result of `elicitation/create` (a bare object inside `inputResponses` in 2026-07-28).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitResult {
    /// What the user did.
    pub action: ElicitAction,
    /// The submitted values (form mode, `accept` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<BTreeMap<String, ElicitValue>>,
    /// Result metadata (legacy revisions; removed in 2026-07-28).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ElicitResult {
    /// An `accept` carrying `content`.
    pub fn accept(content: BTreeMap<String, ElicitValue>) -> Self {
        ElicitResult {
            action: ElicitAction::Accept,
            content: Some(content),
            meta: None,
        }
    }

    /// A `decline`.
    pub fn decline() -> Self {
        ElicitResult {
            action: ElicitAction::Decline,
            content: None,
            meta: None,
        }
    }

    /// A `cancel`.
    pub fn cancel() -> Self {
        ElicitResult {
            action: ElicitAction::Cancel,
            content: None,
            meta: None,
        }
    }
}
