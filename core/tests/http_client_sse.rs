//! The client's fallback to the 2024-11-05 HTTP+SSE transport: against libmcp's own server with
//! `http_sse` on (tools, progress, a server-to-client sampling request, the end of the session), and
//! against raw-socket mocks for the rules: which statuses of `POST initialize` trigger the fallback, and
//! the errors for a GET that is no event stream, a first event that is not `endpoint`, and an endpoint
//! on another origin.
#![cfg(feature = "http")]

use std::sync::Arc;
use std::time::Duration;

use libmcp::client::{CallOptions, Client, VersionPreference};
use libmcp::model::ContentBlock;
use libmcp::server::{InputRequired, Reply, Server};
use libmcp::transport::http::{HttpServerConfig, HttpServerHandle, serve_http};
use libmcp::{Era, Error, ProtocolVersion};
use parking_lot::Mutex;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const STEP: Duration = Duration::from_secs(10);

/// A progress notification's `progress` and `total`.
type Progress = (f64, Option<f64>);

fn server() -> Server {
    Server::builder("sse-test", "1.0.0")
        .tool(
            json!({"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}),
            |_c, a| Reply::text(a["text"].as_str().unwrap_or("")),
        )
        .tool_async(json!({"name": "progress", "inputSchema": {"type": "object"}}), |ctx| async move {
            ctx.notify_progress(1.0, Some(2.0), None);
            tokio::time::sleep(Duration::from_millis(20)).await;
            ctx.notify_progress(2.0, Some(2.0), None);
            Reply::text("done")
        })
        .tool(json!({"name": "ask", "inputSchema": {"type": "object"}}), |ctx, _| {
            match ctx.input_response("llm") {
                Some(r) => Reply::text(format!("llm said {}", r["content"]["text"])),
                None => InputRequired::new()
                    .sample("llm", json!({"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5}))
                    .into(),
            }
        })
        .build()
        .unwrap()
}

/// libmcp's server with the HTTP+SSE transport on; the URL is its `/sse` path.
async fn sse_server() -> (HttpServerHandle, String) {
    let mut config = HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap());
    config.http_sse = true;
    let handle = serve_http(server(), config).await.unwrap();
    let url = format!("http://{}/sse", handle.local_addr());
    (handle, url)
}

fn builder() -> libmcp::client::ClientBuilder {
    Client::builder("sse-test-client", "1.0.0").on_sampling(|params| async move {
        assert_eq!(params["messages"][0]["content"]["text"], "hi");
        Ok(json!({"role": "assistant", "content": {"type": "text", "text": "pong"}, "model": "m"}))
    })
}

async fn step<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(STEP, f).await.expect("step timed out")
}

#[tokio::test]
async fn auto_falls_back_to_http_sse_and_works_end_to_end() {
    let (handle, url) = sse_server().await;
    let client = step(builder().connect_http(&url)).await.unwrap();
    assert_eq!(client.era(), Era::Legacy);
    let server = client.server();
    assert_eq!(server.version, ProtocolVersion::LATEST_LEGACY);
    assert_eq!(server.server_info.as_ref().unwrap()["name"], "sse-test");

    let tools = step(client.list_all_tools()).await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["echo", "progress", "ask"]);
    let echoed = step(client.call_tool("echo", json!({"text": "over sse"})))
        .await
        .unwrap();
    assert_eq!(echoed.content, [ContentBlock::text("over sse")]);

    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let record = seen.clone();
    let opts = CallOptions {
        timeout: None,
        on_progress: Some(Arc::new(move |p, total, _| record.lock().push((p, total)))),
    };
    let done = step(client.call_tool_with("progress", json!({}), &opts))
        .await
        .unwrap();
    assert_eq!(done.first_text(), Some("done"));
    assert_eq!(*seen.lock(), [(1.0, Some(2.0)), (2.0, Some(2.0))]);

    // The server's sampling/createMessage arrives on the stream; the answer is POSTed back.
    let asked = step(client.call_tool("ask", json!({}))).await.unwrap();
    assert_eq!(asked.first_text(), Some("llm said \"pong\""));

    // Several calls in flight at once, answered on the one stream.
    let calls: Vec<_> = (0..8)
        .map(|i| {
            let c = client.clone();
            tokio::spawn(async move { c.call_tool("echo", json!({"text": format!("n{i}")})).await })
        })
        .collect();
    for (i, call) in calls.into_iter().enumerate() {
        let r = step(call).await.unwrap().unwrap();
        assert_eq!(r.first_text(), Some(&*format!("n{i}")));
    }
    client.close().await;
    handle.shutdown().await;
}

#[tokio::test]
async fn a_legacy_preference_negotiates_2024_11_05_over_http_sse() {
    let (handle, url) = sse_server().await;
    let client = step(
        builder()
            .version_preference(VersionPreference::Legacy(ProtocolVersion::new(
                "2024-11-05",
            )))
            .connect_http(&url),
    )
    .await
    .unwrap();
    assert_eq!(client.server().version.as_str(), "2024-11-05");
    let tools = step(client.list_all_tools()).await.unwrap();
    assert_eq!(tools.len(), 3);
    step(client.ping()).await.unwrap();
    client.close().await;
    handle.shutdown().await;
}

#[tokio::test]
async fn a_modern_preference_does_not_fall_back() {
    let (handle, url) = sse_server().await;
    let err = step(
        builder()
            .version_preference(VersionPreference::Modern(ProtocolVersion::LATEST))
            .connect_http(&url),
    )
    .await
    .err()
    .unwrap();
    match err {
        Error::Transport(m) => assert!(m.message().contains("405"), "{m}"),
        other => panic!("expected a transport error, got {other:?}"),
    }
    handle.shutdown().await;
}

#[tokio::test]
async fn the_session_ends_with_its_stream() {
    let (handle, url) = sse_server().await;
    let client = step(builder().connect_http(&url)).await.unwrap();
    step(client.ping()).await.unwrap();
    handle.shutdown().await;
    step(client.closed()).await;
    let err = step(client.call_tool("echo", json!({"text": "x"})))
        .await
        .err()
        .unwrap();
    assert!(
        !matches!(err, Error::Rpc(_)),
        "a closed session fails locally: {err:?}"
    );
}

/// One canned HTTP exchange of a mock: what the server answers a method on any path.
#[derive(Clone)]
struct Canned {
    post: &'static str,
    get: String,
    /// Keep the GET's socket open after `get`.
    hang: bool,
}

/// A mock on a raw socket: every request is recorded as `METHOD PATH`; POSTs get `post`, GETs get
/// `get`, then the socket stays open if `hang` (a stream that never ends).
async fn mock(canned: Canned) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/sse", listener.local_addr().unwrap());
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let record = seen.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            let canned = canned.clone();
            let record = record.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                loop {
                    let n = sock.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&buf[..end]).to_string();
                        let len: usize = head
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        while buf.len() < end + 4 + len {
                            let n = sock.read(&mut chunk).await.unwrap_or(0);
                            if n == 0 {
                                break;
                            }
                            buf.extend_from_slice(&chunk[..n]);
                        }
                        let line = head.lines().next().unwrap_or("").to_owned();
                        let mut parts = line.split(' ');
                        let method = parts.next().unwrap_or("").to_owned();
                        let path = parts.next().unwrap_or("").to_owned();
                        record.lock().push(format!("{method} {path}"));
                        let answer = if method == "GET" {
                            canned.get.clone()
                        } else {
                            canned.post.to_owned()
                        };
                        let _ = sock.write_all(answer.as_bytes()).await;
                        if method == "GET" && canned.hang {
                            tokio::time::sleep(Duration::from_secs(30)).await;
                        }
                        return;
                    }
                }
            });
        }
    });
    (url, seen)
}

