//! The bad-input matrix: every class of bad input sent over stdio and over Streamable
//! HTTP, in the stateless 2026-07-28 era and in a legacy (2025-11-25) session, with the exact error
//! (code, message, id, HTTP status) asserted and the next valid request served on the same
//! connection or session. Classes that only exist on one transport or era (media types, headers,
//! sessions, `requestState`) are tested where they exist.

mod http_raw;
mod support;

use std::net::SocketAddr;
use std::time::Duration;

use hyper::Method;
use libmcp::request_state::StateSealer;
use libmcp::server::{Server, ServerConfig};
use libmcp::transport::http::{HttpServerConfig, HttpServerHandle, serve_http};
use serde_json::{Value, json};
use support::fixture;
use support::harness::{Wire, modern, modern_meta};

const V26: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";
/// The stdio message limit and the HTTP body limit of the servers under test.
const LIMIT: usize = 64 * 1024;
/// `max_request_state_bytes` of the servers in the requestState tests.
const STATE_LIMIT: usize = 64;

/// One of the four ways in.
enum Peer {
    Stdio {
        wire: Wire,
        modern: bool,
    },
    Http {
        addr: SocketAddr,
        session: Option<String>,
        _h: HttpServerHandle,
    },
}

/// What came back: the HTTP status (`None` over stdio) and the JSON-RPC message.
#[derive(Debug)]
struct Answer {
    status: Option<u16>,
    body: Value,
}

fn config() -> ServerConfig {
    ServerConfig {
        max_message_bytes: LIMIT,
        ..ServerConfig::default()
    }
}

async fn stdio(server: Server, modern: bool) -> Peer {
    let mut wire = Wire::start(server, if modern { V26 } else { LEGACY });
    if !modern {
        let init = wire
            .request(
                json!(0),
                "initialize",
                json!({"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "m", "version": "1"}}),
            )
            .await;
        assert_eq!(init["result"]["protocolVersion"], LEGACY);
        wire.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
    }
    Peer::Stdio { wire, modern }
}

async fn http(server: Server, modern: bool) -> Peer {
    let config = HttpServerConfig {
        max_body_bytes: LIMIT,
        max_header_bytes: HEAD_LIMIT,
        max_headers: HEADER_LIMIT,
        ..HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap())
    };
    let h = serve_http(server, config).await.unwrap();
    let addr = h.local_addr();
    let session = if modern {
        None
    } else {
        Some(http_raw::session(addr, LEGACY).await)
    };
    Peer::Http {
        addr,
        session,
        _h: h,
    }
}

/// The four peers over `server()` each, in a fixed order.
async fn peers(server: impl Fn() -> Server) -> Vec<(&'static str, Peer)> {
    vec![
        ("stdio/2026-07-28", stdio(server(), true).await),
        ("stdio/2025-11-25", stdio(server(), false).await),
        ("http/2026-07-28", http(server(), true).await),
        ("http/2025-11-25", http(server(), false).await),
    ]
}

impl Peer {
    fn modern(&self) -> bool {
        match self {
            Peer::Stdio { modern, .. } => *modern,
            Peer::Http { session, .. } => session.is_none(),
        }
    }

    /// A request in this peer's era: modern ones carry the `_meta` of a 2026-07-28 client.
    fn request(&self, id: Value, method: &str, params: Value) -> Value {
        let params = if self.modern() {
            modern(params)
        } else {
            params
        };
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }

    /// The headers a conforming client sends with `body`, then `extra` (an empty value removes
    /// one).
    fn headers(&self, body: Option<&Value>, extra: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut h: Vec<(String, String)> = vec![
            ("content-type".into(), "application/json".into()),
            (
                "accept".into(),
                "application/json, text/event-stream".into(),
            ),
        ];
        match self {
            Peer::Http {
                session: Some(s), ..
            } => {
                h.push(("mcp-session-id".into(), s.clone()));
                h.push(("mcp-protocol-version".into(), LEGACY.into()));
            }
            _ => {
                h.push(("mcp-protocol-version".into(), V26.into()));
                if let Some(m) = body.and_then(|b| b["method"].as_str()) {
                    h.push(("mcp-method".into(), m.into()));
                }
                let params = body.map(|b| &b["params"]);
                let name = params.and_then(|p| p.get("name").or_else(|| p.get("uri")));
                if let Some(n) = name.and_then(Value::as_str) {
                    h.push(("mcp-name".into(), n.into()));
                }
            }
        }
        for (k, v) in extra {
            h.retain(|(name, _)| !name.eq_ignore_ascii_case(k));
            if !v.is_empty() {
                h.push((k.to_string(), v.to_string()));
            }
        }
        h
    }

    /// Sends raw bytes (a line over stdio, a POST body over HTTP) and reads the one answer.
    async fn send_raw(&mut self, bytes: &[u8], extra: &[(&str, &str)]) -> Answer {
        let parsed: Option<Value> = serde_json::from_slice(bytes).ok();
        let headers = self.headers(parsed.as_ref(), extra);
        match self {
            Peer::Stdio { wire, .. } => {
                wire.send_raw(bytes).await;
                Answer {
                    status: None,
                    body: wire.recv().await,
                }
            }
            Peer::Http { addr, .. } => {
                let h: Vec<(&str, &str)> = headers
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect();
                let (status, text) = post(*addr, &h, bytes.to_vec()).await;
                let body = serde_json::from_str(&text).unwrap_or(Value::Null);
                Answer {
                    status: Some(status),
                    body,
                }
            }
        }
    }

    async fn send(&mut self, msg: &Value) -> Answer {
        self.send_raw(msg.to_string().as_bytes(), &[]).await
    }

    /// The next valid request is served.
    async fn still_alive(&mut self, name: &str, case: &str) {
        let call = self.request(
            json!(9999),
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "alive"}}),
        );
        let a = self.send(&call).await;
        assert_eq!(
            a.body["result"]["content"][0]["text"], "alive",
            "{name}: after {case}: {a:?}"
        );
    }
}

