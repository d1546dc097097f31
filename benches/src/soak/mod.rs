//! `mcp-soak`: a mixed load against the everything-server for a long time, sampling the server
//! processes' memory, file descriptors and threads and the latency of every window, to show that
//! nothing grows and nothing fails.
//!
//! One Streamable HTTP server process (which also serves HTTP+SSE) takes the HTTP lanes, and two stdio
//! server processes take one long connection each, in either era; [`load`] describes the lanes. The
//! servers are a [`ServerCommand`]: this program's own (the Rust everything-server), or the Python or
//! Node package's everything-server through `benches/soak/everything_python.py` and
//! `everything_node.js`, which serve the same way.
//! After the load the clients close and the HTTP server must come back to the file descriptors it
//! had before the first client: a session, stream or connection left open shows there.
//!
//! Every sample reads each server's RSS, descriptors and threads from `/proc`, and a Node server's
//! `process.memoryUsage()` where it writes one ([`js_memory`]). The stdio servers are started only
//! when a stdio lane runs: a soak of a mounted endpoint alone (`--http-url`, `--lane`) has none.

pub mod js_memory;
pub mod load;
pub mod proc;
pub mod report;
pub mod stats;

use std::sync::Arc;
use std::time::{Duration, Instant};

use libmcp::ProtocolVersion;
use libmcp::client::VersionPreference;
use serde::Serialize;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use load::Plan;
use proc::Usage;
use stats::Stats;

/// The lanes' names, as `--lane` takes them and the report shows them.
pub const LANES: [&str; 7] = [
    "http legacy churn",
    "http+sse churn",
    "http modern",
    "http cancel",
    "http listen",
    "stdio modern",
    "stdio legacy",
];

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// How long the load runs.
    pub duration: Duration,
    /// One sample per interval.
    pub interval: Duration,
    /// Copies of each lane.
    pub clients: usize,
    /// Each lane's pause after each operation (sets the offered load; zero saturates).
    pub pause: Duration,
    /// Longest wait, after the load, for the HTTP server's descriptors to come back.
    pub settle: Duration,
    /// Only the lanes with these names (all when empty), to find which one a growth comes from.
    pub lanes: Vec<String>,
    /// Soak an HTTP server started elsewhere (a mounted endpoint, a server under a heap profiler)
    /// instead of starting one.
    pub external_http: Option<ExternalHttp>,
}

/// How the soak starts a server: `program args... --serve-http` serves Streamable HTTP and HTTP+SSE
/// on a free loopback port and prints `HOST:PORT` on its first stdout line; `program args...
/// --serve-stdio` serves stdio.
#[derive(Clone, Debug)]
pub struct ServerCommand {
    /// The program.
    pub program: String,
    /// Its arguments before the mode.
    pub args: Vec<String>,
}

impl ServerCommand {
    /// The arguments for one mode (`--serve-http` or `--serve-stdio`).
    fn args_for(&self, mode: &str) -> Vec<String> {
        let mut args = self.args.clone();
        args.push(mode.to_owned());
        args
    }
}

impl std::fmt::Display for ServerCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.program)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

/// An HTTP server the soak does not start: its Streamable HTTP endpoint (the HTTP+SSE lane uses
/// `/sse` on the same origin) and the process whose memory, descriptors and threads are sampled.
#[derive(Clone, Debug)]
pub struct ExternalHttp {
    /// The endpoint's URL, e.g. `http://127.0.0.1:8000/mcp`.
    pub url: String,
    /// The server's process id.
    pub pid: u32,
}

/// `/sse` on the origin of `url`.
fn sse_url_of(url: &str) -> String {
    let origin_end = url
        .find("://")
        .and_then(|i| url[i + 3..].find('/').map(|j| i + 3 + j))
        .unwrap_or(url.len());
    format!("{}/sse", &url[..origin_end])
}

