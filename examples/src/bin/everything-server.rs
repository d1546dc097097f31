//! The conformance everything-server over stdio, or over Streamable HTTP with `--http`.
//!
//! Usage: `everything-server` (serves MCP on stdin/stdout until stdin closes; both protocol eras), or
//! `everything-server --http [ADDR] [--http-sse]` (serves `http://ADDR/mcp`, default 127.0.0.1:3000;
//! both eras; with `--http-sse` also the 2024-11-05 HTTP+SSE transport on `/sse` and `/messages`;
//! built with feature `redis`, `--redis URL` shares its state with the other instances on that Redis).

use libmcp::transport::http::{HttpServerConfig, serve_http};

const USAGE: &str = "Usage: everything-server [--http [ADDR] [--http-sse] [--redis URL]]\n\nServes the MCP conformance \
fixtures on stdin/stdout, or with --http on http://ADDR/mcp (default 127.0.0.1:3000; port 0 picks a free \
one). Both protocol eras. --http-sse also serves the 2024-11-05 HTTP+SSE transport: GET http://ADDR/sse \
opens a session's event stream, whose first event names the POST endpoint (/messages?sessionId=...). \
--redis URL (built with feature redis) keeps sessions, SSE events, tasks and the requestState keys in \
Redis and passes answers and list changes between the instances sharing it.";

/// How to serve, from the command line.
enum Mode {
    Stdio,
    Http(Box<HttpServerConfig>, Option<String>),
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
    let mut redis = None;
    let mut rest = rest.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--http-sse" if !config.http_sse => config.http_sse = true,
            "--http-sse" => return Err("--http-sse given twice".into()),
            "--redis" if redis.is_some() => return Err("--redis given twice".into()),
            "--redis" if cfg!(feature = "redis") => match rest.next() {
                Some(url) => redis = Some(url.clone()),
                None => return Err("--redis needs a URL (redis://host:port/db)".into()),
            },
            "--redis" => return Err("--redis needs a build with feature redis".into()),
            _ => return Err(format!("unexpected argument {a:?}")),
        }
    }
    Ok(Mode::Http(Box::new(config), redis))
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
    let redis_url = match &mode {
        Mode::Http(_, url) => url.clone(),
        Mode::Stdio => None,
    };
    let (server, mode) = match redis_url {
        None => (libmcp_examples::everything::build_server(), mode),
        Some(url) => match shared(&url, mode).await {
            Ok(pair) => pair,
            Err(e) => {
                eprintln!("everything-server: --redis {url}: {e}");
                std::process::exit(1);
            }
        },
    };
    match mode {
        Mode::Stdio => {
            if let Err(e) = server.serve_stdio().await {
                eprintln!("everything-server: {e}");
                std::process::exit(1);
            }
        }
        Mode::Http(config, _) => {
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

/// The server and its HTTP config on the Redis stores at `url`.
#[cfg(feature = "redis")]
async fn shared(url: &str, mode: Mode) -> Result<(libmcp::server::Server, Mode), String> {
    use libmcp::store::redis::{RedisOptions, RedisStore};
    let Mode::Http(mut config, r) = mode else {
        return Err("--redis needs --http".into());
    };
    let redis = RedisStore::connect(url, RedisOptions::default()).map_err(|e| e.to_string())?;
    let sealer = redis.state_sealer().await.map_err(|e| e.to_string())?;
    let tasks = redis.task_store();
    let server = libmcp_examples::everything::build_server_with(|b| {
        b.task_store(tasks).state_sealer(sealer)
    });
    redis
        .fan_out_changes(&server)
        .await
        .map_err(|e| e.to_string())?;
    redis.configure(&mut config);
    config.relay = Some(redis.relay().await.map_err(|e| e.to_string())?);
    Ok((server, Mode::Http(config, r)))
}

#[cfg(not(feature = "redis"))]
async fn shared(_: &str, _: Mode) -> Result<(libmcp::server::Server, Mode), String> {
    Err("--redis needs a build with feature redis".into())
}
