//! Runs the driver in `--quick` mode against the servers (libmcp, rmcp, the minimal loop) and checks the output is sane: every
//! request answered, no errors, every echoed text checked and equal. No timing is asserted.

use std::process::Command;

use serde_json::Value;

#[test]
fn quick_run_answers_everything_correctly() {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-bench"))
        .args(["--quick", "--json", "--extras"])
        .args(["--libmcp", env!("CARGO_BIN_EXE_echo-libmcp")])
        .args(["--rmcp", env!("CARGO_BIN_EXE_echo-rmcp")])
        .args(["--minimal", env!("CARGO_BIN_EXE_echo-minimal")])
        .output()
        .expect("mcp-bench runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "mcp-bench failed: {stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let runs = report["runs"].as_array().expect("runs");
    let labels: Vec<&str> = runs.iter().filter_map(|r| r["label"].as_str()).collect();
    for want in [
        "libmcp",
        "rmcp",
        "libmcp modern",
        "rmcp modern",
        "minimal loop",
    ] {
        assert!(
            labels.contains(&want),
            "no {want} run in {labels:?}; {stderr}"
        );
    }
    for run in runs {
        let label = run["label"].as_str().unwrap();
        assert!(run["peak_rss_kib"].as_u64().unwrap() > 0, "{label}: no RSS");
        let phases = run["phases"].as_array().unwrap();
        let combos: Vec<(u64, u64)> = phases
            .iter()
            .map(|p| {
                (
                    p["in_flight"].as_u64().unwrap(),
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
            assert!(sent > 0, "{label}: nothing sent: {p}");
            assert_eq!(p["received"], p["sent"], "{label}: lost responses: {p}");
            assert_eq!(p["errors"], 0, "{label}: errors: {p}");
            assert_eq!(
                p["verified"], p["received"],
                "{label}: quick mode checks every reply: {p}"
            );
            assert_eq!(p["mismatched"], 0, "{label}: wrong echo text: {p}");
            assert!(p["throughput"].as_f64().unwrap() > 0.0, "{label}: {p}");
            assert!(
                p["p50_us"].as_f64().unwrap() <= p["p99_us"].as_f64().unwrap(),
                "{label}: {p}"
            );
        }
    }
}

#[test]
fn markdown_report_has_both_servers_side_by_side() {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-bench"))
        .args(["--quick", "--requests", "40", "--requests-large", "4"])
        .args(["--libmcp", env!("CARGO_BIN_EXE_echo-libmcp")])
        .args(["--rmcp", env!("CARGO_BIN_EXE_echo-rmcp")])
        .args(["--minimal", env!("CARGO_BIN_EXE_echo-minimal")])
        .output()
        .expect("mcp-bench runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.contains("| libmcp req/s | rmcp req/s | ratio |"), "{md}");
    assert!(md.contains("Peak RSS (VmHWM)"), "{md}");
    assert!(md.contains("| libmcp modern | Modern |"), "{md}");
    assert!(md.contains("| minimal loop | Legacy |"), "{md}");
    assert!(
        md.contains("| throughput ≥ 0.75x the minimal loop, 32 in flight, 64 B |"),
        "{md}"
    );
    assert!(!md.contains("FAILED"), "{md}");
}