/// One sampling window.
#[derive(Clone, Debug, Serialize)]
pub struct Sample {
    /// Seconds since the load started, at the end of the window.
    pub t_s: f64,
    /// Successful operations in the window.
    pub ops: u64,
    /// Failed operations in the window.
    pub errors: u64,
    /// Median latency, µs.
    pub p50_us: u64,
    /// 99th percentile latency, µs.
    pub p99_us: u64,
    /// The HTTP server process.
    pub http: Usage,
    /// The stdio server process in the 2026-07-28 era (zeros when its lane does not run).
    pub stdio_modern: Usage,
    /// The stdio server process in the legacy era (zeros when its lane does not run).
    pub stdio_legacy: Usage,
}

/// The whole run.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The server command, or the HTTP server started elsewhere (and the stdio servers' command).
    pub server: String,
    /// Seconds of load.
    pub seconds: f64,
    /// Copies of each lane.
    pub clients: usize,
    /// Each lane's pause after each operation, ms.
    pub pause_ms: u64,
    /// The windows, in order.
    pub samples: Vec<Sample>,
    /// Operations per lane (successful or not).
    pub per_lane: std::collections::BTreeMap<&'static str, u64>,
    /// Failed operations over the run.
    pub errors: u64,
    /// The first error messages.
    pub error_messages: Vec<String>,
    /// The HTTP server's descriptors before the first client.
    pub http_fds_before: u64,
    /// The same once every client had closed (after waiting up to `settle`).
    pub http_fds_after: u64,
}

/// A server process started as `command --serve-http`, and its address.
struct HttpChild {
    child: Child,
    pid: u32,
    addr: String,
}

async fn start_http(server: &ServerCommand, env: &[(String, String)]) -> Result<HttpChild, String> {
    let mut child = Command::new(&server.program)
        .args(server.args_for("--serve-http"))
        .envs(env.iter().cloned())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start {server} --serve-http: {e}"))?;
    let pid = child.id().ok_or("the HTTP server exited at once")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .await
        .map_err(|e| format!("reading the HTTP server's address: {e}"))?;
    let addr = line.trim().to_owned();
    if addr.is_empty() {
        return Err("the HTTP server printed no address".into());
    }
    Ok(HttpChild { child, pid, addr })
}

