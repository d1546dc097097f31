//! The host's file for a scope, the entry as that file's text, and merging it into the file in place
//! (the previous file kept as `FILE.bak`).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{Host, Scope};
use crate::cli::jsonc;

/// The Agent Plugins 1.0 schemas a plugin's two files name.
const PLUGIN_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
const PLUGIN_MCP_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";

/// Where an entry goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// The host.
    pub host: Host,
    /// The file (for an Agent Plugin, its folder).
    pub file: PathBuf,
    /// The object keys from the file's root to the object holding the servers.
    pub servers: Vec<String>,
}

/// The directories a host's default file is found from: `$HOME`, the user's configuration directory
/// (`$XDG_CONFIG_HOME` or `~/.config` on Linux, `~/Library/Application Support` on macOS), the
/// project (current) directory, and `$CODEX_HOME` when set.
pub struct Dirs<'a> {
    /// `$HOME`.
    pub home: &'a Path,
    /// The user's configuration directory.
    pub config_dir: &'a Path,
    /// The project directory.
    pub cwd: &'a Path,
    /// `$CODEX_HOME`.
    pub codex_home: Option<&'a Path>,
}

/// The host's file for `scope` (or `file` when given) and where its servers are.
pub fn target(host: Host, scope: Scope, dirs: &Dirs, file: Option<PathBuf>) -> Target {
    let (home, config, cwd) = (dirs.home, dirs.config_dir, dirs.cwd);
    let user = scope != Scope::Project;
    let default = match host {
        Host::ClaudeDesktop => config.join("Claude/claude_desktop_config.json"),
        Host::ClaudeCode if user => home.join(".claude.json"),
        Host::ClaudeCode => cwd.join(".mcp.json"),
        Host::Cursor if user => home.join(".cursor/mcp.json"),
        Host::Cursor => cwd.join(".cursor/mcp.json"),
        Host::Vscode if user => config.join("Code/User/mcp.json"),
        Host::Vscode => cwd.join(".vscode/mcp.json"),
        Host::Windsurf => home.join(".codeium/windsurf/mcp_config.json"),
        Host::GeminiCli if user => home.join(".gemini/settings.json"),
        Host::GeminiCli => cwd.join(".gemini/settings.json"),
        // Zed keeps ~/.config/zed on macOS too.
        Host::Zed if user && cfg!(target_os = "macos") => home.join(".config/zed/settings.json"),
        Host::Zed if user => config.join("zed/settings.json"),
        Host::Zed => cwd.join(".zed/settings.json"),
        Host::Codex if user => dirs
            .codex_home
            .map_or(home.join(".codex"), Path::to_path_buf)
            .join("config.toml"),
        Host::Codex => cwd.join(".codex/config.toml"),
        Host::Cline => config.join(
            "Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
        ),
        Host::AgentPlugin => cwd.to_path_buf(),
    };
    let key = match host {
        Host::Vscode => "servers",
        Host::Zed => "context_servers",
        Host::Codex => "mcp_servers",
        _ => "mcpServers",
    };
    let servers = if host == Host::ClaudeCode && scope == Scope::Local {
        vec!["projects".into(), cwd.display().to_string(), key.into()]
    } else {
        vec![key.into()]
    };
    Target {
        host,
        file: file.unwrap_or(default),
        servers,
    }
}

impl Target {
    fn path_to<'a>(&'a self, name: &'a str) -> Vec<&'a str> {
        self.servers
            .iter()
            .map(String::as_str)
            .chain([name])
            .collect()
    }

    /// The entry as the text to paste: the host's file holding only it.
    pub fn snippet(&self, name: &str, entry: &Value) -> Result<String, String> {
        match self.host {
            Host::Codex => toml_set("", name, entry),
            Host::AgentPlugin => Ok(plugin_mcp_json("", name, entry)?.trim_end().to_string()),
            _ => Ok(jsonc::set("", &self.path_to(name), entry)?
                .trim_end()
                .to_string()),
        }
    }
}

/// `mcp.json` of a plugin with the entry; a new one names its schema.
fn plugin_mcp_json(existing: &str, name: &str, entry: &Value) -> Result<String, String> {
    if existing.trim().is_empty() {
        let doc = json!({"$schema": PLUGIN_MCP_SCHEMA, "mcpServers": {name: entry}});
        return Ok(jsonc::render(&doc, "", "  ") + "\n");
    }
    jsonc::set(existing, &["mcpServers", name], entry)
}

/// A Codex `config.toml` with the table `[mcp_servers.NAME]` set to the entry, the rest kept.
fn toml_set(existing: &str, name: &str, entry: &Value) -> Result<String, String> {
    use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, value};
    let mut doc: DocumentMut = existing
        .parse()
        .map_err(|e: toml_edit::TomlError| format!("it is not valid TOML ({})", e.message()))?;
    let servers = doc
        .entry("mcp_servers")
        .or_insert_with(|| {
            let mut t = Table::new();
            t.set_implicit(true);
            Item::Table(t)
        })
        .as_table_mut()
        .ok_or("its mcp_servers is not a table")?;
    let mut table = Table::new();
    let strings = |v: &Value| -> InlineTable {
        v.as_object()
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or_default()))
            .collect()
    };
    for key in ["command", "args", "env", "url", "http_headers"] {
        match entry.get(key) {
            Some(Value::String(s)) => table[key] = value(s.as_str()),
            Some(Value::Array(items)) => {
                let array: Array = items.iter().filter_map(Value::as_str).collect();
                table[key] = value(array);
            }
            Some(v @ Value::Object(_)) => table[key] = value(strings(v)),
            _ => {}
        }
    }
    servers.insert(name, Item::Table(table));
    Ok(doc.to_string())
}

