//! Hooks a host uses to serve what the engine does not define itself, or to answer as another
//! SDK does: a handler for a request method the specification does not define
//! (`Server::set_method_handler`), a host's own entries of `resources/list`
//! (`Server::set_resource_lister`), JSON bodies in place of SSE streams
//! (`HttpServerConfig::json_response`), and legacy requests served without sessions
//! (`HttpServerConfig::legacy_stateless`).

mod support;

use libmcp::Error;
use libmcp::client::{CallOptions, VersionPreference};
use libmcp::error::code;
use libmcp::server::{Reply, Server, ServerConfig, sync_handler};
use libmcp::transport::http::{Exchange, ExchangeRequest, HttpEndpoint, HttpServerConfig};
use libmcp::version::ProtocolVersion;
use serde_json::{Value, json};

#[tokio::test]
async fn a_custom_method_is_answered_by_its_handler_in_both_eras() {
    let server = Server::builder("custom", "1.0.0").build().unwrap();
    server
        .set_method_handler(
            "acme/echo",
            Some(sync_handler(|ctx| {
                Reply::from(json!({"echoed": ctx.params()["text"], "method": ctx.method()}))
            })),
        )
        .unwrap();
    for pref in [
        VersionPreference::Auto,
        VersionPreference::Legacy(ProtocolVersion::V2025_11_25),
    ] {
        let client = support::inprocess::connect(server.clone(), "test-client", pref.clone()).await;
        let opts = CallOptions::default();
        let r = client
            .request("acme/echo", json!({"text": "hi"}), &opts)
            .await
            .unwrap();
        assert_eq!(r["echoed"], "hi", "{r}");
        assert_eq!(r["method"], "acme/echo", "{r}");
        // A method without a handler is still not found.
        match client.request("acme/other", json!({}), &opts).await {
            Err(Error::Rpc(e)) => assert_eq!(e.code, code::METHOD_NOT_FOUND),
            other => panic!("expected -32601, got {other:?}"),
        }
    }
    // Removed: not found again.
    server.set_method_handler("acme/echo", None).unwrap();
    let client =
        support::inprocess::connect(server.clone(), "test-client", VersionPreference::Auto).await;
    match client
        .request("acme/echo", json!({}), &CallOptions::default())
        .await
    {
        Err(Error::Rpc(e)) => assert_eq!(e.code, code::METHOD_NOT_FOUND),
        other => panic!("expected -32601, got {other:?}"),
    }
}

#[test]
fn the_specifications_methods_keep_the_engines_answers() {
    let server = Server::builder("custom", "1.0.0").build().unwrap();
    let h = || Some(sync_handler(|_ctx| Reply::from(json!({}))));
    for m in [
        "tools/call",
        "ping",
        "initialize",
        "notifications/x",
        "rpc.x",
        "",
    ] {
        let e = server.set_method_handler(m, h()).unwrap_err();
        assert!(matches!(e, Error::InvalidArgument(_)), "{m}: {e}");
    }
    // The modern era's removed methods stay the engine's too.
    let e = server
        .set_method_handler("logging/setLevel", h())
        .unwrap_err();
    assert!(
        e.to_string().contains("the specification defines it"),
        "{e}"
    );
}

/// POSTs `body` to `endpoint` with the Streamable HTTP headers, the session's id and the revision's
/// header when given.
async fn post(endpoint: &HttpEndpoint, body: Value, session: Option<&str>, rev: &str) -> Exchange {
    let mut req = ExchangeRequest::new("POST", "/mcp")
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", rev);
    if let Some(id) = session {
        req = req.header("Mcp-Session-Id", id);
    }
    if rev == "2026-07-28" {
        let method = body["method"].as_str().unwrap_or_default().to_string();
        req = req.header("Mcp-Method", method);
        if let Some(name) = body["params"]["name"].as_str() {
            req = req.header("Mcp-Name", name);
        }
    }
    endpoint.exchange(req.body(body.to_string())).await
}

fn header<'a>(ex: &'a Exchange, name: &str) -> Option<&'a str> {
    ex.headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// The whole body of `ex`, as text.
