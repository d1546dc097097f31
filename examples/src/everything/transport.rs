//! Tools that exercise the HTTP transport: `test_reconnection` (SSE polling, SEP-1699) and
//! `test_x_mcp_header` (a tool argument mirrored in an `Mcp-Param-*` header, SEP-2243).

use std::time::Duration;

use libmcp::server::{Reply, ServerBuilder};
use serde_json::json;

/// How long `test_reconnection` keeps working after closing its stream, so the result is only
/// produced after the client has lost the stream.
const AFTER_CLOSE: Duration = Duration::from_millis(100);

pub(super) fn register(b: ServerBuilder) -> ServerBuilder {
    b.tool_async(
        super::no_args(
            "test_reconnection",
            "Closes its SSE response stream mid-call; the result arrives after the client reconnects with Last-Event-ID",
        ),
        |ctx| async move {
            let closed = ctx.close_stream();
            tokio::time::sleep(AFTER_CLOSE).await;
            Reply::text(if closed {
                "Reconnection test completed: the result was delivered on the resumed stream"
            } else {
                "Reconnection test completed: this transport cannot close the stream, so it stayed open"
            })
        },
    )
    .tool(
        json!({
            "name": "test_x_mcp_header",
            "description": "Echoes its region argument, which clients also send as the Mcp-Param-Region header",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "region": {
                        "type": "string",
                        "description": "A region name, mirrored in the Mcp-Param-Region header",
                        "x-mcp-header": "Region",
                    },
                },
                "required": ["region"],
            },
        }),
        |_ctx, args| match args["region"].as_str() {
            Some(region) => Reply::text(format!("region={region}")),
            None => Reply::tool_error("region must be a string"),
        },
    )
}