/// One POST to `/mcp` on a fresh connection with exactly these headers (plus `Host`).
async fn post(addr: SocketAddr, headers: &[(&str, &str)], body: Vec<u8>) -> (u16, String) {
    use bytes::Bytes;
    use http_body_util::{BodyExt, Full};
    use hyper_util::rt::TokioIo;
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(conn);
    let mut req = hyper::Request::builder().method(Method::POST).uri("/mcp");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req = req.header("host", format!("127.0.0.1:{}", addr.port()));
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let r = sender
        .send_request(req.body(Full::new(Bytes::from(body))).unwrap())
        .await
        .unwrap();
    let status = r.status().as_u16();
    let bytes = tokio::time::timeout(Duration::from_secs(5), r.into_body().collect())
        .await
        .expect("the body ends within 5 s")
        .unwrap()
        .to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    // An SSE answer carries the response as its last data line.
    let json = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("data: "))
        .map_or(text.clone(), str::to_owned);
    (status, json)
}

/// Headers a case adds or (with an empty value) removes.
type Headers = Vec<(&'static str, &'static str)>;

/// What one bad input must produce.
struct Expect {
    code: i64,
    message: String,
    id: Value,
    /// The HTTP status in the modern era and in a legacy session.
    status: (u16, u16),
}

fn expect(code: i64, message: &str, id: Value, status: (u16, u16)) -> Expect {
    Expect {
        code,
        message: message.to_owned(),
        id,
        status,
    }
}

fn check(name: &str, case: &str, peer: &Peer, a: &Answer, e: &Expect) {
    let ctx = format!("{name}: {case}: {a:?}");
    assert_eq!(a.body["error"]["code"], e.code, "{ctx}");
    assert_eq!(a.body["error"]["message"], e.message.as_str(), "{ctx}");
    assert_eq!(
        a.body.get("id").cloned().unwrap_or(Value::Null),
        e.id,
        "{ctx}"
    );
    if let Some(status) = a.status {
        let want = if peer.modern() {
            e.status.0
        } else {
            e.status.1
        };
        assert_eq!(status, want, "{ctx}");
    }
}

