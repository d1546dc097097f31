//! The libmcp echo server over stdio: one tool, `echo(text)`, answered by a synchronous handler.
//!
//! `echo-libmcp` serves through the public `Server::serve_stdio` (what an application gets).
//! `echo-libmcp --pipes` serves the same engine over stdin/stdout reopened as non-blocking pipes on the
//! tokio reactor, to measure how much of the cost is the blocking-pool stdio hand-off.

use libmcp::server::{Reply, Server};
use serde_json::json;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let pipes = std::env::args().skip(1).any(|a| a == "--pipes");
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
    if pipes {
        if let Some((r, w)) = libmcp_bench::reopen_stdio_pipes() {
            return libmcp::transport::stdio::serve(server, r, w).await;
        }
        eprintln!("echo-libmcp: stdin/stdout are not pipes; serving the blocking stdio handles");
    }
    server.serve_stdio().await
}
