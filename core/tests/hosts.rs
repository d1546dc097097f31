//! The Rust side of the cross-host test: every case of `tests/hosts/expectations.json` (the file the
//! C, Python and Node tests read too) answered by the binding kit exactly as written there.

mod support;

use libmcp::client::VersionPreference;
use libmcp::server::Server;
use serde_json::Value;

fn expectations() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/hosts/expectations.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} missing in {v}"))
}

#[test]
fn version_preference() {
    let all = expectations();
    let section = &all["version_preference"];
    assert_eq!(text(&section["option"], "rust"), "version_preference");
    let cases = section["cases"].as_array().unwrap();
    assert!(cases.len() >= 5, "the cases are read");
    for case in cases {
        let input = text(case, "input");
        let got = libmcp::host::version_preference(Some(input));
        match case.get("refused") {
            None => {
                let era = match got {
                    Ok(VersionPreference::Auto) => "auto",
                    Ok(VersionPreference::Modern(v)) if v.as_str() == input => "modern",
                    Ok(VersionPreference::Legacy(v)) if v.as_str() == input => "legacy",
                    other => panic!("{input:?}: {other:?}"),
                };
                assert_eq!(era, text(case, "era"), "{input:?}");
            }
            Some(kind) => {
                let kind = kind.as_str().unwrap();
                assert_eq!(text(&all["kinds"][kind], "rust"), "ConfigError");
                let e = got.expect_err(input);
                assert_eq!(e.field, text(&section["option"], "rust"));
                assert_eq!(e.reason, text(case, "reason"), "{input:?}");
                assert_eq!(
                    e.to_string(),
                    format!("{}: {}", e.field, text(case, "reason"))
                );
            }
        }
    }
    // Absent is the default, the same as "auto".
    assert_eq!(
        libmcp::host::version_preference(None),
        Ok(VersionPreference::Auto)
    );
}

/// The server of the cross-host test, as the expectations describe it.
fn hosts_server(instructions: Option<&str>) -> Server {
    let mut b = Server::builder("hosts", "1.0.0");
    if let Some(i) = instructions {
        b = b.instructions(i);
    }
    b.build().unwrap()
}

#[tokio::test]
async fn server_description() {
    let all = expectations();
    let section = &all["server_description"];
    let cases = section["cases"].as_array().unwrap();
    assert!(cases.len() >= 2, "the cases are read");
    for case in cases {
        let version = text(case, "protocol_version");
        let pref = libmcp::host::version_preference(Some(version)).unwrap();
        let server = hosts_server(case["instructions"].as_str());
        let client = support::inprocess::connect(server, "hosts", pref).await;
        let got = libmcp::host::server_description(&client.server());
        let mut keys: Vec<&String> = got.as_object().unwrap().keys().collect();
        keys.sort();
        let mut want_keys: Vec<String> = serde_json::from_value(section["keys"].clone()).unwrap();
        want_keys.sort();
        assert_eq!(keys, want_keys.iter().collect::<Vec<_>>(), "{version}");
        for (k, v) in case["expected"].as_object().unwrap() {
            assert_eq!(&got[k], v, "{version}: {k} in {got}");
        }
        client.close().await;
    }
}

#[test]
fn task_poll_interval() {
    use libmcp::host::{Host, server_option, validate_server_config};
    use libmcp::server::ServerConfig;
    let all = expectations();
    let section = &all["task_poll_interval"];
    let field = text(&section["option"], "rust");
    // The kit's table of option names is the one the other surfaces are checked against.
    for (host, name) in [
        (Host::Rust, "rust"),
        (Host::C, "c"),
        (Host::Python, "python"),
        (Host::Node, "node"),
    ] {
        assert_eq!(
            server_option(host, "task_poll_interval_ms"),
            text(&section["option"], name)
        );
    }
    let cases = section["cases"].as_array().unwrap();
    assert!(cases.len() >= 2, "the cases are read");
    for case in cases {
        let ms = case["input"].as_u64().unwrap();
        let config = ServerConfig {
            task_poll_interval_ms: ms,
            ..ServerConfig::default()
        };
        match (validate_server_config(&config), case.get("refused")) {
            (Ok(()), None) => {}
            (Err(e), Some(kind)) => {
                assert_eq!(
                    text(&all["kinds"][kind.as_str().unwrap()], "rust"),
                    "ConfigError"
                );
                assert_eq!(e.field, field);
                assert_eq!(e.reason, text(case, "reason"));
            }
            (got, want) => panic!("{ms} ms: {got:?}, expected refusal {want:?}"),
        }
    }
}

