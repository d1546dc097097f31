//! The libmcp echo server's definition, shared by the binary that serves it on its own port
//! (`echo-libmcp`) and the one that mounts it in an axum application (`echo-libmcp-axum`).

use libmcp::server::{Reply, Server};
use serde_json::json;

/// One tool, `echo(text)`, answered by a synchronous handler.
pub fn server(name: &str) -> libmcp::Result<Server> {
    let server = Server::builder(name, env!("CARGO_PKG_VERSION"))
        .tool(
            json!({
                "name": "echo",
                "description": "Returns the text it is given",
                "inputSchema": {
                    "type": "object",
                    "properties": {"text": {"type": "string"}},
                    "required": ["text"]
                }
            }),
            |_ctx, args| Reply::text(args["text"].as_str().unwrap_or_default()),
        )
        .build()
        .map_err(std::io::Error::other)?;
    Ok(server)
}
