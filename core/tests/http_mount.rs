//! The endpoint mounted as one route of an axum application (`HttpEndpoint` as a tower service):
//! both eras through the mount while the application's own route keeps answering, a header the
//! client set and a principal the application's middleware set reach the handler, a client that
//! goes away mid-call cancels the handler, HTTP+SSE under a mount prefix, the refusal that names
//! the header and setting, and `HttpEndpoint::exchange` for hosts that are not Rust.

use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1;
use hyper_util::rt::TokioIo;
use libmcp::client::http::HttpClientOptions;
use libmcp::client::{Client, VersionPreference};
use libmcp::server::{Reply, Server};
use libmcp::transport::http::{ExchangeRequest, HttpEndpoint, HttpServerConfig};
use libmcp::{Era, ProtocolVersion};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

/// What the application's authentication middleware established.
#[derive(Clone, Debug)]
struct Principal(String);

async fn authenticate(mut req: Request, next: Next) -> Response {
    let user = req
        .headers()
        .get("x-user")
        .and_then(|v| v.to_str().ok())
        .map(String::from);
    if let Some(user) = user {
        req.extensions_mut().insert(Principal(user));
    }
    next.run(req).await
}

struct ReportDrop(mpsc::UnboundedSender<()>);

impl Drop for ReportDrop {
    fn drop(&mut self) {
        let _ = self.0.send(());
    }
}

fn server(cancelled: mpsc::UnboundedSender<()>) -> Server {
    Server::builder("mount-test", "1.0.0")
        .tool(
            json!({"name": "whoami", "inputSchema": {"type": "object"}}),
            |ctx, _| {
                let principal = ctx.http_extension::<Principal>().map(|p| p.0.clone());
                Reply::text(
                    json!({
                        "principal": principal,
                        "tag": ctx.http_header("x-client-tag"),
                        "session": ctx.http_session_id(),
                        "method": ctx.http_request().map(|r| r.method.to_string()),
                    })
                    .to_string(),
                )
            },
        )
        .tool_async(
            json!({"name": "wait", "inputSchema": {"type": "object"}}),
            move |_ctx| {
                let guard = ReportDrop(cancelled.clone());
                async move {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    std::mem::forget(guard);
                    Reply::text("late")
                }
            },
        )
        .build()
        .unwrap()
}

/// An axum app: `/health` of its own, the endpoint nested at `/mcp`, the middleware around both.
async fn app(config: HttpServerConfig) -> (SocketAddr, mpsc::UnboundedReceiver<()>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let endpoint = HttpEndpoint::new(server(tx), config).unwrap();
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .nest_service("/mcp", endpoint)
        .layer(middleware::from_fn(authenticate));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (addr, rx)
}

/// One raw HTTP/1.1 request; the response head and the connection's body are the caller's.
async fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> hyper::Response<hyper::body::Incoming> {
    let io = TokioIo::new(TcpStream::connect(addr).await.unwrap());
    let (mut sender, conn) = http1::handshake(io).await.unwrap();
    tokio::spawn(conn);
    let mut req = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header("host", addr.to_string());
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = req.body(Full::new(Bytes::from(body.to_owned()))).unwrap();
    sender.send_request(req).await.unwrap()
}

