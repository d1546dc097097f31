//! `mcp config`: each host's entry, checked against a schema of that host's documented format
//! (`tests/fixtures/hosts/`) after being read back by a parser of the host's file format (JSON with
//! comments, TOML), with absolute paths, `--env` values, the remote form for a URL, and `--write`
//! merging into the host's file in place (comments, order and formatting kept) with a backup.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

const MCP: &str = env!("CARGO_BIN_EXE_mcp");
const HOSTS: [&str; 10] = [
    "claude-desktop",
    "claude-code",
    "cursor",
    "vscode",
    "windsurf",
    "gemini-cli",
    "zed",
    "codex",
    "cline",
    "agent-plugin",
];

/// The key holding the servers in the host's file.
fn servers_key(host: &str) -> &'static str {
    match host {
        "vscode" => "servers",
        "zed" => "context_servers",
        "codex" => "mcp_servers",
        _ => "mcpServers",
    }
}

/// A host file's text read by an independent parser of its format: TOML for Codex, JSON with
/// comments and trailing commas for the others.
fn parse_as(host: &str, text: &str) -> Value {
    if host == "codex" {
        let table: toml::Table = text.parse().expect("TOML");
        serde_json::to_value(table).unwrap()
    } else {
        let options = jsonc_parser::ParseOptions::default();
        jsonc_parser::parse_to_serde_value::<Value>(text, &options).expect("JSON with comments")
    }
}

fn mcp_in(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut c = Command::new(MCP);
    c.args(args).current_dir(dir).stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("mcp runs")
}

