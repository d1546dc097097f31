//! A JS tool handler's outcome as the binding kit's `ToolResult` (`libmcp::host`), answered like
//! every other answer at the next `requestFlush` (`request.rs`, which also has the text fast
//! path): nothing returned and a thrown error, each decided by the kit, not here.

use libmcp::host::ToolResult;
use napi_derive::napi;

use crate::request::finish;

/// Answers tool call `id` whose handler returned nothing (`null` or `undefined`): the kit's empty
/// result; `false` if it was answered already.
#[napi]
pub fn request_reply_nothing(id: f64) -> bool {
    finish(id, ToolResult::Nothing.into_reply())
}

/// Answers tool call `id` whose handler threw an error with `message`: the kit's tool error (the
/// message as thrown); `false` if it was answered already.
#[napi]
pub fn request_reply_tool_error(id: f64, message: String) -> bool {
    finish(id, ToolResult::Error(message).into_reply())
}
