//! `mcp config`: a server's entry in the configuration of the host applications people register MCP
//! servers in, in each host's documented format, printed or merged into the host's file.
//!
//! - Claude Desktop: `claude_desktop_config.json`, `{"mcpServers": {NAME: {command, args, env}}}`;
//!   stdio only, so a remote server goes through the `mcp-remote` bridge run by `npx`.
//! - Claude Code: `.mcp.json` (project scope), `{"mcpServers": {NAME: {"type": "stdio", command,
//!   args, env}}}` or `{"type": "http", url, headers}`.
//! - Cursor: `~/.cursor/mcp.json`, `{"mcpServers": {NAME: {command, args, env}}}` or `{url, headers}`.
//! - VS Code: `.vscode/mcp.json`, `{"servers": {NAME: {"type": "stdio", command, args, env}}}` or
//!   `{"type": "http", url, headers}`.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

/// A host application.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    /// Claude Desktop.
    ClaudeDesktop,
    /// Claude Code.
    ClaudeCode,
    /// Cursor.
    Cursor,
    /// Visual Studio Code.
    Vscode,
}

/// The host names `mcp config` takes.
pub const HOSTS: [&str; 4] = ["claude-desktop", "claude-code", "cursor", "vscode"];

impl Host {
    /// Parses a host name.
    pub fn parse(name: &str) -> Result<Host, String> {
        Ok(match name {
            "claude-desktop" => Host::ClaudeDesktop,
            "claude-code" => Host::ClaudeCode,
            "cursor" => Host::Cursor,
            "vscode" => Host::Vscode,
            other => {
                return Err(format!(
                    "unknown host {other} (known: {})",
                    HOSTS.join(", ")
                ));
            }
        })
    }

    /// The key holding the servers in the host's file.
    fn servers_key(self) -> &'static str {
        match self {
            Host::Vscode => "servers",
            _ => "mcpServers",
        }
    }
}

/// The server to register.
#[derive(Clone, Debug, PartialEq)]
pub enum Server {
    /// A program the host starts, speaking stdio.
    Stdio {
        /// Absolute path of the program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Environment variables.
        env: Vec<(String, String)>,
    },
    /// A Streamable HTTP endpoint.
    Remote {
        /// The URL.
        url: String,
        /// Headers sent with every request.
        headers: Vec<(String, String)>,
    },
}

/// Finds `program` the way a shell does: a name with a `/` is a path (made absolute against `base`),
/// any other name is looked up in `path` (the `PATH` value).
pub fn absolute_program(program: &str, base: &Path, path: Option<&str>) -> Result<String, String> {
    if program.contains('/') {
        let p = base.join(program);
        return if p.is_file() {
            Ok(clean(&p))
        } else {
            Err(format!("{program}: no such file"))
        };
    }
    for dir in path.unwrap_or("").split(':').filter(|d| !d.is_empty()) {
        let candidate = base.join(dir).join(program);
        if is_executable(&candidate) {
            return Ok(clean(&candidate));
        }
    }
    Err(format!(
        "{program} is not on PATH; give its path (hosts need an absolute command)"
    ))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `p` made absolute without resolving symlinks, `.` segments dropped.
fn clean(p: &Path) -> String {
    std::path::absolute(p)
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}

/// The arguments with each one that names an existing file or directory (relative to `base`) made
/// absolute: the host starts the server from a directory of its own.
pub fn absolute_args(args: &[String], base: &Path) -> Vec<String> {
    args.iter()
        .map(|a| {
            let p = Path::new(a);
            if a.starts_with('-') || p.is_absolute() || a.is_empty() || !base.join(p).exists() {
                a.clone()
            } else {
                clean(&base.join(p))
            }
        })
        .collect()
}

/// A name for the server: the package or script a launcher runs, the program otherwise, or the
/// URL's host; letters, digits, `-` and `_` only (what every host accepts as a key).
pub fn default_name(server: &[String]) -> String {
    const LAUNCHERS: [&str; 10] = [
        "npx", "bunx", "uvx", "pipx", "node", "python", "python3", "uv", "deno", "bun",
    ];
    let raw = match server {
        [url] if super::is_url(url) => url
            .split("://")
            .nth(1)
            .and_then(|rest| rest.split(['/', ':', '?']).next())
            .unwrap_or("server")
            .to_string(),
        [program, args @ ..] => {
            let base = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
            let prog = base(program);
            let target = LAUNCHERS
                .contains(&prog.as_str())
                .then(|| args.iter().find(|a| !a.starts_with('-') && *a != "run"))
                .flatten();
            let word = base(target.unwrap_or(program));
            // `pkg@1.2`, `server.py`.
            let word = word.split('@').next().unwrap_or(&word).to_string();
            match word.rsplit_once('.') {
                Some((stem, ext)) if ["py", "js", "mjs", "ts", "sh"].contains(&ext) => stem.into(),
                _ => word,
            }
        }
        [] => String::new(),
    };
    let mut name: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert_str(0, "mcp-");
    }
    name
}

fn object(pairs: &[(String, String)]) -> Value {
    Value::Object(
        pairs
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect::<Map<_, _>>(),
    )
}

