//! `mcp-bench --node`: the libmcp Node package's echo server (`benches/node/echo-libmcp.js`) beside
//! the same tool on the official TypeScript SDK (`benches/node/echo-sdk.js`) and the Rust
//! `echo-libmcp`, over stdio and Streamable HTTP, with the stdio and HTTP drivers of the Rust
//! benchmark, in one run.
//!
//! ```text
//! mcp-bench --node [--quick] [--json] [--requests N] [--requests-large N] [--rounds R]
//!                  [--phase-time SECS] [--node PATH] [--scripts DIR] [--libmcp PATH]
//!                  [--stdio-only | --http-only | --mount]
//! ```
//! `--node` is the Node executable (default `node` on `PATH`), `--scripts` the directory of the
//! two echo scripts (default `benches/node` of the source tree this was built from).
//! `mcp-bench --node --mount ...` runs the mount benchmark instead (`node_mount.rs`).

use std::fmt::Write;
use std::path::PathBuf;

use crate::args::Common;
use crate::driver::{EchoCounts, Mode, Plan, RunResult, Target, run_target};
use crate::http::run::{HttpPlan, HttpRunResult, HttpTarget, run_http_target};
use crate::report::size;

/// `implementation` of the rows, for the ratios.
const NODE: &str = "libmcp-node";
const SDK: &str = "sdk";
const RUST: &str = "libmcp";

struct Options {
    common: Common,
    node: PathBuf,
    scripts: PathBuf,
    libmcp: Option<PathBuf>,
    stdio: bool,
    http: bool,
    /// The mount benchmark instead (`node_mount.rs`).
    mount: bool,
}

fn usage() -> ! {
    eprintln!(
        "usage: mcp-bench --node [--quick] [--json] [--requests N] [--requests-large N] [--rounds R]\n\
         \x20                       [--phase-time SECS] [--node PATH] [--scripts DIR] [--libmcp PATH]\n\
         \x20                       [--stdio-only | --http-only | --mount]"
    );
    std::process::exit(2)
}

fn parse(args: &[String]) -> Options {
    let mut o = Options {
        common: Common::default(),
        node: "node".into(),
        scripts: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/node")),
        libmcp: None,
        stdio: true,
        http: true,
        mount: false,
    };
    let mut it = args.iter().cloned();
    while let Some(a) = it.next() {
        if o.common.take(&a, &mut || it.next(), usage) {
            continue;
        }
        let mut value = || it.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--node" => o.node = value().into(),
            "--scripts" => o.scripts = value().into(),
            "--libmcp" => o.libmcp = Some(value().into()),
            "--stdio-only" => o.http = false,
            "--http-only" => o.stdio = false,
            "--mount" => o.mount = true,
            _ => usage(),
        }
    }
    if !o.stdio && !o.http {
        usage();
    }
    o
}

/// A server to run: the row label, implementation, era, and command.
struct Server {
    label: &'static str,
    implementation: &'static str,
    mode: Mode,
    program: PathBuf,
    args: Vec<String>,
}

fn servers(o: &Options) -> Vec<Server> {
    let rust = o.libmcp.clone().unwrap_or_else(|| {
        let exe = std::env::current_exe().expect("current exe");
        exe.with_file_name("echo-libmcp")
    });
    let node = |label, implementation, mode, name: &str| Server {
        label,
        implementation,
        mode,
        program: o.node.clone(),
        args: vec![o.scripts.join(name).display().to_string()],
    };
    vec![
        node("libmcp node", NODE, Mode::Legacy, "echo-libmcp.js"),
        node("official SDK", SDK, Mode::Legacy, "echo-sdk.js"),
        node("libmcp node modern", NODE, Mode::Modern, "echo-libmcp.js"),
        Server {
            label: "libmcp (Rust)",
            implementation: RUST,
            mode: Mode::Legacy,
            program: rust,
            args: Vec::new(),
        },
    ]
}

/// Runs every server `o.common.rounds` times with `run`; per server the runs that succeeded, folded
/// into one by `median`. Failures are reported on stderr and collected.
fn rounds<R>(
    o: &Options,
    what: &str,
    servers: &[Server],
    run: impl Fn(&Server) -> Result<R, crate::driver::Error>,
    median: impl Fn(&[R]) -> R,
    failures: &mut Vec<String>,
) -> Vec<R> {
    let mut per_server: Vec<Vec<R>> = servers.iter().map(|_| Vec::new()).collect();
    for round in 0..o.common.rounds {
        for (s, results) in servers.iter().zip(per_server.iter_mut()) {
            eprintln!(
                "mcp-bench --node: {what} round {}/{}: {}",
                round + 1,
                o.common.rounds,
                s.label
            );
            match run(s) {
                Ok(r) => results.push(r),
                Err(e) => {
                    eprintln!("mcp-bench --node: {what} {} failed: {e}", s.label);
                    failures.push(format!("{what} {}: {e}", s.label));
                }
            }
        }
    }
    per_server
        .iter()
        .filter(|r| !r.is_empty())
        .map(|r| median(r))
        .collect()
}

