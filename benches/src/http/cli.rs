//! `mcp-bench --http`: drives the libmcp and rmcp echo servers over Streamable HTTP.
//!
//! ```text
//! mcp-bench --http [--quick] [--json] [--requests N] [--requests-large N] [--rounds R]
//!                  [--sessions 1,32] [--idle 1000,5000] [--phase-time SECS]
//!                  [--libmcp PATH] [--rmcp PATH] [--mount]
//! ```
//! With `--mount` it compares libmcp on its own port (`echo-libmcp`) with the same server mounted
//! as one route of an axum application (`echo-libmcp-axum`) instead of libmcp with rmcp.
//! Request counts are totals per phase, shared by the sessions. By default the server binaries are
//! looked up next to this executable.

use std::path::PathBuf;

use super::report;
use super::run::{HttpPlan, HttpRunResult, HttpTarget, run_http_target};
use crate::args::Common;
use crate::driver::{EchoCounts, Mode};

struct Options {
    common: Common,
    sessions: Option<Vec<usize>>,
    idle: Option<Vec<usize>>,
    libmcp: Option<PathBuf>,
    rmcp: Option<PathBuf>,
    mount: bool,
}

fn usage() -> ! {
    eprintln!(
        "usage: mcp-bench --http [--quick] [--json] [--requests N] [--requests-large N] [--rounds R]\n\
         \x20                       [--sessions 1,32] [--idle 1000,5000] [--phase-time SECS]\n\
         \x20                       [--libmcp PATH] [--rmcp PATH] [--mount]"
    );
    std::process::exit(2)
}

fn parse(args: &[String]) -> Options {
    let mut o = Options {
        common: Common::default(),
        sessions: None,
        idle: None,
        libmcp: None,
        rmcp: None,
        mount: false,
    };
    let mut it = args.iter().cloned();
    while let Some(a) = it.next() {
        if o.common.take(&a, &mut || it.next(), usage) {
            continue;
        }
        let mut value = || it.next().unwrap_or_else(|| usage());
        let list = |v: String| -> Vec<usize> {
            v.split(',')
                .filter(|x| !x.is_empty())
                .map(|x| x.trim().parse::<usize>().unwrap_or_else(|_| usage()))
                .collect()
        };
        match a.as_str() {
            "--sessions" => o.sessions = Some(list(value())),
            "--idle" => o.idle = Some(list(value())),
            "--libmcp" => o.libmcp = Some(value().into()),
            "--rmcp" => o.rmcp = Some(value().into()),
            "--mount" => o.mount = true,
            _ => usage(),
        }
    }
    if o.sessions
        .as_ref()
        .is_some_and(|s| s.is_empty() || s.contains(&0))
    {
        usage();
    }
    o
}

fn sibling(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    exe.with_file_name(name)
}

/// Runs the HTTP benchmark with `args` (those after `--http`); returns the exit status.
pub fn main(args: &[String]) -> i32 {
    let o = parse(args);
    let small = o
        .common
        .requests
        .unwrap_or(if o.common.quick { 96 } else { 20_000 });
    let counts = EchoCounts {
        small,
        large: o.common.requests_large.unwrap_or(if o.common.quick {
            32
        } else {
            (small / 10).max(1)
        }),
        warm: if o.common.quick { 32 } else { 2_000 },
    };
    let idle = o.idle.clone().unwrap_or_else(|| {
        if o.common.quick {
            vec![50, 100]
        } else {
            vec![1_000, 5_000]
        }
    });
    let plan = HttpPlan::echo(
        counts,
        o.sessions.clone().unwrap_or_else(|| vec![1, 32]),
        o.common.phase_time(),
        o.common.verify_every(),
        idle,
    );
    let libmcp = o.libmcp.clone().unwrap_or_else(|| sibling("echo-libmcp"));
    if o.mount {
        let mounted = sibling("echo-libmcp-axum");
        return super::mount::main(&libmcp, &mounted, &plan, o.common.rounds, o.common.json);
    }
    let rmcp = o.rmcp.clone().unwrap_or_else(|| sibling("echo-rmcp"));
    let target = |label: &str, implementation: &str, mode, program: &PathBuf| HttpTarget {
        label: label.into(),
        implementation: implementation.into(),
        mode,
        program: program.clone(),
        args: Vec::new(),
    };
    let targets = [
        target("libmcp", "libmcp", Mode::Legacy, &libmcp),
        target("rmcp", "rmcp", Mode::Legacy, &rmcp),
        target("libmcp modern", "libmcp", Mode::Modern, &libmcp),
        target("rmcp modern", "rmcp", Mode::Modern, &rmcp),
    ];
    let mut per_target: Vec<Vec<HttpRunResult>> = vec![Vec::new(); targets.len()];
    let mut failures: Vec<(String, String)> = Vec::new();
    for round in 0..o.common.rounds {
        for (t, results) in targets.iter().zip(per_target.iter_mut()) {
            eprintln!(
                "mcp-bench --http: round {}/{}: {}",
                round + 1,
                o.common.rounds,
                t.label
            );
            match run_http_target(t, &plan) {
                Ok(r) => results.push(r),
                Err(e) => {
                    eprintln!("mcp-bench --http: {} failed: {e}", t.label);
                    failures.push((t.label.clone(), e.to_string()));
                }
            }
        }
    }
    let runs: Vec<HttpRunResult> = per_target
        .iter()
        .filter(|r| !r.is_empty())
        .map(|r| report::median_of_rounds(r))
        .collect();
    if o.common.json {
        let failures: Vec<_> = failures
            .iter()
            .map(|(label, reason)| serde_json::json!({ "label": label, "reason": reason }))
            .collect();
        let v =
            serde_json::json!({ "rounds": o.common.rounds, "runs": runs, "failures": failures });
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serializable")
        );
    } else {
        print!("{}", report::markdown(&runs, o.common.rounds, &failures));
    }
    // rmcp's 2026-07-28 support is reported as n/a when it fails; everything else must work.
    let fatal = failures.iter().any(|(label, _)| label != "rmcp modern");
    i32::from(fatal)
}
