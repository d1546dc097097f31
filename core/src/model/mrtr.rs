//! Multi round-trip requests (MRTR): `resultType`, the input requests a server embeds in an
//! `InputRequiredResult`, and the input responses a client sends back on its retry.

use std::collections::BTreeMap;

use serde::de::Deserializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::common::{Meta, from_value, str_field};
use super::elicitation::{ElicitRequestParams, ElicitResult};
pub use super::result_type::ResultType;
use super::roots::{ListRootsParams, ListRootsResult};
use super::sampling::{CreateMessageParams, CreateMessageResult};

/// The methods that may answer `input_required` (2026-07-28 MRTR): `tools/call`, `prompts/get`
/// and `resources/read`. The server refuses an input request from any other method's handler; the
/// client refuses such an answer from the server.
pub(crate) const INPUT_METHODS: [&str; 3] = ["tools/call", "prompts/get", "resources/read"];

/// One request for client input inside `inputRequests`: a JSON-RPC-less `{method, params}` pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method")]
pub enum InputRequest {
    /// `elicitation/create`: ask the user through a form or a URL.
    #[serde(rename = "elicitation/create")]
    Elicitation {
        /// The elicitation params.
        params: ElicitRequestParams,
    },
    /// `sampling/createMessage`: ask the client's LLM for a completion.
    #[serde(rename = "sampling/createMessage")]
    Sampling {
        /// The sampling params.
        params: CreateMessageParams,
    },
    /// `roots/list`: ask for the client's roots.
    #[serde(rename = "roots/list")]
    ListRoots {
        /// Optional params (only `_meta`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        params: Option<ListRootsParams>,
    },
}

impl InputRequest {
    /// The method name of this input request.
    pub fn method(&self) -> &'static str {
        match self {
            InputRequest::Elicitation { .. } => "elicitation/create",
            InputRequest::Sampling { .. } => "sampling/createMessage",
            InputRequest::ListRoots { .. } => "roots/list",
        }
    }
}

/// The `inputRequests` map: server-chosen keys to input requests.
pub type InputRequests = BTreeMap<String, InputRequest>;

/// One client answer inside `inputResponses`, keyed like the request it answers.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum InputResponse {
    /// The answer to `elicitation/create`.
    Elicit(ElicitResult),
    /// The answer to `roots/list`.
    ListRoots(ListRootsResult),
    /// The answer to `sampling/createMessage`.
    CreateMessage(Box<CreateMessageResult>),
}

impl<'de> Deserialize<'de> for InputResponse {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // The three shapes are told apart by their required keys; the payload carries no method.
        let v = Value::deserialize(d)?;
        if v.get("action").is_some() {
            from_value(v).map(InputResponse::Elicit)
        } else if v.get("roots").is_some() {
            from_value(v).map(InputResponse::ListRoots)
        } else if v.get("model").is_some() || v.get("role").is_some() {
            from_value(v).map(|r| InputResponse::CreateMessage(Box::new(r)))
        } else {
            Err(serde::de::Error::custom(
                "input response is none of ElicitResult (action), ListRootsResult (roots), CreateMessageResult (role, model)",
            ))
        }
    }
}

/// The `inputResponses` map a client sends on its retry.
pub type InputResponses = BTreeMap<String, InputResponse>;

/// `resultType: "input_required"`: the server needs client input before it can complete the request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputRequiredResult {
    /// Always [`ResultType::InputRequired`].
    pub result_type: ResultType,
    /// What to ask the client for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<InputRequests>,
    /// Opaque server state the client must echo byte-exactly on the retry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl InputRequiredResult {
    /// An input-required result asking for `requests`.
    pub fn new(requests: InputRequests) -> Self {
        InputRequiredResult {
            result_type: ResultType::InputRequired,
            input_requests: Some(requests),
            request_state: None,
            meta: None,
        }
    }

    /// A result carrying only `requestState` (load shedding, rolling upgrades).
    pub fn state_only(state: impl Into<String>) -> Self {
        InputRequiredResult {
            result_type: ResultType::InputRequired,
            input_requests: None,
            request_state: Some(state.into()),
            meta: None,
        }
    }

    /// The same result with `requestState` set.
    pub fn with_state(mut self, state: impl Into<String>) -> Self {
        self.request_state = Some(state.into());
        self
    }
}

/// The result of a method that may answer `input_required` (`tools/call`, `prompts/get`,
/// `resources/read`), decoded by `resultType`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Outcome<T> {
    /// `resultType` `"complete"`, or absent (a legacy server).
    Complete(T),
    /// `resultType` `"input_required"`.
    InputRequired(InputRequiredResult),
    /// An extension's `resultType` (for example `"task"`), kept as raw JSON.
    Extension(Value),
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for Outcome<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        match str_field(&v, "resultType") {
            None | Some("complete") => from_value(v).map(Outcome::Complete),
            Some("input_required") => from_value(v).map(Outcome::InputRequired),
            Some(_) => Ok(Outcome::Extension(v)),
        }
    }
}

impl<T> Outcome<T> {
    /// The complete result, if that is what this is.
    pub fn complete(self) -> Option<T> {
        match self {
            Outcome::Complete(t) => Some(t),
            _ => None,
        }
    }
}
