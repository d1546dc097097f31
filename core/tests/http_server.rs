//! The Streamable HTTP server on a real socket: exact status codes, headers and bodies of both
//! eras, the header rules of 2026-07-28, legacy sessions, security checks and cancellation by a
//! dropped stream. The client is a bare hyper HTTP/1.1 connection, so every byte is the test's.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::client::conn::http1;
use hyper::{Method, Request, Response};
use hyper_util::rt::TokioIo;
use libmcp::server::{InputRequired, Reply, Server};
use libmcp::transport::http::{HttpServerConfig, HttpServerHandle, serve_http};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

const V26: &str = "2026-07-28";

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": V26,
        "io.modelcontextprotocol/clientCapabilities": {"sampling": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "http-test", "version": "1"},
    })
}

/// The server under test, and a channel that reports when the `wait` tool is cancelled.
fn server() -> (Server, mpsc::UnboundedReceiver<()>) {
    let (cancelled_tx, cancelled_rx) = mpsc::unbounded_channel();
    let server = Server::builder("http-test", "1.0.0")
        .tool(json!({"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}),
            |_c, a| Reply::text(a["text"].as_str().unwrap_or("")))
        .tool(
            json!({"name": "regional", "inputSchema": {"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "count": {"type": "integer", "x-mcp-header": "Count"}}}}),
            |_c, a| Reply::text(format!("{}", a["region"])),
        )
        .tool_async(json!({"name": "progress", "inputSchema": {"type": "object"}}), |ctx| async move {
            ctx.notify_progress(1.0, Some(2.0), None);
            tokio::time::sleep(Duration::from_millis(20)).await;
            ctx.notify_progress(2.0, Some(2.0), None);
            Reply::text("done")
        })
        .tool_async(
            json!({"name": "wait", "inputSchema": {"type": "object"}}),
            move |ctx| {
                // The engine drops a cancelled handler's future: the guard reports that.
                let guard = ReportDrop(cancelled_tx.clone());
                async move {
                    ctx.notify_progress(1.0, None, None);
                    tokio::time::sleep(Duration::from_secs(20)).await;
                    std::mem::forget(guard);
                    Reply::text("late")
                }
            },
        )
        .tool(json!({"name": "ask", "inputSchema": {"type": "object"}}), |ctx, _| {
            match ctx.input_response("llm") {
                Some(r) => Reply::text(format!("llm said {}", r["content"]["text"])),
                None => InputRequired::new()
                    .sample("llm", json!({"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5}))
                    .into(),
            }
        })
        .build()
        .unwrap();
    (server, cancelled_rx)
}

struct ReportDrop(mpsc::UnboundedSender<()>);

impl Drop for ReportDrop {
    fn drop(&mut self) {
        let _ = self.0.send(());
    }
}

struct Fixture {
    handle: HttpServerHandle,
    server: Server,
    cancelled: mpsc::UnboundedReceiver<()>,
}

async fn start_with(config: HttpServerConfig) -> Fixture {
    let (server, cancelled) = server();
    let handle = serve_http(server.clone(), config).await.unwrap();
    Fixture {
        handle,
        server,
        cancelled,
    }
}

async fn start() -> Fixture {
    start_with(HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap())).await
}

/// One request on a fresh connection; the response body is left unread.
async fn open(
    addr: SocketAddr,
    method: Method,
    headers: &[(&str, &str)],
    body: Option<Vec<u8>>,
) -> Response<Incoming> {
    open_conn(addr, method, headers, body).await.0
}

/// Like [`open`], also returning the connection task (aborting it closes the socket).
async fn open_conn(
    addr: SocketAddr,
    method: Method,
    headers: &[(&str, &str)],
    body: Option<Vec<u8>>,
) -> (Response<Incoming>, tokio::task::JoinHandle<()>) {
    open_at(addr, method, "/mcp", headers, body).await
}

/// Like [`open_conn`], on any path.
async fn open_at(
    addr: SocketAddr,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Vec<u8>>,
) -> (Response<Incoming>, tokio::task::JoinHandle<()>) {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) = http1::handshake(TokioIo::new(stream)).await.unwrap();
    let conn = tokio::spawn(async move {
        let _ = conn.await;
    });
    let mut req = Request::builder().method(method).uri(path);
    let host = format!("127.0.0.1:{}", addr.port());
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req = req.header("host", host);
    }
    for (k, v) in headers {
        // An empty value leaves the header out (for the defaults below too).
        if !v.is_empty() {
            req = req.header(*k, *v);
        }
    }
    if body.is_some() {
        for (name, value) in [
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
        ] {
            if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(name)) {
                req = req.header(name, value);
            }
        }
    }
    let req = req
        .body(Full::new(Bytes::from(body.unwrap_or_default())))
        .unwrap();
    (sender.send_request(req).await.unwrap(), conn)
}

struct Answer {
    status: u16,
    content_type: String,
    headers: hyper::HeaderMap,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {:?}", self.body))
    }

    /// The JSON messages of an SSE body, in order.
    fn events(&self) -> Vec<Value> {
        self.body
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .map(|d| serde_json::from_str(d).unwrap())
            .collect()
    }
}

async fn send(
    addr: SocketAddr,
    method: Method,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> Answer {
    let r = open(
        addr,
        method,
        headers,
        body.map(|b| b.to_string().into_bytes()),
    )
    .await;
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let content_type = headers
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body =
        String::from_utf8(r.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    Answer {
        status,
        content_type,
        headers,
        body,
    }
}

/// A modern POST with all the headers a conforming client sends.
async fn modern(
    addr: SocketAddr,
    id: i64,
    method: &str,
    params: Value,
    extra: &[(&str, &str)],
) -> Answer {
    let mut params = params;
    params["_meta"] = meta();
    let name = params
        .get("name")
        .or_else(|| params.get("uri"))
        .and_then(Value::as_str)
        .map(String::from);
    let mut headers = vec![("mcp-protocol-version", V26), ("mcp-method", method)];
    if let Some(n) = &name {
        headers.push(("mcp-name", n));
    }
    headers.extend_from_slice(extra);
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    send(addr, Method::POST, &headers, Some(body)).await
}

#[tokio::test]
async fn modern_request_answered_with_json() {
    let f = start().await;
    let a = modern(
        f.handle.local_addr(),
        1,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "hi"}}),
        &[],
    )
    .await;
    assert_eq!(a.status, 200);
    assert_eq!(a.content_type, "application/json");
    assert_eq!(
        a.json(),
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "content": [{"type": "text", "text": "hi"}],
            "resultType": "complete",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "http-test", "version": "1.0.0"}},
        }})
    );
    assert!(
        a.headers.get("mcp-session-id").is_none(),
        "stateless requests mint no session"
    );
}

