//! `mcp-bench-python`: the Python echo servers (libmcp with a sync handler and with an `async def`
//! one, the official SDK's `MCPServer`) beside the Rust libmcp echo server, driven by the same
//! drivers and plans as `mcp-bench` (stdio: 1 and 32 in flight; Streamable HTTP: 1 and 32
//! sessions; 64 B and 64 KiB echoes; both eras), reported as ratios to the official SDK and to Rust.
//!
//! ```text
//! mcp-bench-python --sync PROG --async PROG --sdk PROG --rust PROG [--rounds R] [--requests N]
//!                  [--requests-large N] [--phase-time SECS] [--quick] [--json]
//! ```
//! Each PROG serves stdio without arguments and Streamable HTTP with `--http ADDR` (announcing its
//! address on stdout, stopping when stdin closes), like the `echo-libmcp` binary.
//! `benches/python/run.sh` builds everything and runs this.

use std::fmt::Write as _;
use std::path::PathBuf;

use libmcp_bench::args::Common;
use libmcp_bench::driver::{
    EchoCounts, Error, Mode, PhaseResult, Plan, SMALL_PAYLOAD, Target, run_target,
};
use libmcp_bench::http::run::{HttpPhaseResult, HttpPlan, HttpTarget, run_http_target};
use libmcp_bench::{http, report};
use serde::Serialize;

const SDK: &str = "official SDK";
const RUST: &str = "Rust echo-libmcp";

/// The servers, in report order: (label, program).
const ROLES: [(&str, &str); 4] = [
    ("--sync", "libmcp sync"),
    ("--async", "libmcp async"),
    ("--sdk", SDK),
    ("--rust", RUST),
];

fn usage() -> ! {
    eprintln!(
        "usage: mcp-bench-python --sync PROG --async PROG --sdk PROG --rust PROG [--rounds R]\n\
         \x20                       [--requests N] [--requests-large N] [--phase-time SECS] [--quick] [--json]"
    );
    std::process::exit(2)
}

struct Options {
    programs: Vec<Option<PathBuf>>,
    common: Common,
}

fn parse() -> Options {
    let mut o = Options {
        programs: vec![None; ROLES.len()],
        common: Common::default(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if let Some(i) = ROLES.iter().position(|(flag, _)| *flag == a) {
            o.programs[i] = Some(args.next().unwrap_or_else(|| usage()).into());
            continue;
        }
        if !o.common.take(&a, &mut || args.next(), usage) {
            usage();
        }
    }
    if o.programs.iter().any(Option::is_none) {
        usage();
    }
    o
}

/// One measured phase of either transport.
#[derive(Clone, Debug, Serialize)]
struct Row {
    server: String,
    transport: &'static str,
    mode: Mode,
    /// In-flight requests (stdio) or sessions (HTTP).
    concurrency: usize,
    payload: usize,
    throughput: f64,
    p50_us: f64,
    p99_us: f64,
    errors: usize,
    peak_rss_kib: u64,
}

/// One phase as measured: concurrency, payload, req/s, p50 µs, p99 µs, errors.
type Measured = (usize, usize, f64, f64, f64, usize);

/// A phase result of either driver.
trait Phase {
    fn measured(&self) -> Measured;
}

impl Phase for PhaseResult {
    fn measured(&self) -> Measured {
        (
            self.in_flight,
            self.payload,
            self.throughput,
            self.p50_us,
            self.p99_us,
            self.errors,
        )
    }
}

impl Phase for HttpPhaseResult {
    fn measured(&self) -> Measured {
        (
            self.sessions,
            self.payload,
            self.throughput,
            self.p50_us,
            self.p99_us,
            self.errors,
        )
    }
}

fn plans(o: &Options) -> (Plan, HttpPlan) {
    let c = &o.common;
    let counts = EchoCounts::new(c.quick, c.requests, c.requests_large);
    let stdio = Plan::echo(counts, c.phase_time(), c.verify_every());
    // Idle-session memory is mcp-bench --http's subject; here only throughput and peak RSS.
    let http = HttpPlan::echo(
        counts,
        vec![1, 32],
        c.phase_time(),
        c.verify_every(),
        Vec::new(),
    );
    (stdio, http)
}

/// Runs `run` once per round; the failures are recorded as `what: reason`.
fn rounds<R>(
    o: &Options,
    what: &str,
    failures: &mut Vec<String>,
    run: impl Fn() -> Result<R, Error>,
) -> Vec<R> {
    let mut done = Vec::new();
    for round in 0..o.common.rounds {
        eprintln!(
            "mcp-bench-python: round {}/{}: {what}",
            round + 1,
            o.common.rounds
        );
        match run() {
            Ok(r) => done.push(r),
            Err(e) => failures.push(format!("{what}: {e}")),
        }
    }
    done
}

fn measure(o: &Options, failures: &mut Vec<String>) -> Vec<Row> {
    let (stdio_plan, http_plan) = plans(o);
    let mut rows = Vec::new();
    for ((_, label), program) in ROLES.iter().zip(&o.programs) {
        let program = program.clone().expect("checked by parse");
        for mode in [Mode::Legacy, Mode::Modern] {
            let mut add = |transport, measured: Vec<Measured>, peak_rss_kib| {
                for (concurrency, payload, throughput, p50_us, p99_us, errors) in measured {
                    rows.push(Row {
                        server: label.to_string(),
                        transport,
                        mode,
                        concurrency,
                        payload,
                        throughput,
                        p50_us,
                        p99_us,
                        errors,
                        peak_rss_kib,
                    });
                }
            };
            let stdio = Target {
                label: label.to_string(),
                implementation: label.to_string(),
                mode,
                program: program.clone(),
                args: Vec::new(),
            };
            let done = rounds(o, &format!("{label} ({mode:?}) stdio"), failures, || {
                run_target(&stdio, &stdio_plan)
            });
            if !done.is_empty() {
                let r = report::median_of_rounds(&done);
                add(
                    "stdio",
                    r.phases.iter().map(Phase::measured).collect(),
                    r.peak_rss_kib,
                );
            }
            let http = HttpTarget {
                label: label.to_string(),
                implementation: label.to_string(),
                mode,
                program: program.clone(),
                args: Vec::new(),
            };
            let done = rounds(o, &format!("{label} ({mode:?}) HTTP"), failures, || {
                run_http_target(&http, &http_plan)
            });
            if !done.is_empty() {
                let r = http::report::median_of_rounds(&done);
                add(
                    "HTTP",
                    r.phases.iter().map(Phase::measured).collect(),
                    r.peak_rss_kib,
                );
            }
        }
    }
    rows
}

/// The row of `server` measured like `row`.
fn peer<'a>(rows: &'a [Row], row: &Row, server: &str) -> Option<&'a Row> {
    rows.iter().find(|r| {
        r.server == server
            && r.transport == row.transport
            && r.mode == row.mode
            && r.concurrency == row.concurrency
            && r.payload == row.payload
    })
}

