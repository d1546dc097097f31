//! A host answering feature methods the specification defines with its own handlers (as the SDKs'
//! low-level servers do): the capabilities it declares, its answers shaped and checked for the
//! revision, the request checked before its handler runs, input rounds from its handler, the era
//! rules, and the refusals (a method the engine keeps, no capability declared, an owned method
//! beside the engine's items for it). Every message the server sends is checked against the
//! revision's official schema by the harness.

mod support;

use libmcp::server::{InputRequired, Reply, Server, ServerBuilder, sync_handler};
use serde_json::{Value, json};
use support::harness::{Wire, modern};

const TASK: &str = "t-1";

fn task(status: &str) -> Value {
    json!({"taskId": TASK, "status": status, "ttl": 60000, "pollInterval": 1000,
        "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:00Z"})
}

fn tools() -> Value {
    json!({"tools": [{"name": "confirm", "inputSchema": {"type": "object"},
        "execution": {"taskSupport": "required"}}]})
}

/// A server whose host answers tools/list, tools/call, tasks/get and tasks/result itself.
fn owning() -> ServerBuilder {
    Server::builder("owner", "1.0.0")
        .declare_capabilities(json!({"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}}))
        .method_handler("tools/list", sync_handler(|_| tools()))
        .method_handler(
            "tools/call",
            sync_handler(|ctx| match (ctx.name(), ctx.params().get("task")) {
                (Some("broken"), _) => json!({"content": "not an array"}).into(),
                (Some("ask"), _) => match ctx.input_response("name") {
                    Some(a) => Reply::text(format!("hello {}", a["content"]["name"])),
                    None => InputRequired::new()
                        .elicit(
                            "name",
                            "Name?",
                            json!({"type": "object", "properties": {"name": {"type": "string"}}}),
                        )
                        .into(),
                },
                (_, Some(_)) => json!({"task": task("working")}).into(),
                _ => json!({"content": [{"type": "text", "text": "called"}]}).into(),
            }),
        )
        .method_handler("tasks/get", sync_handler(|_| task("input_required")))
        .method_handler(
            "tasks/result",
            sync_handler(|ctx| match ctx.input_response("confirm") {
                Some(a) => {
                    let yes = a["content"]["confirm"] == json!(true);
                    let text = if yes { "Deleted" } else { "Kept" };
                    Reply::from(json!({"content": [{"type": "text", "text": text}]}))
                }
                None => InputRequired::new()
                    .elicit(
                        "confirm",
                        "Delete it?",
                        json!({"type": "object", "properties": {"confirm": {"type": "boolean"}}}),
                    )
                    .into(),
            }),
        )
}

async fn init(w: &mut Wire, caps: Value) -> Value {
    let r = w
        .request(json!(0), "initialize", json!({"protocolVersion": "2025-11-25", "capabilities": caps, "clientInfo": {"name": "t", "version": "1"}}))
        .await;
    w.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    r
}

#[tokio::test]
async fn a_legacy_session_is_served_by_the_hosts_handlers() {
    let mut w = Wire::start(owning().build().unwrap(), "2025-11-25");
    let r = init(&mut w, json!({"elicitation": {"form": {}}})).await;
    assert_eq!(
        r["result"]["capabilities"],
        json!({"logging": {}, "tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}})
    );
    let r = w.request(json!(1), "tools/list", json!({})).await;
    assert_eq!(r, json!({"jsonrpc": "2.0", "id": 1, "result": tools()}));
    // A call made as a task is answered with the task the host created (CreateTaskResult).
    let r = w
        .request(
            json!(2),
            "tools/call",
            json!({"name": "confirm", "arguments": {}, "task": {"ttl": 60000}}),
        )
        .await;
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "id": 2, "result": {"task": task("working")}})
    );
    let r = w
        .request(json!(3), "tasks/get", json!({"taskId": TASK}))
        .await;
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "id": 3, "result": task("input_required")})
    );
    // The host's tasks/result asks the client through a real server-to-client request.
    w.send(
        json!({"jsonrpc": "2.0", "id": 4, "method": "tasks/result", "params": {"taskId": TASK}}),
    )
    .await;
    let ask = w.recv().await;
    assert_eq!(ask["method"], "elicitation/create", "{ask}");
    assert_eq!(
        ask["params"],
        json!({"mode": "form", "message": "Delete it?",
            "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}}})
    );
    w.send(json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"confirm": true}}}))
        .await;
    assert_eq!(
        w.response_to(&json!(4)).await,
        json!({"jsonrpc": "2.0", "id": 4, "result": {"content": [{"type": "text", "text": "Deleted"}]}})
    );
    // The request is checked against the revision's schema before the host's handler runs.
    let r = w
        .request(json!(5), "tools/call", json!({"arguments": {}}))
        .await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert_eq!(
        r["error"]["message"],
        "Invalid params: the tools/call request does not match CallToolRequest of 2025-11-25: \
         /params: \"name\" is a required property"
    );
    // A result that breaks the revision's schema is never sent.
    let r = w
        .request(json!(6), "tools/call", json!({"name": "broken"}))
        .await;
    assert_eq!(r["error"]["code"], -32603, "{r}");
    assert_eq!(
        r["error"]["message"],
        "Internal error: the host's handler of tools/call answered a result that does not match \
         CallToolResult of 2025-11-25: /content: \"not an array\" is not of type \"array\""
    );
    // A method the host does not own stays the engine's: nothing offers tasks/list here.
    let r = w.request(json!(7), "tasks/list", json!({})).await;
    assert_eq!(r["error"]["code"], -32601, "{r}");
    w.finish().await;
}