fn status_line(code: &str) -> &'static str {
    match code {
        "400" => "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
        "404" => {
            "HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\nconnection: close\r\n\r\nnot found"
        }
        "405" => {
            "HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        }
        "500" => {
            "HTTP/1.1 500 Internal Server Error\r\ncontent-length: 4\r\nconnection: close\r\n\r\nboom"
        }
        _ => unreachable!(),
    }
}

fn sse(events: &str) -> String {
    format!(
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n{events}"
    )
}

async fn legacy_connect_error(canned: Canned) -> (String, Vec<String>) {
    let (url, seen) = mock(canned).await;
    let err = step(
        builder()
            .version_preference(VersionPreference::Legacy(ProtocolVersion::LATEST_LEGACY))
            .connect_http(&url),
    )
    .await
    .err()
    .unwrap();
    let Error::Transport(message) = err else {
        panic!("expected a transport error, got {err:?}");
    };
    let seen = seen.lock().clone();
    (message.to_string(), seen)
}

#[tokio::test]
async fn only_400_404_and_405_trigger_the_fallback() {
    for code in ["400", "404", "405"] {
        let (message, seen) = legacy_connect_error(Canned {
            post: status_line(code),
            get: status_line("404").to_owned(),
            hang: true,
        })
        .await;
        assert_eq!(seen, ["POST /sse", "GET /sse"], "after {code}");
        assert!(
            message.starts_with(&format!("POST initialize was answered HTTP {code} ")),
            "{message}"
        );
        assert!(
            message.contains("GET was answered HTTP 404 Not Found: not found"),
            "{message}"
        );
    }
    let (message, seen) = legacy_connect_error(Canned {
        post: status_line("500"),
        get: sse("event: endpoint\ndata: /messages\n\n"),
        hang: true,
    })
    .await;
    assert_eq!(seen, ["POST /sse"]);
    assert_eq!(message, "HTTP 500 Internal Server Error: boom");
}