/// Inputs that are bad before any routing: the same answer on every transport and era.
#[tokio::test]
async fn malformed_frames_get_the_same_precise_error_everywhere() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let bad_400 = (400, 400);
    let cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        (
            "malformed JSON",
            b"{not json".to_vec(),
            expect(
                -32700,
                "Parse error: key must be a string at line 1 column 2",
                Value::Null,
                bad_400,
            ),
        ),
        (
            "truncated JSON",
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/li"#.to_vec(),
            expect(
                -32700,
                "Parse error: EOF while parsing a string at line 1 column 42",
                Value::Null,
                bad_400,
            ),
        ),
        (
            "invalid UTF-8",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}".to_vec(),
            expect(
                -32700,
                "Parse error: invalid unicode code point at line 1 column 35",
                Value::Null,
                bad_400,
            ),
        ),
        (
            "byte order mark",
            b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}".to_vec(),
            expect(
                -32700,
                "Parse error: expected value at line 1 column 1",
                Value::Null,
                bad_400,
            ),
        ),
        (
            "NUL inside a string",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools\0list\"}".to_vec(),
            expect(
                -32700,
                "Parse error: control character (\\u0000-\\u001F) found while parsing a string at line 1 column 40",
                Value::Null,
                bad_400,
            ),
        ),
        (
            "NUL after the message",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\0".to_vec(),
            expect(
                -32700,
                "Parse error: trailing characters at line 1 column 47",
                Value::Null,
                bad_400,
            ),
        ),
        (
            "deeply nested",
            deep.into_bytes(),
            expect(
                -32700,
                "Parse error: recursion limit exceeded at line 1 column 128",
                Value::Null,
                bad_400,
            ),
        ),
        (
            "not an object",
            b"42".to_vec(),
            expect(
                -32600,
                "Invalid request: a message must be a JSON object",
                Value::Null,
                bad_400,
            ),
        ),
        (
            "empty batch",
            b"[]".to_vec(),
            expect(-32600, "Invalid request: empty batch", Value::Null, bad_400),
        ),
        (
            "id null",
            br#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#.to_vec(),
            expect(
                -32600,
                "Invalid request: id must be a string or an integer, never null",
                Value::Null,
                bad_400,
            ),
        ),
        (
            "id object",
            br#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}"#.to_vec(),
            expect(
                -32600,
                "Invalid request: id must be a string or an integer, never null",
                Value::Null,
                bad_400,
            ),
        ),
        (
            "id float",
            br#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#.to_vec(),
            expect(
                -32600,
                "Invalid request: id must be a string or an integer, never null",
                Value::Null,
                bad_400,
            ),
        ),
        (
            "wrong jsonrpc version",
            br#"{"jsonrpc":"1.0","id":5,"method":"tools/list"}"#.to_vec(),
            expect(
                -32600,
                "Invalid request: jsonrpc must be \"2.0\"",
                json!(5),
                bad_400,
            ),
        ),
        (
            "method of the wrong type",
            br#"{"jsonrpc":"2.0","id":6,"method":7}"#.to_vec(),
            expect(
                -32600,
                "Invalid request: method must be a string",
                json!(6),
                bad_400,
            ),
        ),
        (
            "params of the wrong type",
            br#"{"jsonrpc":"2.0","id":"p","method":"tools/list","params":[1,2]}"#.to_vec(),
            expect(
                -32600,
                "Invalid request: params must be an object",
                json!("p"),
                bad_400,
            ),
        ),
        (
            "neither method nor result",
            br#"{"jsonrpc":"2.0","id":8}"#.to_vec(),
            expect(
                -32600,
                "Invalid request: a message needs a method, a result or an error",
                json!(8),
                bad_400,
            ),
        ),
    ];
    for (name, mut peer) in peers(|| fixture::server_with(config())).await {
        for (case, bytes, e) in &cases {
            let a = peer.send_raw(bytes, &[]).await;
            check(name, case, &peer, &a, e);
            peer.still_alive(name, case).await;
        }
    }
}

