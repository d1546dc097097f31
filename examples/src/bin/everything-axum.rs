//! The conformance everything-server mounted as one route of an axum application: the way most
//! remote MCP servers run, inside a web app that has routes and middleware of its own.
//!
//! `everything-axum [ADDR] [--http-sse]` serves `http://ADDR/mcp` (default 127.0.0.1:3000; port 0
//! picks a free one) through `libmcp::transport::http::HttpEndpoint` nested in an axum `Router`,
//! beside the application's own `GET /health`. The application's middleware wraps both: it stamps
//! every response with `x-app: everything-axum` and counts the requests it saw, which
//! `GET /health` reports (`ok <count>`). On a loopback address the endpoint keeps DNS-rebinding
//! protection for the loopback host names, as the conformance suite expects of a local server.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;
use axum::serve::ListenerExt;
use libmcp::transport::http::{HttpEndpoint, HttpServerConfig};

const USAGE: &str = "Usage: everything-axum [ADDR] [--http-sse]\n\nServes the MCP conformance fixtures \
at http://ADDR/mcp (default 127.0.0.1:3000) as one route of an axum application, beside its own \
GET /health. --http-sse also serves the 2024-11-05 HTTP+SSE transport under the mount (/mcp/sse, \
/mcp/messages).";

/// The application's middleware: counts requests and stamps responses.
async fn stamp(State(seen): State<Arc<AtomicU64>>, req: Request, next: Next) -> Response {
    seen.fetch_add(1, Ordering::Relaxed);
    let mut r = next.run(req).await;
    r.headers_mut()
        .insert("x-app", HeaderValue::from_static("everything-axum"));
    r
}

#[tokio::main]
async fn main() {
    let mut addr = "127.0.0.1:3000".to_string();
    let mut config = HttpServerConfig::for_mount();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            "--http-sse" => config.http_sse = true,
            a if !a.starts_with('-') => addr = a.to_string(),
            a => {
                eprintln!("everything-axum: unknown option {a} (try --help)");
                std::process::exit(2);
            }
        }
    }
    // An app listening on loopback only is reached by the loopback names: check Host and Origin
    // against those (for_mount() lists none, as a public app behind a proxy needs).
    if addr
        .parse::<std::net::SocketAddr>()
        .is_ok_and(|a| a.ip().is_loopback())
    {
        config.allowed_hosts = HttpServerConfig::default().allowed_hosts;
    }
    let server = libmcp_examples::everything::build_server();
    let endpoint = match HttpEndpoint::new(server, config) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("everything-axum: {e}");
            std::process::exit(1);
        }
    };
    let seen = Arc::new(AtomicU64::new(0));
    let count = seen.clone();
    let app = Router::new()
        .route(
            "/health",
            get(move || async move { format!("ok {}", count.load(Ordering::Relaxed)) }),
        )
        .nest_service("/mcp", endpoint)
        .layer(middleware::from_fn_with_state(seen, stamp));
    let listener = match tokio::net::TcpListener::bind(&addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("everything-axum: cannot listen on {addr}: {e}");
            std::process::exit(1);
        }
    };
    let local = listener
        .local_addr()
        .expect("a bound listener has an address");
    eprintln!("listening on http://{local}/mcp");
    // As serve_http does: answers go out at once, not held back for Nagle's algorithm.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    if let Err(e) = axum::serve(listener, app).await {
        eprintln!("everything-axum: {e}");
        std::process::exit(1);
    }
}
