//! The libmcp echo server: one tool, `echo(text)`, answered by a synchronous handler.
//!
//! Without arguments it serves stdio through the public `Server::serve_stdio`; with `--http ADDR`
//! it serves Streamable HTTP (both eras on `/mcp`) through `transport::http::serve_http`, prints
//! `listening on http://ADDR/mcp` and stops when stdin closes. Exactly what an application gets.

use libmcp::transport::http::{HttpServerConfig, serve_http};
use libmcp_bench::serve::{self, Serve};

#[tokio::main]
async fn main() -> libmcp::Result<()> {
    let how = serve::parse_args("echo-libmcp");
    let server = libmcp_bench::echo::server("echo-libmcp")?;
    match how {
        Serve::Stdio => server.serve_stdio().await,
        Serve::Http(addr) => {
            let mut config = HttpServerConfig::with_bind(addr);
            // The idle-session memory measurement opens thousands of sessions; rmcp's session
            // manager has no limit either.
            config.max_sessions = 1_000_000;
            let handle = serve_http(server, config).await?;
            serve::announce(handle.local_addr());
            serve::stdin_closed().await;
            handle.shutdown().await;
            Ok(())
        }
    }
}
