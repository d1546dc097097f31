//! `mcp server-json`: what it writes for a package found on the command line (a stand-in `npx` on a
//! PATH of the test's own starts the real fixture server), for `--package`, and for a URL, each
//! validated against the MCP registry's server.json schema (vendored in
//! `tests/fixtures/registry`, see its LICENSE-NOTICE.txt).

#[path = "support/http_server.rs"]
mod http_server;

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

const MCP: &str = env!("CARGO_BIN_EXE_mcp");

fn fixture() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pack/weather.py")
        .display()
        .to_string()
}

fn validator() -> jsonschema::Validator {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/registry/server.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn assert_valid(doc: &Value) {
    let errors: Vec<String> = validator()
        .iter_errors(doc)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?} in {doc}");
}

fn server_json(args: &[&str], path: Option<&str>) -> Value {
    let mut c = Command::new(MCP);
    c.arg("server-json").args(args).stdin(Stdio::null());
    if let Some(p) = path {
        c.env("PATH", p);
    }
    let o = c.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("one JSON document")
}

#[test]
fn a_package_run_through_npx_or_named_with_package() {
    // A stand-in npx that starts the fixture server whatever package it is asked for.
    let dir = std::env::temp_dir().join(format!("libmcp-server-json-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let npx = dir.join("npx");
    std::fs::write(&npx, format!("#!/bin/sh\nexec python3 {}\n", fixture())).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&npx, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:/usr/bin:/bin", dir.display());
    let doc = server_json(
        &[
            "--name",
            "io.github.acme/weather",
            "--env",
            "UNITS=metric",
            "--",
            "npx",
            "-y",
            "@acme/weather@2.0.1",
            "--cities",
            "all",
        ],
        Some(&path),
    );
    assert_valid(&doc);
    assert_eq!(
        doc,
        json!({
            "$schema": "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
            "name": "io.github.acme/weather",
            "title": "Weather",
            "version": "1.2.0",
            "description": "Forecasts for any city.",
            "packages": [{
                "registryType": "npm",
                "identifier": "@acme/weather",
                "version": "2.0.1",
                "runtimeHint": "npx",
                "transport": {"type": "stdio"},
                "packageArguments": [
                    {"type": "positional", "value": "--cities"},
                    {"type": "positional", "value": "all"},
                ],
                "environmentVariables": [{"name": "UNITS", "value": "metric"}],
            }],
        })
    );
    // --package for a server started otherwise; no version given: the server's own.
    let doc = server_json(
        &[
            "--name",
            "io.github.acme/weather",
            "--package",
            "pypi:acme-weather",
            "--",
            "python3",
            &fixture(),
        ],
        None,
    );
    assert_valid(&doc);
    assert_eq!(
        doc["packages"],
        json!([{"registryType": "pypi", "identifier": "acme-weather", "version": "1.2.0", "transport": {"type": "stdio"}}])
    );
    let o = Command::new(MCP)
        .args([
            "server-json",
            "--name",
            "io.github.acme/weather",
            "--",
            "python3",
            &fixture(),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("server-json needs --package REGISTRY:SPEC")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_url_is_a_remote_whose_credential_is_declared_not_written() {
    let server = http_server::http_server();
    let doc = server_json(
        &[
            "--name",
            "com.example/everything",
            "--bearer",
            "s3cret",
            "--header",
            "X-Region: eu",
            &server.url,
        ],
        None,
    );
    assert_valid(&doc);
    assert!(!doc.to_string().contains("s3cret"), "{doc}");
    assert_eq!(
        doc["remotes"],
        json!([{
            "type": "streamable-http",
            "url": server.url,
            "headers": [
                {"name": "Authorization", "isRequired": true, "isSecret": true, "description": "The credential this server accepts"},
                {"name": "X-Region", "value": "eu"},
            ],
        }])
    );
    assert_eq!(doc["name"], "com.example/everything");
    // The schema is live: a name without its namespace fails it.
    let mut bad = doc.clone();
    bad["name"] = json!("everything");
    assert!(!validator().is_valid(&bad));
}