#[tokio::test]
async fn modern_request_with_notifications_answered_with_sse() {
    let f = start().await;
    let mut params = json!({"name": "progress", "arguments": {}});
    params["_meta"] = meta();
    params["_meta"]["progressToken"] = json!("p1");
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params});
    let headers = [
        ("mcp-protocol-version", V26),
        ("mcp-method", "tools/call"),
        ("mcp-name", "progress"),
    ];
    let a = send(f.handle.local_addr(), Method::POST, &headers, Some(body)).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.content_type, "text/event-stream");
    assert_eq!(a.headers["x-accel-buffering"], "no");
    let events = a.events();
    assert_eq!(events.len(), 3, "{}", a.body);
    assert_eq!(events[0]["method"], "notifications/progress");
    assert_eq!(events[0]["params"]["progress"], 1.0);
    assert_eq!(events[1]["params"]["progress"], 2.0);
    assert_eq!(events[2]["id"], 7);
    assert_eq!(events[2]["result"]["content"][0]["text"], "done");
    assert_eq!(events[2]["result"]["resultType"], "complete");
    assert!(a.body.starts_with("event: message\ndata: "), "{}", a.body);
}

fn error_code(a: &Answer) -> i64 {
    a.json()["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("no error in {}", a.body))
}

#[tokio::test]
async fn modern_header_rules() {
    let f = start().await;
    let addr = f.handle.local_addr();
    let call = |name: &str| json!({"name": name, "arguments": {}});
    let mismatch = |a: &Answer, id: i64| {
        assert_eq!(a.status, 400, "{}", a.body);
        assert_eq!(error_code(a), -32020, "{}", a.body);
        assert_eq!(a.json()["id"], id, "the error echoes the request id");
    };

    // MCP-Protocol-Version missing, or different from _meta (even when _meta names no supported version).
    let mut p = json!({"_meta": meta()});
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": p});
    mismatch(
        &send(
            addr,
            Method::POST,
            &[("mcp-method", "tools/list")],
            Some(body.clone()),
        )
        .await,
        1,
    );
    p["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let body2 = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": p});
    let h = [("mcp-protocol-version", V26), ("mcp-method", "tools/list")];
    mismatch(&send(addr, Method::POST, &h, Some(body2)).await, 2);

    // Mcp-Method missing or different.
    let h = [("mcp-protocol-version", V26)];
    mismatch(&send(addr, Method::POST, &h, Some(body.clone())).await, 1);
    let h = [
        ("mcp-protocol-version", V26),
        ("mcp-method", "prompts/list"),
    ];
    mismatch(&send(addr, Method::POST, &h, Some(body)).await, 1);

    // Mcp-Name missing, different, or base64-encoded and equal.
    let mut p = call("echo");
    p["_meta"] = meta();
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": p});
    let base = [("mcp-protocol-version", V26), ("mcp-method", "tools/call")];
    mismatch(
        &send(addr, Method::POST, &base, Some(body.clone())).await,
        3,
    );
    let h = [base[0], base[1], ("mcp-name", "regional")];
    mismatch(&send(addr, Method::POST, &h, Some(body.clone())).await, 3);
    let h = [base[0], base[1], ("mcp-name", "=?base64?ZWNobw==?=")];
    assert_eq!(send(addr, Method::POST, &h, Some(body)).await.status, 200);

    // Mcp-Param-* from x-mcp-header: required when the argument is present, compared after
    // decoding, integers numerically; absent argument and absent header agree.
    let args = json!({"name": "regional", "arguments": {"region": "eu west", "count": 42}});
    let a = modern(
        addr,
        4,
        "tools/call",
        args.clone(),
        &[("mcp-param-count", "42")],
    )
    .await;
    mismatch(&a, 4);
    let a = modern(
        addr,
        5,
        "tools/call",
        args.clone(),
        &[("mcp-param-region", "us"), ("mcp-param-count", "42")],
    )
    .await;
    mismatch(&a, 5);
    let a = modern(
        addr,
        6,
        "tools/call",
        args.clone(),
        &[
            ("mcp-param-region", "=?base64?ZXUgd2VzdA==?="),
            ("mcp-param-count", "43"),
        ],
    )
    .await;
    mismatch(&a, 6);
    let ok = [
        ("mcp-param-region", "=?base64?ZXUgd2VzdA==?="),
        ("mcp-param-count", "042"),
    ];
    let a = modern(addr, 7, "tools/call", args, &ok).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["result"]["content"][0]["text"], "\"eu west\"");
    let a = modern(
        addr,
        8,
        "tools/call",
        json!({"name": "regional", "arguments": {}}),
        &[],
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let a = modern(
        addr,
        9,
        "tools/call",
        json!({"name": "regional", "arguments": {}}),
        &[("mcp-param-region", "x")],
    )
    .await;
    mismatch(&a, 9);
}

