//! The conformance everything-server over stdio.
//!
//! Usage: `everything-server` (serves MCP on stdin/stdout until stdin closes; both protocol eras).

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!(
            "Usage: everything-server\n\nServes the MCP conformance fixtures on stdin/stdout (both protocol eras)."
        );
        return;
    }
    if let Some(a) = args.first() {
        eprintln!(
            "everything-server: unexpected argument {a:?} (only stdio is served; try --help)"
        );
        std::process::exit(2);
    }
    let server = libmcp_examples::everything::build_server();
    if let Err(e) = server.serve_stdio().await {
        eprintln!("everything-server: {e}");
        std::process::exit(1);
    }
}
