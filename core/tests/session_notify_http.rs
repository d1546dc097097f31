//! A handler's handle on its legacy Streamable HTTP session (`RequestContext::session_notifier`):
//! the notification goes on the standalone GET stream, exact on the wire, live when a GET is
//! attached and recorded for a resumption when none is; on the 2024-11-05 HTTP+SSE transport's
//! stream; a DELETEd session refuses it, and a legacy request served without a session has no
//! notifier.

mod http_raw;
mod support;

use std::net::SocketAddr;
use std::time::Duration;

use http_raw::{open, open_path, read_until, send, text};
use hyper::Method;
use hyper::body::Incoming;
use libmcp::server::{SessionNotifier, SessionNotifyError};
use libmcp::transport::http::{HttpServerConfig, HttpServerHandle, serve_http};
use serde_json::{Value, json};
use support::notifier::{Slot, server};
use support::wire::assert_valid;

const RETRY_MS: u64 = 1500;

async fn start(legacy_stateless: bool) -> (HttpServerHandle, Slot) {
    let slot = Slot::default();
    let config = HttpServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        sse_retry: Duration::from_millis(RETRY_MS),
        legacy_stateless,
        http_sse: true,
        ..HttpServerConfig::default()
    };
    (
        serve_http(server(slot.clone()), config).await.unwrap(),
        slot,
    )
}

/// Opens the standalone GET stream of session `sid`: its body, and the id of its priming event
/// (`<tag>.0-0`), checked exactly.
async fn open_get(addr: SocketAddr, sid: &str) -> (Incoming, String) {
    let h = [("mcp-session-id", sid)];
    let mut body = open(addr, Method::GET, &h, None).await.into_body();
    let mut buf = String::new();
    read_until(&mut body, &mut buf, "data:\n\n").await;
    let primed = buf.lines().next().unwrap()["id: ".len()..].to_owned();
    assert!(primed.ends_with(".0-0"), "{buf}");
    assert_eq!(buf, format!("id: {primed}\nretry: {RETRY_MS}\ndata:\n\n"));
    (body, primed)
}

