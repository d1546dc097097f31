//! The 2026-07-28 era on the wire: exact messages, every one validated against the official schema.

mod support;

use serde_json::json;
use support::fixture;
use support::harness::{Wire, modern, modern_with};

const REV: &str = "2026-07-28";

#[tokio::test]
async fn discover_lists_and_results_carry_the_modern_fields() {
    let mut w = Wire::start(fixture::server(), REV);
    let r = w
        .request(json!(1), "server/discover", modern(json!({})))
        .await;
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "resultType": "complete",
            "supportedVersions": ["2026-07-28"],
            "capabilities": {
                "logging": {}, "tools": {"listChanged": true}, "resources": {"subscribe": true, "listChanged": true},
                "prompts": {"listChanged": true}, "completions": {}
            },
            "instructions": "for tests",
            "ttlMs": 0, "cacheScope": "private",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fixture", "version": "0.1.0"}}
        }})
    );
    let r = w.request(json!("t"), "tools/list", modern(json!({}))).await;
    let result = &r["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["ttlMs"], 0);
    assert_eq!(result["cacheScope"], "private");
    let names: Vec<&str> = result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "echo",
            "slow",
            "ask",
            "sample",
            "roots",
            "url",
            "bad_form",
            "structured",
            "panics",
            "later"
        ]
    );
    let r = w
        .request(
            json!(2),
            "tools/call",
            modern(json!({"name": "echo", "arguments": {"text": "hi"}})),
        )
        .await;
    assert_eq!(
        r["result"],
        json!({"resultType": "complete", "content": [{"type": "text", "text": "hi"}],
               "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fixture", "version": "0.1.0"}}})
    );
    let r = w
        .request(
            json!(3),
            "resources/read",
            modern(json!({"uri": "test://items/42"})),
        )
        .await;
    assert_eq!(r["result"]["contents"][0]["text"], "item 42");
    assert_eq!(r["result"]["ttlMs"], 0);
    let r = w
        .request(
            json!(4),
            "prompts/get",
            modern(json!({"name": "greet", "arguments": {"who": "Ada"}})),
        )
        .await;
    assert_eq!(r["result"]["messages"][0]["content"]["text"], "Hi Ada");
    let r = w
        .request(json!(5), "completion/complete", modern(json!({"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "who", "value": "al"}})))
        .await;
    assert_eq!(
        r["result"]["completion"]["values"],
        json!(["alpha", "alps"])
    );
    w.finish().await;
}

#[tokio::test]
async fn version_shape_and_removed_methods() {
    let mut w = Wire::start(fixture::server(), REV);
    let mut p = modern(json!({}));
    p["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let r = w.request(json!(1), "tools/list", p).await;
    assert_eq!(
        r["error"],
        json!({"code": -32022, "message": "Unsupported protocol version", "data": {"supported": ["2026-07-28"], "requested": "2099-01-01"}})
    );
    let mut p = modern(json!({}));
    p["_meta"]
        .as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientCapabilities");
    let r = w.request(json!(2), "tools/list", p).await;
    assert_eq!(r["error"]["code"], -32602);
    let r = w.request(json!(3), "tools/list", json!({})).await;
    assert_eq!(r["error"]["code"], -32602);
    for (i, m) in [
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "nope/nope",
    ]
    .iter()
    .enumerate()
    {
        let r = w
            .request(
                json!(10 + i),
                m,
                modern(json!({"uri": "x", "level": "info"})),
            )
            .await;
        assert_eq!(r["error"]["code"], -32601, "{m}");
        assert_eq!(r["id"], json!(10 + i));
    }
    let mut p = modern(json!({}));
    p["_meta"]["io.modelcontextprotocol/logLevel"] = json!("loud");
    assert_eq!(
        w.request(json!(20), "tools/list", p).await["error"]["code"],
        -32602
    );
    let r = w
        .request(json!(21), "tools/call", modern(json!({"name": "missing"})))
        .await;
    assert_eq!(r["error"]["code"], -32602);
    let r = w
        .request(
            json!(22),
            "resources/read",
            modern(json!({"uri": "test://nope"})),
        )
        .await;
    assert_eq!(r["error"]["code"], -32602);
    assert_eq!(r["error"]["data"], json!({"uri": "test://nope"}));
    let r = w
        .request(json!(23), "prompts/get", modern(json!({"name": "greet"})))
        .await;
    assert_eq!(r["error"]["code"], -32602);
    let r = w
        .request(json!(24), "tools/list", modern(json!({"cursor": "bogus"})))
        .await;
    assert_eq!(r["error"]["code"], -32602);
    w.finish().await;
}

#[tokio::test]
async fn tool_failures_are_results_and_outputs_are_checked() {
    let mut w = Wire::start(fixture::server(), REV);
    let r = w
        .request(
            json!(1),
            "tools/call",
            modern(json!({"name": "echo", "arguments": {}})),
        )
        .await;
    assert_eq!(r["result"]["isError"], true);
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Input validation error")
    );
    let r = w
        .request(
            json!(2),
            "tools/call",
            modern(json!({"name": "structured", "arguments": {"good": true}})),
        )
        .await;
    assert_eq!(r["result"]["structuredContent"], json!({"n": 7}));
    assert_eq!(
        r["result"]["content"],
        json!([{"type": "text", "text": "{\"n\":7}"}])
    );
    let r = w
        .request(
            json!(3),
            "tools/call",
            modern(json!({"name": "structured", "arguments": {}})),
        )
        .await;
    assert_eq!(r["error"]["code"], -32603);
    let r = w
        .request(json!(4), "tools/call", modern(json!({"name": "panics"})))
        .await;
    assert_eq!(r["error"]["code"], -32603);
    let r = w
        .request(json!(5), "tools/call", modern(json!({"name": "later"})))
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "from another thread");
    let r = w
        .request(
            json!(6),
            "tools/call",
            modern(json!({"name": "echo", "arguments": [1]})),
        )
        .await;
    assert_eq!(r["error"]["code"], -32602);
    w.finish().await;
}

#[tokio::test]
async fn progress_and_logs_only_when_asked_and_before_the_result() {
    let mut w = Wire::start(fixture::server(), REV);
    let mut p = modern(json!({"name": "slow"}));
    p["_meta"]["progressToken"] = json!("tok");
    p["_meta"]["io.modelcontextprotocol/logLevel"] = json!("info");
    let r = w.request(json!(1), "tools/call", p).await;
    assert_eq!(r["result"]["content"][0]["text"], "done");
    let progress: Vec<_> = w
        .backlog
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .collect();
    assert_eq!(progress.len(), 3);
    assert_eq!(
        progress[0]["params"],
        json!({"progressToken": "tok", "progress": 1.0, "total": 3.0, "message": "working"})
    );
    let logs: Vec<_> = w
        .backlog
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .collect();
    assert_eq!(logs.len(), 3);
    assert_eq!(
        logs[0]["params"],
        json!({"level": "info", "logger": "slow", "data": "step 1"})
    );
    w.backlog.clear();
    let r = w
        .request(json!(2), "tools/call", modern(json!({"name": "slow"})))
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "done");
    assert!(
        w.backlog.is_empty(),
        "no progress token and no logLevel: no notifications, got {:?}",
        w.backlog
    );
    w.finish().await;
}

#[tokio::test]
async fn cancellation_silences_the_request() {
    let mut w = Wire::start(fixture::server(), REV);
    w.send(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": modern(json!({"name": "slow"}))})).await;
    w.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7, "reason": "bored"}})).await;
    w.expect_silence(400).await;
    // The id is free again after cancellation.
    let r = w
        .request(
            json!(7),
            "tools/call",
            modern(json!({"name": "echo", "arguments": {"text": "again"}})),
        )
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "again");
    w.finish().await;
}