async fn body_text(ex: &mut Exchange) -> String {
    let mut all = Vec::new();
    while let Some(chunk) = ex.body.next_chunk().await {
        all.extend_from_slice(&chunk);
    }
    String::from_utf8(all).unwrap()
}

/// A legacy (2025-11-25) session opened on `endpoint`: its id.
async fn open_session(endpoint: &HttpEndpoint) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "t", "version": "1"}}});
    let ex = post(endpoint, init, None, "2025-11-25").await;
    assert_eq!(ex.status, 200);
    let id = header(&ex, "mcp-session-id").unwrap().to_string();
    let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(
        post(endpoint, done, Some(&id), "2025-11-25").await.status,
        202
    );
    id
}

fn call(id: u32, tool: &str, modern: bool) -> Value {
    let mut params = json!({"name": tool, "arguments": {}, "_meta": {"progressToken": "p"}});
    if modern {
        params["_meta"] = support::harness::modern_meta(json!({}));
        params["_meta"]["progressToken"] = json!("p");
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

#[tokio::test]
async fn json_response_answers_with_one_json_body_in_both_eras() {
    for json_response in [false, true] {
        let config = HttpServerConfig {
            json_response,
            ..HttpServerConfig::for_mount()
        };
        let endpoint = HttpEndpoint::new(support::fixture::server(), config).unwrap();
        let session = open_session(&endpoint).await;
        // `slow` sends progress and log messages before its result.
        for (rev, sid, modern) in [
            ("2025-11-25", Some(session.as_str()), false),
            ("2026-07-28", None, true),
        ] {
            let mut ex = post(&endpoint, call(1, "slow", modern), sid, rev).await;
            assert_eq!(ex.status, 200, "{rev}");
            let text = body_text(&mut ex).await;
            let content_type = header(&ex, "content-type").unwrap();
            if json_response {
                assert_eq!(content_type, "application/json", "{rev}");
                let answer: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(answer["id"], 1);
                assert_eq!(answer["result"]["content"][0]["text"], "done", "{rev}");
            } else {
                assert_eq!(content_type, "text/event-stream", "{rev}");
                assert!(text.contains("notifications/progress"), "{rev}: {text}");
                assert!(text.contains("\"done\""), "{rev}: {text}");
            }
        }
        if json_response {
            // A request to the client has no stream to travel on: it fails at once.
            let mut ex = post(
                &endpoint,
                call(2, "ask", false),
                Some(&session),
                "2025-11-25",
            )
            .await;
            assert_eq!(header(&ex, "content-type"), Some("application/json"));
            let answer: Value = serde_json::from_str(&body_text(&mut ex).await).unwrap();
            assert_eq!(answer["id"], 2);
            assert!(
                answer.get("error").is_some() || answer["result"]["isError"] == true,
                "{answer}"
            );
        }
    }
}

#[tokio::test]
async fn a_resource_lister_adds_its_entries_after_the_registered_ones_in_pages() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let config = ServerConfig {
        page_size: 2,
        ..ServerConfig::default()
    };
    let server = Server::builder("lister", "1.0.0")
        .config(config)
        .resource(json!({"uri": "test://static", "name": "static"}), |_ctx| {
            Reply::from(json!({"contents": []}))
        })
        .build()
        .unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = calls.clone();
    server
        .set_resource_lister(Some(sync_handler(move |_ctx| {
            counted.fetch_add(1, Ordering::SeqCst);
            Reply::from(json!({"resources": [
                {"uri": "users://1", "name": "Ada", "mimeType": "text/plain"},
                {"uri": "users://2", "name": "Grace"},
            ]}))
        })))
        .unwrap();
    for pref in [
        VersionPreference::Auto,
        VersionPreference::Legacy(ProtocolVersion::V2025_11_25),
    ] {
        let client = support::inprocess::connect(server.clone(), "test-client", pref).await;
        let opts = CallOptions::default();
        let mut uris = Vec::new();
        let mut cursor = None;
        loop {
            let params = match &cursor {
                None => json!({}),
                Some(c) => json!({"cursor": c}),
            };
            let r = client
                .request("resources/list", params, &opts)
                .await
                .unwrap();
            for item in r["resources"].as_array().unwrap() {
                uris.push(item["uri"].as_str().unwrap().to_string());
            }
            match r.get("nextCursor").and_then(|c| c.as_str()) {
                Some(c) => cursor = Some(c.to_string()),
                None => break,
            }
        }
        assert_eq!(uris, ["test://static", "users://1", "users://2"]);
        // A cursor the engine did not make is refused without asking the host.
        let before = calls.load(Ordering::SeqCst);
        match client
            .request("resources/list", json!({"cursor": "nope"}), &opts)
            .await
        {
            Err(Error::Rpc(e)) => assert_eq!(e.code, code::INVALID_PARAMS),
            other => panic!("expected -32602, got {other:?}"),
        }
        assert_eq!(calls.load(Ordering::SeqCst), before);
    }
    // An entry without a name is the host's mistake: -32603 naming it.
    server
        .set_resource_lister(Some(sync_handler(|_ctx| {
            Reply::from(json!({"resources": [{"uri": "users://3"}]}))
        })))
        .unwrap();
    let client =
        support::inprocess::connect(server.clone(), "test-client", VersionPreference::Auto).await;
    match client
        .request("resources/list", json!({}), &CallOptions::default())
        .await
    {
        Err(Error::Rpc(e)) => {
            assert_eq!(e.code, code::INTERNAL_ERROR);
            assert!(
                e.message.contains("resource 0 of the resource lister"),
                "{}",
                e.message
            );
        }
        other => panic!("expected -32603, got {other:?}"),
    }
    // Removed: the registered resources alone.
    server.set_resource_lister(None).unwrap();
    let r = client
        .request("resources/list", json!({}), &CallOptions::default())
        .await
        .unwrap();
    assert_eq!(r["resources"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn legacy_stateless_serves_each_legacy_request_on_its_own() {
    let config = HttpServerConfig {
        legacy_stateless: true,
        ..HttpServerConfig::for_mount()
    };
    let endpoint = HttpEndpoint::new(support::fixture::server(), config).unwrap();
    let rev = "2025-11-25";
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": rev, "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "t", "version": "1"}}});
    let mut ex = post(&endpoint, init, None, rev).await;
    assert_eq!(ex.status, 200);
    assert_eq!(header(&ex, "mcp-session-id"), None, "no session is made");
    let answer: Value = serde_json::from_str(&body_text(&mut ex).await).unwrap();
    assert_eq!(answer["result"]["protocolVersion"], rev);
    let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(post(&endpoint, done, None, rev).await.status, 202);
    // A request without a session, and one naming a session nobody made (ignored).
    for sid in [None, Some("made-up")] {
        let echo = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": "hi"}}});
        let mut ex = post(&endpoint, echo, sid, rev).await;
        assert_eq!(ex.status, 200, "{sid:?}");
        let answer: Value = serde_json::from_str(&body_text(&mut ex).await).unwrap();
        assert_eq!(answer["result"]["content"][0]["text"], "hi", "{answer}");
    }
    // Progress still travels in the request's stream.
    let mut ex = post(&endpoint, call(2, "slow", false), None, rev).await;
    assert_eq!(header(&ex, "content-type"), Some("text/event-stream"));
    let text = body_text(&mut ex).await;
    assert!(
        text.contains("notifications/progress") && text.contains("\"done\""),
        "{text}"
    );
    // A request to the client could not be answered: it fails at once. Nothing of the
    // `initialize` above was kept, so the request has no client capabilities, and the error says
    // why rather than blaming the client.
    let mut ex = post(&endpoint, call(3, "ask", false), None, rev).await;
    let text = body_text(&mut ex).await;
    assert!(
        text.contains("\"error\"") || text.contains("\"isError\":true"),
        "{text}"
    );
    let answer: Value = serde_json::from_str(
        text.lines()
            .find_map(|l| l.strip_prefix("data: "))
            .unwrap_or(&text),
    )
    .unwrap();
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("without sessions keeps none"), "{message}");
    assert_eq!(
        answer["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {"form": {}}})
    );
    // No session to open a stream on or to delete.
    for method in ["GET", "DELETE"] {
        let ex = endpoint
            .exchange(ExchangeRequest::new(method, "/mcp").header("Accept", "text/event-stream"))
            .await;
        assert_eq!(ex.status, 405, "{method}");
    }
}
