//! The Streamable HTTP client against an in-test HTTP server: exact headers (`MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name` with the base64 sentinel, `Mcp-Param-*`), SSE answers (comments,
//! multi-line data, progress), the legacy session (`Mcp-Session-Id`, GET stream, DELETE, resumption
//! with `Last-Event-ID` after `retry:`), the era probe and its fallback, and HTTP error mapping.
#![cfg(feature = "http")]

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::{Frame, Incoming};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use libmcp::client::{CallOptions, Client, VersionPreference};
use libmcp::{Era, Error, ProtocolVersion};
use parking_lot::Mutex;
use serde_json::{Value, json};

/// One request the server saw.
#[derive(Clone, Debug)]
struct Seen {
    method: String,
    headers: Vec<(String, String)>,
    body: Value,
    at: Instant,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    fn rpc_method(&self) -> &str {
        self.body["method"].as_str().unwrap_or("")
    }
}

/// What the server answers.
struct Reply {
    status: u16,
    content_type: &'static str,
    headers: Vec<(&'static str, String)>,
    body: String,
    /// Keep the body open after `body` (an SSE stream that never ends); the flag is set when the
    /// server drops the stream, i.e. when the client closed the connection.
    hang: Option<Arc<AtomicBool>>,
}

/// A response body that sends `first`, then stays open until dropped.
struct Hanging {
    first: Option<Bytes>,
    dropped: Arc<AtomicBool>,
}

impl hyper::body::Body for Hanging {
    type Data = Bytes;
    type Error = Infallible;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.first.take() {
            Some(b) => Poll::Ready(Some(Ok(Frame::data(b)))),
            None => Poll::Pending,
        }
    }
}

impl Drop for Hanging {
    fn drop(&mut self) {
        self.dropped.store(true, Ordering::SeqCst);
    }
}

fn json_reply(v: Value) -> Reply {
    Reply {
        status: 200,
        content_type: "application/json",
        headers: vec![],
        body: v.to_string(),
        hang: None,
    }
}

fn status(code: u16, body: &str) -> Reply {
    Reply {
        status: code,
        content_type: "application/json",
        headers: vec![],
        body: body.to_owned(),
        hang: None,
    }
}

fn sse(body: &str) -> Reply {
    Reply {
        status: 200,
        content_type: "text/event-stream",
        headers: vec![],
        body: body.to_owned(),
        hang: None,
    }
}

type Handler = Arc<dyn Fn(&Seen) -> Reply + Send + Sync>;

struct Mock {
    url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Mock {
    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().clone()
    }
    fn posts(&self, rpc_method: &str) -> Vec<Seen> {
        self.seen()
            .into_iter()
            .filter(|s| s.method == "POST" && s.rpc_method() == rpc_method)
            .collect()
    }
}

async fn mock(handler: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> Mock {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let handler: Handler = Arc::new(handler);
    let record = seen.clone();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let handler = handler.clone();
            let record = record.clone();
            tokio::spawn(async move {
                let svc = service_fn(move |req: Request<Incoming>| {
                    let handler = handler.clone();
                    let record = record.clone();
                    async move {
                        let method = req.method().to_string();
                        let headers = req
                            .headers()
                            .iter()
                            .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_owned()))
                            .collect();
                        let bytes = req.into_body().collect().await.unwrap().to_bytes();
                        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                        let s = Seen {
                            method,
                            headers,
                            body,
                            at: Instant::now(),
                        };
                        let reply = handler(&s);
                        record.lock().push(s);
                        let mut b = Response::builder()
                            .status(reply.status)
                            .header("content-type", reply.content_type);
                        for (k, v) in reply.headers {
                            b = b.header(k, v);
                        }
                        let body = match reply.hang {
                            Some(dropped) => Hanging {
                                first: Some(Bytes::from(reply.body)),
                                dropped,
                            }
                            .boxed(),
                            None => Full::new(Bytes::from(reply.body)).boxed(),
                        };
                        Ok::<_, Infallible>(b.body(body).unwrap())
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), svc)
                    .await;
            });
        }
    });
    Mock { url, seen }
}

fn result(s: &Seen, result: Value) -> Reply {
    json_reply(json!({"jsonrpc": "2.0", "id": s.body["id"], "result": result}))
}

