//! `mcp config`: a server's entry in the configuration of the host applications people register MCP
//! servers in, in each host's documented format, printed or merged into the host's file.
//!
//! | host | file (default scope first) | stdio entry | remote entry |
//! |---|---|---|---|
//! | `claude-desktop` | `Claude/claude_desktop_config.json` in the user's config directory | `command`, `args`, `env` | the `mcp-remote` bridge run by `npx` |
//! | `claude-code` | `.mcp.json` (project), `~/.claude.json` (user; local: under `projects.<dir>`) | `"type": "stdio"`, ... | `"type": "http"`, `url`, `headers` |
//! | `cursor` | `~/.cursor/mcp.json` (user), `.cursor/mcp.json` (project) | `command`, `args`, `env` | `url`, `headers` |
//! | `vscode` | `.vscode/mcp.json` (project), `Code/User/mcp.json` (user) under `servers` | `"type": "stdio"`, ... | `"type": "http"`, `url`, `headers` |
//! | `windsurf` | `~/.codeium/windsurf/mcp_config.json` | `command`, `args`, `env` | `serverUrl`, `headers` |
//! | `gemini-cli` | `~/.gemini/settings.json` (user), `.gemini/settings.json` (project) | `command`, `args`, `env` | `httpUrl` (Streamable HTTP), `headers` |
//! | `zed` | `zed/settings.json` in the config directory (user), `.zed/settings.json` (project), under `context_servers` | `command`, `args`, `env` | `url`, `headers` |
//! | `codex` | `~/.codex/config.toml` (user; `$CODEX_HOME`), `.codex/config.toml` (project), `[mcp_servers.NAME]` | `command`, `args`, `env` | `url`, `http_headers` |
//! | `cline` | `Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json` | `command`, `args`, `env`, `disabled` | `"type": "streamableHttp"`, `url`, `headers` |
//! | `agent-plugin` | `plugin.json` + `mcp.json` in a plugin folder (Agent Plugins 1.0) | `"type": "stdio"`, ... | `"type": "streamable-http"`, `url`, `headers` |
//!
//! Files are edited in place ([`crate::cli::jsonc`], `toml_edit` for Codex): comments, key order
//! and formatting of everything else stay as they were.

mod files;
mod names;
pub mod shims;

pub use files::{Dirs, Target, target, write};
pub use names::{absolute_args, absolute_program, default_name};

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
    /// Windsurf.
    Windsurf,
    /// Gemini CLI.
    GeminiCli,
    /// Zed.
    Zed,
    /// OpenAI Codex (CLI, IDE extension and app share one file).
    Codex,
    /// Cline (the VS Code extension).
    Cline,
    /// An Agent Plugins 1.0 plugin folder: `plugin.json` and `mcp.json`.
    AgentPlugin,
}

/// The host names `mcp config` takes, in the order of [`Host`].
pub const HOSTS: [&str; 10] = [
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

const ALL: [Host; 10] = [
    Host::ClaudeDesktop,
    Host::ClaudeCode,
    Host::Cursor,
    Host::Vscode,
    Host::Windsurf,
    Host::GeminiCli,
    Host::Zed,
    Host::Codex,
    Host::Cline,
    Host::AgentPlugin,
];

/// Which of a host's files: the user's own, the project's (shared, in the current directory), or the
/// user's entry for this project only (Claude Code's `local`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The user's file.
    User,
    /// The project's file.
    Project,
    /// The user's file, for this project only.
    Local,
}

impl Scope {
    /// Parses `user`, `project` or `local`.
    pub fn parse(s: &str) -> Result<Scope, String> {
        match s {
            "user" => Ok(Scope::User),
            "project" => Ok(Scope::Project),
            "local" => Ok(Scope::Local),
            other => Err(format!(
                "unknown scope {other} (known: user, project, local)"
            )),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Local => "local",
        }
    }
}

impl Host {
    /// Parses a host name.
    pub fn parse(name: &str) -> Result<Host, String> {
        match HOSTS.iter().position(|h| *h == name) {
            Some(i) => Ok(ALL[i]),
            None => Err(format!(
                "unknown host {name}{} (known: {})",
                crate::cli::suggest::hint(name, HOSTS),
                HOSTS.join(", ")
            )),
        }
    }

