//! The legacy era on the wire: the initialize handshake, version negotiation, legacy-only methods,
//! batching in 2025-03-26, and MRTR handlers served through real server-to-client requests.

mod support;

use serde_json::{Value, json};
use support::fixture;
use support::harness::Wire;

async fn init(w: &mut Wire, version: &str, caps: Value) -> Value {
    let r = w
        .request(json!(0), "initialize", json!({"protocolVersion": version, "capabilities": caps, "clientInfo": {"name": "t", "version": "1"}}))
        .await;
    w.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    r
}

#[tokio::test]
async fn negotiation_echoes_or_counter_offers() {
    for (asked, answered) in [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("2024-11-05", "2024-11-05"),
        ("2099-01-01", "2025-11-25"),
        ("2026-07-28", "2025-11-25"),
    ] {
        let mut w = Wire::start(fixture::server(), answered);
        let r = init(&mut w, asked, json!({})).await;
        assert_eq!(r["result"]["protocolVersion"], answered, "asked {asked}");
        assert_eq!(
            r["result"]["serverInfo"],
            json!({"name": "fixture", "version": "0.1.0"})
        );
        assert_eq!(r["result"]["instructions"], "for tests");
        let r = w
            .request(
                json!(1),
                "tools/call",
                json!({"name": "echo", "arguments": {"text": "x"}}),
            )
            .await;
        assert_eq!(
            r["result"],
            json!({"content": [{"type": "text", "text": "x"}]}),
            "no modern fields on legacy results"
        );
        w.finish().await;
    }
}

#[tokio::test]
async fn requests_before_initialize_get_an_error_and_ping_works() {
    let mut w = Wire::start(fixture::server(), "2025-11-25");
    let r = w.request(json!(1), "tools/list", json!({})).await;
    assert_eq!(r["error"]["code"], -32602);
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("initialize")
    );
    let r = w.request(json!(2), "ping", json!({})).await;
    assert_eq!(r, json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
    init(&mut w, "2025-11-25", json!({})).await;
    assert_eq!(
        w.request(json!(3), "ping", json!({})).await["result"],
        json!({})
    );
    assert_eq!(
        w.request(json!(4), "server/discover", json!({})).await["error"]["code"],
        -32601
    );
    let r = w
        .request(json!(5), "resources/read", json!({"uri": "test://nope"}))
        .await;
    assert_eq!(
        r["error"]["code"], -32002,
        "legacy revisions used -32002 for a missing resource"
    );
    w.finish().await;
}

#[tokio::test]
async fn set_level_filters_session_logs_and_subscriptions_deliver_updates() {
    let server = fixture::server();
    let mut w = Wire::start(server.clone(), "2025-11-25");
    init(&mut w, "2025-11-25", json!({})).await;
    assert_eq!(
        w.request(json!(1), "logging/setLevel", json!({"level": "warning"}))
            .await["result"],
        json!({})
    );
    assert_eq!(
        w.request(json!(2), "logging/setLevel", json!({"level": "loud"}))
            .await["error"]["code"],
        -32602
    );
    let r = w
        .request(json!(3), "tools/call", json!({"name": "slow"}))
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "done");
    assert!(
        w.backlog
            .iter()
            .all(|m| m["method"] != "notifications/message"),
        "info logs are below warning"
    );
    assert_eq!(
        w.request(
            json!(4),
            "resources/subscribe",
            json!({"uri": "test://static"})
        )
        .await["result"],
        json!({})
    );
    server.notify(libmcp::server::Change::ResourceUpdated(
        "test://static".into(),
    ));
    assert_eq!(
        w.recv().await,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "test://static"}})
    );
    server.notify(libmcp::server::Change::ResourceUpdated(
        "test://other".into(),
    ));
    assert!(server.remove_prompt("greet"));
    assert_eq!(
        w.recv().await,
        json!({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed"})
    );
    w.finish().await;
}

#[tokio::test]
async fn mrtr_handlers_become_server_to_client_requests() {
    let mut w = Wire::start(fixture::server(), "2025-11-25");
    init(
        &mut w,
        "2025-11-25",
        json!({"elicitation": {}, "sampling": {}, "roots": {"listChanged": true}}),
    )
    .await;
    w.send(json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "ask"}}))
        .await;
    let req = w.recv().await;
    assert_eq!(req["method"], "elicitation/create");
    assert_eq!(req["params"]["message"], "What is your name?");
    w.send(json!({"jsonrpc": "2.0", "id": req["id"], "result": {"action": "accept", "content": {"name": "Grace"}}})).await;
    assert_eq!(
        w.response_to(&json!(9)).await["result"]["content"][0]["text"],
        "Hello, Grace!"
    );
    // 2025-06-18 knows no `mode`: the engine leaves it out.
    let mut w = Wire::start(fixture::server(), "2025-06-18");
    init(&mut w, "2025-06-18", json!({"elicitation": {}})).await;
    w.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "ask"}}))
        .await;
    let req = w.recv().await;
    assert!(req["params"].get("mode").is_none(), "{req}");
    w.send(json!({"jsonrpc": "2.0", "id": req["id"], "error": {"code": -1, "message": "user closed the dialog"}})).await;
    let r = w.response_to(&json!(1)).await;
    assert_eq!(r["error"]["code"], -32603);
    // A capability the client did not declare is never used: the legacy client hears -32602 naming
    // the capability it lacks, not an internal error of the server.
    let r = w
        .request(json!(2), "tools/call", json!({"name": "sample"}))
        .await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert_eq!(
        r["error"]["data"],
        json!({"requiredCapabilities": {"sampling": {}}})
    );
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("client capability sampling,"),
        "{r}"
    );
    w.finish().await;
}