fn discover_result() -> Value {
    json!({"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
           "ttlMs": 0, "cacheScope": "private",
           "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "mock", "version": "1"}}})
}

/// A modern server: discover, tools/list (one tool with header parameters, one malformed), tools/call.
fn modern(s: &Seen) -> Reply {
    match s.rpc_method() {
        "server/discover" => result(s, discover_result()),
        "tools/list" => result(
            s,
            json!({"resultType": "complete", "tools": [
                {"name": "weather", "inputSchema": {"type": "object", "properties": {
                    "region": {"type": "string", "x-mcp-header": "Region"},
                    "days": {"type": "integer", "x-mcp-header": "Days"},
                    "note": {"type": ["string", "null"], "x-mcp-header": "Note"}}}},
                {"name": "broken", "inputSchema": {"type": "object", "properties": {
                    "n": {"type": "number", "x-mcp-header": "N"}}}}
            ]}),
        ),
        "tools/call" | "resources/read" | "prompts/get" => {
            result(s, json!({"resultType": "complete", "content": []}))
        }
        _ => status(
            404,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"nope"}}"#,
        ),
    }
}

fn builder() -> libmcp::client::ClientBuilder {
    Client::builder("http-test", "1.0.0")
}

#[tokio::test]
async fn modern_requests_carry_the_2026_headers() {
    let m = mock(modern).await;
    let client = builder().connect_http(&m.url).await.unwrap();
    assert_eq!(client.era(), Era::Modern);
    assert_eq!(libmcp::client::http::cached_era(&m.url), Some(Era::Modern));

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["weather"],
        "the tool with a number-typed x-mcp-header is dropped"
    );

    client
        .call_tool(
            "weather",
            json!({"region": "Zürich", "days": 3, "note": null}),
        )
        .await
        .unwrap();
    client.read_resource_raw("file:///a b ").await.unwrap();
    client.get_prompt_raw("greet", json!({})).await.unwrap();

    for s in m.seen() {
        assert_eq!(s.method, "POST");
        assert_eq!(
            s.header("accept"),
            Some("application/json, text/event-stream")
        );
        assert_eq!(s.header("content-type"), Some("application/json"));
        assert_eq!(s.header("mcp-protocol-version"), Some("2026-07-28"));
        assert_eq!(
            s.body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        assert_eq!(s.header("mcp-method"), Some(s.rpc_method()));
        assert_eq!(s.header("mcp-session-id"), None);
    }
    let call = &m.posts("tools/call")[0];
    assert_eq!(call.header("mcp-name"), Some("weather"));
    assert_eq!(
        call.header("mcp-param-region"),
        Some("=?base64?WsO8cmljaA==?=")
    );
    assert_eq!(call.header("mcp-param-days"), Some("3"));
    assert_eq!(
        call.header("mcp-param-note"),
        None,
        "null arguments send no header"
    );
    let read = &m.posts("resources/read")[0];
    // Trailing whitespace forces the sentinel form.
    assert_eq!(read.header("mcp-name"), Some("=?base64?ZmlsZTovLy9hIGIg?="));
    assert_eq!(m.posts("prompts/get")[0].header("mcp-name"), Some("greet"));
    assert_eq!(m.posts("tools/list")[0].header("mcp-name"), None);
    client.close().await;
}

#[tokio::test]
async fn sse_answers_with_comments_multi_line_data_and_progress() {
    let m = mock(|s| match s.rpc_method() {
        "server/discover" => result(s, discover_result()),
        "tools/call" => {
            let id = &s.body["id"];
            let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": id, "progress": 1, "total": 2}});
            sse(&format!(
                ": keep-alive\n\nevent: message\ndata: {progress}\n\n\
                 data: {{\"jsonrpc\": \"2.0\", \"id\": {id},\ndata:  \"result\": {{\"resultType\": \"complete\", \"content\": [{{\"type\": \"text\", \"text\": \"done\"}}]}}}}\n\n"
            ))
        }
        _ => status(404, ""),
    })
    .await;
    let client = builder().connect_http(&m.url).await.unwrap();
    let ticks = Arc::new(Mutex::new(Vec::new()));
    let t = ticks.clone();
    let opts = CallOptions {
        timeout: None,
        on_progress: Some(Arc::new(move |p, total, _| t.lock().push((p, total)))),
    };
    let r = client
        .call("tools/call", json!({"name": "x", "arguments": {}}), &opts)
        .await
        .unwrap();
    assert_eq!(r["content"][0]["text"], "done");
    assert_eq!(*ticks.lock(), vec![(1.0, Some(2.0))]);
    client.close().await;
}

/// A legacy (2025-11-25) server: refuses requests without a session, mints one at initialize, has no
/// GET stream (405), and ends the session on DELETE.
fn legacy(s: &Seen) -> Reply {
    let session_ok = s.header("mcp-session-id") == Some("sess-1");
    match (s.method.as_str(), s.rpc_method()) {
        ("POST", "initialize") => {
            let mut r = result(
                s,
                json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                       "serverInfo": {"name": "legacy", "version": "1"}}),
            );
            r.headers.push(("mcp-session-id", "sess-1".into()));
            r
        }
        _ if !session_ok => status(400, ""),
        ("POST", "notifications/initialized") => status(202, ""),
        ("POST", "tools/list") => result(s, json!({"tools": []})),
        ("POST", "tools/call") => status(
            400,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"bad tool"}}"#,
        ),
        ("POST", "prompts/get") => status(500, ""),
        ("GET", _) => status(405, ""),
        ("DELETE", _) => status(200, ""),
        _ => status(400, ""),
    }
}

