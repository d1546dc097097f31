//! The conformance client scenarios: the `everything-client` binary against the `everything-server`
//! over stdio, and the scenario functions against an in-process server that plays the suite's mock
//! servers (add_numbers, test_client_elicitation_defaults, json_schema_echo, test_mrtr_*).

use std::process::{Command, Output};
use std::sync::Arc;

use libmcp::client::VersionPreference;
use libmcp::server::{InputRequired, Reply, Server};
use libmcp::{Era, ProtocolVersion};
use libmcp_examples::scenarios;
use record::Log;
use serde_json::{Value, json};

const CLIENT: &str = env!("CARGO_BIN_EXE_everything-client");
const SERVER: &str = env!("CARGO_BIN_EXE_everything-server");

fn client_bin(scenario: &str, version: &str, args: &[&str]) -> Output {
    Command::new(CLIENT)
        .args(args)
        .env("MCP_CONFORMANCE_SCENARIO", scenario)
        .env("MCP_CONFORMANCE_PROTOCOL_VERSION", version)
        .output()
        .expect("everything-client runs")
}

#[test]
fn binary_runs_initialize_against_everything_server_in_both_eras() {
    for version in ["2025-11-25", "2026-07-28"] {
        let o = client_bin("initialize", version, &[SERVER]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{version}: {err}");
        assert!(err.contains("scenario initialize passed"), "{err}");
    }
}

#[test]
fn binary_rejects_unknown_scenarios_and_unreachable_urls() {
    let o = client_bin("bogus", "2025-11-25", &[SERVER]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "Unknown scenario: bogus\n"
    );
    // A URL is spoken to over HTTP: nothing listens on port 1, so connecting fails (exit 1).
    let o = client_bin("initialize", "2025-11-25", &["http://127.0.0.1:1/mcp"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("cannot connect to http://127.0.0.1:1/mcp")
    );
    let o = client_bin(
        "auth/metadata-default",
        "2025-11-25",
        &["http://127.0.0.1:1/mcp"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("cannot connect to http://127.0.0.1:1/mcp")
    );
    // The OAuth extension scenarios take their credentials from the context; without it they
    // stop before connecting and say what is missing.
    let o = client_bin(
        "auth/client-credentials-basic",
        "2026-07-28",
        &["http://127.0.0.1:1/mcp"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "everything-client: MCP_CONFORMANCE_CONTEXT has no string \"client_id\"\n"
    );
    // tools_call needs add_numbers, which the everything-server (rightly) does not have.
    let o = client_bin("tools_call", "2026-07-28", &[SERVER]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Unknown tool: add_numbers"));
}

/// A tiny shared log of what the mock server saw.
mod record {
    use std::sync::Mutex;

    use serde_json::Value;

    #[derive(Default)]
    pub struct Log(Mutex<Vec<(String, Value)>>);

    impl Log {
        pub fn push(&self, tool: &str, v: Value) {
            self.0.lock().unwrap().push((tool.to_string(), v));
        }
        pub fn take(&self) -> Vec<(String, Value)> {
            std::mem::take(&mut self.0.lock().unwrap())
        }
    }
}

fn schema_2020_12() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {"city": {"type": "string"}}}},
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
        "additionalProperties": false
    })
}

fn defaults_form() -> Value {
    json!({"type": "object", "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
        "verified": {"type": "boolean", "default": true},
    }})
}

