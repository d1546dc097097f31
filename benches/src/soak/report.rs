//! The soak's report as markdown: one row per window, then per process how its resident memory,
//! descriptors and threads moved between the first and the last quarter of the run, and for a Node
//! server how its V8 heap and the rest of its memory moved (`process.memoryUsage()`).

use std::fmt::Write;

use super::js_memory::JsMemory;
use super::proc::Usage;
use super::{Report, Sample};

/// Mean of `values`.
fn mean(values: &[u64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.iter().sum::<u64>() as f64 / values.len() as f64
}

/// `first quarter mean -> last quarter mean (max)` of `f`, scaled by `scale`.
fn drift(samples: &[Sample], f: impl Fn(&Sample) -> u64, scale: f64) -> String {
    drift_where(samples, |x| Some(f(x)), scale)
}

/// [`drift`] over the samples where `f` has a value.
fn drift_where(samples: &[Sample], f: impl Fn(&Sample) -> Option<u64>, scale: f64) -> String {
    let values: Vec<u64> = samples.iter().filter_map(f).collect();
    let q = (values.len() / 4).max(1).min(values.len());
    let first = mean(&values[..q]) / scale;
    let last = mean(&values[values.len() - q..]) / scale;
    let max = values.iter().copied().max().unwrap_or(0) as f64 / scale;
    format!("{first:.1} -> {last:.1} (max {max:.1})")
}

/// The seconds at the start of a run left out of the RSS slope: the first 10 minutes (allocator
/// pools, caches and bounded stores filling up), or the first quarter of a run shorter than 40.
pub fn warm_up_s(seconds: f64) -> f64 {
    if seconds >= 2400.0 {
        600.0
    } else {
        seconds / 4.0
    }
}

/// The least-squares slope of the resident memory, MiB per hour, over the samples taken after
/// `from_s`; `None` with fewer than two of them.
pub fn rss_slope_mib_per_hour(
    samples: &[Sample],
    from_s: f64,
    of: fn(&Sample) -> Usage,
) -> Option<f64> {
    slope_mib_per_hour(samples, from_s, |x| Some(of(x).rss_kib))
}

/// The least-squares slope of `kib` (KiB), MiB per hour, over the samples taken after `from_s`
/// where it has a value; `None` with fewer than two of them.
pub fn slope_mib_per_hour(
    samples: &[Sample],
    from_s: f64,
    kib: impl Fn(&Sample) -> Option<u64>,
) -> Option<f64> {
    let points: Vec<(f64, f64)> = samples
        .iter()
        .filter(|x| x.t_s >= from_s)
        .filter_map(|x| Some((x.t_s / 3600.0, kib(x)? as f64 / 1024.0)))
        .collect();
    if points.len() < 2 {
        return None;
    }
    let n = points.len() as f64;
    let (mean_t, mean_m) = points
        .iter()
        .fold((0.0, 0.0), |(t, m), p| (t + p.0 / n, m + p.1 / n));
    let (mut cov, mut var) = (0.0, 0.0);
    for (t, m) in &points {
        cov += (t - mean_t) * (m - mean_m);
        var += (t - mean_t) * (t - mean_t);
    }
    (var > 0.0).then(|| cov / var)
}

/// One process's row; none for a process that did not run (a stdio server when no stdio lane ran).
fn process_line(s: &mut String, name: &str, r: &Report, of: fn(&Sample) -> Usage) {
    if r.samples.iter().all(|x| of(x).rss_kib == 0) {
        return;
    }
    let slope = rss_slope_mib_per_hour(&r.samples, warm_up_s(r.seconds), of)
        .map_or_else(|| "-".to_owned(), |v| format!("{v:+.2}"));
    let _ = writeln!(
        s,
        "| {name} | {} | {slope} | {} | {} |",
        drift(&r.samples, |x| of(x).rss_kib, 1024.0),
        drift(&r.samples, |x| of(x).fds, 1.0),
        drift(&r.samples, |x| of(x).threads, 1.0),
    );
}

/// What a Node server said of its memory: per process that wrote `process.memoryUsage()`, its V8
/// heap (used and reserved), `external` and everything outside the V8 heap (RSS - heapTotal: the
/// addon's native allocations, Node's own, code and stacks), each as [`drift`] and slope.
fn js_lines(s: &mut String, r: &Report) {
    type Part = fn(&JsMemory) -> u64;
    let parts: [Part; 4] = [
        |m| m.heap_used_kib,
        |m| m.heap_total_kib,
        |m| m.external_kib,
        |m| m.rss_kib.saturating_sub(m.heap_total_kib),
    ];
    type Of = fn(&Sample) -> Usage;
    let processes: [(&str, Of); 3] = [
        ("HTTP server", |x| x.http),
        ("stdio server, 2026-07-28", |x| x.stdio_modern),
        ("stdio server, 2025-11-25", |x| x.stdio_legacy),
    ];
    let mut header = false;
    for (name, of) in processes {
        if r.samples.iter().all(|x| of(x).js.is_none()) {
            continue;
        }
        if !header {
            s.push_str(
                "\nNode's own account (`process.memoryUsage()`), MiB, first quarter -> last quarter \
                 (max), and the slope in MiB/h over the same samples as the RSS slope:\n\n\
                 | process | V8 heap used | slope | V8 heap total | slope | external | slope | \
                 RSS - heap total | slope |\n|---|---|--:|---|--:|---|--:|---|--:|\n",
            );
            header = true;
        }
        let _ = write!(s, "| {name} |");
        for part in parts {
            let value = |x: &Sample| of(x).js.as_ref().map(part);
            let slope = slope_mib_per_hour(&r.samples, warm_up_s(r.seconds), value)
                .map_or_else(|| "-".to_owned(), |v| format!("{v:+.2}"));
            let _ = write!(s, " {} | {slope} |", drift_where(&r.samples, value, 1024.0));
        }
        s.push('\n');
    }
}

/// The report as markdown.
pub fn markdown(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Soak of `{}`: {:.0} s, {} client(s) per lane, {} ms pause after each operation, {} operations, {} errors.\n",
        r.server,
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
    let _ = writeln!(
        s,
        "\nFirst quarter -> last quarter of the run (mean), and the maximum; the RSS slope is the \
         least-squares fit over the samples after the first {:.0} s:\n",
        warm_up_s(r.seconds)
    );
    s.push_str("| process | RSS MiB | RSS slope MiB/h | fds | threads |\n|---|---|--:|---|---|\n");
    process_line(&mut s, "HTTP server", r, |x| x.http);
    process_line(&mut s, "stdio server, 2026-07-28", r, |x| x.stdio_modern);
    process_line(&mut s, "stdio server, 2025-11-25", r, |x| x.stdio_legacy);
    let _ = writeln!(
        s,
        "| p99 µs | {} | | | |",
        drift(&r.samples, |x| x.p99_us, 1.0)
    );
    js_lines(&mut s, r);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(t_s: f64, rss_mib: f64) -> Sample {
        let usage = Usage {
            rss_kib: (rss_mib * 1024.0) as u64,
            fds: 10,
            threads: 4,
            js: None,
        };
        Sample {
            t_s,
            ops: 1,
            errors: 0,
            p50_us: 1,
            p99_us: 1,
            http: usage,
            stdio_modern: usage,
            stdio_legacy: usage,
        }
    }

    #[test]
    fn the_slope_is_fitted_after_the_warm_up_only() {
        // 10 MiB during the warm-up, then 20 MiB rising 1 MiB per hour (one sample a minute).
        let mut samples: Vec<Sample> = (0..10).map(|m| sample(m as f64 * 60.0, 10.0)).collect();
        samples.extend((10..240).map(|m| sample(m as f64 * 60.0, 20.0 + m as f64 / 60.0)));
        let slope = rss_slope_mib_per_hour(&samples, warm_up_s(240.0 * 60.0), |x| x.http).unwrap();
        assert!((slope - 1.0).abs() < 0.01, "{slope}");
        let flat: Vec<Sample> = (0..60).map(|m| sample(m as f64 * 60.0, 30.0)).collect();
        let level = rss_slope_mib_per_hour(&flat, 0.0, |x| x.http).unwrap();
        assert!(level.abs() < 1e-9, "{level}");
        assert_eq!(rss_slope_mib_per_hour(&flat[..1], 0.0, |x| x.http), None);
    }

    #[test]
    fn a_node_server_s_heap_is_reported_beside_its_rss_and_an_idle_process_not_at_all() {
        // The HTTP server's V8 heap grows 1 MiB a minute, the rest stays; no stdio legacy server.
        let mut samples: Vec<Sample> = (0..8).map(|m| sample(m as f64 * 60.0, 50.0)).collect();
        for (i, x) in samples.iter_mut().enumerate() {
            x.http.js = Some(JsMemory {
                rss_kib: 50 * 1024,
                heap_total_kib: 20 * 1024,
                heap_used_kib: (10 + i as u64) * 1024,
                external_kib: 1024,
                array_buffers_kib: 0,
            });
            x.stdio_legacy = Usage::default();
        }
        let report = Report {
            server: "node everything_node.js".into(),
            seconds: 480.0,
            clients: 1,
            pause_ms: 50,
            samples,
            per_lane: Default::default(),
            errors: 0,
            error_messages: Vec::new(),
            http_fds_before: 10,
            http_fds_after: 10,
        };
        let md = markdown(&report);
        assert!(
            md.contains(
                "| HTTP server | 10.5 -> 16.5 (max 17.0) | +60.00 | 20.0 -> 20.0 (max 20.0) | +0.00 \
                 | 1.0 -> 1.0 (max 1.0) | +0.00 | 30.0 -> 30.0 (max 30.0) | +0.00 |\n"
            ),
            "{md}"
        );
        assert!(
            md.contains("| stdio server, 2026-07-28 | 50.0 -> 50.0"),
            "{md}"
        );
        assert!(!md.contains("stdio server, 2025-11-25"), "{md}");
        assert_eq!(md.matches("| stdio server").count(), 1, "{md}");
    }

    #[test]
    fn a_short_run_leaves_out_its_first_quarter() {
        assert_eq!(warm_up_s(600.0), 150.0);
        assert_eq!(warm_up_s(4.0 * 3600.0), 600.0);
    }
}