/// Well-formed messages the engine must refuse: unknown methods, oversized messages and
/// wrongly typed `_meta` fields.
#[tokio::test]
async fn refused_requests_get_precise_errors_in_both_eras() {
    for (name, mut peer) in peers(|| fixture::server_with(config())).await {
        let unknown = peer.request(json!(1), "nope/nothing", json!({}));
        let a = peer.send(&unknown).await;
        check(
            name,
            "unknown method",
            &peer,
            &a,
            &expect(-32601, "Method not found", json!(1), (404, 200)),
        );
        assert_eq!(a.body["error"]["data"], "nope/nothing", "{name}");
        peer.still_alive(name, "unknown method").await;

        let huge = peer.request(
            json!(2),
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "x".repeat(LIMIT)}}),
        );
        let a = peer.send(&huge).await;
        let message = if matches!(peer, Peer::Stdio { .. }) {
            format!("Invalid request: message exceeds the limit of {LIMIT} bytes")
        } else {
            format!("Invalid request: request body exceeds the limit of {LIMIT} bytes")
        };
        // Refused before it is parsed, so without an id.
        check(
            name,
            "huge message",
            &peer,
            &a,
            &expect(-32600, &message, Value::Null, (413, 413)),
        );
        peer.still_alive(name, "huge message").await;

        let bad_metas = [
            (json!("x"), "params._meta must be an object, not a string"),
            (json!([]), "params._meta must be an object, not an array"),
            (
                json!({"progressToken": 1.5}),
                "params._meta.progressToken must be a string or an integer, not a fractional number",
            ),
            (
                json!({"progressToken": {}}),
                "params._meta.progressToken must be a string or an integer, not an object",
            ),
        ];
        for (i, (bad, message)) in bad_metas.iter().enumerate() {
            let mut call = peer.request(
                json!(10 + i),
                "tools/call",
                json!({"name": "echo", "arguments": {"text": "x"}}),
            );
            match bad {
                Value::Object(fields) if peer.modern() => {
                    call["params"]["_meta"]
                        .as_object_mut()
                        .unwrap()
                        .extend(fields.clone());
                }
                // A `_meta` that is not an object cannot carry the protocol version: over HTTP the
                // version header alone routes the request to the stateless wire.
                _ => call["params"]["_meta"] = bad.clone(),
            }
            let a = peer.send(&call).await;
            let e = expect(
                -32602,
                &format!("Invalid params: {message}"),
                json!(10 + i),
                (400, 200),
            );
            check(name, &format!("_meta {bad}"), &peer, &a, &e);
            peer.still_alive(name, "wrongly typed _meta").await;
        }
    }
}