    /// The host's name on the command line.
    pub fn name(self) -> &'static str {
        HOSTS[ALL
            .iter()
            .position(|h| *h == self)
            .expect("every host is listed")]
    }

    /// The scopes the host has, its default first.
    pub fn scopes(self) -> &'static [Scope] {
        match self {
            Host::ClaudeCode => &[Scope::Project, Scope::User, Scope::Local],
            Host::Vscode => &[Scope::Project, Scope::User],
            Host::Cursor | Host::GeminiCli | Host::Zed | Host::Codex => {
                &[Scope::User, Scope::Project]
            }
            Host::ClaudeDesktop | Host::Windsurf | Host::Cline | Host::AgentPlugin => {
                &[Scope::User]
            }
        }
    }

    /// `scope`, or the host's default; an error naming the host's scopes when it has not this one.
    pub fn scope(self, scope: Option<Scope>) -> Result<Scope, String> {
        let scopes = self.scopes();
        match scope {
            None => Ok(scopes[0]),
            Some(s) if scopes.contains(&s) => Ok(s),
            Some(s) => {
                let names: Vec<&str> = scopes.iter().map(|s| s.name()).collect();
                Err(format!(
                    "{} has no {} scope (it has: {})",
                    self.name(),
                    s.name(),
                    names.join(", ")
                ))
            }
        }
    }

    /// Whether the entry is meant for other machines (a plugin): the command is written as given,
    /// not made absolute.
    pub fn portable(self) -> bool {
        self == Host::AgentPlugin
    }
}

/// The server to register.
#[derive(Clone, Debug, PartialEq)]
pub enum Server {
    /// A program the host starts, speaking stdio.
    Stdio {
        /// The program (absolute, except for a portable host).
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
            match host {
                Host::ClaudeCode | Host::Vscode | Host::AgentPlugin => {
                    e.insert("type".into(), json!("stdio"));
                }
                Host::Cline => {
                    e.insert("disabled".into(), json!(false));
                }
                _ => {}
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
            let (url_key, headers_key) = match host {
                Host::Windsurf => ("serverUrl", "headers"),
                Host::GeminiCli => ("httpUrl", "headers"),
                Host::Codex => ("url", "http_headers"),
                _ => ("url", "headers"),
            };
            let kind = match host {
                Host::ClaudeCode | Host::Vscode => Some("http"),
                Host::Cline => Some("streamableHttp"),
                Host::AgentPlugin => Some("streamable-http"),
                _ => None,
            };
            if let Some(kind) = kind {
                e.insert("type".into(), json!(kind));
            }
            if host == Host::Cline {
                e.insert("disabled".into(), json!(false));
            }
            e.insert(url_key.into(), json!(url));
            if !headers.is_empty() {
                e.insert(headers_key.into(), object(headers));
            }
        }
    }
    Value::Object(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_scopes_parse_with_their_errors() {
        for name in HOSTS {
            assert_eq!(Host::parse(name).unwrap().name(), name);
        }
        assert_eq!(
            Host::parse("winsurf").unwrap_err(),
            format!(
                "unknown host winsurf (did you mean windsurf?) (known: {})",
                HOSTS.join(", ")
            )
        );
        assert_eq!(Host::ClaudeCode.scope(None), Ok(Scope::Project));
        assert_eq!(Host::Codex.scope(Some(Scope::Project)), Ok(Scope::Project));
        assert_eq!(
            Host::Windsurf.scope(Some(Scope::Project)).unwrap_err(),
            "windsurf has no project scope (it has: user)"
        );
        assert_eq!(
            Scope::parse("global").unwrap_err(),
            "unknown scope global (known: user, project, local)"
        );
    }

    #[test]
    fn remote_entries_use_each_hosts_keys() {
        let remote = Server::Remote {
            url: "https://h/mcp".into(),
            headers: vec![("X-K".into(), "v".into())],
        };
        let e = |h| entry(h, &remote, "/usr/bin/npx");
        assert_eq!(
            e(Host::Windsurf),
            json!({"serverUrl": "https://h/mcp", "headers": {"X-K": "v"}})
        );
        assert_eq!(
            e(Host::GeminiCli),
            json!({"httpUrl": "https://h/mcp", "headers": {"X-K": "v"}})
        );
        assert_eq!(
            e(Host::Codex),
            json!({"url": "https://h/mcp", "http_headers": {"X-K": "v"}})
        );
        assert_eq!(
            e(Host::Cline),
            json!({"type": "streamableHttp", "disabled": false, "url": "https://h/mcp", "headers": {"X-K": "v"}})
        );
        assert_eq!(
            e(Host::AgentPlugin),
            json!({"type": "streamable-http", "url": "https://h/mcp", "headers": {"X-K": "v"}})
        );
    }
}
