//! The conformance everything-server over stdio, or over Streamable HTTP with `--http`.
//!
//! Usage: `everything-server` (serves MCP on stdin/stdout until stdin closes; both protocol eras), or
//! `everything-server --http [ADDR] [--http-sse]` (serves `http://ADDR/mcp`, default 127.0.0.1:3000;
//! both eras; with `--http-sse` also the 2024-11-05 HTTP+SSE transport on `/sse` and `/messages`).

use libmcp::transport::http::{HttpServerConfig, serve_http};

const USAGE: &str = "Usage: everything-server [--http [ADDR] [--http-sse]]\n\nServes the MCP conformance \
fixtures on stdin/stdout, or with --http on http://ADDR/mcp (default 127.0.0.1:3000; port 0 picks a free \
one). Both protocol eras. --http-sse also serves the 2024-11-05 HTTP+SSE transport: GET http://ADDR/sse \
opens a session's event stream, whose first event names the POST endpoint (/messages?sessionId=...).";

/// How to serve, from the command line.
enum Mode {
    Stdio,
    Http(Box<HttpServerConfig>),
}

fn parse(args: &[String]) -> Result<Mode, String> {
    let Some((first, rest)) = args.split_first() else {
        return Ok(Mode::Stdio);
    };
    if first != "--http" {
        return Err(match first.as_str() {
            "--http-sse" => "--http-sse needs --http".to_string(),
            a => format!("unexpected argument {a:?}"),
        });
    }
    let mut config = HttpServerConfig::default();
    let mut rest = rest;
    if let Some((addr, after)) = rest.split_first().filter(|(a, _)| !a.starts_with("--")) {
        config = HttpServerConfig::with_bind(
            addr.parse()
                .map_err(|e| format!("bad address {addr:?}: {e}"))?,
        );
        rest = after;
    }
    for a in rest {
        match a.as_str() {
            "--http-sse" if !config.http_sse => config.http_sse = true,
            "--http-sse" => return Err("--http-sse given twice".into()),
            _ => return Err(format!("unexpected argument {a:?}")),
        }
    }
    Ok(Mode::Http(Box::new(config)))
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return;
    }
    let mode = match parse(&args) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("everything-server: {e} (try --help)");
            std::process::exit(2);
        }
    };
    let server = libmcp_examples::everything::build_server();
    match mode {
        Mode::Stdio => {
            if let Err(e) = server.serve_stdio().await {
                eprintln!("everything-server: {e}");
                std::process::exit(1);
            }
        }
        Mode::Http(config) => {
            let path = config.path.clone();
            let sse = config
                .http_sse
                .then(|| (config.sse_path.clone(), config.messages_path.clone()));
            match serve_http(server, *config).await {
                Ok(handle) => {
                    let addr = handle.local_addr();
                    eprintln!("listening on http://{addr}{path}");
                    if let Some((sse_path, messages_path)) = sse {
                        eprintln!(
                            "HTTP+SSE (2024-11-05) on http://{addr}{sse_path} (messages: {messages_path})"
                        );
                    }
                    handle.wait().await;
                }
                Err(e) => {
                    eprintln!("everything-server: {e}");
                    std::process::exit(1);
                }
            }
        }
    }
}
