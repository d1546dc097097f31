//! `mcp-bench --http --mount`: the same libmcp echo server on its own port (`serve_http`) and
//! mounted as one route of an axum application (`HttpEndpoint` nested in a `Router`), both eras,
//! the usual sessions and payloads. The ratio is mounted / own port (1.00x = no cost).

use std::fmt::Write;
use std::path::Path;

use super::report::{median_of_rounds, ratio, size};
use super::run::{HttpPlan, HttpRunResult, HttpTarget, run_http_target};
use crate::driver::Mode;

/// Runs the comparison; returns the exit status (1 when a run failed).
pub fn main(own: &Path, mounted: &Path, plan: &HttpPlan, rounds: usize, json: bool) -> i32 {
    let plan = HttpPlan {
        idle_sessions: Vec::new(),
        ..plan.clone()
    };
    let target = |label: &str, mode, program: &Path| HttpTarget {
        label: label.into(),
        implementation: "libmcp".into(),
        mode,
        program: program.to_path_buf(),
        args: Vec::new(),
    };
    let targets = [
        target("own port", Mode::Legacy, own),
        target("axum mount", Mode::Legacy, mounted),
        target("own port modern", Mode::Modern, own),
        target("axum mount modern", Mode::Modern, mounted),
    ];
    let mut per_target: Vec<Vec<HttpRunResult>> = vec![Vec::new(); targets.len()];
    let mut failed = false;
    for round in 0..rounds {
        for (t, results) in targets.iter().zip(per_target.iter_mut()) {
            eprintln!(
                "mcp-bench --http --mount: round {}/{rounds}: {}",
                round + 1,
                t.label
            );
            match run_http_target(t, &plan) {
                Ok(r) => results.push(r),
                Err(e) => {
                    eprintln!("mcp-bench --http --mount: {} failed: {e}", t.label);
                    failed = true;
                }
            }
        }
    }
    let runs: Vec<Option<HttpRunResult>> = per_target
        .iter()
        .map(|r| (!r.is_empty()).then(|| median_of_rounds(r)))
        .collect();
    if json {
        let v = serde_json::json!({ "rounds": rounds, "runs": runs });
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serializable")
        );
    } else {
        print!("{}", markdown(&runs, rounds));
    }
    i32::from(failed)
}

fn markdown(runs: &[Option<HttpRunResult>], rounds: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "### libmcp on its own port vs mounted in axum, tools/call over Streamable HTTP (median of {rounds} round(s))\n"
    );
    let _ = writeln!(
        s,
        "| era | sessions | payload | own port req/s | axum mount req/s | mount / own | own p99 µs | mount p99 µs | own peak RSS MiB | mount peak RSS MiB |"
    );
    let _ = writeln!(s, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (era, own, mounted) in [("legacy", 0, 1), ("2026-07-28", 2, 3)] {
        let (Some(a), Some(b)) = (&runs[own], &runs[mounted]) else {
            let _ = writeln!(s, "| {era} | n/a (a run failed) | | | | | | | | |");
            continue;
        };
        for (x, y) in a.phases.iter().zip(&b.phases) {
            let _ = writeln!(
                s,
                "| {era} | {} | {} | {:.0} | {:.0} | **{}** | {:.0} | {:.0} | {:.1} | {:.1} |",
                x.sessions,
                size(x.payload),
                x.throughput,
                y.throughput,
                ratio(y.throughput, x.throughput),
                x.p99_us,
                y.p99_us,
                a.peak_rss_kib as f64 / 1024.0,
                b.peak_rss_kib as f64 / 1024.0,
            );
        }
    }
    s
}
