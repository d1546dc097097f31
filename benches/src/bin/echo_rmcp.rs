//! The same echo server written with rmcp, the official Rust SDK.
//!
//! Without arguments it serves stdio over rmcp's non-blocking pipe transport (`stdio_pipes`), the
//! fast one on Linux. With `--http ADDR` it serves rmcp's `StreamableHttpService` (legacy sessions
//! in its `LocalSessionManager`, 2026-07-28 requests statelessly) on hyper's HTTP/1.1 with
//! keep-alive, configured like libmcp's server where rmcp allows: JSON responses where it offers
//! them (`json_response`, stateless requests only; its session requests always answer with SSE)
//! and no SSE priming/retry events (libmcp's streams are not resumable and send none). It prints
//! `listening on http://ADDR/mcp` and stops when stdin closes.

use std::convert::Infallible;
use std::sync::Arc;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use libmcp_bench::serve::{self, Serve};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServiceExt, schemars, tool, tool_router};
use serde::Deserialize;
use tokio::net::TcpListener;

#[derive(Deserialize, schemars::JsonSchema)]
struct EchoArgs {
    /// The text to return.
    text: String,
}

#[derive(Clone)]
struct Echo;

#[tool_router(server_handler)]
impl Echo {
    #[tool(description = "Returns the text it is given")]
    fn echo(&self, Parameters(EchoArgs { text }): Parameters<EchoArgs>) -> String {
        text
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    match serve::parse_args("echo-rmcp") {
        Serve::Stdio => {
            let running = Echo.serve(rmcp::transport::io::stdio_pipes()).await?;
            running.waiting().await?;
        }
        Serve::Http(addr) => serve_http(addr).await?,
    }
    Ok(())
}

async fn serve_http(addr: std::net::SocketAddr) -> std::io::Result<()> {
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.sse_retry = None;
    let config = StreamableHttpServerConfig::default()
        .with_json_response(true)
        .with_sse_retry(None);
    let stop = config.cancellation_token.clone();
    let service = StreamableHttpService::new(|| Ok(Echo), Arc::new(sessions), config);
    let listener = TcpListener::bind(addr).await?;
    serve::announce(listener.local_addr()?);
    let closed = serve::stdin_closed();
    tokio::pin!(closed);
    loop {
        tokio::select! {
            _ = &mut closed => break,
            accepted = listener.accept() => {
                let Ok((stream, _peer)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                let service = service.clone();
                tokio::spawn(async move {
                    let handler = service_fn(move |req| {
                        let service = service.clone();
                        async move { Ok::<_, Infallible>(service.handle(req).await) }
                    });
                    let _ = http1::Builder::new()
                        .timer(TokioTimer::new())
                        .keep_alive(true)
                        .serve_connection(TokioIo::new(stream), handler)
                        .await;
                });
            }
        }
    }
    stop.cancel();
    Ok(())
}