#[tokio::test]
async fn modern_status_codes() {
    let f = start().await;
    let addr = f.handle.local_addr();
    let h = [("mcp-protocol-version", V26), ("mcp-method", "tools/list")];

    // Missing _meta: 400 and -32602 (the version header alone does not make a request servable).
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}});
    let a = send(addr, Method::POST, &h, Some(body)).await;
    assert_eq!((a.status, error_code(&a)), (400, -32602), "{}", a.body);

    // Unsupported version in both places: 400 and -32022 with the supported list.
    let mut m = meta();
    m["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": m}});
    let h2 = [
        ("mcp-protocol-version", "2099-01-01"),
        ("mcp-method", "tools/list"),
    ];
    let a = send(addr, Method::POST, &h2, Some(body)).await;
    assert_eq!((a.status, error_code(&a)), (400, -32022), "{}", a.body);
    assert_eq!(
        a.json()["error"]["data"],
        json!({"supported": [V26], "requested": "2099-01-01"})
    );

    // Unknown and removed methods, initialize included: 404 and -32601 with the id.
    for (id, method) in [
        (3, "nope/nothing"),
        (4, "initialize"),
        (5, "ping"),
        (6, "logging/setLevel"),
    ] {
        let a = modern(addr, id, method, json!({}), &[]).await;
        assert_eq!(
            (a.status, error_code(&a)),
            (404, -32601),
            "{method}: {}",
            a.body
        );
        assert_eq!(a.json()["id"], id);
    }

    // Unknown tool: 400 and -32602.
    let a = modern(
        addr,
        8,
        "tools/call",
        json!({"name": "missing", "arguments": {}}),
        &[],
    )
    .await;
    assert_eq!((a.status, error_code(&a)), (400, -32602), "{}", a.body);

    // A notification: 202 with no body.
    let body = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"_meta": meta(), "progressToken": 1, "progress": 1}});
    let a = send(
        addr,
        Method::POST,
        &[
            ("mcp-protocol-version", V26),
            ("mcp-method", "notifications/progress"),
        ],
        Some(body),
    )
    .await;
    assert_eq!((a.status, a.body.as_str()), (202, ""));

    // Unparseable JSON: 400 and -32700 without an id.
    let r = open(addr, Method::POST, &[], Some(b"{not json".to_vec())).await;
    assert_eq!(r.status(), 400);
}

