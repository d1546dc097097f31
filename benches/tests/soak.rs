//! A short `mcp-soak`: every lane does work, no operation fails, every window is sampled from live
//! server processes, and the HTTP server is back to its descriptors once the clients have closed.
//! No timing is asserted.

use std::process::Command;

use libmcp_bench::soak::LANES;
use serde_json::Value;

#[test]
fn a_short_soak_fails_nothing_and_leaves_no_descriptor() {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-soak"))
        .args([
            "--seconds",
            "6",
            "--interval",
            "2",
            "--clients",
            "1",
            "--json",
        ])
        .output()
        .expect("mcp-soak runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON report ({e}); stderr: {stderr}"));
    assert_eq!(report["errors"], 0, "{:#}", report["error_messages"]);
    assert!(out.status.success(), "mcp-soak failed: {stderr}");
    let lanes = report["per_lane"].as_object().expect("per_lane");
    for lane in LANES {
        let n = lanes.get(lane).and_then(Value::as_u64).unwrap_or(0);
        assert!(n > 0, "lane {lane} did nothing: {lanes:?}");
    }
    let samples = report["samples"].as_array().expect("samples");
    assert!(samples.len() >= 2, "{samples:?}");
    for s in samples {
        for process in ["http", "stdio_modern", "stdio_legacy"] {
            let u = &s[process];
            assert!(u["rss_kib"].as_u64().unwrap() > 0, "{process}: {s}");
            assert!(u["fds"].as_u64().unwrap() >= 3, "{process}: {s}");
            assert!(u["threads"].as_u64().unwrap() >= 1, "{process}: {s}");
        }
    }
    let (before, after) = (&report["http_fds_before"], &report["http_fds_after"]);
    assert!(
        after.as_u64().unwrap() <= before.as_u64().unwrap(),
        "the HTTP server kept descriptors: {before} before, {after} after"
    );
}
