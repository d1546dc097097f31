//! What a host's tool handler gave back, as one enum, and how it is answered: the rules for a
//! handler that returned nothing and for one that threw are decided here, and every answer goes
//! through [`Responder::try_reply`], so that a host learns why the engine refused a result.

use serde_json::{Value, json};

use crate::error::RpcError;
use crate::server::{Reply, Responder};

/// A tool handler's outcome, converted from the host's values.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolResult {
    /// The fast path: a result that is one text block (`{"content": [{"type": "text", "text"}]}`).
    Text(String),
    /// A `CallToolResult` object as the handler built it.
    Json(Value),
    /// The handler returned nothing (`None` in Python, `null` or `undefined` in JS, a NULL result
    /// in C): a result with no content, `{"content": []}`. A tool that acts and has nothing to
    /// say is legitimate, and `content` may be empty (spec: `CallToolResult`); a tool that
    /// declares an `outputSchema` is still refused, since the empty result has no
    /// `structuredContent`.
    Nothing,
    /// The handler threw (or reported a failure): a tool error the model sees (`isError: true`)
    /// whose one text block is the error's message as given, with nothing added. The official
    /// SDKs' forms (Python's `Error executing tool NAME: ...`) belong to the hosts' SDK-compatible
    /// layers, which pass their own text here.
    Error(String),
}

impl ToolResult {
    /// The reply the engine sends for it.
    pub fn into_reply(self) -> Reply {
        match self {
            ToolResult::Text(text) => Reply::text(text),
            ToolResult::Json(value) => Reply::Result(value),
            ToolResult::Nothing => Reply::Result(json!({ "content": [] })),
            ToolResult::Error(message) => Reply::tool_error(message),
        }
    }
}

/// Answers a tool call with `result`; `Err` with the error the client got instead when the engine
/// refused the result (a `content` that is not an array, `structuredContent` that violates the
/// tool's `outputSchema`, a result that is not an object). The engine also reports the refusal
/// as a warning diagnostic (target `libmcp::server::answer`, message `rejected a handler's result
/// and answered -32603: <reason> method=tools/call`), the same on every host (`diagnostics.rs`).
pub fn answer_tool(responder: Responder, result: ToolResult) -> Result<(), RpcError> {
    responder.try_reply(result.into_reply())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result_of(r: ToolResult) -> Value {
        match r.into_reply() {
            Reply::Result(v) => v,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn nothing_is_empty_content_and_an_error_its_bare_message() {
        assert_eq!(result_of(ToolResult::Nothing), json!({"content": []}));
        assert_eq!(
            result_of(ToolResult::Error("no such city".into())),
            json!({"content": [{"type": "text", "text": "no such city"}], "isError": true})
        );
        assert_eq!(
            result_of(ToolResult::Text("hi".into())),
            json!({"content": [{"type": "text", "text": "hi"}]})
        );
    }
}