#[tokio::test]
async fn falls_back_to_initialize_and_keeps_the_session() {
    let m = mock(legacy).await;
    let client = builder().connect_http(&m.url).await.unwrap();
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(client.server().version, ProtocolVersion::V2025_11_25);
    client.list_all_tools().await.unwrap();

    // A 4xx with a JSON-RPC error body answers the request with that error; without one it is a
    // transport error.
    match client.call_tool("t", json!({})).await {
        Err(Error::Rpc(e)) => assert_eq!((e.code, e.message.as_str()), (-32602, "bad tool")),
        other => panic!("expected the server's error, got {other:?}"),
    }
    match client.get_prompt("p", json!({})).await {
        Err(Error::Transport(m)) => assert!(m.message().contains("500"), "{m}"),
        other => panic!("expected a transport error, got {other:?}"),
    }
    client.close().await;

    let seen = m.seen();
    let methods: Vec<String> = seen
        .iter()
        .map(|s| format!("{} {}", s.method, s.rpc_method()))
        .collect();
    assert_eq!(
        methods,
        [
            "POST server/discover",
            "POST initialize",
            "POST notifications/initialized",
            "GET ",
            "POST tools/list",
            "POST tools/call",
            "POST prompts/get",
            "DELETE ",
        ]
    );
    let init = &seen[1];
    assert_eq!(init.header("mcp-protocol-version"), None);
    assert_eq!(init.header("mcp-session-id"), None);
    for s in &seen[2..] {
        assert_eq!(
            s.header("mcp-session-id"),
            Some("sess-1"),
            "{} {}",
            s.method,
            s.rpc_method()
        );
        assert_eq!(s.header("mcp-protocol-version"), Some("2025-11-25"));
    }
    assert_eq!(seen[3].header("accept"), Some("text/event-stream"));
    assert_eq!(libmcp::client::http::cached_era(&m.url), Some(Era::Legacy));
}

#[tokio::test]
async fn a_404_with_method_not_found_from_discover_means_modern() {
    let m = mock(|s| {
        status(
            404,
            &json!({"jsonrpc": "2.0", "id": s.body["id"], "error": {"code": -32601, "message": "no"}})
                .to_string(),
        )
    })
    .await;
    let client = builder().connect_http(&m.url).await.unwrap();
    assert_eq!(client.era(), Era::Modern);
    assert_eq!(m.posts("initialize").len(), 0);
    client.close().await;
}

#[tokio::test]
async fn unsupported_version_is_definitive_and_never_falls_back() {
    let m = mock(|s| {
        status(
            400,
            &json!({"jsonrpc": "2.0", "id": s.body["id"], "error": {"code": -32022,
                "message": "Unsupported protocol version",
                "data": {"supported": ["2099-01-01"], "requested": "2026-07-28"}}})
            .to_string(),
        )
    })
    .await;
    let err = builder().connect_http(&m.url).await.err().unwrap();
    assert!(matches!(err, Error::Negotiation(_)), "{err:?}");
    assert_eq!(m.posts("initialize").len(), 0);
}

