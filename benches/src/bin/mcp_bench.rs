//! `mcp-bench`: spawns the libmcp and rmcp echo servers and measures `tools/call` over stdio.
//!
//! ```text
//! mcp-bench [--quick] [--json] [--requests N] [--requests-large N] [--rounds R] [--extras]
//!           [--libmcp PATH] [--rmcp PATH] [--phase-time SECS]
//! ```
//! By default the server binaries are looked up next to this executable. `mcp-bench --http ...`
//! runs the Streamable HTTP benchmark instead (see `libmcp_bench::http::cli`).

use std::path::PathBuf;
use std::time::Duration;

use libmcp_bench::driver::{Mode, Plan, RunResult, Target, run_target};
use libmcp_bench::report;

struct Options {
    quick: bool,
    json: bool,
    requests: Option<usize>,
    requests_large: Option<usize>,
    rounds: usize,
    extras: bool,
    libmcp: Option<PathBuf>,
    rmcp: Option<PathBuf>,
    phase_time: Option<u64>,
}

fn usage() -> ! {
    eprintln!(
        "usage: mcp-bench [--quick] [--json] [--requests N] [--requests-large N] [--rounds R] [--extras]\n\
         \x20                [--libmcp PATH] [--rmcp PATH] [--phase-time SECS]"
    );
    std::process::exit(2)
}

fn parse_args() -> Options {
    let mut o = Options {
        quick: false,
        json: false,
        requests: None,
        requests_large: None,
        rounds: 1,
        extras: false,
        libmcp: None,
        rmcp: None,
        phase_time: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        let number = |v: String| v.parse::<usize>().unwrap_or_else(|_| usage());
        match a.as_str() {
            "--quick" => o.quick = true,
            "--json" => o.json = true,
            "--extras" => o.extras = true,
            "--requests" => o.requests = Some(number(value())),
            "--requests-large" => o.requests_large = Some(number(value())),
            "--rounds" => o.rounds = number(value()).max(1),
            "--phase-time" => o.phase_time = Some(number(value()) as u64),
            "--libmcp" => o.libmcp = Some(value().into()),
            "--rmcp" => o.rmcp = Some(value().into()),
            "-h" | "--help" => usage(),
            _ => usage(),
        }
    }
    o
}

fn sibling(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    exe.with_file_name(name)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--http") {
        std::process::exit(libmcp_bench::http::cli::main(&args[1..]));
    }
    let o = parse_args();
    let small = o.requests.unwrap_or(if o.quick { 300 } else { 20_000 });
    let large = o
        .requests_large
        .unwrap_or(if o.quick { 30 } else { (small / 10).max(1) });
    let warm = if o.quick { 50 } else { 2_000 };
    let plan = Plan::standard(
        small,
        large,
        warm,
        Duration::from_secs(o.phase_time.unwrap_or(if o.quick { 10 } else { 30 })),
        if o.quick { 1 } else { 97 },
    );
    let libmcp = o.libmcp.clone().unwrap_or_else(|| sibling("echo-libmcp"));
    let rmcp = o.rmcp.clone().unwrap_or_else(|| sibling("echo-rmcp"));
    let target =
        |label: &str, implementation: &str, mode, program: &PathBuf, args: &[&str]| Target {
            label: label.into(),
            implementation: implementation.into(),
            mode,
            program: program.clone(),
            args: args.iter().map(|s| s.to_string()).collect(),
        };
    let mut targets = vec![
        target("libmcp", "libmcp", Mode::Legacy, &libmcp, &[]),
        target("rmcp", "rmcp", Mode::Legacy, &rmcp, &[]),
        target("libmcp modern", "libmcp", Mode::Modern, &libmcp, &[]),
    ];
    if o.extras {
        targets.push(target("rmcp modern", "rmcp", Mode::Modern, &rmcp, &[]));
    }

    let mut per_target: Vec<Vec<RunResult>> = vec![Vec::new(); targets.len()];
    let mut failures = Vec::new();
    for round in 0..o.rounds {
        for (t, results) in targets.iter().zip(per_target.iter_mut()) {
            eprintln!("mcp-bench: round {}/{}: {}", round + 1, o.rounds, t.label);
            match run_target(t, &plan) {
                Ok(r) => results.push(r),
                Err(e) => {
                    eprintln!("mcp-bench: {} failed: {e}", t.label);
                    failures.push(format!("{}: {e}", t.label));
                }
            }
        }
    }
    let runs: Vec<RunResult> = per_target
        .iter()
        .filter(|r| !r.is_empty())
        .map(|r| report::median_of_rounds(r))
        .collect();
    if o.json {
        let v = serde_json::json!({ "rounds": o.rounds, "runs": runs, "failures": failures });
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serializable")
        );
    } else {
        print!("{}", report::markdown(&runs, o.rounds));
        for f in &failures {
            println!("\nFAILED: {f}");
        }
    }
    // Only the two headline servers must work; the extras report their failure and move on.
    let headline_failed = failures
        .iter()
        .any(|f| f.starts_with("libmcp:") || f.starts_with("rmcp:"));
    if headline_failed {
        std::process::exit(1);
    }
}