#[tokio::test]
async fn legacy_disabled_answers_get_and_delete_with_405() {
    let config = HttpServerConfig {
        legacy_sessions: false,
        ..HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap())
    };
    let f = start_with(config).await;
    let addr = f.handle.local_addr();
    for m in [Method::GET, Method::DELETE] {
        let a = send(addr, m, &[], None).await;
        assert_eq!(a.status, 405);
        assert_eq!(a.headers["allow"], "POST");
    }
    // No session is minted for initialize either: it is served statelessly and needs _meta.
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
    let a = send(addr, Method::POST, &[], Some(body)).await;
    assert_eq!(a.status, 400);
    assert!(a.headers.get("mcp-session-id").is_none());
}

fn initialize_body() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"sampling": {}}, "clientInfo": {"name": "legacy", "version": "1"}}})
}

/// Initializes a legacy session and returns its id.
async fn legacy_session(addr: SocketAddr) -> String {
    let a = send(addr, Method::POST, &[], Some(initialize_body())).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["result"]["protocolVersion"], "2025-11-25");
    let id = a.headers["mcp-session-id"].to_str().unwrap().to_string();
    assert_eq!(id.len(), 64);
    assert!(id.bytes().all(|b| (0x21..=0x7e).contains(&b)));
    let h = [
        ("mcp-session-id", id.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let a = send(
        addr,
        Method::POST,
        &h,
        Some(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})),
    )
    .await;
    assert_eq!((a.status, a.body.as_str()), (202, ""));
    id
}