/// Runs the soak against the servers `server` starts.
pub async fn run(server: &ServerCommand, o: &Options) -> Result<Report, String> {
    if let Some(bad) = o.lanes.iter().find(|l| !LANES.contains(&l.as_str())) {
        return Err(format!("no lane {bad:?}; the lanes are {LANES:?}"));
    }
    let wanted = |name: &str| o.lanes.is_empty() || o.lanes.iter().any(|l| l == name);
    let memory = js_memory::MemoryDir::new()?;
    let env = vec![(
        js_memory::ENV.to_owned(),
        memory.path().to_string_lossy().into_owned(),
    )];
    let (mut own_http, http_pid, http_url, sse_url) = match &o.external_http {
        Some(e) => (None, e.pid, e.url.clone(), sse_url_of(&e.url)),
        None => {
            let h = start_http(server, &env).await?;
            let (pid, addr) = (h.pid, h.addr.clone());
            let urls = (format!("http://{addr}/mcp"), format!("http://{addr}/sse"));
            (Some(h), pid, urls.0, urls.1)
        }
    };
    let http_fds_before = proc::usage(http_pid).ok_or("the HTTP server is gone")?.fds;
    let mut modern = None;
    if wanted(LANES[5]) {
        modern = Some(pref_client(server, VersionPreference::Auto, &env).await?);
    }
    let mut legacy = None;
    if wanted(LANES[6]) {
        let pref = VersionPreference::Legacy(ProtocolVersion::V2025_11_25);
        legacy = Some(pref_client(server, pref, &env).await?);
    }
    let stdio_pid = |c: &Option<Arc<libmcp::client::Client>>| match c {
        Some(c) => c.server_pid().map(Some).ok_or("no stdio server pid"),
        None => Ok(None),
    };
    let pids = (Some(http_pid), stdio_pid(&modern)?, stdio_pid(&legacy)?);

    let stats = Arc::new(Stats::default());
    let start = Instant::now();
    let plan = Plan {
        http_url,
        sse_url,
        deadline: start + o.duration,
        stats: stats.clone(),
        pause: o.pause,
    };
    let legacy_versions = vec![
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_03_26,
    ];
    let mut lanes = tokio::task::JoinSet::new();
    for _ in 0..o.clients.max(1) {
        let p = &plan;
        if wanted(LANES[0]) {
            let versions = legacy_versions.clone();
            lanes.spawn(load::legacy_churn(p.clone(), LANES[0], versions, false));
        }
        if wanted(LANES[1]) {
            let sse = vec![ProtocolVersion::V2024_11_05];
            lanes.spawn(load::legacy_churn(p.clone(), LANES[1], sse, true));
        }
        if wanted(LANES[2]) {
            lanes.spawn(load::modern(p.clone(), LANES[2]));
        }
        if wanted(LANES[3]) {
            lanes.spawn(load::cancels(p.clone(), LANES[3]));
        }
        if wanted(LANES[4]) {
            lanes.spawn(load::listens(p.clone(), LANES[4]));
        }
        if let Some(c) = &modern {
            lanes.spawn(load::stdio(p.clone(), LANES[5], c.clone()));
        }
        if let Some(c) = &legacy {
            lanes.spawn(load::stdio(p.clone(), LANES[6], c.clone()));
        }
    }

    let mut samples = Vec::new();
    let mut tick = tokio::time::interval_at((start + o.interval).into(), o.interval);
    while Instant::now() < plan.deadline {
        tick.tick().await;
        let mut w = stats.take_window();
        let usage = |pid: Option<u32>| {
            pid.and_then(|pid| {
                let u = proc::usage(pid)?;
                Some(Usage {
                    js: memory.read(pid),
                    ..u
                })
            })
            .unwrap_or_default()
        };
        samples.push(Sample {
            t_s: start.elapsed().as_secs_f64(),
            ops: w.latencies_us.len() as u64,
            errors: w.errors,
            p50_us: w.quantile_us(0.50),
            p99_us: w.quantile_us(0.99),
            http: usage(pids.0),
            stdio_modern: usage(pids.1),
            stdio_legacy: usage(pids.2),
        });
    }
    while lanes.join_next().await.is_some() {}
    let seconds = start.elapsed().as_secs_f64();
    for c in modern.iter().chain(&legacy) {
        c.close().await;
    }

    let http_fds_after = settle(http_pid, http_fds_before, o.settle).await;
    if let Some(h) = own_http.as_mut() {
        let _ = h.child.kill().await;
    }
    let (per_lane, errors, error_messages) = stats.totals();
    let stdio = if pids.1.is_some() || pids.2.is_some() {
        format!(", stdio: {server}")
    } else {
        String::new()
    };
    let server = match &o.external_http {
        Some(e) => format!("HTTP: {} (pid {}){stdio}", e.url, e.pid),
        None => server.to_string(),
    };
    Ok(Report {
        server,
        seconds,
        clients: o.clients,
        pause_ms: o.pause.as_millis() as u64,
        samples,
        per_lane,
        errors,
        error_messages,
        http_fds_before,
        http_fds_after,
    })
}

async fn pref_client(
    server: &ServerCommand,
    pref: VersionPreference,
    env: &[(String, String)],
) -> Result<Arc<libmcp::client::Client>, String> {
    load::stdio_client(server, pref, env.to_vec())
        .await
        .map(Arc::new)
}

/// The descriptors of `pid` once they are back to `before`, or what they are after `limit`.
async fn settle(pid: u32, before: u64, limit: Duration) -> u64 {
    let end = Instant::now() + limit;
    loop {
        let fds = proc::usage(pid).map_or(0, |u| u.fds);
        if fds <= before || Instant::now() >= end {
            return fds;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_sse_lane_uses_sse_on_the_endpoint_s_origin() {
        assert_eq!(
            super::sse_url_of("http://127.0.0.1:8000/app/mcp"),
            "http://127.0.0.1:8000/sse"
        );
        assert_eq!(
            super::sse_url_of("http://127.0.0.1:8000"),
            "http://127.0.0.1:8000/sse"
        );
    }
}
