//! Markdown report: libmcp and rmcp side by side, the ratios against the targets, and every run.

use std::fmt::Write;

use crate::driver::{Mode, PhaseResult, RunResult};

/// Combines rounds of the same target: per phase, the round with the median throughput; peak RSS is
/// the largest seen.
pub fn median_of_rounds(rounds: &[RunResult]) -> RunResult {
    let mut out = rounds[0].clone();
    out.peak_rss_kib = rounds.iter().map(|r| r.peak_rss_kib).max().unwrap_or(0);
    out.rss_start_kib = rounds.iter().map(|r| r.rss_start_kib).max().unwrap_or(0);
    for (i, slot) in out.phases.iter_mut().enumerate() {
        let mut candidates: Vec<&PhaseResult> = rounds.iter().map(|r| &r.phases[i]).collect();
        candidates.sort_by(|a, b| a.throughput.total_cmp(&b.throughput));
        *slot = candidates[candidates.len() / 2].clone();
    }
    out
}

fn find<'a>(runs: &'a [RunResult], implementation: &str, mode: Mode) -> Option<&'a RunResult> {
    runs.iter()
        .find(|r| r.implementation == implementation && r.mode == mode)
}

/// `64 B`, `64 KiB`.
pub fn size(bytes: usize) -> String {
    if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} B")
    }
}

fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 && a.is_finite() && b.is_finite() {
        format!("{:.2}x", a / b)
    } else {
        "n/a".into()
    }
}

/// The whole report as markdown.
pub fn markdown(runs: &[RunResult], rounds: usize) -> String {
    let mut s = String::new();
    let lib = find(runs, "libmcp", Mode::Legacy);
    let rm = find(runs, "rmcp", Mode::Legacy);
    if let (Some(lib), Some(rm)) = (lib, rm) {
        side_by_side(&mut s, lib, rm, rounds);
        targets(&mut s, lib, rm, find(runs, "minimal", Mode::Legacy));
    }
    let _ = writeln!(s, "\n### All runs\n");
    let _ = writeln!(
        s,
        "| run | era | in flight | payload | req/s | p50 µs | p99 µs | max µs | server CPU µs/req | received/sent | errors | verified (bad) | peak RSS |"
    );
    let _ = writeln!(s, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for r in runs {
        for p in &r.phases {
            let _ = writeln!(
                s,
                "| {} | {:?} | {} | {} | {:.0} | {:.0} | {:.0} | {:.0} | {:.1} | {}/{} | {} | {} ({}) | {:.1} MiB |",
                r.label,
                r.mode,
                p.in_flight,
                size(p.payload),
                p.throughput,
                p.p50_us,
                p.p99_us,
                p.max_us,
                p.server_cpu_us_per_req,
                p.received,
                p.sent,
                p.errors,
                p.verified,
                p.mismatched,
                r.peak_rss_kib as f64 / 1024.0,
            );
        }
    }
    s
}

fn side_by_side(s: &mut String, lib: &RunResult, rm: &RunResult, rounds: usize) {
    let _ = writeln!(
        s,
        "### libmcp vs rmcp, tools/call over stdio (legacy handshake; median of {rounds} round(s))\n"
    );
    let _ = writeln!(
        s,
        "| in flight | payload | libmcp req/s | rmcp req/s | ratio | libmcp p50 µs | rmcp p50 µs | libmcp p99 µs | rmcp p99 µs | libmcp CPU µs/req | rmcp CPU µs/req |"
    );
    let _ = writeln!(s, "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (a, b) in lib.phases.iter().zip(&rm.phases) {
        let _ = writeln!(
            s,
            "| {} | {} | {:.0} | {:.0} | **{}** | {:.0} | {:.0} | {:.0} | {:.0} | {:.1} | {:.1} |",
            a.in_flight,
            size(a.payload),
            a.throughput,
            b.throughput,
            ratio(a.throughput, b.throughput),
            a.p50_us,
            b.p50_us,
            a.p99_us,
            b.p99_us,
            a.server_cpu_us_per_req,
            b.server_cpu_us_per_req,
        );
    }
    let _ = writeln!(
        s,
        "\nPeak RSS (VmHWM): libmcp {:.1} MiB, rmcp {:.1} MiB ({}); after handshake: libmcp {:.1} MiB, rmcp {:.1} MiB.",
        lib.peak_rss_kib as f64 / 1024.0,
        rm.peak_rss_kib as f64 / 1024.0,
        ratio(lib.peak_rss_kib as f64, rm.peak_rss_kib as f64),
        lib.rss_start_kib as f64 / 1024.0,
        rm.rss_start_kib as f64 / 1024.0,
    );
}

fn targets(s: &mut String, lib: &RunResult, rm: &RunResult, floor: Option<&RunResult>) {
    let _ = writeln!(s, "\n### Targets (reported, not asserted)\n");
    let _ = writeln!(s, "| target | measured | met |");
    let _ = writeln!(s, "|---|--:|:-:|");
    if let Some(floor) = floor {
        for (a, b) in lib.phases.iter().zip(&floor.phases) {
            if a.in_flight == 32 && a.payload < 1024 {
                let r = a.throughput / b.throughput;
                let _ = writeln!(
                    s,
                    "| throughput ≥ 0.75x the minimal loop, 32 in flight, {} | {:.2}x | {} |",
                    size(a.payload),
                    r,
                    if r >= 0.75 { "yes" } else { "no" }
                );
            }
        }
    }
    for (in_flight, want) in [(32, 2.0), (1, 1.0)] {
        for (a, b) in lib.phases.iter().zip(&rm.phases) {
            if a.in_flight != in_flight {
                continue;
            }
            let r = a.throughput / b.throughput;
            let _ = writeln!(
                s,
                "| throughput ≥ {want}x rmcp, {in_flight} in flight, {} | {:.2}x | {} |",
                size(a.payload),
                r,
                if r >= want { "yes" } else { "no" }
            );
        }
    }
    let r = lib.peak_rss_kib as f64 / rm.peak_rss_kib as f64;
    let _ = writeln!(
        s,
        "| peak RSS ≤ rmcp | {:.2}x | {} |",
        r,
        if r <= 1.0 { "yes" } else { "no" }
    );
}