#[tokio::test]
async fn legacy_session_lifecycle() {
    let f = start().await;
    let addr = f.handle.local_addr();
    let id = legacy_session(addr).await;
    let h = [
        ("mcp-session-id", id.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "legacy"}}});
    let a = send(addr, Method::POST, &h, Some(call.clone())).await;
    assert_eq!(a.status, 200);
    assert_eq!(
        a.json(),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "legacy"}]}})
    );

    // Legacy JSON-RPC errors travel with 200.
    let bad = json!({"jsonrpc": "2.0", "id": 2, "method": "nope", "params": {}});
    let a = send(addr, Method::POST, &h, Some(bad)).await;
    assert_eq!((a.status, error_code(&a)), (200, -32601));

    // A tampered id, a missing id, and a second initialize on the session.
    let mut tampered = id.clone();
    tampered.replace_range(0..1, if id.starts_with('0') { "1" } else { "0" });
    let a = send(
        addr,
        Method::POST,
        &[("mcp-session-id", tampered.as_str())],
        Some(call.clone()),
    )
    .await;
    assert_eq!(a.status, 404);
    let a = send(addr, Method::POST, &[], Some(call.clone())).await;
    assert_eq!(a.status, 400);
    let a = send(addr, Method::POST, &h, Some(initialize_body())).await;
    assert_eq!(a.status, 400);

    // A modern request is stateless: a session id on it is ignored, even an unknown one.
    let mut p = json!({"name": "echo", "arguments": {"text": "m"}});
    p["_meta"] = meta();
    let modern_call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": p});
    let mh = [
        ("mcp-session-id", "unknown"),
        ("mcp-protocol-version", V26),
        ("mcp-method", "tools/call"),
        ("mcp-name", "echo"),
    ];
    let a = send(addr, Method::POST, &mh, Some(modern_call)).await;
    assert_eq!(
        (a.status, a.json()["result"]["resultType"].as_str()),
        (200, Some("complete"))
    );

    // DELETE ends the session; afterwards the id is unknown everywhere.
    let a = send(addr, Method::DELETE, &h, None).await;
    assert_eq!(a.status, 200);
    assert_eq!(send(addr, Method::POST, &h, Some(call)).await.status, 404);
    assert_eq!(send(addr, Method::DELETE, &h, None).await.status, 404);
    assert_eq!(send(addr, Method::GET, &h, None).await.status, 404);
    assert_eq!(send(addr, Method::GET, &[], None).await.status, 400);
}

/// A request still running when its session is deleted is answered 404 with the session error
/// (not 500), and its handler is cancelled.
#[tokio::test]
async fn a_request_running_when_its_session_is_deleted_gets_404() {
    let mut f = start().await;
    let addr = f.handle.local_addr();
    let id = legacy_session(addr).await;
    let h = [
        ("mcp-session-id", id.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "wait", "arguments": {}}});
    let owned: Vec<(String, String)> = h
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let post = tokio::spawn(async move {
        let h: Vec<(&str, &str)> = owned
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        send(addr, Method::POST, &h, Some(call)).await
    });
    // Give the POST time to reach its handler, then end the session under it.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(send(addr, Method::DELETE, &h, None).await.status, 200);
    let a = tokio::time::timeout(Duration::from_secs(5), post)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(a.status, 404, "{}", a.body);
    assert_eq!(a.json()["id"], 7);
    assert_eq!(error_code(&a), -32600);
    tokio::time::timeout(Duration::from_secs(5), f.cancelled.recv())
        .await
        .expect("the handler is cancelled");
}

/// Reads SSE frames until one carries a JSON message.
async fn next_event(body: &mut Incoming, buf: &mut String) -> Value {
    loop {
        if let Some(end) = buf.find("\n\n") {
            let event: String = buf.drain(..end + 2).collect();
            if let Some(data) = event.lines().find_map(|l| l.strip_prefix("data: ")) {
                return serde_json::from_str(data).unwrap();
            }
            continue;
        }
        let frame = tokio::time::timeout(Duration::from_secs(5), body.frame())
            .await
            .expect("an event within 5 s")
            .expect("the stream is open")
            .unwrap();
        if let Ok(data) = frame.into_data() {
            buf.push_str(std::str::from_utf8(&data).unwrap());
        }
    }
}

