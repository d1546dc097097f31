//! The libmcp echo server over stdio: one tool, `echo(text)`, answered by a synchronous handler.
//!
//! It serves through the public `Server::serve_stdio`, exactly what an application gets.

use libmcp::server::{Reply, Server};
use serde_json::json;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let server = Server::builder("echo-libmcp", env!("CARGO_PKG_VERSION"))
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
    server.serve_stdio().await
}
