//! The libmcp echo server mounted as one route of an axum application (`HttpEndpoint` nested at
//! `/mcp` beside a `/health` route), for comparing a mounted endpoint with `echo-libmcp` on its own
//! port. `--http ADDR` only (the driver's HTTP mode); stops when stdin closes.

use axum::Router;
use axum::routing::get;
use axum::serve::ListenerExt;
use libmcp::transport::http::{HttpEndpoint, HttpServerConfig};
use libmcp_bench::serve::{self, Serve};

#[tokio::main]
async fn main() -> libmcp::Result<()> {
    let Serve::Http(addr) = serve::parse_args("echo-libmcp-axum") else {
        eprintln!("echo-libmcp-axum: serves HTTP only (--http ADDR)");
        std::process::exit(2);
    };
    let server = libmcp_bench::echo::server("echo-libmcp-axum")?;
    let mut config = HttpServerConfig::for_mount();
    // As echo-libmcp: the idle-session measurement opens thousands of sessions.
    config.max_sessions = 1_000_000;
    let endpoint = HttpEndpoint::new(server, config)?;
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .nest_service("/mcp", endpoint.clone());
    let listener = tokio::net::TcpListener::bind(addr).await?;
    serve::announce(listener.local_addr()?);
    // As serve_http does: answers go out at once, not held back for Nagle's algorithm.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    tokio::select! {
        r = axum::serve(listener, app) => r?,
        () = serve::stdin_closed() => {}
    }
    endpoint.close();
    Ok(())
}