#[tokio::test]
async fn listen_acknowledges_first_and_tags_every_notification() {
    let server = fixture::server();
    let mut w = Wire::start(server.clone(), REV);
    w.send(json!({"jsonrpc": "2.0", "id": "L", "method": "subscriptions/listen",
        "params": modern(json!({"notifications": {"toolsListChanged": true, "resourceSubscriptions": ["test://static"], "unknownKind": true}}))}))
        .await;
    let ack = w.recv().await;
    assert_eq!(
        ack,
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
            "_meta": {"io.modelcontextprotocol/subscriptionId": "L"},
            "notifications": {"toolsListChanged": true, "resourceSubscriptions": ["test://static"]}}})
    );
    assert!(server.remove_tool("echo"));
    assert_eq!(
        w.recv().await,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": "L"}}})
    );
    server.notify(libmcp::server::Change::Prompts);
    server.notify(libmcp::server::Change::ResourceUpdated(
        "test://static".into(),
    ));
    assert_eq!(
        w.recv().await,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": "L"}, "uri": "test://static"}})
    );
    w.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "L"}})).await;
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    server.notify(libmcp::server::Change::Tools);
    w.expect_silence(200).await;
    w.finish().await;
}

#[tokio::test]
async fn capabilities_are_checked_per_request() {
    let mut w = Wire::start(fixture::server(), REV);
    let r = w
        .request(
            json!(1),
            "tools/call",
            modern_with(json!({"name": "ask"}), json!({})),
        )
        .await;
    assert_eq!(
        r["error"],
        json!({"code": -32021, "message": "Missing required client capability", "data": {"requiredCapabilities": {"elicitation": {"form": {}}}}})
    );
    let r = w
        .request(
            json!(2),
            "tools/call",
            modern_with(json!({"name": "url"}), json!({"elicitation": {}})),
        )
        .await;
    assert_eq!(
        r["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {"url": {}}})
    );
    let r = w
        .request(
            json!(3),
            "tools/call",
            modern_with(json!({"name": "url"}), json!({"elicitation": {"url": {}}})),
        )
        .await;
    assert_eq!(r["result"]["resultType"], "input_required");
    w.finish().await;
}