#[tokio::test]
async fn legacy_get_stream_receives_list_changed() {
    let f = start().await;
    let addr = f.handle.local_addr();
    let id = legacy_session(addr).await;
    let r = open(
        addr,
        Method::GET,
        &[
            ("mcp-session-id", id.as_str()),
            ("accept", "text/event-stream"),
        ],
        None,
    )
    .await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "text/event-stream");
    let mut body = r.into_body();
    f.server
        .add_tool(
            json!({"name": "new_tool"}),
            libmcp::server::sync_handler(|_c| Reply::text("x")),
        )
        .unwrap();
    let mut buf = String::new();
    let event = next_event(&mut body, &mut buf).await;
    assert_eq!(
        event,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    );
}

#[tokio::test]
async fn legacy_server_to_client_request_rides_the_post_stream() {
    let f = start().await;
    let addr = f.handle.local_addr();
    let id = legacy_session(addr).await;
    let h = [
        ("mcp-session-id", id.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let call = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "ask", "arguments": {}}});
    let r = open(addr, Method::POST, &h, Some(call.to_string().into_bytes())).await;
    assert_eq!(r.headers()["content-type"], "text/event-stream");
    let mut body = r.into_body();
    let mut buf = String::new();
    let request = next_event(&mut body, &mut buf).await;
    assert_eq!(request["method"], "sampling/createMessage");
    let answer = json!({"jsonrpc": "2.0", "id": request["id"], "result": {"role": "assistant", "content": {"type": "text", "text": "42"}, "model": "m"}});
    let a = send(addr, Method::POST, &h, Some(answer)).await;
    assert_eq!(a.status, 202);
    let response = next_event(&mut body, &mut buf).await;
    assert_eq!(response["id"], 9);
    assert_eq!(response["result"]["content"][0]["text"], "llm said \"42\"");
    // The stream ends after the response.
    let end = tokio::time::timeout(Duration::from_secs(5), body.frame())
        .await
        .unwrap();
    assert!(end.is_none());
}

#[tokio::test]
async fn foreign_host_and_origin_are_refused() {
    let f = start().await;
    let addr = f.handle.local_addr();
    let body = || {
        Some(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}}),
        )
    };
    let h = |host: &'static str| {
        [
            ("host", host),
            ("mcp-protocol-version", V26),
            ("mcp-method", "tools/list"),
        ]
    };
    let a = send(addr, Method::POST, &h("evil.example"), body()).await;
    assert_eq!(a.status, 421);
    assert_eq!(a.json()["error"]["code"], -32600);
    assert!(
        a.json().get("id").is_none_or(Value::is_null),
        "an id-less error: {}",
        a.body
    );
    let mut with_origin = h("localhost:1234").to_vec();
    with_origin.push(("origin", "http://evil.example"));
    assert_eq!(
        send(addr, Method::POST, &with_origin, body()).await.status,
        403
    );
    for host in ["localhost:1234", "127.0.0.1:9", "[::1]:80"] {
        let mut ok = h(host).to_vec();
        ok.push(("origin", "http://localhost:5173"));
        assert_eq!(
            send(addr, Method::POST, &ok, body()).await.status,
            200,
            "{host}"
        );
    }
}