/// Runs the Node benchmark with `args` (those after `--node`); returns the exit status.
pub fn main(args: &[String]) -> i32 {
    let o = parse(args);
    if o.mount {
        return crate::node_mount::run(&o.common, &o.node, &o.scripts);
    }
    let c = &o.common;
    let counts = EchoCounts::new(c.quick, c.requests, c.requests_large);
    let (phase_time, verify_every) = (c.phase_time(), c.verify_every());
    let servers = servers(&o);
    let mut failures = Vec::new();

    let mut stdio = Vec::new();
    if o.stdio {
        let plan = Plan::echo(counts, phase_time, verify_every);
        let run = |s: &Server| {
            let target = Target {
                label: s.label.into(),
                implementation: s.implementation.into(),
                mode: s.mode,
                program: s.program.clone(),
                args: s.args.clone(),
            };
            run_target(&target, &plan)
        };
        let median = crate::report::median_of_rounds;
        stdio = rounds(&o, "stdio", &servers, run, median, &mut failures);
    }
    let mut http = Vec::new();
    if o.http {
        let plan = HttpPlan::echo(counts, vec![1, 32], phase_time, verify_every, Vec::new());
        let run = |s: &Server| {
            let target = HttpTarget {
                label: s.label.into(),
                implementation: s.implementation.into(),
                mode: s.mode,
                program: s.program.clone(),
                args: s.args.clone(),
            };
            run_http_target(&target, &plan)
        };
        let median = crate::http::report::median_of_rounds;
        http = rounds(&o, "http", &servers, run, median, &mut failures);
    }

    if o.common.json {
        let v = serde_json::json!({
            "rounds": o.common.rounds, "stdio": stdio, "http": http, "failures": failures,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serializable")
        );
    } else {
        print!("{}", markdown(&stdio, &http, o.common.rounds, &failures));
    }
    i32::from(!failures.is_empty())
}

/// One measured phase of either transport, as the report needs it.
struct Row {
    /// In flight (stdio) or sessions (HTTP).
    concurrency: usize,
    payload: usize,
    throughput: f64,
    p50_us: f64,
    p99_us: f64,
    cpu_us: f64,
}

/// One target's phases and peak RSS, by implementation and era.
struct Runs {
    label: String,
    implementation: String,
    mode: Mode,
    peak_rss_kib: u64,
    rows: Vec<Row>,
}

fn from_stdio(r: &RunResult) -> Runs {
    let rows = r.phases.iter().map(|p| {
        let c = p.server_cpu_us_per_req;
        row(
            p.in_flight,
            p.payload,
            p.throughput,
            (p.p50_us, p.p99_us),
            c,
        )
    });
    runs(&r.label, &r.implementation, r.mode, r.peak_rss_kib, rows)
}

fn from_http(r: &HttpRunResult) -> Runs {
    let rows = r.phases.iter().map(|p| {
        let c = p.server_cpu_us_per_req;
        row(p.sessions, p.payload, p.throughput, (p.p50_us, p.p99_us), c)
    });
    runs(&r.label, &r.implementation, r.mode, r.peak_rss_kib, rows)
}

fn row(
    concurrency: usize,
    payload: usize,
    throughput: f64,
    (p50, p99): (f64, f64),
    cpu: f64,
) -> Row {
    Row {
        concurrency,
        payload,
        throughput,
        p50_us: p50,
        p99_us: p99,
        cpu_us: cpu,
    }
}

fn runs(
    label: &str,
    implementation: &str,
    mode: Mode,
    peak_rss_kib: u64,
    rows: impl Iterator<Item = Row>,
) -> Runs {
    Runs {
        label: label.into(),
        implementation: implementation.into(),
        mode,
        peak_rss_kib,
        rows: rows.collect(),
    }
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 { a / b } else { f64::NAN }
}

/// The report: per transport the libmcp Node rows beside the SDK and Rust ones, peak RSS, the
/// issue's targets, and every run.
pub fn markdown(
    stdio: &[RunResult],
    http: &[HttpRunResult],
    rounds: usize,
    failures: &[String],
) -> String {
    let stdio: Vec<Runs> = stdio.iter().map(from_stdio).collect();
    let http: Vec<Runs> = http.iter().map(from_http).collect();
    let mut s = String::new();
    let mut met = Vec::new();
    for (name, unit, runs, sdk_target) in [
        ("stdio", "in flight", &stdio, 3.0),
        ("Streamable HTTP", "sessions", &http, 10.0),
    ] {
        side_by_side(&mut s, name, unit, runs, rounds, sdk_target, &mut met);
    }
    let _ = writeln!(s, "### Targets (reported, not asserted)\n");
    let _ = writeln!(s, "| target | measured | met |");
    let _ = writeln!(s, "|---|--:|:-:|");
    for (what, r, ok) in &met {
        let _ = writeln!(
            s,
            "| {what} | {r:.2}x | {} |",
            if *ok { "yes" } else { "no" }
        );
    }
    let _ = writeln!(s, "\n### All runs\n");
    let _ = writeln!(
        s,
        "| transport | run | era | in flight / sessions | payload | req/s | p50 µs | p99 µs | server CPU µs/req | peak RSS |"
    );
    let _ = writeln!(s, "|---|---|---|--:|--:|--:|--:|--:|--:|--:|");
    for (name, runs) in [("stdio", &stdio), ("HTTP", &http)] {
        for r in runs.iter() {
            for p in &r.rows {
                let _ = writeln!(
                    s,
                    "| {name} | {} | {:?} | {} | {} | {:.0} | {:.0} | {:.0} | {:.1} | {:.1} MiB |",
                    r.label,
                    r.mode,
                    p.concurrency,
                    size(p.payload),
                    p.throughput,
                    p.p50_us,
                    p.p99_us,
                    p.cpu_us,
                    r.peak_rss_kib as f64 / 1024.0,
                );
            }
        }
    }
    for f in failures {
        let _ = writeln!(s, "\nFAILED: {f}");
    }
    s
}

fn find<'a>(runs: &'a [Runs], implementation: &str, mode: Mode) -> Option<&'a Runs> {
    runs.iter()
        .find(|r| r.implementation == implementation && r.mode == mode)
}