/// Reads `file`: its text, or `None` when it does not exist.
fn read(file: &Path) -> Result<Option<String>, String> {
    match std::fs::read_to_string(file) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", file.display())),
    }
}

/// Writes `text` to `file`, the previous text (if any) saved as `FILE.bak` first; what was done.
fn replace(file: &Path, old: Option<&str>, text: &str) -> Result<String, String> {
    let shown = file.display();
    let mut note = String::new();
    if let Some(old) = old {
        let backup = PathBuf::from(format!("{shown}.bak"));
        std::fs::write(&backup, old)
            .map_err(|e| format!("cannot back up {shown} to {}: {e}", backup.display()))?;
        note = format!(" (previous version: {})", backup.display());
    } else if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(file, text).map_err(|e| format!("cannot write {shown}: {e}"))?;
    Ok(note)
}

/// Merges the entry into the target's file (for an Agent Plugin, `mcp.json` and, when missing,
/// `plugin.json` of its folder). Returns what was done.
pub fn write(target: &Target, name: &str, entry: &Value) -> Result<String, String> {
    if target.host == Host::AgentPlugin {
        return write_plugin(&target.file, name, entry);
    }
    let file = &target.file;
    let shown = file.display();
    let existing = read(file)?;
    let old = existing.as_deref().unwrap_or("");
    let text = match target.host {
        Host::Codex => toml_set(old, name, entry),
        _ => jsonc::set(old, &target.path_to(name), entry),
    }
    .map_err(|e| format!("cannot merge into {shown}: {e}; fix or move it first"))?;
    let backup = replace(file, existing.as_deref(), &text)?;
    Ok(format!("wrote server {name} to {shown}{backup}"))
}

fn write_plugin(dir: &Path, name: &str, entry: &Value) -> Result<String, String> {
    let manifest = dir.join("plugin.json");
    let mut note = String::new();
    match read(&manifest)? {
        Some(text) => {
            let doc = jsonc::read(&text)
                .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
            if !doc["name"].is_string() {
                return Err(format!("{} has no name", manifest.display()));
            }
        }
        None => {
            // Agent Plugins names are lowercase words joined by hyphens.
            let plugin: String = name
                .to_ascii_lowercase()
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join("-");
            let doc = json!({"$schema": PLUGIN_SCHEMA, "name": plugin, "version": "0.1.0"});
            replace(&manifest, None, &(jsonc::render(&doc, "", "  ") + "\n"))?;
            note = format!(" and a new {}", manifest.display());
        }
    }
    let file = dir.join("mcp.json");
    let existing = read(&file)?;
    let text = plugin_mcp_json(existing.as_deref().unwrap_or(""), name, entry).map_err(|e| {
        format!(
            "cannot merge into {}: {e}; fix or move it first",
            file.display()
        )
    })?;
    let backup = replace(&file, existing.as_deref(), &text)?;
    Ok(format!(
        "wrote server {name} to {}{backup}{note}",
        file.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_tables_are_added_and_the_rest_kept() {
        let old = "# my codex\nmodel = \"o4\"\n\n[mcp_servers.old]\ncommand = \"/old\" # keep\n";
        let entry = json!({"command": "/bin/srv", "args": ["-v"], "env": {"K": "v"}});
        let text = toml_set(old, "new", &entry).unwrap();
        assert_eq!(
            text,
            "# my codex\nmodel = \"o4\"\n\n[mcp_servers.old]\ncommand = \"/old\" # keep\n\n[mcp_servers.new]\ncommand = \"/bin/srv\"\nargs = [\"-v\"]\nenv = { K = \"v\" }\n"
        );
        assert_eq!(
            toml_set("", "r", &json!({"url": "https://h/mcp"})).unwrap(),
            "[mcp_servers.r]\nurl = \"https://h/mcp\"\n"
        );
        assert_eq!(
            toml_set("mcp_servers = 3\n", "r", &json!({})).unwrap_err(),
            "its mcp_servers is not a table"
        );
        assert!(
            toml_set("[oops\n", "r", &json!({}))
                .unwrap_err()
                .starts_with("it is not valid TOML")
        );
    }

    #[test]
    fn claude_code_scopes_pick_the_file_and_the_object() {
        let dirs = Dirs {
            home: Path::new("/h"),
            config_dir: Path::new("/h/.config"),
            cwd: Path::new("/p"),
            codex_home: None,
        };
        let t = |scope| target(Host::ClaudeCode, scope, &dirs, None);
        assert_eq!(t(Scope::Project).file, Path::new("/p/.mcp.json"));
        assert_eq!(t(Scope::User).file, Path::new("/h/.claude.json"));
        assert_eq!(t(Scope::User).servers, ["mcpServers"]);
        assert_eq!(t(Scope::Local).servers, ["projects", "/p", "mcpServers"]);
        let codex = Dirs {
            codex_home: Some(Path::new("/c")),
            ..dirs
        };
        assert_eq!(
            target(Host::Codex, Scope::User, &codex, None).file,
            Path::new("/c/config.toml")
        );
    }
}