/// A second request with the id of one still in flight is refused (-32600, with that id); the
/// first is answered normally. Stateless HTTP has no shared id space (each POST stands alone),
/// so this applies to stdio in both eras and to legacy HTTP sessions.
#[tokio::test]
async fn duplicate_in_flight_ids_are_refused() {
    for (name, mut peer) in peers(fixture::server).await {
        let slow = peer.request(json!(1), "tools/call", json!({"name": "slow"}));
        let headers = peer.headers(Some(&slow), &[]);
        match &mut peer {
            Peer::Stdio { wire, .. } => {
                wire.send(slow.clone()).await;
                wire.send(slow).await;
                let dup = wire.recv().await;
                assert_eq!(dup["error"]["code"], -32600, "{name}: {dup}");
                assert_eq!(
                    dup["error"]["message"],
                    "Invalid request: duplicate request id 1 is already in flight",
                    "{name}"
                );
                assert_eq!(dup["id"], 1);
                let done = wire.response_to(&json!(1)).await;
                assert_eq!(done["result"]["content"][0]["text"], "done", "{name}");
            }
            Peer::Http {
                addr,
                session: Some(_),
                ..
            } => {
                let h: Vec<(&str, &str)> = headers
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect();
                let addr = *addr;
                let first = post(addr, &h, slow.to_string().into_bytes());
                let second = async {
                    tokio::time::sleep(Duration::from_millis(30)).await;
                    post(addr, &h, slow.to_string().into_bytes()).await
                };
                let ((s1, b1), (s2, b2)) = tokio::join!(first, second);
                let done: Value = serde_json::from_str(&b1).unwrap();
                assert_eq!(
                    (s1, done["result"]["content"][0]["text"].clone()),
                    (200, json!("done")),
                    "{name}: {b1}"
                );
                let dup: Value = serde_json::from_str(&b2).unwrap();
                assert_eq!(dup["error"]["code"], -32600, "{name}: {b2}");
                assert_eq!(
                    dup["error"]["message"],
                    "Invalid request: duplicate request id 1 is already in flight",
                    "{name}"
                );
                assert_eq!((s2, dup["id"].clone()), (200, json!(1)), "{name}");
            }
            Peer::Http { .. } => continue,
        }
        peer.still_alive(name, "duplicate id").await;
    }
}

/// A request beyond `max_in_flight` is refused at once (-32603 naming the limit, with
/// `data.maxInFlight`) while the ones in flight are answered normally, and once they are the
/// session serves the next request. Stateless HTTP runs each POST as a session of its own, so this
/// applies to stdio in both eras and to legacy HTTP sessions.
#[tokio::test]
async fn requests_beyond_the_in_flight_limit_are_refused() {
    const MAX: usize = 2;
    let server = || {
        fixture::server_with(ServerConfig {
            max_in_flight: MAX,
            ..config()
        })
    };
    let expected = format!(
        "Internal error: too many requests in flight on this session (limit {MAX}); \
         send it again once one of them is answered"
    );
    for (name, mut peer) in peers(server).await {
        let calls: Vec<Value> = (1..=3)
            .map(|id| peer.request(json!(id), "tools/call", json!({"name": "slow"})))
            .collect();
        let headers: Vec<Vec<(String, String)>> =
            calls.iter().map(|c| peer.headers(Some(c), &[])).collect();
        let mut answers: Vec<Value> = Vec::new();
        match &mut peer {
            Peer::Stdio { wire, .. } => {
                for c in &calls {
                    wire.send(c.clone()).await;
                }
                while answers.len() < calls.len() {
                    let m = wire.recv().await;
                    if m.get("method").is_none() {
                        answers.push(m);
                    }
                }
            }
            Peer::Http {
                addr,
                session: Some(_),
                ..
            } => {
                let addr = *addr;
                let post_nth = |i: usize| {
                    let h: Vec<(&str, &str)> = headers[i]
                        .iter()
                        .map(|(k, v)| (k.as_str(), v.as_str()))
                        .collect();
                    let body = calls[i].to_string().into_bytes();
                    async move {
                        // The third is sent once the first two are surely running.
                        tokio::time::sleep(Duration::from_millis(if i == 2 { 40 } else { 0 }))
                            .await;
                        post(addr, &h, body).await
                    }
                };
                let (a, b, c) = tokio::join!(post_nth(0), post_nth(1), post_nth(2));
                for (status, body) in [a, b, c] {
                    assert_eq!(status, 200, "{name}: {body}");
                    answers.push(serde_json::from_str(&body).unwrap());
                }
            }
            Peer::Http { .. } => continue,
        }
        answers.sort_by_key(|a| a["id"].as_i64());
        for done in &answers[..2] {
            assert_eq!(
                done["result"]["content"][0]["text"], "done",
                "{name}: {done}"
            );
        }
        let refused = &answers[2];
        assert_eq!(refused["id"], 3, "{name}: {refused}");
        assert_eq!(refused["error"]["code"], -32603, "{name}: {refused}");
        assert_eq!(refused["error"]["message"], expected.as_str(), "{name}");
        assert_eq!(
            refused["error"]["data"],
            json!({"maxInFlight": MAX}),
            "{name}"
        );
        peer.still_alive(name, "the in-flight limit").await;
    }
}

