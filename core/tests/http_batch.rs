//! JSON-RPC batches over Streamable HTTP: served on 2025-03-26 (one JSON array, or one SSE stream
//! ending with it; 202 without requests), refused with 400 and -32600 everywhere else.

mod http_raw;

use std::net::SocketAddr;

use http_raw::{error_of, open, send, session, text};
use hyper::Method;
use libmcp::server::{Reply, Server};
use libmcp::transport::http::{HttpServerConfig, HttpServerHandle, serve_http};
use serde_json::{Value, json};

fn server() -> Server {
    let obj = json!({"type": "object"});
    Server::builder("batch-test", "1.0.0")
        .tool(json!({"name": "echo", "inputSchema": obj}), |_c, a| {
            Reply::text(a["text"].as_str().unwrap_or(""))
        })
        .tool_async(
            json!({"name": "steps", "inputSchema": obj}),
            |ctx| async move {
                ctx.notify_progress(1.0, None, None);
                Reply::text("stepped")
            },
        )
        .build()
        .unwrap()
}

async fn start_with(config: HttpServerConfig) -> HttpServerHandle {
    let config = HttpServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        ..config
    };
    serve_http(server(), config).await.unwrap()
}

async fn start() -> HttpServerHandle {
    start_with(HttpServerConfig::default()).await
}

fn echo(id: i64, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "echo", "arguments": {"text": text}}})
}

fn echoed(id: i64, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}})
}

fn notification() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"})
}

/// A JSON array body, sorted by id so completion order does not matter.
fn sorted_array(body: &str) -> Vec<Value> {
    let mut v: Vec<Value> = serde_json::from_str(body).unwrap();
    v.sort_by_key(|m| m["id"].as_i64().unwrap_or(-1));
    v
}

async fn post(addr: SocketAddr, sid: &str, body: Value) -> (u16, String) {
    send(addr, Method::POST, &[("mcp-session-id", sid)], Some(body)).await
}

#[tokio::test]
async fn a_2025_03_26_batch_gets_one_array_of_responses() {
    let h = start().await;
    let sid = session(h.local_addr(), "2025-03-26").await;
    let batch = json!([echo(1, "a"), notification(), echo(2, "b")]);
    let (status, body) = post(h.local_addr(), &sid, batch).await;
    assert_eq!(status, 200);
    assert_eq!(sorted_array(&body), [echoed(1, "a"), echoed(2, "b")]);

    // A malformed entry and initialize are answered inside the array; the rest is served.
    let batch = json!([{"jsonrpc": "2.0", "id": 3}, echo(4, "c"),
        {"jsonrpc": "2.0", "id": 5, "method": "initialize", "params": {}}]);
    let (status, body) = post(h.local_addr(), &sid, batch).await;
    assert_eq!(status, 200);
    let v = sorted_array(&body);
    assert_eq!(v.len(), 3, "{body}");
    assert_eq!(v[0]["error"]["code"], -32600);
    assert_eq!(v[1], echoed(4, "c"));
    assert_eq!(v[2]["id"], 5);
    assert_eq!(v[2]["error"]["code"], -32600);
}

#[tokio::test]
async fn a_batch_without_requests_gets_202() {
    let h = start().await;
    let sid = session(h.local_addr(), "2025-03-26").await;
    let (status, body) = post(
        h.local_addr(),
        &sid,
        json!([notification(), notification()]),
    )
    .await;
    assert_eq!((status, body.as_str()), (202, ""));
}

#[tokio::test]
async fn a_batch_with_notifications_first_streams_and_ends_with_the_array() {
    let h = start().await;
    let sid = session(h.local_addr(), "2025-03-26").await;
    let steps = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "steps", "arguments": {}, "_meta": {"progressToken": 1}}});
    let r = open(
        h.local_addr(),
        Method::POST,
        &[("mcp-session-id", sid.as_str())],
        Some(json!([steps, echo(8, "x")])),
    )
    .await;
    assert_eq!(r.headers()["content-type"], "text/event-stream");
    let body = text(r).await;
    let events: Vec<&str> = body.trim_end().split("\n\n").collect();
    // 2025-03-26 gets no priming event, but ids on every event.
    assert_eq!(events.len(), 2, "{body}");
    let data = |e: &str| -> Value {
        let line = e.lines().find_map(|l| l.strip_prefix("data: ")).unwrap();
        serde_json::from_str(line).unwrap()
    };
    assert!(events.iter().all(|e| e.starts_with("id: ")), "{body}");
    assert_eq!(data(events[0])["method"], "notifications/progress");
    let arr = data(events[1]).to_string();
    assert_eq!(sorted_array(&arr), [echoed(7, "stepped"), echoed(8, "x")]);
}

#[tokio::test]
async fn batches_are_refused_outside_2025_03_26() {
    let h = start().await;
    let addr = h.local_addr();
    let sid = session(addr, "2025-11-25").await;
    let batch = json!([echo(1, "a")]);
    let (status, body) = post(addr, &sid, batch.clone()).await;
    assert_eq!(
        (status, error_of(&body)),
        (
            400,
            (
                -32600,
                "Invalid request: JSON-RPC batches are not supported by protocol revision 2025-11-25; only 2025-03-26 allows them"
                    .into()
            )
        )
    );
    let modern = [("mcp-protocol-version", "2026-07-28")];
    let (status, body) = send(addr, Method::POST, &modern, Some(batch.clone())).await;
    assert_eq!(
        (status, error_of(&body)),
        (
            400,
            (
                -32600,
                "Invalid request: JSON-RPC batches are not supported by protocol revision 2026-07-28; only 2025-03-26 allows them"
                    .into()
            )
        )
    );
    let (status, body) = send(addr, Method::POST, &[], Some(batch.clone())).await;
    assert_eq!(
        (status, error_of(&body)),
        (
            400,
            (
                -32600,
                "Invalid request: JSON-RPC batches need a 2025-03-26 session (initialize must be sent on its own)"
                    .into()
            )
        )
    );
    let (status, body) = send(addr, Method::POST, &[], Some(json!([]))).await;
    assert_eq!(status, 400);
    assert_eq!(error_of(&body).0, -32600);
    // An unknown session is still 404.
    assert_eq!(post(addr, "nope", batch).await.0, 404);
}

#[tokio::test]
async fn a_header_less_batch_is_served_as_2025_03_26_when_configured() {
    let h = start_with(HttpServerConfig {
        assume_2025_03_26: true,
        ..HttpServerConfig::default()
    })
    .await;
    let (status, body) = send(
        h.local_addr(),
        Method::POST,
        &[],
        Some(json!([echo(1, "a"), echo(2, "b")])),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(sorted_array(&body), [echoed(1, "a"), echoed(2, "b")]);
}
