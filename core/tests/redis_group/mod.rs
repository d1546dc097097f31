//! What the Redis tests share: the Redis URL from the environment (or a clear skip), a Redis server
//! of the test's own (to stop and start), libmcp instances on shared Redis stores, and a round-robin
//! HTTP proxy in front of them.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::client::conn::http1 as client;
use hyper::server::conn::http1 as server;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use libmcp::server::Server;
use libmcp::store::redis::{RedisOptions, RedisStore};
use libmcp::transport::http::{HttpServerConfig, HttpServerHandle, serve_http};
use tokio::net::{TcpListener, TcpStream};

/// `REDIS_URL`, or `None` after saying why the test does nothing (scripts/test.d/60-redis.sh always
/// sets it, so in the test command these tests always run).
pub fn redis_url() -> Option<String> {
    match std::env::var("REDIS_URL") {
        Ok(u) if !u.is_empty() => Some(u),
        _ => {
            eprintln!("SKIPPED: REDIS_URL is not set (scripts/test.d/60-redis.sh sets it)");
            None
        }
    }
}

/// Options with a prefix of this test's own, so tests running at once never see each other's keys.
pub fn options() -> RedisOptions {
    let mut raw = [0u8; 6];
    getrandom::fill(&mut raw).unwrap();
    let tag: String = raw.iter().map(|b| format!("{b:02x}")).collect();
    RedisOptions {
        prefix: format!("libmcp-test:{tag}:"),
        timeout: Duration::from_millis(500),
        ..RedisOptions::default()
    }
}

/// `n` instances of `make()` sharing `redis` for sessions, events, tasks and sealing keys.
pub async fn instances(
    redis: &RedisStore,
    n: usize,
    make: impl Fn() -> libmcp::server::ServerBuilder,
) -> Vec<HttpServerHandle> {
    servers(redis, n, make)
        .await
        .into_iter()
        .map(|(h, _)| h)
        .collect()
}

/// [`instances`], each with its server, whose changes fan out to the others.
pub async fn servers(
    redis: &RedisStore,
    n: usize,
    make: impl Fn() -> libmcp::server::ServerBuilder,
) -> Vec<(HttpServerHandle, Server)> {
    let mut out = Vec::new();
    for _ in 0..n {
        let server: Server = make()
            .task_store(redis.task_store())
            .state_sealer(redis.state_sealer().await.unwrap())
            .build()
            .unwrap();
        redis.fan_out_changes(&server).await.unwrap();
        let mut config = HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap());
        redis.configure(&mut config);
        config.relay = Some(redis.relay().await.unwrap());
        out.push((serve_http(server.clone(), config).await.unwrap(), server));
    }
    out
}

/// A round-robin HTTP/1.1 proxy: each request (one per connection from the test clients) goes to
/// the next backend in turn, its response streamed back as it comes.
pub struct Proxy {
    pub addr: SocketAddr,
    /// How many requests each backend got.
    pub counts: Arc<Vec<AtomicUsize>>,
}

pub async fn proxy(backends: Vec<SocketAddr>) -> Proxy {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let counts: Arc<Vec<AtomicUsize>> =
        Arc::new(backends.iter().map(|_| AtomicUsize::new(0)).collect());
    let next = Arc::new(AtomicUsize::new(0));
    let backends = Arc::new(backends);
    let c = counts.clone();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let (backends, next, counts) = (backends.clone(), next.clone(), c.clone());
            let service = service_fn(move |req: Request<Incoming>| {
                let i = next.fetch_add(1, Ordering::Relaxed) % backends.len();
                counts[i].fetch_add(1, Ordering::Relaxed);
                forward(backends[i], req)
            });
            tokio::spawn(async move {
                let _ = server::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    Proxy { addr, counts }
}

async fn forward(to: SocketAddr, req: Request<Incoming>) -> hyper::Result<Response<Incoming>> {
    let stream = match TcpStream::connect(to).await {
        Ok(s) => s,
        Err(e) => panic!("backend {to} refused the proxy: {e}"),
    };
    let (mut sender, conn) = client::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    sender.send_request(req).await
}

/// A Redis server of the test's own on a free loopback port, appending every write to disk so
/// that its data survives a restart.
pub struct OwnRedis {
    pub port: u16,
    dir: PathBuf,
    child: Option<Child>,
}

impl OwnRedis {
    pub fn start() -> OwnRedis {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let dir = std::env::temp_dir().join(format!("libmcp-redis-{port}"));
        std::fs::create_dir_all(&dir).unwrap();
        let mut r = OwnRedis {
            port,
            dir,
            child: None,
        };
        r.up();
        r
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    /// Starts the server and waits until it accepts connections.
    pub fn up(&mut self) {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args([
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server is on PATH (scripts/test.d/60-redis.sh installs it)");
        self.child = Some(child);
        for _ in 0..500 {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("redis-server did not start on port {}", self.port);
    }

    /// Kills the server and waits for it to exit.
    pub fn down(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        self.down();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
