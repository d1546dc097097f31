//! `mcp-bench`: spawns the libmcp and rmcp echo servers and measures `tools/call` over stdio.
//!
//! ```text
//! mcp-bench [--quick] [--json] [--requests N] [--requests-large N] [--rounds R] [--extras]
//!           [--libmcp PATH] [--rmcp PATH] [--minimal PATH] [--phase-time SECS]
//! ```
//! By default the server binaries are looked up next to this executable; `echo-minimal` (a bare
//! serde_json read-dispatch-write loop) runs beside them as the floor. `mcp-bench --http ...`
//! runs the Streamable HTTP benchmark instead (see `libmcp_bench::http::cli`), `mcp-bench --node ...`
//! the Node package beside the official TypeScript SDK (see `libmcp_bench::node`).

use std::path::PathBuf;

use libmcp_bench::args::Common;
use libmcp_bench::driver::{EchoCounts, Mode, Plan, RunResult, Target, run_target};
use libmcp_bench::report;

struct Options {
    common: Common,
    extras: bool,
    libmcp: Option<PathBuf>,
    rmcp: Option<PathBuf>,
    minimal: Option<PathBuf>,
}

fn usage() -> ! {
    eprintln!(
        "usage: mcp-bench [--quick] [--json] [--requests N] [--requests-large N] [--rounds R] [--extras]\n\
         \x20                [--libmcp PATH] [--rmcp PATH] [--minimal PATH] [--phase-time SECS]"
    );
    std::process::exit(2)
}

fn parse_args() -> Options {
    let mut o = Options {
        common: Common::default(),
        extras: false,
        libmcp: None,
        rmcp: None,
        minimal: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if o.common.take(&a, &mut || args.next(), usage) {
            continue;
        }
        let mut value = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--extras" => o.extras = true,
            "--libmcp" => o.libmcp = Some(value().into()),
            "--rmcp" => o.rmcp = Some(value().into()),
            "--minimal" => o.minimal = Some(value().into()),
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
    if args.first().is_some_and(|a| a == "--node") {
        std::process::exit(libmcp_bench::node::main(&args[1..]));
    }
    let o = parse_args();
    let c = &o.common;
    let plan = Plan::echo(
        EchoCounts::new(c.quick, c.requests, c.requests_large),
        c.phase_time(),
        c.verify_every(),
    );
    let libmcp = o.libmcp.clone().unwrap_or_else(|| sibling("echo-libmcp"));
    let rmcp = o.rmcp.clone().unwrap_or_else(|| sibling("echo-rmcp"));
    let minimal = o.minimal.clone().unwrap_or_else(|| sibling("echo-minimal"));
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
        target("minimal loop", "minimal", Mode::Legacy, &minimal, &[]),
    ];
    if o.extras {
        targets.push(target("rmcp modern", "rmcp", Mode::Modern, &rmcp, &[]));
    }

    let mut per_target: Vec<Vec<RunResult>> = vec![Vec::new(); targets.len()];
    let mut failures = Vec::new();
    for round in 0..o.common.rounds {
        for (t, results) in targets.iter().zip(per_target.iter_mut()) {
            eprintln!(
                "mcp-bench: round {}/{}: {}",
                round + 1,
                o.common.rounds,
                t.label
            );
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
    if o.common.json {
        let v =
            serde_json::json!({ "rounds": o.common.rounds, "runs": runs, "failures": failures });
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serializable")
        );
    } else {
        print!("{}", report::markdown(&runs, o.common.rounds));
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