/// A 2025-11-25 session whose client declared URL-mode elicitation.
async fn session(addr: SocketAddr) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"url": {}}},
        "clientInfo": {"name": "raw", "version": "1"}}});
    let r = open(addr, Method::POST, &[], Some(init)).await;
    assert_eq!(r.status(), 200);
    let id = r.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    text(r).await;
    let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let h = [
        ("mcp-session-id", id.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    assert_eq!(send(addr, Method::POST, &h, Some(done)).await.0, 202);
    id
}

/// Calls `pay` on session `sid` and returns the notifier it kept.
async fn pay(addr: SocketAddr, sid: &str, slot: &Slot) -> SessionNotifier {
    let h = [
        ("mcp-session-id", sid),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "pay", "arguments": {}}});
    let (status, body) = send(addr, Method::POST, &h, Some(call)).await;
    assert_eq!(status, 200);
    assert!(body.contains(r#""text":"started""#), "{body}");
    slot.lock().take().expect("the handler kept a notifier")
}

fn complete_event(id: &str, elicitation: &str) -> String {
    format!(
        "id: {id}\nevent: message\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/elicitation/complete\",\"params\":{{\"elicitationId\":\"{elicitation}\"}}}}\n\n"
    )
}

fn assert_schema_valid(event: &str) {
    let data = event
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap();
    let m: Value = serde_json::from_str(data).unwrap();
    assert_valid("2025-11-25", "ElicitationCompleteNotification", &m);
}

#[tokio::test]
async fn the_notification_goes_live_on_the_attached_get_stream() {
    let (handle, slot) = start(false).await;
    let addr = handle.local_addr();
    let sid = session(addr).await;
    let (mut body, primed) = open_get(addr, &sid).await;
    let tag = primed.trim_end_matches(".0-0");
    let mut buf = String::new();

    let n = pay(addr, &sid, &slot).await;
    n.elicitation_complete("pay-7").unwrap();
    let expected = complete_event(&format!("{tag}.0-1"), "pay-7");
    read_until(&mut body, &mut buf, "pay-7").await;
    assert_eq!(&buf[buf.len() - expected.len()..], expected);
    assert_schema_valid(&expected);
}

#[tokio::test]
async fn with_no_get_attached_the_notification_waits_for_the_resumption() {
    let (handle, slot) = start(false).await;
    let addr = handle.local_addr();
    let sid = session(addr).await;
    let (body, primed) = open_get(addr, &sid).await;
    let tag = primed.trim_end_matches(".0-0");
    drop(body);

    let n = pay(addr, &sid, &slot).await;
    n.elicitation_complete("pay-8").unwrap();
    let resume = [
        ("mcp-session-id", sid.as_str()),
        ("last-event-id", primed.as_str()),
    ];
    let mut body = open(addr, Method::GET, &resume, None).await.into_body();
    let mut buf = String::new();
    read_until(&mut body, &mut buf, "pay-8").await;
    let expected = complete_event(&format!("{tag}.0-1"), "pay-8");
    assert_eq!(buf, format!("retry: {RETRY_MS}\n\n{expected}"));
    assert_schema_valid(&expected);
}

#[tokio::test]
async fn a_deleted_session_refuses_and_is_not_kept_alive() {
    let (handle, slot) = start(false).await;
    let addr = handle.local_addr();
    let sid = session(addr).await;
    let n = pay(addr, &sid, &slot).await;
    assert!(n.is_open());
    let h = [("mcp-session-id", sid.as_str())];
    assert_eq!(send(addr, Method::DELETE, &h, None).await.0, 200);
    assert!(!n.is_open());
    assert_eq!(
        n.elicitation_complete("pay-9"),
        Err(SessionNotifyError::SessionClosed)
    );
}

#[tokio::test]
async fn a_legacy_request_without_a_session_has_no_notifier() {
    let (handle, slot) = start(true).await;
    let addr = handle.local_addr();
    let h = [("mcp-protocol-version", "2025-11-25")];
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "pay", "arguments": {}}});
    let (status, body) = send(addr, Method::POST, &h, Some(call)).await;
    assert_eq!(status, 200);
    assert!(
        body.contains(
            "no session to notify: this legacy request was served without a session (no Mcp-Session-Id)"
        ),
        "{body}"
    );
    assert!(slot.lock().is_none());
}

#[tokio::test]
async fn the_2024_11_05_http_sse_transport_gets_it_on_its_stream() {
    let (handle, slot) = start(false).await;
    let addr = handle.local_addr();
    let mut body = open_path(addr, Method::GET, "/sse", &[], None)
        .await
        .into_body();
    let mut buf = String::new();
    read_until(&mut body, &mut buf, "\n\n").await;
    // The first event names where to post: `/messages?sessionId=...`.
    let endpoint = buf.lines().nth(1).unwrap()["data: ".len()..].to_owned();
    assert_eq!(buf, format!("event: endpoint\ndata: {endpoint}\n\n"));
    let post = |msg: Value| {
        let endpoint = endpoint.clone();
        async move {
            let r = open_path(addr, Method::POST, &endpoint, &[], Some(msg)).await;
            assert_eq!(r.status(), 202);
        }
    };
    post(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2024-11-05", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}}),
    )
    .await;
    read_until(&mut body, &mut buf, "serverInfo").await;
    post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    post(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "pay", "arguments": {}}}))
    .await;
    read_until(&mut body, &mut buf, "started").await;
    let n = slot.lock().take().expect("the handler kept a notifier");
    // 2024-11-05 has no elicitation/complete, but it has log messages.
    assert!(matches!(
        n.elicitation_complete("e"),
        Err(SessionNotifyError::CapabilityNotDeclared("elicitation.url"))
    ));
    n.notify(
        "notifications/message",
        Some(json!({"level": "info", "data": "paid"})),
    )
    .unwrap();
    let expected = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"paid\",\"level\":\"info\"}}\n\n";
    read_until(&mut body, &mut buf, "paid").await;
    assert!(buf.ends_with(expected), "{buf:?}");
    let data = expected
        .lines()
        .nth(1)
        .unwrap()
        .strip_prefix("data: ")
        .unwrap();
    support::wire::assert_valid_message(
        "2024-11-05",
        &serde_json::from_str(data).unwrap(),
        support::wire::Side::Server,
        None,
    );
}