#[tokio::test]
async fn legacy_stream_resumes_with_last_event_id_after_retry() {
    let m = mock(|s| match (s.method.as_str(), s.rpc_method()) {
        ("POST", "initialize") => {
            let mut r = result(
                s,
                json!({"protocolVersion": "2025-11-25", "capabilities": {},
                       "serverInfo": {"name": "legacy", "version": "1"}}),
            );
            r.headers.push(("mcp-session-id", "s2".into()));
            r
        }
        ("POST", "server/discover") => status(400, ""),
        ("POST", "tools/call") => sse("id: ev-1\nretry: 300\ndata: \n\n"),
        ("POST", _) => status(202, ""),
        ("GET", _) if s.header("last-event-id") == Some("ev-1") => {
            sse("id: ev-2\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[]}}\n\n")
        }
        ("GET", _) => status(405, ""),
        _ => status(200, ""),
    })
    .await;
    let client = builder()
        .version_preference(VersionPreference::Legacy(ProtocolVersion::V2025_11_25))
        .connect_http(&m.url)
        .await
        .unwrap();
    let r = client.call_tool("slow", json!({})).await.unwrap();
    assert!(r.content.is_empty());
    let seen = m.seen();
    let post = seen
        .iter()
        .find(|s| s.rpc_method() == "tools/call")
        .unwrap();
    let resume = seen
        .iter()
        .find(|s| s.method == "GET" && s.header("last-event-id").is_some())
        .unwrap();
    assert_eq!(post.body["id"], 2);
    let waited = resume.at - post.at;
    assert!(
        waited >= Duration::from_millis(280) && waited < Duration::from_millis(1000),
        "reconnected after {waited:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn extra_headers_are_sent_and_https_is_refused() {
    let m = mock(modern).await;
    let opts = libmcp::client::http::HttpClientOptions {
        headers: vec![("Authorization".into(), "Bearer t0k".into())],
        ..Default::default()
    };
    let client = builder().connect_http_with(&m.url, opts).await.unwrap();
    client.list_all_tools().await.unwrap();
    assert!(
        m.seen()
            .iter()
            .all(|s| s.header("authorization") == Some("Bearer t0k"))
    );
    client.close().await;
    let err = builder()
        .connect_http("https://127.0.0.1:1/mcp")
        .await
        .err()
        .unwrap();
    // Without the `tls` feature https is refused up front; with it, this port just refuses the connection.
    if cfg!(feature = "tls") {
        assert!(matches!(err, Error::Transport(_)), "{err:?}");
    } else {
        assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");
    }
}

#[tokio::test]
async fn a_cancelled_modern_call_closes_its_response_stream() {
    let dropped = Arc::new(AtomicBool::new(false));
    let flag = dropped.clone();
    let m = mock(move |s| match s.rpc_method() {
        "server/discover" => result(s, discover_result()),
        _ => Reply {
            hang: Some(flag.clone()),
            ..sse(": working\n\n")
        },
    })
    .await;
    let client = builder().connect_http(&m.url).await.unwrap();
    let opts = CallOptions {
        timeout: Some(Duration::from_millis(200)),
        on_progress: None,
    };
    let err = client
        .call(
            "tools/call",
            json!({"name": "slow", "arguments": {}}),
            &opts,
        )
        .await
        .err()
        .unwrap();
    assert!(matches!(err, Error::Timeout(_)), "{err:?}");
    for _ in 0..100 {
        if dropped.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        dropped.load(Ordering::SeqCst),
        "the response stream stayed open"
    );
    assert!(
        m.posts("notifications/cancelled").is_empty(),
        "HTTP cancels by closing the stream, not with notifications/cancelled"
    );
    client.close().await;
}

#[tokio::test]
async fn a_cancelled_legacy_call_sends_notifications_cancelled() {
    let m = mock(|s| match (s.method.as_str(), s.rpc_method()) {
        ("POST", "initialize") => result(
            s,
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "serverInfo": {"name": "legacy", "version": "1"}}),
        ),
        ("POST", "tools/call") => Reply {
            hang: Some(Arc::new(AtomicBool::new(false))),
            ..sse(": working\n\n")
        },
        ("POST", _) => status(202, ""),
        _ => status(405, ""),
    })
    .await;
    let client = builder()
        .version_preference(VersionPreference::Legacy(ProtocolVersion::V2025_11_25))
        .connect_http(&m.url)
        .await
        .unwrap();
    let opts = CallOptions {
        timeout: Some(Duration::from_millis(200)),
        on_progress: None,
    };
    let call = client.call(
        "tools/call",
        json!({"name": "slow", "arguments": {}}),
        &opts,
    );
    assert!(matches!(call.await, Err(Error::Timeout(_))));
    for _ in 0..100 {
        if !m.posts("notifications/cancelled").is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let cancel = m.posts("notifications/cancelled");
    assert_eq!(cancel.len(), 1);
    assert_eq!(cancel[0].body["params"]["requestId"], 2);
    assert_eq!(
        cancel[0].header("mcp-method"),
        Some("notifications/cancelled")
    );
    client.close().await;
}

#[tokio::test]
async fn a_header_mismatch_relists_tools_and_retries_once() {
    let m = mock(|s| match s.rpc_method() {
        "tools/call" if s.header("mcp-param-region").is_none() => status(
            400,
            &json!({"jsonrpc": "2.0", "id": s.body["id"],
                    "error": {"code": -32020, "message": "Header mismatch: Mcp-Param-Region missing"}})
            .to_string(),
        ),
        _ => modern(s),
    })
    .await;
    let client = builder().connect_http(&m.url).await.unwrap();
    client
        .call_tool("weather", json!({"region": "eu"}))
        .await
        .unwrap();
    let calls = m.posts("tools/call");
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[1].header("mcp-param-region"), Some("eu"));
    assert_eq!(m.posts("tools/list").len(), 1);
    client.close().await;
}
