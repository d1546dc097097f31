//! `mcp server-json`: the server's `server.json` for the MCP registry (schema 2025-09-29), from what
//! the server says of itself (serverInfo, instructions) and how it is reached: a package the host
//! runs (npm through `npx`, PyPI through `uvx`, or `--package` for any other) or, for a URL, a
//! Streamable HTTP remote.

use serde_json::{Map, Value, json};

use libmcp::client::ServerDescription;

/// The schema the written file names.
pub const SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json";

/// The registry's longest description.
const MAX_DESCRIPTION: usize = 100;

/// A package the registry lists: registry, identifier, version (when known), and how it is run.
#[derive(Clone, Debug, PartialEq)]
pub struct Package {
    /// `npm`, `pypi` or `oci`.
    pub registry: &'static str,
    /// The package name (or image reference).
    pub identifier: String,
    /// The exact version, when the command line or `--package` names one.
    pub version: Option<String>,
    /// `npx` or `uvx` when the server was started through one.
    pub runtime_hint: Option<&'static str>,
    /// The server's own arguments after the package.
    pub args: Vec<String>,
}

/// Checks a registry name: reverse-DNS namespace, one slash, server name.
pub fn check_name(name: &str) -> Result<(), String> {
    let (ns, server) = name.split_once('/').ok_or_else(|| {
        format!("--name {name}: a registry name is NAMESPACE/NAME (e.g. io.github.you/weather)")
    })?;
    let ok = |s: &str, extra: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || extra.contains(c))
    };
    if !ok(ns, ".") || !ok(server, "._") || name.len() > 200 {
        return Err(format!(
            "--name {name}: the namespace takes letters, digits, '.' and '-', the name also '_' (at most 200 characters)"
        ));
    }
    Ok(())
}

/// Parses `--package REGISTRY:SPEC`: `npm:@scope/pkg@1.2.3`, `pypi:pkg==1.2.3`, `oci:IMAGE:TAG`.
pub fn parse_package(spec: &str) -> Result<Package, String> {
    let (registry, rest) = spec.split_once(':').ok_or_else(|| {
        format!(
            "--package {spec}: expected npm:NAME[@VERSION], pypi:NAME[==VERSION] or oci:IMAGE:TAG"
        )
    })?;
    let package = |registry, (identifier, version): (String, Option<String>)| Package {
        registry,
        identifier,
        version,
        runtime_hint: None,
        args: Vec::new(),
    };
    match registry {
        "npm" => Ok(package("npm", npm_spec(rest))),
        "pypi" => Ok(package("pypi", pypi_spec(rest))),
        "oci" if !rest.is_empty() => Ok(package("oci", (rest.to_string(), None))),
        _ => Err(format!(
            "--package {spec}: unknown registry {registry} (npm, pypi or oci)"
        )),
    }
}

/// `@scope/pkg@1.2.3` as name and version (a scope's leading `@` is not a version).
fn npm_spec(s: &str) -> (String, Option<String>) {
    match s.get(1..).and_then(|rest| rest.rfind('@')) {
        Some(i) => (
            s[..i + 1].to_string(),
            Some(s[i + 2..].to_string()).filter(|v| !v.is_empty()),
        ),
        None => (s.to_string(), None),
    }
}

/// `pkg==1.2.3` or `pkg@1.2.3` as name and version.
fn pypi_spec(s: &str) -> (String, Option<String>) {
    if let Some((n, v)) = s.split_once("==") {
        return (n.to_string(), Some(v.to_string()));
    }
    match s.split_once('@') {
        Some((n, v)) if !v.is_empty() => (n.to_string(), Some(v.to_string())),
        _ => (s.trim_end_matches('@').to_string(), None),
    }
}

/// The package a command line runs through a package runner: `npx [-y] PKG[@V] args...`, `uvx
/// PKG[==V] args...`; `None` for anything else.
pub fn detect_package(server: &[String]) -> Option<Package> {
    let (program, rest) = server.split_first()?;
    let runner = program.rsplit('/').next().unwrap_or(program);
    let (registry, hint) = match runner {
        "npx" => ("npm", "npx"),
        "uvx" => ("pypi", "uvx"),
        _ => return None,
    };
    let i = rest.iter().position(|a| !a.starts_with('-'))?;
    let (identifier, version) = if registry == "npm" {
        npm_spec(&rest[i])
    } else {
        pypi_spec(&rest[i])
    };
    Some(Package {
        registry,
        identifier,
        version,
        runtime_hint: Some(hint),
        args: rest[i + 1..].to_vec(),
    })
}

/// A description of at most 100 characters.
fn short(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default().trim();
    if line.chars().count() <= MAX_DESCRIPTION {
        return line.to_string();
    }
    let mut cut: String = line.chars().take(MAX_DESCRIPTION - 1).collect();
    cut.push('…');
    cut
}

