//! `mcp-bench-mount`: calls per second through the libmcp Python endpoint mounted in a FastAPI
//! application under uvicorn (`server.asgi_app()`), the same server on its own port
//! (`run("http")`), and the official Python SDK's `streamable_http_app()` mounted the same way:
//! 32 concurrent Streamable HTTP sessions, 64 B echoes, both eras, with the ratios.
//!
//! ```text
//! mcp-bench-mount --mounted PROG --own PROG --sdk PROG [--rounds R] [--requests N]
//!                 [--phase-time SECS] [--quick] [--json]
//! ```
//! Each PROG serves Streamable HTTP with `--http ADDR` (announcing its address on stdout, stopping
//! when stdin closes), as for `mcp-bench-python`. `benches/python/run-mount.sh` builds and runs it.

use std::fmt::Write as _;
use std::path::PathBuf;

use libmcp_bench::args::Common;
use libmcp_bench::driver::{EchoCounts, Mode, SMALL_PAYLOAD};
use libmcp_bench::http::report::median_of_rounds;
use libmcp_bench::http::run::{HttpPlan, HttpTarget, run_http_target};
use serde::Serialize;

const SESSIONS: usize = 32;

/// The servers, in report order: (flag, label).
const ROLES: [(&str, &str); 3] = [
    ("--mounted", "libmcp mounted (FastAPI, uvicorn)"),
    ("--own", "libmcp own port"),
    ("--sdk", "official SDK mounted (FastAPI, uvicorn)"),
];

fn usage() -> ! {
    eprintln!(
        "usage: mcp-bench-mount --mounted PROG --own PROG --sdk PROG [--rounds R] [--requests N]\n\
         \x20                      [--phase-time SECS] [--quick] [--json]"
    );
    std::process::exit(2)
}

/// One server in one era.
#[derive(Debug, Serialize)]
struct Row {
    server: &'static str,
    mode: Mode,
    calls_per_s: f64,
    p50_us: f64,
    p99_us: f64,
    errors: usize,
}

fn main() {
    let mut programs: Vec<Option<PathBuf>> = vec![None; ROLES.len()];
    let mut common = Common::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if let Some(i) = ROLES.iter().position(|(flag, _)| *flag == a) {
            programs[i] = Some(args.next().unwrap_or_else(|| usage()).into());
        } else if !common.take(&a, &mut || args.next(), usage) {
            usage();
        }
    }
    let counts = EchoCounts::new(common.quick, common.requests, common.requests_large);
    let mut plan = HttpPlan::echo(
        counts,
        vec![SESSIONS],
        common.phase_time(),
        common.verify_every(),
        Vec::new(),
    );
    plan.warmup.retain(|p| p.payload == SMALL_PAYLOAD);
    plan.phases.retain(|p| p.payload == SMALL_PAYLOAD);

    let mut rows = Vec::new();
    let mut failures = Vec::new();
    for ((_, label), program) in ROLES.iter().zip(programs) {
        let program = program.unwrap_or_else(|| usage());
        for mode in [Mode::Legacy, Mode::Modern] {
            let target = HttpTarget {
                label: label.to_string(),
                implementation: label.to_string(),
                mode,
                program: program.clone(),
                args: Vec::new(),
            };
            let mut done = Vec::new();
            for round in 1..=common.rounds {
                eprintln!(
                    "mcp-bench-mount: round {round}/{}: {label} ({mode:?})",
                    common.rounds
                );
                match run_http_target(&target, &plan) {
                    Ok(r) => done.push(r),
                    Err(e) => failures.push(format!("{label} ({mode:?}): {e}")),
                }
            }
            if done.is_empty() {
                continue;
            }
            for p in &median_of_rounds(&done).phases {
                rows.push(Row {
                    server: label,
                    mode,
                    calls_per_s: p.throughput,
                    p50_us: p.p50_us,
                    p99_us: p.p99_us,
                    errors: p.errors,
                });
            }
        }
    }
    if common.json {
        let out = serde_json::json!({ "rows": rows, "failures": failures });
        println!("{out:#}");
    } else {
        print!("{}", markdown(&rows, &failures));
    }
    if !failures.is_empty() {
        std::process::exit(1);
    }
}

fn markdown(rows: &[Row], failures: &[String]) -> String {
    let rate = |server: &str, mode: Mode| {
        rows.iter()
            .find(|r| r.server == server && r.mode == mode)
            .map(|r| r.calls_per_s)
    };
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}x", a / b),
        _ => "n/a".into(),
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{SESSIONS} sessions, {SMALL_PAYLOAD} B echo\n\n\
         | server | era | calls/s | p50 µs | p99 µs | errors |\n|---|---|--:|--:|--:|--:|"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {:?} | {:.0} | {:.0} | {:.0} | {} |",
            r.server, r.mode, r.calls_per_s, r.p50_us, r.p99_us, r.errors
        );
    }
    let (mounted, own, sdk) = (ROLES[0].1, ROLES[1].1, ROLES[2].1);
    let _ = writeln!(
        s,
        "\n| era | mounted / own port | mounted / SDK mounted |\n|---|--:|--:|"
    );
    for mode in [Mode::Legacy, Mode::Modern] {
        let m = rate(mounted, mode);
        let _ = writeln!(
            s,
            "| {mode:?} | {} | {} |",
            ratio(m, rate(own, mode)),
            ratio(m, rate(sdk, mode))
        );
    }
    for f in failures {
        let _ = writeln!(s, "\nfailed: {f}");
    }
    s
}