/// The host's entry for the server. `npx` is the absolute path of `npx` (for Claude Desktop's bridge
/// to a remote server).
pub fn entry(host: Host, server: &Server, npx: &str) -> Value {
    let mut e = Map::new();
    match server {
        Server::Stdio { command, args, env } => {
            if matches!(host, Host::ClaudeCode | Host::Vscode) {
                e.insert("type".into(), json!("stdio"));
            }
            e.insert("command".into(), json!(command));
            e.insert("args".into(), json!(args));
            if !env.is_empty() {
                e.insert("env".into(), object(env));
            }
        }
        Server::Remote { url, headers } if host == Host::ClaudeDesktop => {
            let mut args = vec!["-y".to_string(), "mcp-remote".into(), url.clone()];
            for (k, v) in headers {
                args.push("--header".into());
                args.push(format!("{k}: {v}"));
            }
            e.insert("command".into(), json!(npx));
            e.insert("args".into(), json!(args));
        }
        Server::Remote { url, headers } => {
            if matches!(host, Host::ClaudeCode | Host::Vscode) {
                e.insert("type".into(), json!("http"));
            }
            e.insert("url".into(), json!(url));
            if !headers.is_empty() {
                e.insert("headers".into(), object(headers));
            }
        }
    }
    Value::Object(e)
}

/// The whole snippet: the servers key holding `name`.
pub fn snippet(host: Host, name: &str, entry: Value) -> Value {
    json!({ host.servers_key(): { name: entry } })
}

/// Where the host keeps its configuration: `home` is `$HOME`, `config_dir` the user's configuration
/// directory (`$XDG_CONFIG_HOME` or `~/.config` on Linux, `~/Library/Application Support` on
/// macOS), `cwd` the project directory.
pub fn default_file(host: Host, home: &Path, config_dir: &Path, cwd: &Path) -> PathBuf {
    match host {
        Host::ClaudeDesktop => config_dir.join("Claude").join("claude_desktop_config.json"),
        Host::ClaudeCode => cwd.join(".mcp.json"),
        Host::Cursor => home.join(".cursor").join("mcp.json"),
        Host::Vscode => cwd.join(".vscode").join("mcp.json"),
    }
}

/// `existing` (a host file's text, if there is one) with `name` set to `entry` under the host's
/// servers key; everything else is kept.
pub fn merge(
    existing: Option<&str>,
    host: Host,
    name: &str,
    entry: Value,
) -> Result<Value, String> {
    let mut doc = match existing.map(str::trim) {
        None | Some("") => json!({}),
        Some(text) => serde_json::from_str(text)
            .map_err(|e| format!("it is not valid JSON ({e}); fix or move it first"))?,
    };
    let root = doc
        .as_object_mut()
        .ok_or("it does not hold a JSON object")?;
    let servers = root
        .entry(host.servers_key())
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or_else(|| format!("its {} is not an object", host.servers_key()))?;
    servers.insert(name.to_string(), entry);
    Ok(doc)
}

/// Merges the entry into `file`, saving the previous file as `FILE.bak`. Returns what was done.
pub fn write(file: &Path, host: Host, name: &str, entry: Value) -> Result<String, String> {
    let shown = file.display();
    let existing = match std::fs::read_to_string(file) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot read {shown}: {e}")),
    };
    let doc = merge(existing.as_deref(), host, name, entry)
        .map_err(|e| format!("cannot merge into {shown}: {e}"))?;
    let mut note = format!("wrote server {name} to {shown}");
    if let Some(old) = &existing {
        let backup = PathBuf::from(format!("{}.bak", file.display()));
        std::fs::write(&backup, old)
            .map_err(|e| format!("cannot back up {shown} to {}: {e}", backup.display()))?;
        note.push_str(&format!(" (previous version: {})", backup.display()));
    } else if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n";
    std::fs::write(file, text).map_err(|e| format!("cannot write {shown}: {e}"))?;
    Ok(note)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn names_come_from_the_package_script_or_host() {
        let cases: [(&[&str], &str); 6] = [
            (
                &[
                    "npx",
                    "-y",
                    "@modelcontextprotocol/server-filesystem",
                    "/tmp",
                ],
                "server-filesystem",
            ),
            (&["uvx", "mcp-server-time"], "mcp-server-time"),
            (&["/usr/bin/python3", "tools/weather.py"], "weather"),
            (&["./my server"], "my-server"),
            (&["https://mcp.example.com:8443/mcp"], "mcp-example-com"),
            (&["npx", "pkg@1.2.3"], "pkg"),
        ];
        for (server, name) in cases {
            assert_eq!(default_name(&words(server)), name, "{server:?}");
        }
        assert_eq!(default_name(&words(&["9lives"])), "mcp-9lives");
    }

    #[test]
    fn merging_keeps_the_rest_of_the_file() {
        let old = r#"{"theme": "dark", "mcpServers": {"other": {"command": "/bin/x"}}}"#;
        let doc = merge(
            Some(old),
            Host::Cursor,
            "new",
            json!({"url": "http://h/mcp"}),
        )
        .unwrap();
        assert_eq!(
            doc,
            json!({"theme": "dark", "mcpServers": {
                "other": {"command": "/bin/x"}, "new": {"url": "http://h/mcp"}}})
        );
        assert!(merge(Some("[1]"), Host::Cursor, "n", json!({})).is_err());
        assert!(merge(Some("{\"servers\": 3}"), Host::Vscode, "n", json!({})).is_err());
        assert!(merge(Some("{oops"), Host::Vscode, "n", json!({})).is_err());
    }
}