#[tokio::test]
async fn a_handler_checking_its_answer_refuses_one_that_does_not_match() {
    // The fixture's `ask` reads its answer with `elicitation_answer` and returns its error.
    let mut w = Wire::start(fixture::server(), "2025-11-25");
    init(&mut w, "2025-11-25", json!({"elicitation": {}})).await;
    w.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "ask"}}))
        .await;
    let req = w.recv().await;
    assert_eq!(req["method"], "elicitation/create");
    w.send(json!({"jsonrpc": "2.0", "id": req["id"], "result": {"action": "accept", "content": {"name": 7}}}))
        .await;
    let r = w.response_to(&json!(1)).await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert_eq!(
        r["error"]["message"],
        "Invalid params: the answer to the form elicitation \"user_name\" does not match the requestedSchema: /name: 7 is not of type \"string\"",
    );
    w.finish().await;
}

#[tokio::test]
async fn batches_only_in_2025_03_26() {
    let mut w = Wire::start(fixture::server(), "2025-03-26");
    init(&mut w, "2025-03-26", json!({})).await;
    w.send(json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "b"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "nope"},
        7
    ]))
    .await;
    let batch = w.recv().await;
    let items = batch.as_array().expect("one array answers the batch");
    assert_eq!(items.len(), 4);
    let by_id = |id: Value| {
        items
            .iter()
            .find(|m| m["id"] == id)
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(by_id(json!(1))["result"], json!({}));
    assert_eq!(by_id(json!(2))["result"]["content"][0]["text"], "b");
    assert_eq!(by_id(json!(3))["error"]["code"], -32601);
    assert!(
        items
            .iter()
            .any(|m| m["error"]["code"] == -32600 && m.get("id").is_none())
    );
    let mut w = Wire::start(fixture::server(), "2025-06-18");
    init(&mut w, "2025-06-18", json!({})).await;
    w.send(json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]))
        .await;
    let r = w.recv_unchecked().await;
    assert!(r.get("id").is_none());
    assert_eq!(r["error"]["code"], -32600);
    assert_eq!(
        w.request(json!(2), "ping", json!({})).await["result"],
        json!({})
    );
    w.finish().await;
}

#[tokio::test]
async fn templates_and_completion_change_at_runtime() {
    let server = fixture::server();
    let mut w = Wire::start(server.clone(), "2025-11-25");
    init(&mut w, "2025-11-25", json!({})).await;
    // A round trip, so the session is initialized before the change is announced.
    w.request(json!(0), "ping", json!({})).await;
    server
        .add_resource_template(
            json!({"uriTemplate": "late://{id}", "name": "late"}),
            libmcp::server::sync_handler(|ctx| {
                let id = ctx.template_vars().unwrap()["id"].clone();
                json!({"contents": [{"uri": ctx.uri().unwrap(), "text": id}]})
            }),
        )
        .unwrap();
    assert_eq!(
        w.recv().await,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"})
    );
    let read = w
        .request(json!(1), "resources/read", json!({"uri": "late://7"}))
        .await;
    assert_eq!(read["result"]["contents"][0]["text"], "7");
    server
        .set_completion_handler(Some(libmcp::server::sync_handler(
            |_| json!({"completion": {"values": ["late"]}}),
        )))
        .unwrap();
    let done = w
        .request(
            json!(2),
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": "late://{id}"}, "argument": {"name": "id", "value": ""}}),
        )
        .await;
    assert_eq!(done["result"]["completion"]["values"], json!(["late"]));
    assert!(server.remove_resource_template("late://{id}"));
    assert!(!server.remove_resource_template("late://{id}"));
    assert_eq!(
        w.recv().await,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"})
    );
    let gone = w
        .request(json!(3), "resources/read", json!({"uri": "late://7"}))
        .await;
    assert!(gone.get("error").is_some(), "{gone}");
    w.finish().await;
}
