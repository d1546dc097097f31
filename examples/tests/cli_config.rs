//! `mcp config`: each host's entry, checked against a schema of that host's documented format
//! (`tests/fixtures/hosts/`), with absolute paths, `--env` values, the remote form for a URL, and
//! `--write` merging into the host's file with a backup.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

const MCP: &str = env!("CARGO_BIN_EXE_mcp");
const HOSTS: [&str; 4] = ["claude-desktop", "claude-code", "cursor", "vscode"];

fn mcp_in(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut c = Command::new(MCP);
    c.args(args).current_dir(dir).stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("mcp runs")
}

fn json_of(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("one JSON document")
}

fn schema(host: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hosts")
        .join(format!("{host}.schema.json"));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn assert_valid(host: &str, doc: &Value) {
    let v = schema(host);
    let errors: Vec<String> = v.iter_errors(doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{host}: {errors:?} in {doc}");
}

/// A scratch project: `server.py` and a `data` directory, and a fake `uvx` on a PATH of its own.
fn project(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("libmcp-cli-config-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::write(dir.join("server.py"), "print()\n").unwrap();
    let uvx = dir.join("bin/uvx");
    std::fs::write(&uvx, "#!/bin/sh\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&uvx, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

#[test]
fn every_host_gets_its_documented_stdio_form_with_absolute_paths() {
    let dir = project("stdio");
    let path = format!("{}:/usr/bin:/bin", dir.join("bin").display());
    let env = [("PATH", path.as_str())];
    let args = [
        "--env",
        "API_KEY=k=1",
        "--",
        "uvx",
        "server.py",
        "--dir",
        "data",
        "-v",
        "npm-pkg",
    ];
    for host in HOSTS {
        let mut all = vec!["config", host];
        all.extend_from_slice(&args);
        let doc = json_of(&mcp_in(&dir, &env, &all));
        assert_valid(host, &doc);
        let key = if host == "vscode" {
            "servers"
        } else {
            "mcpServers"
        };
        let entry = &doc[key]["server"];
        assert_eq!(
            entry["command"],
            dir.join("bin/uvx").display().to_string(),
            "{host}"
        );
        let d = dir.display();
        assert_eq!(
            entry["args"],
            json!([
                format!("{d}/server.py"),
                "--dir",
                format!("{d}/data"),
                "-v",
                "npm-pkg"
            ]),
            "{host}"
        );
        assert_eq!(entry["env"], json!({"API_KEY": "k=1"}), "{host}");
        let typed = matches!(host, "claude-code" | "vscode");
        assert_eq!(entry.get("type").is_some(), typed, "{host}: {entry}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_url_gets_each_hosts_remote_form() {
    let dir = project("remote");
    let url = "https://mcp.example.com/mcp";
    for host in HOSTS {
        let o = mcp_in(
            &dir,
            &[],
            &[
                "config",
                host,
                "--name",
                "ex",
                "--header",
                "Authorization: Bearer t",
                url,
            ],
        );
        let doc = json_of(&o);
        assert_valid(host, &doc);
        let key = if host == "vscode" {
            "servers"
        } else {
            "mcpServers"
        };
        let entry = &doc[key]["ex"];
        match host {
            "claude-desktop" => {
                // Claude Desktop starts stdio servers only: the mcp-remote bridge reaches the URL.
                assert_eq!(
                    entry["args"],
                    json!([
                        "-y",
                        "mcp-remote",
                        url,
                        "--header",
                        "Authorization: Bearer t"
                    ])
                );
            }
            "cursor" => assert_eq!(
                *entry,
                json!({"url": url, "headers": {"Authorization": "Bearer t"}})
            ),
            _ => assert_eq!(
                *entry,
                json!({"type": "http", "url": url, "headers": {"Authorization": "Bearer t"}}),
                "{host}"
            ),
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn write_merges_into_the_hosts_file_and_keeps_a_backup() {
    let dir = project("write");
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let home_s = home.display().to_string();
    let env = [("HOME", home_s.as_str()), ("XDG_CONFIG_HOME", "")];
    // The files each host reads, relative to the project or to HOME.
    let files = [
        (
            "claude-desktop",
            home.join(".config/Claude/claude_desktop_config.json"),
        ),
        ("claude-code", dir.join(".mcp.json")),
        ("cursor", home.join(".cursor/mcp.json")),
        ("vscode", dir.join(".vscode/mcp.json")),
    ];
    for (host, file) in &files {
        let o = mcp_in(
            &dir,
            &env,
            &[
                "config",
                host,
                "--write",
                "--name",
                "one",
                "--",
                "/bin/sh",
                "server.py",
            ],
        );
        assert!(
            o.status.success(),
            "{host}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        assert_valid(host, &doc);
        assert!(!Path::new(&format!("{}.bak", file.display())).exists());
        // A second server joins the first; the previous file is kept as FILE.bak.
        let o = mcp_in(
            &dir,
            &env,
            &[
                "config",
                host,
                "--write",
                "--name",
                "two",
                "http://127.0.0.1:9/mcp",
            ],
        );
        assert!(
            o.status.success(),
            "{host}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let note = String::from_utf8_lossy(&o.stdout);
        assert!(
            note.starts_with(&format!("wrote server two to {}", file.display())),
            "{note}"
        );
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        assert_valid(host, &doc);
        let key = if *host == "vscode" {
            "servers"
        } else {
            "mcpServers"
        };
        let names: Vec<&String> = doc[key].as_object().unwrap().keys().collect();
        assert_eq!(names, ["one", "two"], "{host}");
        let backup: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{}.bak", file.display())).unwrap(),
        )
        .unwrap();
        assert_eq!(backup[key].as_object().unwrap().len(), 1, "{host}");
    }
    // Whatever else the file holds stays.
    let file = dir.join("custom.json");
    std::fs::write(&file, r#"{"theme": "dark", "mcpServers": {}}"#).unwrap();
    let o = mcp_in(
        &dir,
        &[],
        &[
            "config",
            "cursor",
            "--write",
            "--file",
            "custom.json",
            "--name",
            "x",
            "--",
            "/bin/sh",
        ],
    );
    assert!(o.status.success());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        doc,
        json!({"theme": "dark", "mcpServers": {"x": {"command": "/bin/sh", "args": []}}})
    );
    // A file that is not JSON is left alone.
    std::fs::write(&file, "{oops").unwrap();
    let o = mcp_in(
        &dir,
        &[],
        &[
            "config",
            "cursor",
            "--write",
            "--file",
            "custom.json",
            "--",
            "/bin/sh",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{oops");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_program_that_cannot_be_found_is_a_usage_error() {
    let dir = project("missing");
    let o = mcp_in(
        &dir,
        &[("PATH", "/nonexistent")],
        &["config", "cursor", "--", "no-such-server"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "mcp: no-such-server is not on PATH; give its path (hosts need an absolute command)\n"
    );
    let o = mcp_in(&dir, &[], &["config", "emacs", "--", "/bin/sh"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "mcp: unknown host emacs (known: claude-desktop, claude-code, cursor, vscode)\nhint: see 'mcp config --help'\n"
    );
    let _ = std::fs::remove_dir_all(dir);
}
