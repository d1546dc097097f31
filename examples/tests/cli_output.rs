//! How `mcp` writes: into a closed pipe (every command ends quietly with status 141, never a panic),
//! `--version`, usage errors as JSON under `--json`, "did you mean", the answer printed before the
//! server is closed, and the server's progress and log messages on a terminal only.

use std::io::{BufRead, BufReader};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

const MCP: &str = env!("CARGO_BIN_EXE_mcp");
const SERVER: &str = env!("CARGO_BIN_EXE_everything-server");

/// Runs `mcp ARGS` with its stdout a pipe whose reader is gone before it starts; its exit status
/// and stderr.
fn into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let mut ends = [0; 2];
    // SAFETY: `ends` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(ends.as_mut_ptr()) }, 0, "pipe(2)");
    // SAFETY: pipe(2) returned these two descriptors, owned by nothing else.
    let (reader, writer) =
        unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
    drop(reader);
    let out = Command::new(MCP)
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("mcp runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_command_ends_quietly_when_stdout_is_closed() {
    let mut runs: Vec<Vec<&str>> = vec![
        vec!["--help"],
        vec!["help", "call"],
        vec!["call", "--help"],
        vec!["--version"],
        vec!["completions", "bash"],
        vec!["config", "cursor", "--", "sh"],
        vec!["--json", "frobnicate", "--", "s"],
    ];
    let with_server: [&[&str]; 9] = [
        &["info"],
        &["tools"],
        &["resources"],
        &["templates"],
        &["prompts"],
        &["call", "test_simple_text"],
        &["read", "test://static-text"],
        &["prompt", "test_simple_prompt"],
        &["call", "test_error_handling"],
    ];
    for cmd in with_server {
        let mut run = cmd.to_vec();
        run.extend(["--", SERVER]);
        runs.push(run);
    }
    for args in &runs {
        let (code, stderr) = into_closed_pipe(args);
        assert!(!stderr.contains("panicked"), "mcp {args:?}: {stderr}");
        // Whatever the command printed on stdout (a usage error under --json and a tool's error
        // result included) found it closed: that is the status.
        assert_eq!(code, Some(141), "mcp {args:?}: {stderr}");
    }
}

#[test]
fn version_names_the_package_and_the_revisions() {
    let out = Command::new(MCP).arg("--version").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        format!(
            "mcp {} (protocol revisions 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)\n",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn usage_errors_are_json_under_json_and_suggest_the_near_word() {
    let out = Command::new(MCP)
        .args(["--json", "toosl", "--", "srv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("one JSON document on stdout");
    assert_eq!(
        doc,
        serde_json::json!({"error": {
            "message": "unknown command toosl (did you mean tools?)",
            "exitCode": 2,
            "hint": "hint: see 'mcp --help'",
        }})
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "mcp: unknown command toosl (did you mean tools?)\nhint: see 'mcp --help'\n"
    );
    let out = Command::new(MCP)
        .args(["tools", "--verbos", "--", "srv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "no JSON without --json");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "mcp: unknown option --verbos (did you mean --verbose?)\nhint: see 'mcp --help'\n"
    );
    let out = Command::new(MCP).args(["help", "toosl"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("(did you mean tools?)"));
}

/// A server that answers at once but exits only when killed: it ignores the end of its stdin for
/// seconds and SIGTERM altogether, so the client's close runs through both grace periods.
fn slow_to_exit_server() -> Vec<String> {
    let script = format!("trap '' TERM; {SERVER}; sleep 30");
    vec!["sh".into(), "-c".into(), script]
}

#[test]
fn the_answer_is_printed_before_the_server_is_closed() {
    let mut args: Vec<String> = ["call", "test_simple_text", "--"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(slow_to_exit_server());
    let mut child = Command::new(MCP)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let _ = tx.send((Instant::now(), line.unwrap_or_default()));
        }
    });
    let (printed_at, line) = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the answer is printed");
    assert_eq!(line, "This is a simple text response for testing.");
    let status = child.wait().unwrap();
    let exited_at = Instant::now();
    assert!(status.success(), "{status}");
    // Closing this server takes the two shutdown steps of the child transport (stdin closed, then
    // SIGTERM, each waited out): the answer came out before them, not after.
    let gap = exited_at - printed_at;
    assert!(
        gap >= Duration::from_secs(2),
        "the answer was printed only {gap:?} before mcp exited"
    );
}

/// Runs `mcp ARGS -- everything-server` with a terminal as its stdout and stderr (`script` from
/// util-linux); what the terminal showed.
fn on_a_terminal(args: &str) -> String {
    let command = format!("{MCP} {args} -- {SERVER}");
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n")
}

#[test]
fn progress_and_log_messages_show_on_a_terminal_only() {
    for era in ["--legacy 2025-11-25", "--modern 2026-07-28"] {
        let shown = on_a_terminal(&format!("{era} call test_tool_with_progress"));
        assert!(shown.contains("mcp: progress 0/100"), "{era}: {shown}");
        assert!(shown.contains("mcp: progress 100/100"), "{era}: {shown}");
        let logs = on_a_terminal(&format!("{era} call test_tool_with_logging"));
        assert!(logs.contains("mcp: [info] "), "{era}: {logs}");
        let quiet = on_a_terminal(&format!("{era} -q call test_tool_with_progress"));
        assert!(!quiet.contains("mcp: progress"), "{era}: {quiet}");
    }
    let piped = Command::new(MCP)
        .args(["call", "test_tool_with_progress", "--", SERVER])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(piped.status.success());
    assert!(!String::from_utf8_lossy(&piped.stderr).contains("mcp: progress"));
}