fn side_by_side(
    s: &mut String,
    name: &str,
    unit: &str,
    runs: &[Runs],
    rounds: usize,
    sdk_target: f64,
    met: &mut Vec<(String, f64, bool)>,
) {
    let (Some(node), Some(sdk)) = (
        find(runs, NODE, Mode::Legacy),
        find(runs, SDK, Mode::Legacy),
    ) else {
        return;
    };
    let rust = find(runs, RUST, Mode::Legacy);
    let _ = writeln!(
        s,
        "### libmcp Node vs the official SDK, tools/call over {name} (legacy era; median of {rounds} round(s))\n"
    );
    let _ = writeln!(
        s,
        "| {unit} | payload | libmcp node req/s | SDK req/s | vs SDK | Rust libmcp req/s | vs Rust | node p50 µs | SDK p50 µs | node p99 µs | SDK p99 µs | node CPU µs/req | SDK CPU µs/req |"
    );
    let _ = writeln!(s, "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (i, a) in node.rows.iter().enumerate() {
        let Some(b) = sdk.rows.get(i) else { continue };
        let c = rust.and_then(|r| r.rows.get(i));
        let vs_sdk = ratio(a.throughput, b.throughput);
        let vs_rust = c.map_or(f64::NAN, |c| ratio(a.throughput, c.throughput));
        let _ = writeln!(
            s,
            "| {} | {} | {:.0} | {:.0} | **{vs_sdk:.2}x** | {} | {vs_rust:.2}x | {:.0} | {:.0} | {:.0} | {:.0} | {:.1} | {:.1} |",
            a.concurrency,
            size(a.payload),
            a.throughput,
            b.throughput,
            c.map_or("n/a".into(), |c| format!("{:.0}", c.throughput)),
            a.p50_us,
            b.p50_us,
            a.p99_us,
            b.p99_us,
            a.cpu_us,
            b.cpu_us,
        );
        if a.concurrency == 32 {
            met.push((
                format!(
                    "≥ {sdk_target}x the SDK, {name}, 32 {unit}, {}",
                    size(a.payload)
                ),
                vs_sdk,
                vs_sdk >= sdk_target,
            ));
        }
        if a.concurrency == 1 && name == "stdio" {
            met.push((
                format!(
                    "≥ 0.5x Rust libmcp, {name}, 1 in flight, {}",
                    size(a.payload)
                ),
                vs_rust,
                vs_rust >= 0.5,
            ));
        }
    }
    let rss = ratio(node.peak_rss_kib as f64, sdk.peak_rss_kib as f64);
    let _ = writeln!(
        s,
        "\nPeak RSS (VmHWM): libmcp node {:.1} MiB, official SDK {:.1} MiB ({rss:.2}x){}.\n",
        node.peak_rss_kib as f64 / 1024.0,
        sdk.peak_rss_kib as f64 / 1024.0,
        rust.map_or(String::new(), |r| format!(
            "; Rust libmcp {:.1} MiB",
            r.peak_rss_kib as f64 / 1024.0
        )),
    );
    met.push((
        format!("peak RSS ≤ 0.5x the SDK's, {name}"),
        rss,
        rss <= 0.5,
    ));
}
