//! `mcp-soak`: the mixed soak of the everything-server (see `libmcp_bench::soak`).
//!
//! ```text
//! mcp-soak [--minutes M | --seconds S] [--interval SECS] [--clients N] [--pause-ms MS] [--settle SECS] [--lane NAME]... [--server PROGRAM [--server-arg ARG]...] [--http-url URL --http-pid PID] [--json | --json-to FILE]
//! ```
//! `--json` prints the report as JSON instead of markdown; `--json-to FILE` writes it there besides
//! (a long run keeps both). `--lane` (repeatable) runs only the named lanes ("http legacy churn", "http+sse churn", "http
//! modern", "http cancel", "http listen", "stdio modern", "stdio legacy"). Defaults: 30 minutes, a sample every 30 s, 2 clients per lane, no pause between a lane's
//! operations (the servers saturated), 10 s to settle. Exits 1 if any
//! operation failed or the HTTP server kept descriptors after every client closed. The same binary
//! is the server: `mcp-soak --serve-http` (prints its address, serves Streamable HTTP and HTTP+SSE)
//! and `mcp-soak --serve-stdio`. `--http-url URL --http-pid PID` soaks an HTTP server started
//! elsewhere instead (a mounted endpoint, a server under a heap profiler: `heaptrack mcp-soak
//! --serve-http`), sampling process PID; the stdio servers start only if a stdio lane runs.
//!
//! Every server started gets `MCP_SOAK_MEMORY_DIR` (this run's own directory unless the variable is
//! set already, which also reaches a server started elsewhere): a Node server loading
//! `benches/soak/node_memory.js` writes `process.memoryUsage()` there, and the report shows its V8
//! heap beside its RSS.

use std::time::Duration;

use libmcp::transport::http::{HttpServerConfig, serve_http};
use libmcp_bench::soak::{self, Options, ServerCommand};

fn usage() -> ! {
    eprintln!(
        "usage: mcp-soak [--minutes M | --seconds S] [--interval SECS] [--clients N] [--pause-ms MS] [--settle SECS] [--lane NAME]... [--server PROGRAM [--server-arg ARG]...] [--http-url URL --http-pid PID] [--json | --json-to FILE]"
    );
    std::process::exit(2)
}

/// How the report goes out.
enum Output {
    Markdown,
    Json,
    /// Markdown on stdout and JSON in the file.
    Both(String),
}

/// The options, the server command (`None`: this program's own) and the output.
fn parse_args() -> (Options, Option<ServerCommand>, Output) {
    let mut o = Options {
        duration: Duration::from_secs(30 * 60),
        interval: Duration::from_secs(30),
        clients: 2,
        pause: Duration::ZERO,
        settle: Duration::from_secs(10),
        lanes: Vec::new(),
        external_http: None,
    };
    let mut output = Output::Markdown;
    let (mut http_url, mut http_pid) = (None, None);
    let (mut program, mut server_args) = (None, Vec::new());
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = || -> u64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| usage())
        };
        match a.as_str() {
            "--minutes" => o.duration = Duration::from_secs(number() * 60),
            "--seconds" => o.duration = Duration::from_secs(number()),
            "--interval" => o.interval = Duration::from_secs(number().max(1)),
            "--clients" => o.clients = number().max(1) as usize,
            "--pause-ms" => o.pause = Duration::from_millis(number()),
            "--settle" => o.settle = Duration::from_secs(number()),
            "--lane" => o.lanes.push(args.next().unwrap_or_else(|| usage())),
            "--server" => program = Some(args.next().unwrap_or_else(|| usage())),
            "--server-arg" => server_args.push(args.next().unwrap_or_else(|| usage())),
            "--http-url" => http_url = Some(args.next().unwrap_or_else(|| usage())),
            "--http-pid" => http_pid = Some(number() as u32),
            "--json" => output = Output::Json,
            "--json-to" => output = Output::Both(args.next().unwrap_or_else(|| usage())),
            _ => usage(),
        }
    }
    o.external_http = match (http_url, http_pid) {
        (Some(url), Some(pid)) => Some(soak::ExternalHttp { url, pid }),
        (None, None) => None,
        _ => {
            eprintln!("mcp-soak: --http-url and --http-pid go together");
            usage()
        }
    };
    let server = match program {
        Some(program) => Some(ServerCommand {
            program,
            args: server_args,
        }),
        None if server_args.is_empty() => None,
        None => {
            eprintln!("mcp-soak: --server-arg needs --server");
            usage()
        }
    };
    (o, server, output)
}

async fn serve(mode: &str) {
    let server = libmcp_examples::everything::build_server();
    if mode == "--serve-stdio" {
        if let Err(e) = server.serve_stdio().await {
            eprintln!("mcp-soak --serve-stdio: {e}");
            std::process::exit(1);
        }
        return;
    }
    let config = HttpServerConfig {
        http_sse: true,
        ..HttpServerConfig::with_bind("127.0.0.1:0".parse().expect("an address"))
    };
    match serve_http(server, config).await {
        Ok(handle) => {
            println!("{}", handle.local_addr());
            handle.wait().await;
        }
        Err(e) => {
            eprintln!("mcp-soak --serve-http: {e}");
            std::process::exit(1);
        }
    }
}

#[tokio::main]
async fn main() {
    if let Some(mode) = std::env::args()
        .nth(1)
        .filter(|a| a == "--serve-http" || a == "--serve-stdio")
    {
        serve(&mode).await;
        return;
    }
    let (options, server, output) = parse_args();
    let server = server.unwrap_or_else(|| ServerCommand {
        program: std::env::current_exe()
            .expect("the path of this program")
            .to_string_lossy()
            .into_owned(),
        args: Vec::new(),
    });
    let report = match soak::run(&server, &options).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("mcp-soak: {e}");
            std::process::exit(1);
        }
    };
    let json = serde_json::to_string_pretty(&report).expect("a report serializes");
    match output {
        Output::Json => println!("{json}"),
        Output::Markdown => print!("{}", soak::report::markdown(&report)),
        Output::Both(file) => {
            print!("{}", soak::report::markdown(&report));
            if let Err(e) = std::fs::write(&file, json + "\n") {
                eprintln!("mcp-soak: cannot write {file}: {e}");
                std::process::exit(1);
            }
        }
    }
    if report.errors > 0 || report.http_fds_after > report.http_fds_before {
        std::process::exit(1);
    }
}