async fn text(r: hyper::Response<hyper::body::Incoming>) -> String {
    String::from_utf8(r.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap()
}

async fn client(addr: SocketAddr, pref: VersionPreference) -> Client {
    let options = HttpClientOptions {
        headers: vec![
            ("x-client-tag".into(), "t-1".into()),
            ("x-user".into(), "alice".into()),
        ],
        ..Default::default()
    };
    Client::builder("mount-client", "1.0.0")
        .version_preference(pref)
        .connect_http_with(&format!("http://{addr}/mcp"), options)
        .await
        .unwrap()
}

async fn whoami(c: &Client) -> Value {
    let r = c.call_tool_raw("whoami", json!({})).await.unwrap();
    serde_json::from_str(r["content"][0]["text"].as_str().unwrap()).unwrap()
}

#[tokio::test]
async fn both_eras_through_the_mount_and_the_app_route_still_answers() {
    let (addr, _rx) = app(HttpServerConfig::for_mount()).await;
    let modern = client(addr, VersionPreference::Modern(ProtocolVersion::LATEST)).await;
    assert_eq!(modern.era(), Era::Modern);
    assert_eq!(
        whoami(&modern).await,
        json!({"principal": "alice", "tag": "t-1", "session": null, "method": "POST"})
    );
    let legacy = client(
        addr,
        VersionPreference::Legacy(ProtocolVersion::V2025_11_25),
    )
    .await;
    assert_eq!(legacy.era(), Era::Legacy);
    let seen = whoami(&legacy).await;
    assert_eq!(seen["principal"], "alice");
    assert_eq!(seen["tag"], "t-1");
    let session = seen["session"].as_str().expect("a legacy session id");
    assert_eq!(session.len(), 64, "{session}");
    let health = send(addr, "GET", "/health", &[], "").await;
    assert_eq!(health.status(), 200);
    assert_eq!(text(health).await, "ok");
    // Outside the mount the application's router answers, not the endpoint.
    assert_eq!(send(addr, "GET", "/other", &[], "").await.status(), 404);
    legacy.close().await;
    modern.close().await;
}

#[tokio::test]
async fn a_client_that_goes_away_mid_call_cancels_the_handler() {
    let (addr, mut cancelled) = app(HttpServerConfig::for_mount()).await;
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
    "name": "wait", "arguments": {}, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }}});
    let io = TokioIo::new(TcpStream::connect(addr).await.unwrap());
    let (mut sender, conn) = http1::handshake(io).await.unwrap();
    let conn = tokio::spawn(conn);
    let req = hyper::Request::post("/mcp")
        .header("host", addr.to_string())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "wait")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    let pending = tokio::spawn(async move { sender.send_request(req).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    pending.abort();
    conn.abort();
    tokio::time::timeout(Duration::from_secs(5), cancelled.recv())
        .await
        .expect("the handler was cancelled when the client left")
        .unwrap();
}

#[tokio::test]
async fn http_sse_under_a_prefix_names_the_message_path_relative_to_the_stream() {
    let config = HttpServerConfig {
        http_sse: true,
        ..HttpServerConfig::for_mount()
    };
    let (addr, _rx) = app(config).await;
    let r = send(
        addr,
        "GET",
        "/mcp/sse",
        &[("accept", "text/event-stream")],
        "",
    )
    .await;
    assert_eq!(r.status(), 200);
    let mut body = r.into_body();
    let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
    let first = String::from_utf8(first.to_vec()).unwrap();
    let rest = first
        .strip_prefix("event: endpoint\ndata: messages?sessionId=")
        .unwrap_or_else(|| panic!("{first:?}"));
    let id = rest.trim_end();
    // POSTed where a client resolves it: /mcp/sse + messages = /mcp/messages.
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2024-11-05", "capabilities": {},
        "clientInfo": {"name": "old", "version": "1"}}});
    let posted = send(
        addr,
        "POST",
        &format!("/mcp/messages?sessionId={id}"),
        &[("content-type", "application/json")],
        &init.to_string(),
    )
    .await;
    assert_eq!(posted.status(), 202);
    let answer = body.frame().await.unwrap().unwrap().into_data().unwrap();
    let answer = String::from_utf8(answer.to_vec()).unwrap();
    assert!(answer.starts_with("event: message\ndata: {"), "{answer:?}");
    assert!(
        answer.contains("\"protocolVersion\":\"2024-11-05\""),
        "{answer:?}"
    );
}

#[tokio::test]
async fn a_refused_host_is_named_with_the_setting_that_allows_it() {
    let config = HttpServerConfig {
        dns_rebinding_protection: true,
        allowed_hosts: vec!["app.example".into()],
        ..HttpServerConfig::for_mount()
    };
    let (addr, _rx) = app(config).await;
    let r = send(
        addr,
        "POST",
        "/mcp",
        &[("content-type", "application/json")],
        "{}",
    )
    .await;
    assert_eq!(r.status(), 421);
    let body: Value = serde_json::from_str(&text(r).await).unwrap();
    assert_eq!(
        body["error"]["message"],
        format!(
            "Invalid request: Host header not allowed: \"{addr}\" is not on allowed_hosts; add \
             the host name to allowed_hosts, or turn dns_rebinding_protection off when a proxy \
             in front checks Host"
        )
    );
}

#[tokio::test]
async fn exchange_serves_plain_data_and_names_a_bad_header() {
    let (tx, _rx) = mpsc::unbounded_channel();
    let endpoint = HttpEndpoint::new(server(tx), HttpServerConfig::for_mount()).unwrap();
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
    "name": "whoami", "arguments": {}, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }}});
    let req = ExchangeRequest::new("POST", "/anything")
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "whoami")
        .header("X-Client-Tag", " from-c\t")
        .extension(Principal("bob".into()))
        .body(body.to_string());
    let mut ex = endpoint.exchange(req).await;
    assert_eq!(ex.status, 200);
    assert!(
        ex.headers
            .contains(&("content-type".into(), "application/json".into())),
        "{:?}",
        ex.headers
    );
    assert!(!ex.body.is_stream());
    let bytes = ex.body.next_chunk().await.unwrap();
    assert!(ex.body.next_chunk().await.is_none());
    let answer: Value = serde_json::from_slice(&bytes).unwrap();
    let seen: Value =
        serde_json::from_str(answer["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        seen,
        json!({"principal": "bob", "tag": "from-c", "session": null, "method": "POST"})
    );

    let bad = endpoint
        .exchange(ExchangeRequest::new("POST", "/mcp").header("bad header", "x"))
        .await;
    assert_eq!(bad.status, 400);
    let mut body = bad.body;
    let e: Value = serde_json::from_slice(&body.next_chunk().await.unwrap()).unwrap();
    assert_eq!(
        e["error"]["message"],
        "Invalid request: \"bad header\" is not a header name"
    );
    let bad = endpoint.exchange(ExchangeRequest::new("PO ST", "/")).await;
    assert_eq!(bad.status, 400);
}
