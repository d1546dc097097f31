//! `mcp-bench --node --mount`: the libmcp Node echo server mounted in a node:http server
//! (`benches/node/echo-mounted.js`, `server.handleRequest`) beside the same server on its own port
//! (`echo-libmcp.js`, `serveHttp`) and the official TypeScript SDK's transport mounted in Express
//! (`echo-sdk-express.js`), over Streamable HTTP with the HTTP driver of the Rust benchmark:
//! 32 concurrent legacy sessions, 64 B echoes.
//!
//! ```text
//! mcp-bench --node --mount [--quick] [--json] [--requests N] [--rounds R] [--phase-time SECS]
//!                          [--node PATH] [--scripts DIR]
//! ```
//! (the options of `mcp-bench --node`, `node.rs`, which calls [`run`]).

use std::fmt::Write;
use std::path::Path;

use crate::args::Common;
use crate::driver::{EchoCounts, Mode, SMALL_PAYLOAD};
use crate::http::run::{HttpPlan, HttpRunResult, HttpTarget, run_http_target};

/// Concurrent sessions of the measured phase.
const SESSIONS: usize = 32;

/// The three servers: row label and script.
const SERVERS: [(&str, &str); 3] = [
    ("libmcp node, own port (serveHttp)", "echo-libmcp.js"),
    (
        "libmcp node, mounted (node:http handleRequest)",
        "echo-mounted.js",
    ),
    ("official SDK, mounted (Express)", "echo-sdk-express.js"),
];

/// Runs the mount benchmark with the options of `mcp-bench --node`: `node` runs the scripts in
/// `scripts`; returns the exit status.
pub fn run(c: &Common, node: &Path, scripts: &Path) -> i32 {
    let counts = EchoCounts::new(c.quick, c.requests, c.requests_large);
    let mut plan = HttpPlan::echo(
        counts,
        vec![SESSIONS],
        c.phase_time(),
        c.verify_every(),
        Vec::new(),
    );
    plan.warmup.retain(|p| p.payload == SMALL_PAYLOAD);
    plan.phases.retain(|p| p.payload == SMALL_PAYLOAD);
    let mut failures = Vec::new();
    let mut per_server: Vec<Vec<HttpRunResult>> = SERVERS.iter().map(|_| Vec::new()).collect();
    for round in 0..c.rounds {
        for ((label, script), results) in SERVERS.iter().zip(per_server.iter_mut()) {
            eprintln!(
                "mcp-bench --node --mount: round {}/{}: {label}",
                round + 1,
                c.rounds
            );
            let target = HttpTarget {
                label: (*label).into(),
                implementation: (*script).into(),
                mode: Mode::Legacy,
                program: node.to_path_buf(),
                args: vec![scripts.join(script).display().to_string()],
            };
            match run_http_target(&target, &plan) {
                Ok(r) => results.push(r),
                Err(e) => {
                    eprintln!("mcp-bench --node --mount: {label} failed: {e}");
                    failures.push(format!("{label}: {e}"));
                }
            }
        }
    }
    let results: Vec<Option<HttpRunResult>> = per_server
        .iter()
        .map(|r| (!r.is_empty()).then(|| crate::http::report::median_of_rounds(r)))
        .collect();
    if c.json {
        let v = serde_json::json!({"rounds": c.rounds, "http": results, "failures": failures});
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serializable")
        );
    } else {
        print!("{}", markdown(&results, c.rounds, &failures));
    }
    i32::from(!failures.is_empty())
}

/// The 64 B phase of a run: (calls/s, p50 µs, p99 µs, server CPU µs per call).
fn small(r: &HttpRunResult) -> Option<(f64, f64, f64, f64)> {
    r.phases
        .iter()
        .find(|p| p.payload == SMALL_PAYLOAD && p.sessions == SESSIONS)
        .map(|p| (p.throughput, p.p50_us, p.p99_us, p.server_cpu_us_per_req))
}

fn markdown(results: &[Option<HttpRunResult>], rounds: usize, failures: &[String]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "### The Node endpoint mounted vs on its own port vs the SDK mounted in Express \
         ({SESSIONS} sessions, 64 B echo, legacy era; median of {rounds} round(s))\n"
    );
    let _ = writeln!(
        s,
        "| server | calls/s | p50 µs | p99 µs | server CPU µs/call | peak RSS |"
    );
    let _ = writeln!(s, "|---|--:|--:|--:|--:|--:|");
    let rows: Vec<Option<(f64, f64, f64, f64)>> =
        results.iter().map(|r| r.as_ref().and_then(small)).collect();
    for ((label, _), (r, row)) in SERVERS.iter().zip(results.iter().zip(&rows)) {
        match (r, row) {
            (Some(r), Some((t, p50, p99, cpu))) => {
                let _ = writeln!(
                    s,
                    "| {label} | {t:.0} | {p50:.0} | {p99:.0} | {cpu:.1} | {:.1} MiB |",
                    r.peak_rss_kib as f64 / 1024.0
                );
            }
            _ => {
                let _ = writeln!(s, "| {label} | failed | | | | |");
            }
        }
    }
    let throughput = |i: usize| rows[i].map_or(f64::NAN, |r| r.0);
    let (own, mounted, sdk) = (throughput(0), throughput(1), throughput(2));
    let _ = writeln!(
        s,
        "\nMounted / own port: {:.2}x. Mounted / SDK in Express: {:.2}x (target: at least 5x, \
         reported, not asserted).",
        mounted / own,
        mounted / sdk
    );
    for f in failures {
        let _ = writeln!(s, "\nFAILED: {f}");
    }
    s
}