/// How the registry reaches the server: a package, or a remote URL with its headers.
pub enum Reach<'a> {
    /// A package the host runs over stdio, with the environment it needs.
    Package(Package, &'a [(String, String)]),
    /// A Streamable HTTP endpoint and the headers sent to it.
    Remote(&'a str, &'a [(String, String)]),
}

/// The `server.json` document.
pub fn document(name: &str, d: &ServerDescription, reach: Reach) -> Value {
    let info = d.server_info.clone().unwrap_or(json!({}));
    let text = |k: &str| info.get(k).and_then(Value::as_str).map(str::to_string);
    let server_name = text("name").unwrap_or_else(|| "server".into());
    let version = text("version").unwrap_or_else(|| "0.0.0".into());
    let description = text("description")
        .or_else(|| d.instructions.clone())
        .map(|t| short(&t))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| format!("The {server_name} MCP server"));
    let mut doc = Map::new();
    doc.insert("$schema".into(), json!(SCHEMA));
    doc.insert("name".into(), json!(name));
    if let Some(title) = text("title").map(|t| short(&t)) {
        doc.insert("title".into(), json!(title));
    }
    doc.insert("description".into(), json!(description));
    doc.insert("version".into(), json!(version));
    if let Some(site) = text("websiteUrl") {
        doc.insert("websiteUrl".into(), json!(site));
    }
    match reach {
        Reach::Package(p, env) => {
            let mut pkg = json!({
                "registryType": p.registry,
                "identifier": p.identifier,
                "transport": {"type": "stdio"},
            });
            if p.registry != "oci" {
                pkg["version"] = json!(p.version.unwrap_or_else(|| version.clone()));
            }
            if let Some(hint) = p.runtime_hint {
                pkg["runtimeHint"] = json!(hint);
            }
            if !p.args.is_empty() {
                let args: Vec<Value> = p
                    .args
                    .iter()
                    .map(|a| json!({"type": "positional", "value": a}))
                    .collect();
                pkg["packageArguments"] = Value::Array(args);
            }
            if !env.is_empty() {
                let vars: Vec<Value> = env
                    .iter()
                    .map(|(k, v)| json!({"name": k, "value": v}))
                    .collect();
                pkg["environmentVariables"] = Value::Array(vars);
            }
            doc.insert("packages".into(), json!([pkg]));
        }
        Reach::Remote(url, headers) => {
            let mut remote = json!({"type": "streamable-http", "url": url});
            if !headers.is_empty() {
                // A credential is declared, never written: each user supplies their own.
                let hs: Vec<Value> = headers
                    .iter()
                    .map(|(k, v)| {
                        if k.eq_ignore_ascii_case("authorization") {
                            json!({"name": k, "isRequired": true, "isSecret": true,
                                   "description": "The credential this server accepts"})
                        } else {
                            json!({"name": k, "value": v})
                        }
                    })
                    .collect();
                remote["headers"] = Value::Array(hs);
            }
            doc.insert("remotes".into(), json!([remote]));
        }
    }
    Value::Object(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn packages_come_from_the_runner_or_the_option() {
        let p = detect_package(&words(&[
            "npx",
            "-y",
            "@acme/weather@2.0.1",
            "--units",
            "c",
        ]))
        .unwrap();
        assert_eq!(
            (
                p.registry,
                p.identifier.as_str(),
                p.version.as_deref(),
                p.runtime_hint,
                p.args
            ),
            (
                "npm",
                "@acme/weather",
                Some("2.0.1"),
                Some("npx"),
                words(&["--units", "c"])
            )
        );
        let p = detect_package(&words(&["/usr/bin/uvx", "mcp-server-time==0.6"])).unwrap();
        assert_eq!(
            (p.registry, p.identifier.as_str(), p.version.as_deref()),
            ("pypi", "mcp-server-time", Some("0.6"))
        );
        assert_eq!(
            detect_package(&words(&["npx", "@acme/weather"]))
                .unwrap()
                .version,
            None
        );
        assert!(detect_package(&words(&["python3", "server.py"])).is_none());
        assert_eq!(
            parse_package("npm:left-pad@1.3.0").unwrap().identifier,
            "left-pad"
        );
        assert_eq!(
            parse_package("oci:ghcr.io/acme/w:1.0").unwrap().identifier,
            "ghcr.io/acme/w:1.0"
        );
        assert_eq!(
            parse_package("cargo:x").unwrap_err(),
            "--package cargo:x: unknown registry cargo (npm, pypi or oci)"
        );
    }

    #[test]
    fn names_are_checked_and_descriptions_shortened() {
        assert!(check_name("io.github.acme/weather").is_ok());
        assert!(
            check_name("weather")
                .unwrap_err()
                .contains("NAMESPACE/NAME")
        );
        assert!(check_name("io.github/a/b").is_err());
        assert_eq!(short(&"x".repeat(150)).chars().count(), 100);
        assert_eq!(short("first line\nsecond"), "first line");
    }
}
