//! `mcp pack`: an MCP Bundle (`.mcpb`, manifest 0.3) of a stdio server, ready for hosts that install
//! bundles (Claude Desktop among them): a zip archive holding `manifest.json` and the server under
//! `server/`.
//!
//! What is packed depends on how the server is started:
//! - `node SCRIPT.js ...`: a Node server; the folder of the nearest `package.json` above the script
//!   (its `node_modules` included), or the script's own folder.
//! - `python3 SCRIPT.py ...` (or `python`): a Python server; the folder of the nearest
//!   `pyproject.toml` above the script, or the script's own folder. Packages installed elsewhere
//!   (site-packages, a virtual environment) are not packed: the host's Python must have them.
//! - anything else: a binary (or script) of its own, packed alone.
//!
//! Version-control folders, caches, virtual environments, build output (`target`) and earlier
//! bundles are left out. The manifest takes its name, version, title and description from what the
//! server says of itself, and lists its tools.

use std::io::Write;
use std::path::{Path, PathBuf};

use libmcp::client::ServerDescription;
use serde_json::{Map, Value, json};

/// Folders never packed.
const SKIPPED_DIRS: [&str; 8] = [
    ".git",
    "__pycache__",
    ".venv",
    "venv",
    "target",
    ".mypy_cache",
    ".pytest_cache",
    ".tox",
];

/// How the server runs and what is packed.
#[derive(Clone, Debug, PartialEq)]
pub struct Bundle {
    /// `node`, `python` or `binary` (the manifest's `server.type`).
    pub kind: &'static str,
    /// The folder packed as `server/` (for a binary, the folder holding it).
    pub root: PathBuf,
    /// The entry point, relative to `root`.
    pub entry: String,
    /// Only the entry point is packed (a binary), not the whole folder.
    pub alone: bool,
    /// The server's arguments after the entry point.
    pub args: Vec<String>,
}

/// The nearest folder at or above `dir` holding `marker`, else `dir`.
fn project_root(dir: &Path, marker: &str) -> PathBuf {
    dir.ancestors()
        .find(|d| d.join(marker).is_file())
        .unwrap_or(dir)
        .to_path_buf()
}

/// Works out what to pack for the server command line `server` (relative paths against `base`;
/// `program` is the command already found on PATH).
pub fn plan(server: &[String], base: &Path, program: &str) -> Result<Bundle, String> {
    let (first, rest) = server.split_first().ok_or("no server given")?;
    let name = Path::new(first)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(first);
    let interpreter = match name {
        "node" | "nodejs" => Some(("node", "package.json")),
        n if n == "python" || n.starts_with("python3") => Some(("python", "pyproject.toml")),
        _ => None,
    };
    if let Some((kind, marker)) = interpreter {
        let Some(i) = rest.iter().position(|a| !a.starts_with('-')) else {
            return Err(format!(
                "{first} needs a script to pack (mcp pack -- {first} server.{})",
                if kind == "node" { "js" } else { "py" }
            ));
        };
        if i > 0 {
            return Err(format!(
                "options before the script ({}) cannot be carried into a bundle; put them in the script",
                rest[..i].join(" ")
            ));
        }
        let script = std::path::absolute(base.join(&rest[0])).map_err(|e| e.to_string())?;
        if !script.is_file() {
            return Err(format!("{}: no such file", rest[0]));
        }
        let dir = script.parent().expect("a file has a folder");
        let root = project_root(dir, marker);
        let entry = script
            .strip_prefix(&root)
            .expect("the root is above the script")
            .display()
            .to_string();
        return Ok(Bundle {
            kind,
            root,
            entry,
            alone: false,
            args: rest[1..].to_vec(),
        });
    }
    let path = PathBuf::from(program);
    let root = path.parent().ok_or("the program has no folder")?;
    Ok(Bundle {
        kind: "binary",
        root: root.to_path_buf(),
        entry: path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or("the program has no file name")?
            .to_string(),
        alone: true,
        args: rest.to_vec(),
    })
}