#[tokio::test]
async fn a_modern_request_gets_the_era_rules_and_the_declared_capabilities() {
    let mut w = Wire::start(owning().build().unwrap(), "2026-07-28");
    let r = w
        .request(json!(1), "server/discover", modern(json!({})))
        .await;
    assert_eq!(
        r["result"]["capabilities"],
        json!({"logging": {}, "tools": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
    );
    let r = w.request(json!(2), "tools/list", modern(json!({}))).await;
    assert_eq!(
        r["result"],
        json!({"tools": [{"name": "confirm", "inputSchema": {"type": "object"},
                "execution": {"taskSupport": "required"}}],
            "resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "owner", "version": "1.0.0"}}})
    );
    let r = w
        .request(
            json!(3),
            "tools/call",
            modern(json!({"name": "plain", "arguments": {}})),
        )
        .await;
    assert_eq!(
        r["result"],
        json!({"content": [{"type": "text", "text": "called"}], "resultType": "complete",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "owner", "version": "1.0.0"}}})
    );
    // The host's handler asks the client in an input round (MRTR), as a registered handler does.
    let r = w
        .request(
            json!(5),
            "tools/call",
            modern(json!({"name": "ask", "arguments": {}})),
        )
        .await;
    assert_eq!(r["result"]["resultType"], "input_required", "{r}");
    assert_eq!(
        r["result"]["inputRequests"],
        json!({"name": {"method": "elicitation/create", "params": {"mode": "form", "message": "Name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}}})
    );
    let mut retry = json!({"name": "ask", "arguments": {},
        "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}}});
    if let Some(state) = r["result"].get("requestState") {
        retry["requestState"] = state.clone();
    }
    let r = w.request(json!(6), "tools/call", modern(retry)).await;
    assert_eq!(
        r["result"]["content"],
        json!([{"type": "text", "text": "hello \"Ada\""}])
    );
    // tasks/result exists in 2025-11-25 only.
    let r = w
        .request(json!(4), "tasks/result", modern(json!({"taskId": TASK})))
        .await;
    assert_eq!(r["error"]["code"], -32601, "{r}");
    w.finish().await;
}

fn refusal(e: libmcp::Error) -> String {
    e.to_string()
}

#[test]
fn owning_a_method_beside_the_engines_items_for_it_is_refused() {
    let tool = json!({"name": "echo", "inputSchema": {"type": "object"}});
    let e = Server::builder("s", "1")
        .declare_capabilities(json!({"tools": {}}))
        .tool(tool.clone(), |_, _| Reply::text("x"))
        .method_handler("tools/call", sync_handler(|_| json!({})))
        .build()
        .map(|_| ())
        .unwrap_err();
    let e = refusal(e);
    assert!(
        e.contains(
            "tools/call is answered by the host's own handler, and tool \"echo\" is registered, \
             which the engine would answer tools/call for: register one or the other"
        ),
        "{e}"
    );
    // Without its capability declared.
    let e = refusal(
        Server::builder("s", "1")
            .method_handler("prompts/get", sync_handler(|_| json!({})))
            .build()
            .map(|_| ())
            .unwrap_err(),
    );
    assert!(
        e.contains(
            "answering prompts/get needs the prompts capability declared first (declare_capabilities)"
        ),
        "{e}"
    );
    // A method the engine keeps.
    let e = refusal(
        Server::builder("s", "1")
            .method_handler("ping", sync_handler(|_| json!({})))
            .build()
            .map(|_| ())
            .unwrap_err(),
    );
    assert!(e.contains("method \"ping\" cannot have a handler of its own: the specification defines it, and the engine answers it itself"), "{e}");

    // At runtime, whichever comes second is refused.
    let server = Server::builder("s", "1").build().unwrap();
    server
        .declare_capabilities(json!({"tools": {}, "resources": {}}))
        .unwrap();
    server
        .add_tool(tool.clone(), sync_handler(|_| Reply::text("x")))
        .unwrap();
    let e = refusal(
        server
            .set_method_handler("tools/list", Some(sync_handler(|_| json!({"tools": []}))))
            .unwrap_err(),
    );
    assert!(
        e.contains(
            "tools/list is answered by the host's own handler, and tool \"echo\" is registered"
        ),
        "{e}"
    );
    server
        .set_method_handler(
            "resources/read",
            Some(sync_handler(|_| json!({"contents": []}))),
        )
        .unwrap();
    let e = refusal(
        server
            .add_resource(
                json!({"uri": "a://b", "name": "b"}),
                sync_handler(|_| json!({"contents": []})),
            )
            .unwrap_err(),
    );
    assert!(e.contains("resources/read is answered by the host's own handler, and resource \"a://b\" is registered"), "{e}");
    let e = refusal(
        server
            .set_resource_lister(Some(sync_handler(|_| json!({"resources": []}))))
            .unwrap_err(),
    );
    assert!(e.contains("and a resource lister is registered"), "{e}");
    // Removed, the engine's own items are welcome again; a second removal finds nothing.
    assert!(server.remove_method_handler("resources/read").unwrap());
    assert!(!server.remove_method_handler("resources/read").unwrap());
    server
        .add_resource(
            json!({"uri": "a://b", "name": "b"}),
            sync_handler(|_| json!({"contents": []})),
        )
        .unwrap();
    let e = refusal(server.remove_method_handler("rpc.x").unwrap_err());
    assert!(e.contains("JSON-RPC 2.0 reserves names"), "{e}");
    let e = refusal(server.declare_capabilities(json!(["tools"])).unwrap_err());
    assert!(
        e.contains("capabilities must be a JSON object, got [\"tools\"]"),
        "{e}"
    );
}

#[tokio::test]
async fn a_legacy_handler_waits_for_the_clients_answer_within_its_run() {
    let runs = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = runs.clone();
    let server = Server::builder("asker", "1.0.0")
        .declare_capabilities(json!({"prompts": {}}))
        .method_handler(
            "prompts/get",
            libmcp::server::async_handler(move |ctx| {
                counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                async move {
                    let asked = ctx.request_client("roots/list", None).await;
                    let refused = ctx
                        .request_client("sampling/createMessage", Some(json!({"messages": [], "maxTokens": 1})))
                        .await;
                    let roots = asked.map(|r| r["roots"].as_array().map_or(0, Vec::len));
                    let text = format!("{roots:?} / {:?}", refused.map_err(|e| e.code));
                    Reply::from(json!({"messages": [{"role": "user", "content": {"type": "text", "text": text}}]}))
                }
            }),
        )
        .build()
        .unwrap();
    let mut w = Wire::start(server, "2025-11-25");
    init(&mut w, json!({"roots": {}})).await;
    w.send(json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": {"name": "p"}}))
        .await;
    let ask = w.recv().await;
    assert_eq!(ask["method"], "roots/list", "{ask}");
    w.send(json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"roots": [{"uri": "file:///a"}]}}))
        .await;
    // The client declared no sampling: that request is refused without being sent.
    let r = w.response_to(&json!(1)).await;
    assert_eq!(
        r["result"]["messages"][0]["content"]["text"],
        "Ok(1) / Err(-32602)"
    );
    assert_eq!(
        runs.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "one run of the handler"
    );
    w.finish().await;
}
