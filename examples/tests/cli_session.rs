//! The `mcp` binary as a user meets it: roots only when asked (percent-encoded), `--env`, `--cwd`,
//! `--timeout`, `--verbose` wire tracing, start-up failures, the legacy-only hint for `--modern`,
//! `--json` errors, usage errors, per-command help and shell completions.

use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

const MCP: &str = env!("CARGO_BIN_EXE_mcp");
const SERVER: &str = env!("CARGO_BIN_EXE_everything-server");
const LEGACY: [&str; 2] = ["--legacy", "2025-11-25"];
const MODERN: [&str; 2] = ["--modern", "2026-07-28"];

fn mcp(args: &[&str]) -> Output {
    Command::new(MCP)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("mcp runs")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn with(front: &[&str], args: &[&str], server: &[&str]) -> Output {
    let mut all: Vec<&str> = front.to_vec();
    all.extend_from_slice(args);
    all.push("--");
    all.extend_from_slice(server);
    mcp(&all)
}

#[test]
fn roots_are_offered_only_when_asked_and_percent_encoded() {
    let dir = std::env::temp_dir().join(format!("libmcp-cli-{}", std::process::id()));
    let odd = dir.join("dir with space#1%");
    std::fs::create_dir_all(&odd).unwrap();
    let odd_s = odd.display().to_string();
    let uri = format!(
        "file://{}/dir%20with%20space%231%25",
        dir.display().to_string().replace(' ', "%20")
    );
    for era in [LEGACY, MODERN] {
        let o = with(
            &era,
            &[
                "--root",
                &odd_s,
                "call",
                "test_input_required_result_list_roots",
            ],
            &[SERVER],
        );
        assert_eq!(
            out(&o),
            format!("Client roots: {uri} (dir with space#1%)\n"),
            "{era:?}: {}",
            err(&o)
        );
        // No --root: no roots capability, and the server says so in the error its era prescribes.
        let o = with(
            &era,
            &["--json", "call", "test_input_required_result_list_roots"],
            &[SERVER],
        );
        assert_eq!(o.status.code(), Some(1), "{era:?}");
        let v: Value = serde_json::from_str(&out(&o)).unwrap();
        let code = if era == LEGACY { -32602 } else { -32021 };
        assert_eq!(v["error"]["code"], code, "{era:?}: {v}");
        assert_eq!(
            v["error"]["data"]["requiredCapabilities"],
            json!({"roots": {}}),
            "{era:?}"
        );
    }
    let o = with(&LEGACY, &["--root", "/no/such/dir", "tools"], &[SERVER]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(err(&o), "mcp: --root /no/such/dir: no such directory\n");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn env_cwd_and_verbose_reach_the_server_and_stderr() {
    let script = format!("echo \"FOO=$FOO in $(pwd)\" >&2; exec {SERVER}");
    let o = with(
        &LEGACY,
        &[
            "--verbose",
            "--env",
            "FOO=bar baz",
            "--cwd",
            "/tmp",
            "tools",
        ],
        &["sh", "-c", &script],
    );
    assert!(o.status.success(), "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("[server] FOO=bar baz in /tmp\n"), "{e}");
    // Every message, both ways, one per line.
    let sent: Vec<Value> = e
        .lines()
        .filter_map(|l| l.strip_prefix("mcp: --> "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let received: Vec<Value> = e
        .lines()
        .filter_map(|l| l.strip_prefix("mcp: <-- "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let methods: Vec<&str> = sent.iter().filter_map(|m| m["method"].as_str()).collect();
    assert_eq!(
        methods,
        ["initialize", "notifications/initialized", "tools/list"]
    );
    assert_eq!(received.len(), 2, "{e}");
    assert_eq!(received[0]["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(
        received[1]["result"]["tools"][0]["name"],
        "test_simple_text"
    );
    // Without --verbose the server's stderr and the wire stay quiet.
    let o = with(
        &LEGACY,
        &["--env", "FOO=1", "tools"],
        &["sh", "-c", &script],
    );
    assert_eq!(err(&o), "");
}

#[test]
fn a_server_dying_at_start_up_shows_its_exit_status_and_stderr() {
    let o = with(
        &[],
        &["tools"],
        &[
            "sh",
            "-c",
            "echo 'loading config' >&2; echo 'no API key set' >&2; exit 3",
        ],
    );
    assert_eq!(o.status.code(), Some(3));
    let e = err(&o);
    assert!(e.starts_with("mcp: cannot connect to server sh: "), "{e}");
    assert!(
        e.ends_with("\nthe server exited (exit status 3); its last lines on stderr:\n  loading config\n  no API key set\n"),
        "{e}"
    );
    let o = mcp(&["--json", "info", "--", "/nonexistent/server"]);
    assert_eq!(o.status.code(), Some(3));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["error"]["exitCode"], 3);
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot start /nonexistent/server"),
        "{v}"
    );
}

/// A legacy-only stand-in: answers `server/discover` (its first message) with -32601, then reads on.
const LEGACY_ONLY: &str = r#"read line; id=$(echo "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}"; cat > /dev/null"#;

#[test]
fn modern_against_a_legacy_only_server_suggests_legacy() {
    let o = with(&MODERN, &["tools"], &["sh", "-c", LEGACY_ONLY]);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(
        err(&o),
        "mcp: cannot connect to server sh: peer error: Method not found (code -32601)\n\
         hint: the server may speak only the legacy era (initialize handshake): try --legacy 2025-11-25, or leave out --modern to let mcp find out\n"
    );
}

#[test]
fn a_silent_server_times_out_after_the_given_time() {
    let o = with(
        &LEGACY,
        &["--timeout", "0.3", "tools"],
        &["sh", "-c", "cat > /dev/null"],
    );
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(
        err(&o),
        "mcp: cannot connect to server sh: request timed out after 300ms\n"
    );
}

#[test]
fn tools_info_and_complete_show_what_the_server_sent() {
    let o = with(&LEGACY, &["info"], &[SERVER]);
    let text = out(&o);
    // A legacy server lists no versions: the line is left out.
    assert!(!text.contains("Supported versions"), "{text}");
    assert!(
        text.starts_with("Server:             libmcp-everything-server 0.1.0"),
        "{text}"
    );
    let o = with(&MODERN, &["--json", "info"], &[SERVER]);
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["supportedVersions"], json!(["2026-07-28"]));
    let o = with(&LEGACY, &["--json", "info"], &[SERVER]);
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert!(v.get("supportedVersions").is_none(), "{v}");
    for era in [LEGACY, MODERN] {
        let o = with(
            &era,
            &["complete", "test_prompt_with_arguments", "arg1", "zz"],
            &[SERVER],
        );
        assert_eq!(out(&o), "(no completions)\n", "{era:?}");
        let o = with(
            &era,
            &[
                "complete",
                "test://template/{id}/data",
                "id",
                "",
                "--arg",
                "x=1",
            ],
            &[SERVER],
        );
        assert!(o.status.success(), "{era:?}: {}", err(&o));
    }
}

#[test]
fn usage_errors_are_one_line_and_a_hint() {
    let o = mcp(&["call", "--", SERVER]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        err(&o),
        "mcp: call needs a tool name\nhint: see 'mcp call --help'\n"
    );
    let o = mcp(&["--frob", "tools", "--", SERVER]);
    assert_eq!(
        err(&o),
        "mcp: unknown option --frob\nhint: see 'mcp --help'\n"
    );
    let o = mcp(&["tools"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(err(&o).lines().count(), 2, "{}", err(&o));
}

#[test]
fn every_command_has_a_help_page() {
    for c in [
        "info",
        "tools",
        "call",
        "resources",
        "read",
        "templates",
        "prompts",
        "prompt",
        "complete",
        "config",
        "completions",
    ] {
        let o = mcp(&[c, "--help"]);
        assert!(o.status.success(), "{c}");
        let page = out(&o);
        assert!(page.starts_with(&format!("NAME\n    mcp {c} - ")), "{page}");
        assert_eq!(out(&mcp(&["help", c])), page);
    }
    assert!(out(&mcp(&["--help"])).starts_with("Usage: mcp [OPTIONS]"));
}

#[test]
fn version_is_the_workspace_version() {
    let o = mcp(&["--version"]);
    assert!(o.status.success());
    assert_eq!(out(&o), format!("mcp {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn completion_scripts_parse_in_their_shell() {
    for (shell, check) in [
        ("bash", ["bash", "-n"]),
        ("zsh", ["zsh", "-n"]),
        ("fish", ["fish", "-n"]),
    ] {
        let o = mcp(&["completions", shell]);
        assert!(o.status.success(), "{shell}");
        let script = out(&o);
        assert!(
            script.contains("config") && script.contains("claude-desktop"),
            "{shell}"
        );
        assert!(script.contains("timeout"), "{shell}");
        // Checked by the shell itself where it is installed (bash always is).
        let file =
            std::env::temp_dir().join(format!("mcp-completion-{}.{shell}", std::process::id()));
        std::fs::write(&file, &script).unwrap();
        match Command::new(check[0]).arg(check[1]).arg(&file).output() {
            Ok(r) => assert!(
                r.status.success(),
                "{shell}: {}",
                String::from_utf8_lossy(&r.stderr)
            ),
            Err(_) => assert_ne!(shell, "bash", "bash must be installed"),
        }
        let _ = std::fs::remove_file(file);
    }
}
