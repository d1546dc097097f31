//! The raw client path: requests whose results come back as the server sent them, for hosts that pass
//! JSON through unchanged (the C ABI, the bindings, the `mcp` CLI). The typed methods
//! ([`Client::call_tool`], ...) parse what these return.

use serde_json::{Value, json};

use super::connection::CallOptions;
use super::handle::Client;
use super::pages::{Listed, MAX_PAGES, cursor_params};
use crate::error::{Error, Result, code};
use crate::model::{Prompt, Resource, ResourceTemplate, Tool};
use crate::version::Era;

impl Client {
    /// `tools/call` with input rounds handled, the CallToolResult as sent.
    pub async fn call_tool_raw(&self, name: &str, arguments: Value) -> Result<Value> {
        self.call_tool_raw_with(name, arguments, &CallOptions::default())
            .await
    }

    /// [`Client::call_tool_raw`] with options (progress callback, timeout).
    pub async fn call_tool_raw_with(
        &self,
        name: &str,
        arguments: Value,
        opts: &CallOptions,
    ) -> Result<Value> {
        let params = json!({ "name": name, "arguments": arguments });
        match self.call("tools/call", params.clone(), opts).await {
            // The server wants `Mcp-Param-*` headers this client did not know about (a tool list
            // that is stale or was never fetched): list the tools again, then retry once.
            Err(Error::Rpc(e)) if e.code == code::HEADER_MISMATCH && self.era() == Era::Modern => {
                self.list_all_raw(Tool::METHOD).await?;
                self.call("tools/call", params, opts).await
            }
            other => other,
        }
    }

    /// `resources/read`, the ReadResourceResult as sent.
    pub async fn read_resource_raw(&self, uri: &str) -> Result<Value> {
        let params = json!({ "uri": uri });
        self.call("resources/read", params, &CallOptions::default())
            .await
    }

    /// `prompts/get` with `arguments` (an object of strings), the GetPromptResult as sent.
    pub async fn get_prompt_raw(&self, name: &str, arguments: Value) -> Result<Value> {
        let params = json!({ "name": name, "arguments": arguments });
        self.call("prompts/get", params, &CallOptions::default())
            .await
    }

    /// `completion/complete` for a `ref/prompt` or `ref/resource` reference given as JSON, with the
    /// already-resolved arguments as `context`; the CompleteResult as sent.
    pub async fn complete_raw(
        &self,
        reference: Value,
        argument: &str,
        value: &str,
        resolved: Option<Value>,
    ) -> Result<Value> {
        let mut params =
            json!({ "ref": reference, "argument": { "name": argument, "value": value } });
        if let Some(c) = resolved {
            params["context"] = json!({ "arguments": c });
        }
        self.call("completion/complete", params, &CallOptions::default())
            .await
    }

    /// Every item of a list method as sent: `method` is `tools/list`, `resources/list`,
    /// `resources/templates/list` or `prompts/list`; `nextCursor` is followed to the end.
    pub async fn list_all_raw(&self, method: &str) -> Result<Vec<Value>> {
        let key = match method {
            Tool::METHOD => Tool::KEY,
            Resource::METHOD => Resource::KEY,
            ResourceTemplate::METHOD => ResourceTemplate::KEY,
            Prompt::METHOD => Prompt::KEY,
            other => {
                return Err(Error::InvalidArgument(format!(
                    "{other} is not a paginated list method"
                )));
            }
        };
        let mut out = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let page = self
                .call(
                    method,
                    cursor_params(cursor.as_deref()),
                    &CallOptions::default(),
                )
                .await?;
            match page.get(key) {
                Some(Value::Array(items)) => out.extend(items.iter().cloned()),
                _ => {
                    return Err(Error::Protocol(format!(
                        "{method} result has no {key} array"
                    )));
                }
            }
            match page.get("nextCursor") {
                Some(Value::String(c)) => cursor = Some(c.clone()),
                None | Some(Value::Null) => return Ok(out),
                Some(_) => {
                    return Err(Error::Protocol(format!(
                        "{method}: nextCursor must be a string"
                    )));
                }
            }
        }
        Err(Error::Protocol(format!(
            "{method}: the server kept paginating past {MAX_PAGES} pages"
        )))
    }
}