/// A message split over several lines is several bad frames over stdio (each line one -32700),
/// and the line after them is served; over HTTP the body is one document, so the same
/// pretty-printed request is simply served.
#[tokio::test]
async fn embedded_newlines() {
    for (name, mut peer) in peers(fixture::server).await {
        let call = peer.request(
            json!(3),
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "pretty"}}),
        );
        let pretty = serde_json::to_string_pretty(&call).unwrap();
        match &mut peer {
            Peer::Stdio { wire, .. } => {
                wire.send_raw(pretty.as_bytes()).await;
                for line in pretty.lines() {
                    let r = wire.recv().await;
                    assert_eq!(r["error"]["code"], -32700, "{name}: line {line:?}: {r}");
                    assert!(r.get("id").is_none(), "{name}: {r}");
                }
                wire.expect_silence(50).await;
            }
            Peer::Http { .. } => {
                let a = peer.send_raw(pretty.as_bytes(), &[]).await;
                assert_eq!(a.status, Some(200), "{name}: {a:?}");
                assert_eq!(a.body["result"]["content"][0]["text"], "pretty", "{name}");
            }
        }
        peer.still_alive(name, "embedded newlines").await;
    }
}

/// The HTTP-only classes, in both eras: media types, foreign Host and Origin, forged session ids.
#[tokio::test]
async fn http_header_classes_in_both_eras() {
    for (name, mut peer) in peers(fixture::server).await {
        if matches!(peer, Peer::Stdio { .. }) {
            continue;
        }
        let list = peer.request(json!(4), "tools/list", json!({}));
        let body = list.to_string().into_bytes();
        let cases: Vec<(&str, Headers, Expect)> = vec![
            (
                "wrong Content-Type",
                vec![("content-type", "text/plain")],
                expect(
                    -32600,
                    "Invalid request: Content-Type must be application/json, not \"text/plain\"",
                    Value::Null,
                    (415, 415),
                ),
            ),
            (
                "missing Content-Type",
                vec![("content-type", "")],
                expect(
                    -32600,
                    "Invalid request: Content-Type must be application/json (it is missing)",
                    Value::Null,
                    (415, 415),
                ),
            ),
            (
                "Accept without text/event-stream",
                vec![("accept", "application/json")],
                expect(
                    -32600,
                    "Invalid request: Accept must list application/json and text/event-stream; it does not admit text/event-stream",
                    Value::Null,
                    (406, 406),
                ),
            ),
            (
                "missing Accept",
                vec![("accept", "")],
                expect(
                    -32600,
                    "Invalid request: Accept must list application/json and text/event-stream (it is missing)",
                    Value::Null,
                    (406, 406),
                ),
            ),
            (
                "foreign Host",
                vec![("host", "evil.example")],
                expect(
                    -32600,
                    "Invalid request: Host header not allowed: \"evil.example\" is not on \
                     allowed_hosts; add the host name to allowed_hosts, or turn \
                     dns_rebinding_protection off when a proxy in front checks Host",
                    Value::Null,
                    (421, 421),
                ),
            ),
            (
                "foreign Origin",
                vec![("origin", "https://evil.example")],
                expect(
                    -32600,
                    "Invalid request: Origin header not allowed: \"https://evil.example\" is \
                     neither on allowed_origins nor on an allowed host; add it to allowed_origins",
                    Value::Null,
                    (403, 403),
                ),
            ),
        ];
        for (case, extra, e) in &cases {
            let a = peer.send_raw(&body, extra).await;
            check(name, case, &peer, &a, e);
            peer.still_alive(name, case).await;
        }
        // A forged or unknown session id: 404 on the legacy wire, answering the request (id 4);
        // the stateless wire ignores it.
        for forged in [
            "0123456789abcdef0123456789abcdef",
            "not-a-session",
            "../../etc/passwd",
        ] {
            let a = peer.send_raw(&body, &[("mcp-session-id", forged)]).await;
            if peer.modern() {
                assert_eq!(a.status, Some(200), "{name}: {forged}: {a:?}");
                assert!(a.body["result"]["tools"].is_array(), "{name}: {a:?}");
            } else {
                let e = expect(
                    -32600,
                    "Invalid request: unknown or expired Mcp-Session-Id: initialize a new session",
                    json!(4),
                    (404, 404),
                );
                check(name, &format!("session id {forged:?}"), &peer, &a, &e);
            }
            peer.still_alive(name, "forged session id").await;
        }
    }
}