fn mock_server(log: Arc<Log>) -> Server {
    let name_form =
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    let (l1, l2, l3, l4, l5, l6) = (
        log.clone(),
        log.clone(),
        log.clone(),
        log.clone(),
        log.clone(),
        log,
    );
    let nf = name_form.clone();
    Server::builder("mock", "1.0.0")
        .tool(json!({"name": "add_numbers", "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}),
            move |_ctx, args| {
                l1.push("add_numbers", args.clone());
                Reply::text(format!("{}", args["a"].as_f64().unwrap_or(0.0) + args["b"].as_f64().unwrap_or(0.0)))
            })
        .tool(json!({"name": "test_client_elicitation_defaults"}), move |ctx, _| match ctx.input_response("defaults") {
            Some(answer) => { l2.push("test_client_elicitation_defaults", answer.clone()); Reply::text("ok") }
            None => InputRequired::new().elicit("defaults", "Defaults please", defaults_form()).into(),
        })
        .tool(json!({"name": "json_schema_2020_12_tool", "inputSchema": schema_2020_12()}), |_ctx, _| Reply::text("ok"))
        .tool(json!({"name": "json_schema_echo"}), move |_ctx, args| { l3.push("json_schema_echo", args["schema"].clone()); Reply::text("ok") })
        .tool(json!({"name": "test_mrtr_echo_state"}), move |ctx, _| match ctx.input_response("ask") {
            Some(a) => { l4.push("test_mrtr_echo_state", json!({"state": ctx.request_state(), "answer": a})); Reply::text("ok") }
            None => InputRequired::new().elicit("ask", "Name?", name_form.clone()).with_state("opaque-state-1").into(),
        })
        .tool(json!({"name": "test_mrtr_unrelated"}), move |ctx, _| {
            l5.push("test_mrtr_unrelated", json!({"inputResponses": ctx.params().get("inputResponses"), "requestState": ctx.params().get("requestState")}));
            Reply::text("ok")
        })
        .tool(json!({"name": "test_mrtr_no_state"}), move |ctx, _| match ctx.input_response("ask") {
            Some(_) => { l6.push("test_mrtr_no_state", json!({"requestState": ctx.params().get("requestState")})); Reply::text("ok") }
            None => InputRequired::new().elicit("ask", "Name?", nf.clone()).into(),
        })
        .tool(json!({"name": "test_mrtr_no_result_type"}), |_ctx, _| Reply::text("ok"))
        .build()
        .unwrap()
}

async fn run(scenario: &str, pref: VersionPreference) -> Vec<(String, Value)> {
    let log = Arc::new(Log::default());
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server_io);
    let server = mock_server(log.clone());
    tokio::spawn(async move { libmcp::transport::stdio::serve(server, sr, sw).await });
    let (cr, cw) = tokio::io::split(client_io);
    let client = scenarios::client_builder()
        .version_preference(pref)
        .connect_io(cr, cw)
        .await
        .unwrap();
    let outcome = scenarios::run(scenario, &client, &json!({})).await;
    client.close().await;
    outcome.unwrap_or_else(|e| panic!("{scenario}: {e}"));
    log.take()
}

fn eras() -> [(VersionPreference, Era); 2] {
    [
        (
            VersionPreference::Legacy(ProtocolVersion::V2025_11_25),
            Era::Legacy,
        ),
        (
            VersionPreference::Modern(ProtocolVersion::V2026_07_28),
            Era::Modern,
        ),
    ]
}

#[tokio::test]
async fn shared_scenarios_in_both_eras() {
    for (pref, era) in eras() {
        assert_eq!(run("initialize", pref.clone()).await, vec![], "{era:?}");
        assert_eq!(
            run("tools_call", pref.clone()).await,
            vec![("add_numbers".to_string(), json!({"a": 5, "b": 3}))],
            "{era:?}"
        );
        assert_eq!(
            run("elicitation-sep1034-client-defaults", pref.clone()).await,
            vec![(
                "test_client_elicitation_defaults".to_string(),
                json!({"action": "accept", "content": {"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": true}})
            )],
            "{era:?}"
        );
        assert_eq!(
            run("json-schema-2020-12-preservation", pref.clone()).await,
            vec![("json_schema_echo".to_string(), schema_2020_12())],
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn modern_scenarios() {
    let modern = VersionPreference::Modern(ProtocolVersion::V2026_07_28);
    assert_eq!(
        run("request-metadata", modern.clone()).await,
        vec![("add_numbers".to_string(), json!({"a": 5, "b": 3}))]
    );
    let log = run("sep-2322-client-request-state", modern).await;
    assert_eq!(
        log,
        vec![
            (
                "test_mrtr_echo_state".to_string(),
                json!({"state": "opaque-state-1", "answer": {"action": "accept", "content": {"name": "conformance"}}})
            ),
            (
                "test_mrtr_unrelated".to_string(),
                json!({"inputResponses": null, "requestState": null})
            ),
            (
                "test_mrtr_no_state".to_string(),
                json!({"requestState": null})
            ),
        ]
    );
}

#[test]
fn era_follows_the_protocol_version() {
    use scenarios::version_preference as pref;
    assert_eq!(pref("initialize", None), VersionPreference::Auto);
    assert_eq!(
        pref("initialize", Some("2025-06-18")),
        VersionPreference::Legacy(ProtocolVersion::V2025_06_18)
    );
    assert_eq!(
        pref("tools_call", Some("2026-07-28")),
        VersionPreference::Modern(ProtocolVersion::V2026_07_28)
    );
    assert_eq!(
        pref("json-schema-ref-no-deref", Some("2026-07-28")),
        VersionPreference::Legacy(ProtocolVersion::V2025_11_25)
    );
}