#[tokio::test]
async fn posts_must_be_json_and_accept_both_answers() {
    let f = start().await;
    let addr = f.handle.local_addr();
    let call = || {
        let mut params = json!({"name": "echo", "arguments": {"text": "hi"}});
        params["_meta"] = meta();
        Some(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}))
    };
    let modern = [
        ("mcp-protocol-version", V26),
        ("mcp-method", "tools/call"),
        ("mcp-name", "echo"),
    ];
    // (Content-Type, Accept, status, message); an empty value leaves the header out.
    let both = "application/json, text/event-stream";
    let accept_both = "Accept must list application/json and text/event-stream; it does not admit";
    let cases = [
        (
            "text/plain",
            both,
            415,
            "Content-Type must be application/json, not \"text/plain\"".to_owned(),
        ),
        (
            "",
            both,
            415,
            "Content-Type must be application/json (it is missing)".to_owned(),
        ),
        (
            "application/json",
            "",
            406,
            "Accept must list application/json and text/event-stream (it is missing)".to_owned(),
        ),
        (
            "application/json",
            "application/json",
            406,
            format!("{accept_both} text/event-stream"),
        ),
        (
            "application/json",
            "text/event-stream",
            406,
            format!("{accept_both} application/json"),
        ),
        (
            "application/json",
            "application/json, text/event-stream;q=0",
            406,
            format!("{accept_both} text/event-stream"),
        ),
    ];
    for (content_type, accept, status, message) in cases {
        let mut h = modern.to_vec();
        h.push(("content-type", content_type));
        h.push(("accept", accept));
        let a = send(addr, Method::POST, &h, call()).await;
        assert_eq!(a.status, status, "{content_type:?} {accept:?}: {}", a.body);
        assert_eq!(
            a.json(),
            json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": format!("Invalid request: {message}")}}),
            "{content_type:?} {accept:?}"
        );
    }
    // Parameters, case and wildcards are fine, and the refusals left the server serving.
    for (content_type, accept) in [
        ("Application/JSON; charset=utf-8", "*/*"),
        ("application/json", "application/*, text/*"),
    ] {
        let mut h = modern.to_vec();
        h.push(("content-type", content_type));
        h.push(("accept", accept));
        let a = send(addr, Method::POST, &h, call()).await;
        assert_eq!(a.status, 200, "{content_type:?} {accept:?}: {}", a.body);
        assert_eq!(a.json()["result"]["content"][0]["text"], "hi");
    }
}

#[tokio::test]
async fn oversized_body_gets_413() {
    let config = HttpServerConfig {
        max_body_bytes: 1024,
        ..HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap())
    };
    let f = start_with(config).await;
    let big = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "x".repeat(2000)}, "_meta": meta()}});
    let a = send(f.handle.local_addr(), Method::POST, &[], Some(big)).await;
    assert_eq!(a.status, 413);
    assert_eq!(a.json()["error"]["code"], -32600);
}

#[tokio::test]
async fn dropping_a_modern_stream_cancels_its_request() {
    let mut f = start().await;
    let mut params = json!({"name": "wait", "arguments": {}});
    params["_meta"] = meta();
    params["_meta"]["progressToken"] = json!(1);
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let h = [
        ("mcp-protocol-version", V26),
        ("mcp-method", "tools/call"),
        ("mcp-name", "wait"),
    ];
    let r = open(
        f.handle.local_addr(),
        Method::POST,
        &h,
        Some(body.to_string().into_bytes()),
    )
    .await;
    assert_eq!(r.headers()["content-type"], "text/event-stream");
    let mut body = r.into_body();
    let mut buf = String::new();
    assert_eq!(
        next_event(&mut body, &mut buf).await["method"],
        "notifications/progress"
    );
    drop(body);
    tokio::time::timeout(Duration::from_secs(5), f.cancelled.recv())
        .await
        .expect("the handler sees the cancellation")
        .unwrap();
}

#[tokio::test]
async fn shutdown_ends_sessions_and_stops_listening() {
    let f = start().await;
    let addr = f.handle.local_addr();
    let id = legacy_session(addr).await;
    let r = open(addr, Method::GET, &[("mcp-session-id", id.as_str())], None).await;
    let mut body = r.into_body();
    // The stream opens with its priming event.
    read_until(&mut body, &mut String::new(), "retry:").await;
    let stopped = Arc::new(());
    f.handle.shutdown().await;
    drop(stopped);
    // The open stream ends (or errors) instead of hanging, and new connections are refused.
    let end = tokio::time::timeout(Duration::from_secs(5), body.frame())
        .await
        .unwrap();
    assert!(!matches!(end, Some(Ok(_))));
    assert!(TcpStream::connect(addr).await.is_err());
}

/// Reads raw SSE text until `needle` shows up.
async fn read_until(body: &mut Incoming, buf: &mut String, needle: &str) {
    while !buf.contains(needle) {
        let frame = tokio::time::timeout(Duration::from_secs(5), body.frame())
            .await
            .expect("data within 5 s")
            .expect("the stream is open")
            .unwrap();
        if let Ok(data) = frame.into_data() {
            buf.push_str(std::str::from_utf8(&data).unwrap());
        }
    }
}