/// A bundle name: lowercase words joined by hyphens.
pub fn bundle_name(s: &str) -> String {
    s.to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// The bundle's `manifest.json`. `name` and `author` override what is derived (the server's name;
/// `$USER`); `env` is the server's environment.
pub fn manifest(
    b: &Bundle,
    d: &ServerDescription,
    tools: &[Value],
    name: Option<&str>,
    author: &str,
    env: &[(String, String)],
) -> Value {
    let info = d.server_info.clone().unwrap_or(json!({}));
    let text = |k: &str| info.get(k).and_then(Value::as_str).map(str::to_string);
    let server_name = text("name").unwrap_or_else(|| "server".into());
    let entry = format!("server/{}", b.entry);
    let dirname = format!("${{__dirname}}/{entry}");
    let (command, mut args) = match b.kind {
        "node" => ("node".to_string(), vec![dirname]),
        "python" => ("python3".to_string(), vec![dirname]),
        _ => (dirname, vec![]),
    };
    args.extend(b.args.iter().cloned());
    let mut mcp_config = json!({"command": command, "args": args});
    if !env.is_empty() {
        let vars: Map<String, Value> = env.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        mcp_config["env"] = Value::Object(vars);
    }
    let description = text("description")
        .or_else(|| {
            d.instructions
                .as_deref()
                .and_then(|i| i.lines().next())
                .map(str::to_string)
        })
        .unwrap_or_else(|| format!("The {server_name} MCP server"));
    let mut m = json!({
        "manifest_version": "0.3",
        "name": bundle_name(name.unwrap_or(&server_name)),
        "version": text("version").unwrap_or_else(|| "0.0.0".into()),
        "description": description,
        "author": {"name": author},
        "server": {"type": b.kind, "entry_point": entry, "mcp_config": mcp_config},
    });
    if let Some(title) = text("title") {
        m["display_name"] = json!(title);
    }
    if let Some(site) = text("websiteUrl") {
        m["homepage"] = json!(site);
    }
    let listed: Vec<Value> = tools
        .iter()
        .filter_map(|t| {
            let mut item = json!({"name": t.get("name")?.as_str()?});
            if let Some(desc) = t.get("description").and_then(Value::as_str) {
                item["description"] = json!(desc);
            }
            Some(item)
        })
        .collect();
    if !listed.is_empty() {
        m["tools"] = Value::Array(listed);
    }
    m
}

/// The files packed under `server/`, relative to the root, in a stable order.
pub fn files(b: &Bundle) -> Result<Vec<PathBuf>, String> {
    if b.alone {
        return Ok(vec![PathBuf::from(&b.entry)]);
    }
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let dir = b.root.join(&rel);
        let read =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in read {
            let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = rel.join(&name);
            let kind = entry
                .file_type()
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            if kind.is_dir() {
                if !SKIPPED_DIRS.contains(&name.as_str()) {
                    stack.push(path);
                }
            } else if !(name.ends_with(".mcpb") || name.ends_with(".pyc")) {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Writes the bundle to `out`; the number of files packed (the manifest included) and the
/// bundle's size in bytes.
pub fn write(b: &Bundle, manifest: &Value, out: &Path) -> Result<(usize, u64), String> {
    use std::os::unix::fs::PermissionsExt;
    use zip::write::SimpleFileOptions;
    let shown = out.display();
    let list = files(b)?;
    let file = std::fs::File::create(out).map_err(|e| format!("cannot create {shown}: {e}"))?;
    let mut zip = zip::ZipWriter::new(file);
    let fail = |e: &dyn std::fmt::Display| format!("cannot write {shown}: {e}");
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let text = crate::cli::jsonc::render(manifest, "", "  ") + "\n";
    zip.start_file("manifest.json", options.unix_permissions(0o644))
        .map_err(|e| fail(&e))?;
    zip.write_all(text.as_bytes()).map_err(|e| fail(&e))?;
    for rel in &list {
        let src = b.root.join(rel);
        let meta =
            std::fs::metadata(&src).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
        let name = format!("server/{}", rel.display());
        zip.start_file(
            name,
            options.unix_permissions(meta.permissions().mode() & 0o777),
        )
        .map_err(|e| fail(&e))?;
        let mut input =
            std::fs::File::open(&src).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
        std::io::copy(&mut input, &mut zip).map_err(|e| fail(&e))?;
    }
    zip.finish().map_err(|e| fail(&e))?;
    let size = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    Ok((list.len() + 1, size))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interpreter_decides_what_is_packed() {
        let dir = std::env::temp_dir().join(format!("libmcp-pack-plan-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("app/build")).unwrap();
        std::fs::write(dir.join("app/package.json"), "{}").unwrap();
        std::fs::write(dir.join("app/build/index.js"), "").unwrap();
        std::fs::write(dir.join("tool.py"), "").unwrap();
        let words = |s: &[&str]| s.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        let node = plan(
            &words(&["node", "app/build/index.js", "--port", "1"]),
            &dir,
            "/usr/bin/node",
        )
        .unwrap();
        assert_eq!(
            node,
            Bundle {
                kind: "node",
                root: dir.join("app"),
                entry: "build/index.js".into(),
                alone: false,
                args: words(&["--port", "1"]),
            }
        );
        let py = plan(&words(&["python3", "tool.py"]), &dir, "/usr/bin/python3").unwrap();
        assert_eq!(
            (py.kind, py.root.clone(), py.entry.as_str()),
            ("python", dir.clone(), "tool.py")
        );
        let bin = plan(&words(&["srv", "-v"]), &dir, "/opt/srv/bin/srv").unwrap();
        assert_eq!(
            (bin.kind, bin.root, bin.entry.as_str(), bin.alone),
            ("binary", PathBuf::from("/opt/srv/bin"), "srv", true)
        );
        assert_eq!(
            plan(
                &words(&["python3", "-u", "tool.py"]),
                &dir,
                "/usr/bin/python3"
            )
            .unwrap_err(),
            "options before the script (-u) cannot be carried into a bundle; put them in the script"
        );
        assert_eq!(
            plan(&words(&["node"]), &dir, "/usr/bin/node").unwrap_err(),
            "node needs a script to pack (mcp pack -- node server.js)"
        );
        assert_eq!(bundle_name("My_Weather Server"), "my-weather-server");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