/// `max_header_bytes` of the HTTP peers (the default is 64 KiB).
const HEAD_LIMIT: usize = 16 * 1024;
/// `max_headers` of the HTTP peers (the default is 100).
const HEADER_LIMIT: usize = 20;

/// A request head beyond `max_header_bytes`, or with more than `max_headers` fields, gets 431 (the
/// connection is closed); one just under both is served, and so is a new connection after either.
#[tokio::test]
async fn oversized_headers_get_431_in_both_eras() {
    for (name, mut peer) in peers(fixture::server).await {
        let Peer::Http { addr, .. } = &peer else {
            continue;
        };
        let addr = *addr;
        let list = peer.request(json!(5), "tools/list", json!({}));
        let base = peer.headers(Some(&list), &[]);
        // Host and content-length come on top of `base` (see `post`).
        let sent = base.len() + 2;
        let padded = |extra: Vec<(String, String)>| {
            let mut h = base.clone();
            h.extend(extra);
            h
        };
        let cases = [
            (
                "a head beyond max_header_bytes",
                padded(vec![("x-padding".into(), "a".repeat(HEAD_LIMIT))]),
                431,
            ),
            (
                "a head under max_header_bytes",
                padded(vec![("x-padding".into(), "a".repeat(HEAD_LIMIT / 2))]),
                200,
            ),
            (
                "one field more than max_headers",
                padded(
                    (sent..=HEADER_LIMIT)
                        .map(|i| (format!("x-pad-{i}"), "1".into()))
                        .collect(),
                ),
                431,
            ),
            (
                "exactly max_headers fields",
                padded(
                    (sent..HEADER_LIMIT)
                        .map(|i| (format!("x-pad-{i}"), "1".into()))
                        .collect(),
                ),
                200,
            ),
        ];
        for (case, headers, want) in cases {
            let h: Vec<(&str, &str)> = headers
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            let (status, body) = post(addr, &h, list.to_string().into_bytes()).await;
            if want == 431 {
                assert_eq!((status, body.as_str()), (431, ""), "{name}: {case}");
            } else {
                assert_eq!(status, 200, "{name}: {case}: {body}");
                let answer: Value = serde_json::from_str(&body).unwrap();
                assert!(
                    answer["result"]["tools"].is_array(),
                    "{name}: {case}: {body}"
                );
            }
            peer.still_alive(name, case).await;
        }
    }
}

/// How long the `requestState` of the expiry test lives.
const TTL: Duration = Duration::from_millis(1000);

