//! A tool registered with `add_tool_validated_by_host` reaches its handler with arguments its
//! `inputSchema` refuses, and its `structuredContent` is not checked against `outputSchema`, while
//! a tool registered with `add_tool` beside it keeps both checks.

mod support;

use libmcp::client::VersionPreference;
use libmcp::server::{Reply, Server, ValidatedByHost, sync_handler};
use serde_json::json;

fn def(name: &str) -> serde_json::Value {
    json!({
        "name": name,
        "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
        "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]},
    })
}

#[tokio::test]
async fn host_checks_replace_the_engine_checks() {
    let server = Server::builder("host-validated", "1.0.0").build().unwrap();
    let echo = || {
        sync_handler(|ctx| {
            Reply::from(json!({
                "content": [{"type": "text", "text": ctx.arguments().to_string()}],
                "structuredContent": {"ok": "not a boolean"},
            }))
        })
    };
    server.add_tool(def("engine"), echo()).unwrap();
    let by_host = |input, output| ValidatedByHost { input, output };
    let both = by_host(true, true);
    for (name, checks) in [("host", both), ("host_input", by_host(true, false))] {
        server
            .add_tool_validated_by_host(def(name), echo(), checks)
            .unwrap();
    }
    // A schema the engine cannot compile is still refused.
    let bad =
        json!({"name": "bad", "inputSchema": {"type": "object", "properties": {"n": {"type": 3}}}});
    assert!(
        server
            .add_tool_validated_by_host(bad, echo(), both)
            .is_err()
    );

    let client =
        support::inprocess::connect(server.clone(), "test-client", VersionPreference::Auto).await;
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 3);

    let r = client
        .call_tool("engine", json!({"n": "seven"}))
        .await
        .unwrap();
    assert!(r.is_error(), "the engine checks arguments: {r:?}");

    let r = client
        .call_tool("host", json!({"n": "seven"}))
        .await
        .unwrap();
    assert!(!r.is_error(), "{r:?}");
    assert_eq!(r.first_text(), Some(r#"{"n":"seven"}"#));

    let r = client.call_tool("host_input", json!({"n": "seven"})).await;
    let err = r.expect_err("the engine still checks structuredContent");
    assert!(err.to_string().contains("outputSchema"), "{err}");
}