#[tokio::test]
async fn the_first_event_must_be_endpoint() {
    let (message, _) = legacy_connect_error(Canned {
        post: status_line("405"),
        get: sse("event: message\ndata: {}\n\n"),
        hang: true,
    })
    .await;
    assert!(
        message.ends_with("the stream's first event is \"message\", not \"endpoint\""),
        "{message}"
    );
}

#[tokio::test]
async fn an_endpoint_on_another_origin_is_refused() {
    let (message, seen) = legacy_connect_error(Canned {
        post: status_line("404"),
        get: sse("event: endpoint\ndata: http://elsewhere.example/messages\n\n"),
        hang: true,
    })
    .await;
    assert!(
        message.contains("the endpoint event names \"http://elsewhere.example/messages\", which is not on the origin http://127.0.0.1:"),
        "{message}"
    );
    // Nothing was posted anywhere after the refusal.
    assert_eq!(seen, ["POST /sse", "GET /sse"]);
}

#[tokio::test]
async fn a_refused_message_post_fails_the_request() {
    let (message, seen) = legacy_connect_error(Canned {
        post: status_line("404"),
        get: sse(": hello\n\nevent: endpoint\ndata: /messages?sessionId=7\n\n"),
        hang: true,
    })
    .await;
    assert_eq!(
        seen,
        ["POST /sse", "GET /sse", "POST /messages?sessionId=7"]
    );
    assert_eq!(
        message,
        "the HTTP+SSE message endpoint refused the message: HTTP 404 Not Found: not found"
    );
}

#[tokio::test]
async fn an_event_stream_that_ends_before_endpoint_is_an_error() {
    let (url, _) = mock(Canned {
        post: status_line("405"),
        get: sse(": only a comment\n\n"),
        hang: false,
    })
    .await;
    let err = step(
        builder()
            .version_preference(VersionPreference::Legacy(ProtocolVersion::LATEST_LEGACY))
            .connect_http(&url),
    )
    .await
    .err()
    .unwrap();
    let Error::Transport(message) = err else {
        panic!("{err:?}")
    };
    assert!(
        message
            .message()
            .ends_with("the event stream ended before its endpoint event"),
        "{message}"
    );
}
