//! The typed client API: requests built from Rust values, results parsed into the `model` types. The
//! raw `Value` path stays next to it ([`Client::call`], [`Client::call_tool_raw`],
//! [`Client::list_all_raw`]) for hosts that pass JSON through unchanged.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::connection::CallOptions;
use super::description::ServerDescription;
use super::handle::Client;
use crate::error::{Error, Result};
use crate::model::{
    CallToolResult, CompleteResult, CompletionReference, GetPromptResult, Implementation,
    ReadResourceResult, ServerCapabilities,
};

/// Reads a result into its model type; a result that does not parse is the server's fault, reported
/// as [`Error::Protocol`] naming the method and what is wrong.
pub(crate) fn parse_result<T: DeserializeOwned>(method: &str, raw: Value) -> Result<T> {
    serde_json::from_value(raw)
        .map_err(|e| Error::Protocol(format!("{method}: the result does not parse: {e}")))
}

/// A Rust value as a JSON object of arguments (`null` reads as no arguments).
pub(crate) fn to_arguments(what: &str, arguments: impl Serialize) -> Result<Value> {
    match serde_json::to_value(arguments) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(Value::Null) => Ok(json!({})),
        Ok(other) => Err(Error::InvalidArgument(format!(
            "{what} must be a JSON object, got {other}"
        ))),
        Err(e) => Err(Error::InvalidArgument(format!(
            "{what} do not serialise: {e}"
        ))),
    }
}

impl Client {
    /// `tools/call` with input rounds handled. `arguments` is anything that serialises to a JSON
    /// object (`json!({..})`, a struct, `()` for none). A tool failure is a result with
    /// [`CallToolResult::is_error`], not an `Err`.
    pub async fn call_tool(&self, name: &str, arguments: impl Serialize) -> Result<CallToolResult> {
        self.call_tool_with(name, arguments, &CallOptions::default())
            .await
    }

    /// `tools/call` with options (progress callback, timeout).
    pub async fn call_tool_with(
        &self,
        name: &str,
        arguments: impl Serialize,
        opts: &CallOptions,
    ) -> Result<CallToolResult> {
        let arguments = to_arguments("tool arguments", arguments)?;
        let raw = self.call_tool_raw_with(name, arguments, opts).await?;
        parse_result("tools/call", raw)
    }

    /// `resources/read`.
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult> {
        parse_result("resources/read", self.read_resource_raw(uri).await?)
    }

    /// `prompts/get`; `arguments` serialises to an object of strings (`json!`, a map, a struct, or
    /// `()` for none).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: impl Serialize,
    ) -> Result<GetPromptResult> {
        let arguments = to_arguments("prompt arguments", arguments)?;
        parse_result("prompts/get", self.get_prompt_raw(name, arguments).await?)
    }

    /// `completion/complete`: candidates for `argument` of a prompt or resource template, given the
    /// partial `value` and the arguments already resolved.
    pub async fn complete(
        &self,
        reference: CompletionReference,
        argument: &str,
        value: &str,
        resolved: Option<BTreeMap<String, String>>,
    ) -> Result<CompleteResult> {
        let reference = serde_json::to_value(reference)
            .map_err(|e| Error::InvalidArgument(format!("completion reference: {e}")))?;
        let resolved = resolved.map(|r| json!(r));
        let raw = self
            .complete_raw(reference, argument, value, resolved)
            .await?;
        parse_result("completion/complete", raw)
    }
}

impl ServerDescription {
    /// The server's implementation object, typed; `Ok(None)` when it sent none.
    pub fn implementation(&self) -> Result<Option<Implementation>> {
        self.server_info
            .clone()
            .map(|v| parse_result("serverInfo", v))
            .transpose()
    }

    /// The server's capabilities, typed.
    pub fn server_capabilities(&self) -> Result<ServerCapabilities> {
        parse_result("capabilities", self.capabilities.clone())
    }
}
