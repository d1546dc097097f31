//! Throughput and latency of 1, 2 and 3 libmcp instances behind a round-robin HTTP proxy, with the
//! in-memory stores (one instance: legacy sessions cannot be shared) and with the Redis stores.
//!
//! Usage: `bench-instances REDIS_URL [SECONDS] [CLIENTS]` (default 3 s per row, 16 clients). Every
//! client calls `tools/call echo` in a loop on a keep-alive connection to the proxy, which sends
//! each request to the next instance over pooled connections; legacy clients each open one
//! 2025-06-18 session first. All in one process (instances, proxy and clients share the cores).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo};
use libmcp::server::{Reply, Server};
use libmcp::store::redis::{RedisOptions, RedisStore};
use libmcp::transport::http::{HttpServerConfig, HttpServerHandle, serve_http};
use serde_json::{Value, json};

type HttpClient = Client<HttpConnector, Full<Bytes>>;

fn server() -> libmcp::server::ServerBuilder {
    Server::builder("bench-instances", "1").tool(
        json!({"name": "echo", "inputSchema": {"type": "object"}}),
        |_, a| Reply::text(a["text"].as_str().unwrap_or_default()),
    )
}

async fn instances(n: usize, redis: Option<&RedisStore>) -> Vec<HttpServerHandle> {
    let mut out = Vec::new();
    for _ in 0..n {
        let mut config = HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap());
        config.max_sessions = 100_000;
        let mut b = server();
        if let Some(r) = redis {
            r.configure(&mut config);
            b = b.state_sealer(r.state_sealer().await.unwrap());
        }
        out.push(serve_http(b.build().unwrap(), config).await.unwrap());
    }
    out
}

/// A round-robin proxy over pooled keep-alive connections to `backends`.
async fn proxy(backends: Vec<SocketAddr>) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let client: Client<HttpConnector, Incoming> =
        Client::builder(TokioExecutor::new()).build_http();
    let next = Arc::new(AtomicUsize::new(0));
    let backends = Arc::new(backends);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (client, next, backends) = (client.clone(), next.clone(), backends.clone());
            let service = service_fn(move |mut req: Request<Incoming>| {
                let to = backends[next.fetch_add(1, Ordering::Relaxed) % backends.len()];
                let client = client.clone();
                async move {
                    let pq = req
                        .uri()
                        .path_and_query()
                        .map_or("/mcp", |p| p.as_str())
                        .to_owned();
                    *req.uri_mut() = format!("http://{to}{pq}").parse().unwrap();
                    Ok::<_, Infallible>(match client.request(req).await {
                        Ok(r) => r.map(|b| b.boxed()),
                        Err(e) => Response::builder()
                            .status(502)
                            .body(
                                Full::new(Bytes::from(e.to_string()))
                                    .map_err(|e| match e {})
                                    .boxed(),
                            )
                            .unwrap(),
                    })
                }
            });
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    addr
}

async fn post(
    c: &HttpClient,
    addr: SocketAddr,
    headers: &[(&str, &str)],
    body: &Value,
) -> (u16, Option<String>, Bytes) {
    let mut req = Request::post(format!("http://{addr}/mcp"))
        .header("host", format!("127.0.0.1:{}", addr.port()))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let r = c
        .request(req.body(Full::new(Bytes::from(body.to_string()))).unwrap())
        .await
        .unwrap();
    let status = r.status().as_u16();
    let sid = r
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    (
        status,
        sid,
        r.into_body().collect().await.unwrap().to_bytes(),
    )
}

/// One client's loop until `until`; its latencies.
async fn client(addr: SocketAddr, legacy: bool, until: Instant) -> Vec<Duration> {
    let c: HttpClient = Client::builder(TokioExecutor::new()).build_http();
    let mut headers: Vec<(&str, String)> = Vec::new();
    if legacy {
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}});
        let (status, sid, _) = post(&c, addr, &[], &init).await;
        assert_eq!(status, 200);
        let sid = sid.unwrap();
        let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(
            post(&c, addr, &[("mcp-session-id", &sid)], &done).await.0,
            202
        );
        headers.push(("mcp-session-id", sid));
    } else {
        headers.push(("mcp-protocol-version", "2026-07-28".into()));
        headers.push(("mcp-method", "tools/call".into()));
        headers.push(("mcp-name", "echo".into()));
    }
    let h: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut params = json!({"name": "echo", "arguments": {"text": "hello"}});
    if !legacy {
        params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}});
    }
    let mut out = Vec::new();
    let mut id = 1;
    while Instant::now() < until {
        id += 1;
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
        let t = Instant::now();
        let (status, _, bytes) = post(&c, addr, &h, &body).await;
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
        out.push(t.elapsed());
    }
    out
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(url) = args.first() else {
        eprintln!("usage: bench-instances REDIS_URL [SECONDS] [CLIENTS]");
        std::process::exit(2);
    };
    let secs: u64 = args.get(1).map_or(3, |s| s.parse().unwrap());
    let clients: usize = args.get(2).map_or(16, |s| s.parse().unwrap());
    let redis = RedisStore::connect(url, RedisOptions::default()).unwrap();
    redis.ping().await.unwrap();
    println!("| wire | stores | instances | calls/s | p50 ms | p99 ms |");
    println!("|---|---|---|---|---|---|");
    for legacy in [true, false] {
        for (store, n) in [
            ("memory", 1),
            ("redis", 1),
            ("redis", 2),
            ("redis", 3),
            ("memory", 2),
            ("memory", 3),
        ] {
            if legacy && store == "memory" && n > 1 {
                continue; // in-memory sessions are not shared
            }
            let group = instances(n, (store == "redis").then_some(&redis)).await;
            let addr = proxy(group.iter().map(|h| h.local_addr()).collect()).await;
            let start = Instant::now();
            let until = start + Duration::from_secs(secs);
            let tasks: Vec<_> = (0..clients)
                .map(|_| tokio::spawn(client(addr, legacy, until)))
                .collect();
            let mut all = Vec::new();
            for t in tasks {
                all.extend(t.await.unwrap());
            }
            let elapsed = start.elapsed().as_secs_f64();
            all.sort();
            let q = |p: f64| {
                all[((all.len() as f64 * p) as usize).min(all.len() - 1)].as_secs_f64() * 1e3
            };
            println!(
                "| {} | {store} | {n} | {:.0} | {:.2} | {:.2} |",
                if legacy {
                    "legacy 2025-06-18"
                } else {
                    "modern 2026-07-28"
                },
                all.len() as f64 / elapsed,
                q(0.5),
                q(0.99)
            );
            for h in group {
                h.shutdown().await;
            }
        }
    }
}
