//! Markdown report of the HTTP benchmark: libmcp and rmcp side by side per era, idle-session
//! memory, the targets of the issue, and every run.

use std::fmt::Write;

use super::run::{HttpPhaseResult, HttpRunResult, IdleMemory};
use crate::driver::Mode;

/// The idle-session memory target, bytes per session.
pub const IDLE_TARGET_BYTES: f64 = 16.0 * 1024.0;

/// Combines rounds of one target: per phase the round with the median throughput, per idle count
/// the median bytes per session; peak RSS is the largest seen.
pub fn median_of_rounds(rounds: &[HttpRunResult]) -> HttpRunResult {
    let mut out = rounds[0].clone();
    out.peak_rss_kib = rounds.iter().map(|r| r.peak_rss_kib).max().unwrap_or(0);
    out.rss_start_kib = rounds.iter().map(|r| r.rss_start_kib).max().unwrap_or(0);
    for (i, slot) in out.phases.iter_mut().enumerate() {
        let mut c: Vec<&HttpPhaseResult> = rounds.iter().filter_map(|r| r.phases.get(i)).collect();
        c.sort_by(|a, b| a.throughput.total_cmp(&b.throughput));
        *slot = c[c.len() / 2].clone();
    }
    for (i, slot) in out.idle.iter_mut().enumerate() {
        let mut c: Vec<&IdleMemory> = rounds.iter().filter_map(|r| r.idle.get(i)).collect();
        c.sort_by(|a, b| a.bytes_per_session.total_cmp(&b.bytes_per_session));
        *slot = c[c.len() / 2].clone();
    }
    out
}

fn find<'a>(
    runs: &'a [HttpRunResult],
    implementation: &str,
    mode: Mode,
) -> Option<&'a HttpRunResult> {
    runs.iter()
        .find(|r| r.implementation == implementation && r.mode == mode)
}

pub(crate) fn size(bytes: usize) -> String {
    if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} B")
    }
}

pub(crate) fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 && a.is_finite() && b.is_finite() {
        format!("{:.2}x", a / b)
    } else {
        "n/a".into()
    }
}

fn era_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Legacy => "legacy era: initialize + Mcp-Session-Id, 2025-11-25",
        Mode::Modern => "modern era: stateless POST with _meta and Mcp-* headers, 2026-07-28",
    }
}

/// What kind of bodies a phase's responses came in.
fn bodies(p: &HttpPhaseResult) -> &'static str {
    match (p.json_bodies > 0, p.sse_bodies > 0) {
        (true, false) => "JSON",
        (false, true) => "SSE",
        (true, true) => "JSON+SSE",
        (false, false) => "-",
    }
}

/// The whole report as markdown. `missing` explains targets that did not run (label, reason).
pub fn markdown(runs: &[HttpRunResult], rounds: usize, missing: &[(String, String)]) -> String {
    let mut s = String::new();
    for mode in [Mode::Legacy, Mode::Modern] {
        side_by_side(&mut s, runs, mode, rounds, missing);
    }
    idle(&mut s, runs);
    targets(&mut s, runs);
    let _ = writeln!(s, "\n### All HTTP runs\n");
    let _ = writeln!(
        s,
        "| run | era | sessions | payload | req/s | p50 µs | p99 µs | max µs | server CPU µs/req | driver CPU µs/req | received/sent | errors | verified (bad) | bodies | peak RSS |"
    );
    let _ = writeln!(
        s,
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|"
    );
    for r in runs {
        for p in &r.phases {
            let _ = writeln!(
                s,
                "| {} | {:?} | {} | {} | {:.0} | {:.0} | {:.0} | {:.0} | {:.1} | {:.1} | {}/{} | {} | {} ({}) | {} | {:.1} MiB |",
                r.label,
                r.mode,
                p.sessions,
                size(p.payload),
                p.throughput,
                p.p50_us,
                p.p99_us,
                p.max_us,
                p.server_cpu_us_per_req,
                p.driver_cpu_us_per_req,
                p.received,
                p.sent,
                p.errors,
                p.verified,
                p.mismatched,
                bodies(p),
                r.peak_rss_kib as f64 / 1024.0,
            );
        }
    }
    for (label, reason) in missing {
        let _ = writeln!(s, "\nNOT RUN: {label}: {reason}");
    }
    s
}