#[tokio::test]
async fn modern_listen_stream_acknowledges_then_delivers() {
    let f = start().await;
    let addr = f.handle.local_addr();
    let mut params = json!({"notifications": {"toolsListChanged": true}});
    params["_meta"] = meta();
    let body =
        json!({"jsonrpc": "2.0", "id": "L1", "method": "subscriptions/listen", "params": params});
    let h = [
        ("mcp-protocol-version", V26),
        ("mcp-method", "subscriptions/listen"),
    ];
    let r = open(addr, Method::POST, &h, Some(body.to_string().into_bytes())).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "text/event-stream");
    let mut body = r.into_body();
    let mut buf = String::new();
    let ack = next_event(&mut body, &mut buf).await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "L1"
    );
    f.server.remove_tool("echo");
    let changed = next_event(&mut body, &mut buf).await;
    assert_eq!(changed["method"], "notifications/tools/list_changed");
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "L1"
    );
}

#[tokio::test]
async fn idle_sessions_expire_and_the_session_count_is_bounded() {
    let config = HttpServerConfig {
        max_sessions: 1,
        session_idle_timeout: Duration::from_millis(300),
        ..HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap())
    };
    let f = start_with(config).await;
    let addr = f.handle.local_addr();
    let id = legacy_session(addr).await;
    let a = send(addr, Method::POST, &[], Some(initialize_body())).await;
    assert_eq!(a.status, 503, "the second session is over the limit");
    tokio::time::sleep(Duration::from_millis(800)).await;
    let h = [("mcp-session-id", id.as_str())];
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    assert_eq!(
        send(addr, Method::POST, &h, Some(ping)).await.status,
        404,
        "expired"
    );
    legacy_session(addr).await;
}

#[tokio::test]
async fn http_sse_2024_11_05_transport() {
    let off = start().await;
    let (r, _c) = open_at(off.handle.local_addr(), Method::GET, "/sse", &[], None).await;
    assert_eq!(r.status(), 404, "off by default");

    let config = HttpServerConfig {
        http_sse: true,
        ..HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap())
    };
    let f = start_with(config).await;
    let addr = f.handle.local_addr();
    let (r, _c) = open_at(addr, Method::GET, "/sse", &[], None).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "text/event-stream");
    let mut body = r.into_body();
    let mut buf = String::new();
    read_until(&mut body, &mut buf, "\n\n").await;
    let endpoint = buf
        .strip_prefix("event: endpoint\ndata: ")
        .and_then(|s| s.strip_suffix("\n\n"))
        .unwrap_or_else(|| panic!("{buf:?}"))
        .to_string();
    assert!(endpoint.starts_with("/messages?sessionId="), "{endpoint}");
    buf.clear();
    let post = |msg: Value| {
        let endpoint = endpoint.clone();
        async move {
            let (r, _c) = open_at(
                addr,
                Method::POST,
                &endpoint,
                &[("content-type", "application/json")],
                Some(msg.to_string().into_bytes()),
            )
            .await;
            r.status().as_u16()
        }
    };
    let mut init = initialize_body();
    init["params"]["protocolVersion"] = json!("2024-11-05");
    assert_eq!(post(init).await, 202);
    let answer = next_event(&mut body, &mut buf).await;
    assert_eq!(answer["result"]["protocolVersion"], "2024-11-05");
    assert_eq!(
        post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await,
        202
    );
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "old"}}});
    assert_eq!(post(call).await, 202);
    let answer = next_event(&mut body, &mut buf).await;
    assert_eq!(answer["result"]["content"][0]["text"], "old");
    let (r, _c) = open_at(
        addr,
        Method::POST,
        "/messages?sessionId=nope",
        &[],
        Some(b"{}".to_vec()),
    )
    .await;
    assert_eq!(r.status(), 404);
}
