//! Runs `mcp-bench --http --quick` against both echo servers in both eras and checks the report:
//! every call answered and its echoed text checked and equal, the expected body types, idle-session
//! memory measured for the legacy era. No timing is asserted.

use std::process::Command;

use serde_json::Value;

fn mcp_bench(extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-bench"))
        .arg("--http")
        .args(extra)
        .args(["--libmcp", env!("CARGO_BIN_EXE_echo-libmcp")])
        .args(["--rmcp", env!("CARGO_BIN_EXE_echo-rmcp")])
        .output()
        .expect("mcp-bench runs")
}

#[test]
fn quick_http_run_answers_every_call_correctly_in_both_eras() {
    let out = mcp_bench(&["--quick", "--json", "--idle", "20,40"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "mcp-bench --http failed: {stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["failures"], serde_json::json!([]), "{stderr}");
    let runs = report["runs"].as_array().expect("runs");
    let labels: Vec<&str> = runs.iter().filter_map(|r| r["label"].as_str()).collect();
    assert_eq!(
        labels,
        ["libmcp", "rmcp", "libmcp modern", "rmcp modern"],
        "{stderr}"
    );
    for run in runs {
        let label = run["label"].as_str().unwrap();
        let legacy = run["mode"] == "legacy";
        assert!(run["peak_rss_kib"].as_u64().unwrap() > 0, "{label}: no RSS");
        let phases = run["phases"].as_array().unwrap();
        let combos: Vec<(u64, u64)> = phases
            .iter()
            .map(|p| {
                (
                    p["sessions"].as_u64().unwrap(),
                    p["payload"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            combos,
            [(1, 64), (1, 65536), (32, 64), (32, 65536)],
            "{label}"
        );
        for p in phases {
            let sent = p["sent"].as_u64().unwrap();
            assert!(
                sent >= 32,
                "{label}: every session calls at least once: {p}"
            );
            assert_eq!(p["received"], p["sent"], "{label}: lost responses: {p}");
            assert_eq!(p["errors"], 0, "{label}: errors: {p}");
            assert_eq!(
                p["verified"], p["received"],
                "{label}: quick mode checks all: {p}"
            );
            assert_eq!(p["mismatched"], 0, "{label}: wrong echo text: {p}");
            assert!(p["throughput"].as_f64().unwrap() > 0.0, "{label}: {p}");
            assert!(p["driver_cpu_us_per_req"].is_number(), "{label}: {p}");
            assert!(
                p["p50_us"].as_f64().unwrap() <= p["p99_us"].as_f64().unwrap(),
                "{label}: {p}"
            );
            // libmcp answers a synchronous tool with JSON in both eras; rmcp answers session
            // requests with SSE (the driver parses both) and stateless ones with JSON.
            let (json, sse) = if label == "rmcp" {
                (0, sent)
            } else {
                (sent, 0)
            };
            assert_eq!(p["json_bodies"], json, "{label}: {p}");
            assert_eq!(p["sse_bodies"], sse, "{label}: {p}");
        }
        let idle = run["idle"].as_array().unwrap();
        if legacy {
            let counts: Vec<u64> = idle
                .iter()
                .map(|m| m["sessions"].as_u64().unwrap())
                .collect();
            assert_eq!(counts, [20, 40], "{label}: {idle:?}");
            for m in idle {
                let kib = m["rss_growth_kib"].as_u64().unwrap() as f64;
                let per = m["bytes_per_session"].as_f64().unwrap();
                assert_eq!(per, kib * 1024.0 / m["sessions"].as_f64().unwrap(), "{m}");
            }
        } else {
            assert!(idle.is_empty(), "{label}: stateless, no idle sessions");
        }
    }
}

#[test]
fn http_markdown_report_has_both_eras_memory_and_targets() {
    let out = mcp_bench(&[
        "--sessions",
        "2",
        "--requests",
        "8",
        "--requests-large",
        "2",
        "--idle",
        "10",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(
        md.contains("(legacy era: initialize + Mcp-Session-Id"),
        "{md}"
    );
    assert!(md.contains("(modern era: stateless POST"), "{md}");
    assert!(md.contains("| 2 | 64 B |"), "{md}");
    assert!(md.contains("| 10 | "), "{md}");
    assert!(
        md.contains("idle legacy session < 16 KiB (10 sessions)"),
        "{md}"
    );
    assert!(md.contains("| rmcp modern | Modern | 2 | 64 KiB |"), "{md}");
    assert!(!md.contains("NOT RUN"), "{md}");
}