/// `requestState` (2026-07-28 MRTR only): a tampered token, one replayed onto another request and an
/// expired one are each -32602 with the reason, over stdio and HTTP; the chain can start again.
#[tokio::test]
async fn tampered_replayed_and_expired_request_state() {
    let short = || {
        fixture::server_with(ServerConfig {
            state_ttl: TTL,
            max_request_state_bytes: STATE_LIMIT,
            ..ServerConfig::default()
        })
    };
    for (name, mut peer) in peers(short).await {
        if !peer.modern() {
            continue;
        }
        let ask = |id: i64, extra: Value| {
            let mut params = json!({"name": "ask", "arguments": {}});
            params
                .as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            params["_meta"] = modern_meta(json!({"elicitation": {}}));
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
        };
        let first = peer.send(&ask(1, json!({}))).await;
        assert_eq!(
            first.body["result"]["resultType"], "input_required",
            "{name}: {first:?}"
        );
        let state = first.body["result"]["requestState"]
            .as_str()
            .unwrap()
            .to_owned();
        let issued = tokio::time::Instant::now();
        let answer = json!({"user_name": {"action": "accept", "content": {"name": "Ada"}}});
        // Within its lifetime the untouched token completes the chain.
        let ok = peer
            .send(&ask(
                5,
                json!({"inputResponses": answer, "requestState": state}),
            ))
            .await;
        assert_eq!(
            ok.body["result"]["content"][0]["text"], "Hello, Ada!",
            "{name}: {ok:?}"
        );

        let mut tampered = state.clone().into_bytes();
        let last = tampered.len() - 10;
        tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
        let tampered = String::from_utf8(tampered).unwrap();
        // One character more than the sealing of a STATE_LIMIT-byte payload (refused unread).
        let oversized = "A".repeat(StateSealer::sealed_len(STATE_LIMIT) + 1);
        let replayed = {
            let mut m = ask(3, json!({"inputResponses": answer, "requestState": state}));
            m["params"]["arguments"] = json!({"other": true});
            m
        };
        let cases = [
            (
                "tampered",
                ask(
                    2,
                    json!({"inputResponses": answer, "requestState": tampered}),
                ),
                "requestState failed integrity verification",
            ),
            (
                "replayed onto other arguments",
                replayed,
                "requestState failed integrity verification",
            ),
            (
                "not base64",
                ask(4, json!({"inputResponses": answer, "requestState": "%%%"})),
                "requestState is malformed",
            ),
            (
                "longer than the state limit allows",
                ask(
                    7,
                    json!({"inputResponses": answer, "requestState": oversized}),
                ),
                "longer than a sealed state of 64 bytes (the server's max_request_state_bytes)",
            ),
        ];
        for (case, msg, reason) in &cases {
            let a = peer.send(msg).await;
            let e = expect(
                -32602,
                &format!("Invalid params: requestState rejected: {reason}"),
                msg["id"].clone(),
                (400, 400),
            );
            check(name, case, &peer, &a, &e);
            peer.still_alive(name, case).await;
        }
        tokio::time::sleep_until(issued + TTL + Duration::from_millis(50)).await;
        let a = peer
            .send(&ask(
                6,
                json!({"inputResponses": answer, "requestState": state}),
            ))
            .await;
        let e = expect(
            -32602,
            "Invalid params: requestState rejected: requestState has expired",
            json!(6),
            (400, 400),
        );
        check(name, "expired", &peer, &a, &e);
        peer.still_alive(name, "expired requestState").await;
    }
}

/// A handler whose `requestState` is larger than `max_request_state_bytes` fails its request with
/// -32603 naming both sizes (nothing is sealed or sent), and the next request is served.
#[tokio::test]
async fn a_handler_state_beyond_the_limit_fails_its_request() {
    let tiny = || {
        fixture::server_with(ServerConfig {
            max_request_state_bytes: 4,
            ..ServerConfig::default()
        })
    };
    for (name, mut peer) in peers(tiny).await {
        if !peer.modern() {
            continue;
        }
        let mut msg = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "ask", "arguments": {}}});
        msg["params"]["_meta"] = modern_meta(json!({"elicitation": {}}));
        let a = peer.send(&msg).await;
        // The fixture's "ask" keeps the 5-byte state "asked".
        let e = expect(
            -32603,
            "Internal error: the handler's requestState is 5 bytes, more than max_request_state_bytes (4)",
            json!(1),
            (200, 200),
        );
        check(name, "state beyond the limit", &peer, &a, &e);
        peer.still_alive(name, "state beyond the limit").await;
    }
}
