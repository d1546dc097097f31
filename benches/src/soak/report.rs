//! The soak's report as markdown: one row per window, then per process how its resident memory,
//! descriptors and threads moved between the first and the last quarter of the run.

use std::fmt::Write;

use super::proc::Usage;
use super::{Report, Sample};

/// Mean of `f` over `samples`.
fn mean(samples: &[Sample], f: impl Fn(&Sample) -> u64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples.iter().map(&f).sum::<u64>() as f64 / samples.len() as f64
}

/// `first quarter mean -> last quarter mean (max)` of `f`, scaled by `scale`.
fn drift(samples: &[Sample], f: impl Fn(&Sample) -> u64 + Copy, scale: f64) -> String {
    let q = (samples.len() / 4).max(1).min(samples.len());
    let first = mean(&samples[..q], f) / scale;
    let last = mean(&samples[samples.len() - q..], f) / scale;
    let max = samples.iter().map(f).max().unwrap_or(0) as f64 / scale;
    format!("{first:.1} -> {last:.1} (max {max:.1})")
}

fn process_line(s: &mut String, name: &str, samples: &[Sample], of: fn(&Sample) -> Usage) {
    let _ = writeln!(
        s,
        "| {name} | {} | {} | {} |",
        drift(samples, |x| of(x).rss_kib, 1024.0),
        drift(samples, |x| of(x).fds, 1.0),
        drift(samples, |x| of(x).threads, 1.0),
    );
}

/// The report as markdown.
pub fn markdown(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Soak: {:.0} s, {} client(s) per lane, {} ms pause after each operation, {} operations, {} errors.\n",
        r.seconds,
        r.clients,
        r.pause_ms,
        r.per_lane.values().sum::<u64>(),
        r.errors
    );
    s.push_str("| t s | ops | errors | p50 µs | p99 µs | HTTP RSS MiB | fds | threads | stdio modern RSS MiB | fds | stdio legacy RSS MiB | fds |\n");
    s.push_str("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for x in &r.samples {
        let mib = |k: u64| k as f64 / 1024.0;
        let _ = writeln!(
            s,
            "| {:.0} | {} | {} | {} | {} | {:.1} | {} | {} | {:.1} | {} | {:.1} | {} |",
            x.t_s,
            x.ops,
            x.errors,
            x.p50_us,
            x.p99_us,
            mib(x.http.rss_kib),
            x.http.fds,
            x.http.threads,
            mib(x.stdio_modern.rss_kib),
            x.stdio_modern.fds,
            mib(x.stdio_legacy.rss_kib),
            x.stdio_legacy.fds,
        );
    }
    s.push_str("\nFirst quarter -> last quarter of the run (mean), and the maximum:\n\n");
    s.push_str("| process | RSS MiB | fds | threads |\n|---|---|---|---|\n");
    process_line(&mut s, "HTTP server", &r.samples, |x| x.http);
    process_line(&mut s, "stdio server, 2026-07-28", &r.samples, |x| {
        x.stdio_modern
    });
    process_line(&mut s, "stdio server, 2025-11-25", &r.samples, |x| {
        x.stdio_legacy
    });
    let _ = writeln!(
        s,
        "| p99 µs | {} | | |",
        drift(&r.samples, |x| x.p99_us, 1.0)
    );
    let _ = writeln!(
        s,
        "\nHTTP server descriptors: {} before the first client, {} once every client had closed.",
        r.http_fds_before, r.http_fds_after
    );
    s.push_str("\nOperations per lane:");
    for (lane, n) in &r.per_lane {
        let _ = write!(s, " {lane} {n};");
    }
    s.push('\n');
    for m in &r.error_messages {
        let _ = writeln!(s, "error: {m}");
    }
    s
}