fn side_by_side(
    s: &mut String,
    runs: &[HttpRunResult],
    mode: Mode,
    rounds: usize,
    missing: &[(String, String)],
) {
    let Some(lib) = find(runs, "libmcp", mode) else {
        return;
    };
    let rm = find(runs, "rmcp", mode);
    let _ = writeln!(
        s,
        "### libmcp vs rmcp, tools/call over Streamable HTTP ({}; median of {rounds} round(s))\n",
        era_name(mode)
    );
    let _ = writeln!(
        s,
        "| sessions | payload | libmcp req/s | rmcp req/s | ratio | libmcp p50 µs | rmcp p50 µs | libmcp p99 µs | rmcp p99 µs | libmcp CPU µs/req | rmcp CPU µs/req | bodies libmcp / rmcp |"
    );
    let _ = writeln!(s, "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|");
    let na = || "n/a".to_string();
    for (i, a) in lib.phases.iter().enumerate() {
        let b = rm.and_then(|r| r.phases.get(i));
        let _ = writeln!(
            s,
            "| {} | {} | {:.0} | {} | **{}** | {:.0} | {} | {:.0} | {} | {:.1} | {} | {} / {} |",
            a.sessions,
            size(a.payload),
            a.throughput,
            b.map_or_else(na, |b| format!("{:.0}", b.throughput)),
            b.map_or_else(na, |b| ratio(a.throughput, b.throughput)),
            a.p50_us,
            b.map_or_else(na, |b| format!("{:.0}", b.p50_us)),
            a.p99_us,
            b.map_or_else(na, |b| format!("{:.0}", b.p99_us)),
            a.server_cpu_us_per_req,
            b.map_or_else(na, |b| format!("{:.1}", b.server_cpu_us_per_req)),
            bodies(a),
            b.map_or("n/a", bodies),
        );
    }
    if rm.is_none() {
        let why = missing
            .iter()
            .find(|(label, _)| {
                label.starts_with("rmcp") && (mode == Mode::Modern) == label.contains("modern")
            })
            .map_or("not run", |(_, reason)| reason.as_str());
        let _ = writeln!(s, "\nrmcp: n/a ({why}).");
    }
    let _ = writeln!(s);
}

fn idle(s: &mut String, runs: &[HttpRunResult]) {
    let lib = find(runs, "libmcp", Mode::Legacy).filter(|r| !r.idle.is_empty());
    let Some(lib) = lib else { return };
    let rm = find(runs, "rmcp", Mode::Legacy);
    let _ = writeln!(
        s,
        "### Memory per idle legacy session (initialize + initialized, no GET stream)\n"
    );
    let _ = writeln!(
        s,
        "| idle sessions | libmcp RSS growth | libmcp per session | rmcp RSS growth | rmcp per session | ratio |"
    );
    let _ = writeln!(s, "|--:|--:|--:|--:|--:|--:|");
    for (i, a) in lib.idle.iter().enumerate() {
        let b = rm.and_then(|r| r.idle.get(i));
        let _ = writeln!(
            s,
            "| {} | {:.1} MiB | {:.1} KiB | {} | {} | {} |",
            a.sessions,
            a.rss_growth_kib as f64 / 1024.0,
            a.bytes_per_session / 1024.0,
            b.map_or("n/a".into(), |b| format!(
                "{:.1} MiB",
                b.rss_growth_kib as f64 / 1024.0
            )),
            b.map_or("n/a".into(), |b| format!(
                "{:.1} KiB",
                b.bytes_per_session / 1024.0
            )),
            b.map_or("n/a".into(), |b| ratio(
                a.bytes_per_session,
                b.bytes_per_session
            )),
        );
    }
    let _ = writeln!(s);
}

fn targets(s: &mut String, runs: &[HttpRunResult]) {
    let _ = writeln!(s, "### HTTP targets (reported, not asserted)\n");
    let _ = writeln!(s, "| target | era | measured | met |");
    let _ = writeln!(s, "|---|---|--:|:-:|");
    let yes = |ok: bool| if ok { "yes" } else { "no" };
    for mode in [Mode::Legacy, Mode::Modern] {
        let (Some(lib), Some(rm)) = (find(runs, "libmcp", mode), find(runs, "rmcp", mode)) else {
            continue;
        };
        let era = format!("{mode:?}");
        for (a, b) in lib.phases.iter().zip(&rm.phases) {
            let want = if a.sessions >= 32 { 2.0 } else { 1.0 };
            let r = a.throughput / b.throughput;
            let _ = writeln!(
                s,
                "| throughput ≥ {want}x rmcp, {} session(s), {} | {era} | {r:.2}x | {} |",
                a.sessions,
                size(a.payload),
                yes(r >= want)
            );
        }
        for (a, b) in lib.phases.iter().zip(&rm.phases) {
            let _ = writeln!(
                s,
                "| p99 ≤ rmcp's, {} session(s), {} | {era} | {:.0} / {:.0} µs | {} |",
                a.sessions,
                size(a.payload),
                a.p99_us,
                b.p99_us,
                yes(a.p99_us <= b.p99_us)
            );
        }
    }
    if let Some(m) = find(runs, "libmcp", Mode::Legacy).and_then(|r| r.idle.last()) {
        let _ = writeln!(
            s,
            "| idle legacy session < 16 KiB ({} sessions) | Legacy | {:.1} KiB | {} |",
            m.sessions,
            m.bytes_per_session / 1024.0,
            yes(m.bytes_per_session < IDLE_TARGET_BYTES)
        );
    }
}