/// The server of the `tool_result` cases: each case's tool, its handler answering through the
/// kit's [`ToolResult`](libmcp::host::ToolResult) as a host converts its values.
fn tool_result_server(cases: &[Value]) -> Server {
    use libmcp::host::{ToolResult, answer_tool};
    use std::sync::Arc;
    let mut b = Server::builder("hosts", "1.0.0");
    for case in cases {
        let mut definition = serde_json::json!({"name": text(case, "tool")});
        if let Some(schema) = case.get("output_schema") {
            definition["outputSchema"] = schema.clone();
        }
        let outcome = match (case.get("returns"), case.get("throws")) {
            (_, Some(message)) => ToolResult::Error(message.as_str().unwrap().to_owned()),
            (Some(Value::Null), None) => ToolResult::Nothing,
            (Some(Value::String(text)), None) => ToolResult::Text(text.clone()),
            (Some(value), None) => ToolResult::Json(value.clone()),
            (None, None) => panic!("a case that neither returns nor throws: {case}"),
        };
        b = b.tool_handler(
            definition,
            Arc::new(move |_ctx, responder| {
                // A refusal is reported by the engine's diagnostic, checked below.
                let _ = answer_tool(responder, outcome.clone());
            }),
        );
    }
    b.build().unwrap()
}

#[tokio::test]
async fn tool_result() {
    use libmcp::host::{Diagnostic, DiagnosticLevel, set_diagnostics_sink};
    use std::sync::{Arc, Mutex};
    let all = expectations();
    let cases = all["tool_result"]["cases"].as_array().unwrap().clone();
    assert!(cases.len() >= 3, "the cases are read");
    let seen: Arc<Mutex<Vec<Diagnostic>>> = Arc::default();
    let sink = seen.clone();
    set_diagnostics_sink(
        DiagnosticLevel::Warn,
        &[],
        Some(Arc::new(move |d: &Diagnostic| {
            sink.lock().unwrap().push(d.clone())
        })),
    )
    .unwrap();
    for version in ["2026-07-28", "2025-11-25"] {
        let pref = libmcp::host::version_preference(Some(version)).unwrap();
        let client = support::inprocess::connect(tool_result_server(&cases), "hosts", pref).await;
        for case in &cases {
            let tool = text(case, "tool");
            seen.lock().unwrap().clear();
            let got = client.call_tool_raw(tool, serde_json::json!({})).await;
            match case.get("error") {
                None => {
                    let got = got.unwrap_or_else(|e| panic!("{version} {tool}: {e}"));
                    for (k, v) in case["expected"].as_object().unwrap() {
                        assert_eq!(&got[k], v, "{version} {tool}: {k} in {got}");
                    }
                    if case["expected"].get("isError").is_none() {
                        assert_eq!(got.get("isError"), None, "{version} {tool}: {got}");
                    }
                }
                Some(want) => {
                    let Err(libmcp::Error::Rpc(e)) = got else {
                        panic!("{version} {tool}: {got:?}")
                    };
                    assert_eq!(i64::from(e.code), want["code"].as_i64().unwrap());
                    assert_eq!(e.message, text(want, "message"), "{version} {tool}");
                    let diagnostic = &case["diagnostic"];
                    let seen = seen.lock().unwrap();
                    let d = seen
                        .iter()
                        .find(|d| d.target == text(diagnostic, "target"))
                        .unwrap_or_else(|| panic!("{version} {tool}: no diagnostic in {seen:?}"));
                    assert_eq!(d.level.name(), text(diagnostic, "level"));
                    assert_eq!(d.message, text(diagnostic, "message"), "{version} {tool}");
                    assert_eq!(&Value::Object(d.fields.clone()), &diagnostic["fields"]);
                    assert_eq!(d.text, text(diagnostic, "text"), "{version} {tool}");
                }
            }
        }
        client.close().await;
    }
    set_diagnostics_sink(DiagnosticLevel::Warn, &[], None).unwrap();
}
