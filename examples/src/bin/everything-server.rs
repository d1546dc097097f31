//! The conformance everything-server over stdio, or over Streamable HTTP with `--http`.
//!
//! Usage: `everything-server` (serves MCP on stdin/stdout until stdin closes; both protocol eras), or
//! `everything-server --http [ADDR]` (serves `http://ADDR/mcp`, default 127.0.0.1:3000; both eras).

use libmcp::transport::http::{HttpServerConfig, serve_http};

const USAGE: &str = "Usage: everything-server [--http [ADDR]]\n\nServes the MCP conformance fixtures \
on stdin/stdout, or with --http on http://ADDR/mcp (default 127.0.0.1:3000; port 0 picks a free one). \
Both protocol eras.";

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return;
    }
    let server = libmcp_examples::everything::build_server();
    match args.as_slice() {
        [] => {
            if let Err(e) = server.serve_stdio().await {
                eprintln!("everything-server: {e}");
                std::process::exit(1);
            }
        }
        [flag, rest @ ..] if flag == "--http" && rest.len() <= 1 => {
            let mut config = HttpServerConfig::default();
            if let Some(addr) = rest.first() {
                match addr.parse() {
                    Ok(a) => config = HttpServerConfig::with_bind(a),
                    Err(e) => {
                        eprintln!("everything-server: bad address {addr:?}: {e}");
                        std::process::exit(2);
                    }
                }
            }
            let path = config.path.clone();
            match serve_http(server, config).await {
                Ok(handle) => {
                    eprintln!("listening on http://{}{path}", handle.local_addr());
                    handle.wait().await;
                }
                Err(e) => {
                    eprintln!("everything-server: {e}");
                    std::process::exit(1);
                }
            }
        }
        [a, ..] => {
            eprintln!("everything-server: unexpected argument {a:?} (try --help)");
            std::process::exit(2);
        }
    }
}