fn ratio(a: f64, b: Option<f64>) -> Option<f64> {
    b.filter(|b| *b > 0.0 && a.is_finite()).map(|b| a / b)
}

fn shown(r: Option<f64>) -> String {
    r.map_or_else(|| "n/a".into(), |r| format!("{r:.2}x"))
}

fn size(bytes: usize) -> String {
    if bytes >= 1024 {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} B")
    }
}

fn markdown(rows: &[Row], rounds: usize, failures: &[String]) -> String {
    let mut s = String::new();
    for transport in ["stdio", "HTTP"] {
        let unit = if transport == "stdio" {
            "in flight"
        } else {
            "sessions"
        };
        let _ = writeln!(
            s,
            "### tools/call over {transport} (median of {rounds} round(s))\n\n\
             | server | era | {unit} | payload | req/s | p50 µs | p99 µs | errors | peak RSS | vs official SDK | vs Rust |\n\
             |---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
        );
        for r in rows.iter().filter(|r| r.transport == transport) {
            let sdk = peer(rows, r, SDK).map(|p| p.throughput);
            let rust = peer(rows, r, RUST).map(|p| p.throughput);
            let _ = writeln!(
                s,
                "| {} | {:?} | {} | {} | {:.0} | {:.0} | {:.0} | {} | {:.1} MiB | {} | {} |",
                r.server,
                r.mode,
                r.concurrency,
                size(r.payload),
                r.throughput,
                r.p50_us,
                r.p99_us,
                r.errors,
                r.peak_rss_kib as f64 / 1024.0,
                shown(ratio(r.throughput, sdk)),
                shown(ratio(r.throughput, rust)),
            );
        }
        s.push('\n');
    }
    targets(&mut s, rows);
    for f in failures {
        let _ = writeln!(s, "\nFAILED: {f}");
    }
    s
}

/// The package's targets (issue: the Python package), for 64 B echoes in the legacy era (the one
/// every server speaks): reported, not asserted.
fn targets(s: &mut String, rows: &[Row]) {
    let _ = writeln!(
        s,
        "### Targets (64 B, legacy era; reported, not asserted)\n\n| target | measured | met |\n|---|--:|:-:|"
    );
    let find = |server: &str, transport: &str, concurrency: usize| {
        rows.iter().find(|r| {
            r.server == server
                && r.transport == transport
                && r.mode == Mode::Legacy
                && r.concurrency == concurrency
                && r.payload == SMALL_PAYLOAD
        })
    };
    let mut line = |what: String, measured: Option<f64>, want: f64, at_least: bool| {
        let met = measured.map(|m| if at_least { m >= want } else { m <= want });
        let _ = writeln!(
            s,
            "| {what} | {} | {} |",
            shown(measured),
            match met {
                Some(true) => "yes",
                Some(false) => "no",
                None => "n/a",
            }
        );
    };
    for transport in ["stdio", "HTTP"] {
        for (server, want) in [("libmcp sync", 20.0), ("libmcp async", 10.0)] {
            let m = find(server, transport, 32)
                .and_then(|r| ratio(r.throughput, find(SDK, transport, 32).map(|p| p.throughput)));
            line(
                format!("{server} ≥ {want}x the official SDK, 32 in flight, {transport}"),
                m,
                want,
                true,
            );
        }
        let m = find("libmcp sync", transport, 1)
            .and_then(|r| ratio(r.throughput, find(RUST, transport, 1).map(|p| p.throughput)));
        line(
            format!("libmcp sync ≥ 0.5x Rust, 1 in flight, {transport}"),
            m,
            0.5,
            true,
        );
        for server in ["libmcp sync", "libmcp async"] {
            let m = find(server, transport, 32).and_then(|r| {
                ratio(
                    r.peak_rss_kib as f64,
                    find(SDK, transport, 32).map(|p| p.peak_rss_kib as f64),
                )
            });
            line(
                format!("{server} peak RSS ≤ the official SDK's, {transport}"),
                m,
                1.0,
                false,
            );
        }
    }
}

fn main() {
    let o = parse();
    let mut failures = Vec::new();
    let rows = measure(&o, &mut failures);
    if o.common.json {
        let v =
            serde_json::json!({ "rounds": o.common.rounds, "rows": rows, "failures": failures });
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serializable")
        );
    } else {
        print!("{}", markdown(&rows, o.common.rounds, &failures));
    }
    // The SDK may not speak the modern era; every libmcp run must work.
    let fatal = failures.iter().any(|f| !f.starts_with(SDK));
    std::process::exit(i32::from(fatal));
}