/// What `mcp config HOST` printed, read as the host's file format.
fn printed(host: &str, o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    parse_as(host, &String::from_utf8_lossy(&o.stdout))
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
        let doc = printed(host, &mcp_in(&dir, &env, &all));
        assert_valid(host, &doc);
        let entry = &doc[servers_key(host)]["server"];
        // A plugin runs on other machines: its command stays as given.
        let command = if host == "agent-plugin" {
            "uvx".to_string()
        } else {
            dir.join("bin/uvx").display().to_string()
        };
        assert_eq!(entry["command"], command, "{host}");
        let d = dir.display();
        let args = if host == "agent-plugin" {
            json!(["server.py", "--dir", "data", "-v", "npm-pkg"])
        } else {
            json!([
                format!("{d}/server.py"),
                "--dir",
                format!("{d}/data"),
                "-v",
                "npm-pkg"
            ])
        };
        assert_eq!(entry["args"], args, "{host}");
        assert_eq!(entry["env"], json!({"API_KEY": "k=1"}), "{host}");
        let typed = matches!(host, "claude-code" | "vscode" | "agent-plugin");
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
        let doc = printed(host, &o);
        assert_valid(host, &doc);
        let entry = &doc[servers_key(host)]["ex"];
        let auth = json!({"Authorization": "Bearer t"});
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
            "cursor" | "zed" => assert_eq!(*entry, json!({"url": url, "headers": auth})),
            "windsurf" => assert_eq!(*entry, json!({"serverUrl": url, "headers": auth})),
            "gemini-cli" => assert_eq!(*entry, json!({"httpUrl": url, "headers": auth})),
            "codex" => assert_eq!(*entry, json!({"url": url, "http_headers": auth})),
            "cline" => assert_eq!(
                *entry,
                json!({"type": "streamableHttp", "url": url, "headers": auth, "disabled": false})
            ),
            "agent-plugin" => assert_eq!(
                *entry,
                json!({"type": "streamable-http", "url": url, "headers": auth})
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
    let env = [
        ("HOME", home_s.as_str()),
        ("XDG_CONFIG_HOME", ""),
        ("CODEX_HOME", ""),
    ];
    // The files each host reads by default, relative to the project or to HOME.
    let files = [
        (
            "claude-desktop",
            home.join(".config/Claude/claude_desktop_config.json"),
        ),
        ("claude-code", dir.join(".mcp.json")),
        ("cursor", home.join(".cursor/mcp.json")),
        ("vscode", dir.join(".vscode/mcp.json")),
        ("windsurf", home.join(".codeium/windsurf/mcp_config.json")),
        ("gemini-cli", home.join(".gemini/settings.json")),
        ("zed", home.join(".config/zed/settings.json")),
        ("codex", home.join(".codex/config.toml")),
        (
            "cline",
            home.join(".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"),
        ),
        ("agent-plugin", dir.join("mcp.json")),
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
        let doc = parse_as(host, &std::fs::read_to_string(file).unwrap());
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
        let text = std::fs::read_to_string(file).unwrap();
        let doc = parse_as(host, &text);
        assert_valid(host, &doc);
        let key = servers_key(host);
        let names: Vec<&String> = doc[key].as_object().unwrap().keys().collect();
        assert_eq!(names, ["one", "two"], "{host}");
        assert!(
            text.find("one").unwrap() < text.find("two").unwrap(),
            "{host}: {text}"
        );
        let backup = parse_as(
            host,
            &std::fs::read_to_string(format!("{}.bak", file.display())).unwrap(),
        );
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
        "mcp: unknown host emacs (known: claude-desktop, claude-code, cursor, vscode, windsurf, gemini-cli, zed, codex, cline, agent-plugin)\nhint: see 'mcp config --help'\n"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn write_keeps_comments_order_and_formatting_of_the_rest() {
    let dir = project("in-place");
    // VS Code's mcp.json is JSON with comments; keys out of alphabetical order, four-space indent.
    let vscode = dir.join(".vscode/mcp.json");
    std::fs::create_dir_all(vscode.parent().unwrap()).unwrap();
    let old = "// shared with the team\n{\n    \"servers\": {\n        \"zeta\": {\"type\": \"stdio\", \"command\": \"/bin/true\"}, // first\n    },\n    \"inputs\": [],\n}\n";
    std::fs::write(&vscode, old).unwrap();
    let o = mcp_in(
        &dir,
        &[],
        &[
            "config", "vscode", "--write", "--name", "alpha", "--", "/bin/sh",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(&vscode).unwrap(),
        "// shared with the team\n{\n    \"servers\": {\n        \"zeta\": {\"type\": \"stdio\", \"command\": \"/bin/true\"}, // first\n        \"alpha\": {\n            \"type\": \"stdio\",\n            \"command\": \"/bin/sh\",\n            \"args\": []\n        },\n    },\n    \"inputs\": [],\n}\n"
    );
    // Codex: TOML tables and comments stay; the new table is added.
    let codex = dir.join("config.toml");
    std::fs::write(
        &codex,
        "# models\nmodel = \"o4\"\n\n[mcp_servers.zeta]\nurl = \"https://z/mcp\"\n",
    )
    .unwrap();
    let o = mcp_in(
        &dir,
        &[],
        &[
            "config",
            "codex",
            "--write",
            "--file",
            "config.toml",
            "--name",
            "alpha",
            "--",
            "/bin/sh",
            "-x",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(&codex).unwrap(),
        "# models\nmodel = \"o4\"\n\n[mcp_servers.zeta]\nurl = \"https://z/mcp\"\n\n[mcp_servers.alpha]\ncommand = \"/bin/sh\"\nargs = [\"-x\"]\n"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn claude_code_scopes_and_the_agent_plugin_pair() {
    let dir = project("scopes");
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let home_s = home.display().to_string();
    let env = [("HOME", home_s.as_str())];
    let claude = home.join(".claude.json");
    std::fs::write(&claude, "{\"numStartups\": 3, \"projects\": {}}\n").unwrap();
    for (scope, name) in [("user", "u"), ("local", "l")] {
        let o = mcp_in(
            &dir,
            &env,
            &[
                "config",
                "claude-code",
                "--scope",
                scope,
                "--write",
                "--name",
                name,
                "--",
                "/bin/sh",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&claude).unwrap()).unwrap();
    let stdio = json!({"type": "stdio", "command": "/bin/sh", "args": []});
    assert_eq!(doc["numStartups"], 3);
    assert_eq!(doc["mcpServers"], json!({"u": stdio}));
    let here = dir.display().to_string();
    assert_eq!(doc["projects"][&here]["mcpServers"], json!({"l": stdio}));
    let o = mcp_in(
        &dir,
        &env,
        &["config", "cursor", "--scope", "local", "--", "/bin/sh"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "mcp: cursor has no local scope (it has: user, project)\nhint: see 'mcp config --help'\n"
    );
    let o = mcp_in(&dir, &env, &["tools", "--scope", "user", "--", "/bin/sh"]);
    assert_eq!(o.status.code(), Some(2));
    // An Agent Plugin: a manifest made when missing, mcp.json beside it, both naming their schemas.
    let plugin = dir.join("plugin");
    std::fs::create_dir_all(&plugin).unwrap();
    let o = mcp_in(
        &plugin,
        &env,
        &[
            "config",
            "agent-plugin",
            "--write",
            "--name",
            "My_Server",
            "--",
            "npx",
            "-y",
            "pkg",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(plugin.join("plugin.json")).unwrap())
            .unwrap();
    assert_eq!(
        manifest,
        json!({"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "my-server", "version": "0.1.0"})
    );
    let mcp: Value =
        serde_json::from_str(&std::fs::read_to_string(plugin.join("mcp.json")).unwrap()).unwrap();
    assert_valid("agent-plugin", &mcp);
    assert_eq!(
        mcp["mcpServers"]["My_Server"],
        json!({"type": "stdio", "command": "npx", "args": ["-y", "pkg"]})
    );
    let _ = std::fs::remove_dir_all(dir);
}
