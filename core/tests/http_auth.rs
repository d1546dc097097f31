//! The HTTP server as an OAuth 2.1 resource server, on a real socket: the RFC 9728 metadata at both
//! well-known paths, exact RFC 6750 challenges (401, 403, 400), expiry, audience and scope checks,
//! per-tool step-up scopes, sessions bound to their principal, the verified token visible to a
//! tool, and verifier failures that cost one request and nothing more.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1;
use hyper::{HeaderMap, Method, Request};
use hyper_util::rt::TokioIo;
use libmcp::auth::{AuthInfo, ResourceServerConfig, TokenRejection};
use libmcp::server::{Reply, Server};
use libmcp::transport::http::{HttpServerConfig, HttpServerHandle, serve_http};
use serde_json::{Value, json};
use tokio::net::TcpStream;

const RESOURCE: &str = "https://mcp.example.com/mcp";
const PRM_URL: &str = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
const V26: &str = "2026-07-28";

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A table of test tokens; anything else is unknown.
async fn verify(token: String) -> Result<AuthInfo, TokenRejection> {
    let base = |sub: &str, client: &str| {
        AuthInfo::new()
            .subject(sub)
            .client_id(client)
            .scopes(["mcp:read"])
            .audience([RESOURCE])
            .expires_at(now() + 3600)
    };
    match token.as_str() {
        "alice" => Ok(base("alice", "app").claim("tenant", json!("acme"))),
        "alice-admin" => Ok(base("alice", "app").scopes(["mcp:read", "mcp:admin"])),
        "bob" => Ok(base("bob", "app")),
        "expired" => Ok(base("alice", "app").expires_at(now() - 1)),
        "wrong-aud" => Ok(base("alice", "app").audience(["https://other.example/mcp"])),
        "no-aud" => Ok(base("alice", "app").audience(Vec::<String>::new())),
        "aud-slash" => Ok(base("alice", "app").audience(["HTTPS://MCP.example.com/mcp/"])),
        "no-scope" => Ok(base("alice", "app").scopes(Vec::<String>::new())),
        "down" => Err(TokenRejection::Unavailable(
            "the key set is unreachable".into(),
        )),
        "panic" => panic!("verifier bug"),
        "slow" => {
            tokio::time::sleep(Duration::from_secs(30)).await;
            Ok(base("alice", "app"))
        }
        _ => Err(TokenRejection::Invalid("unknown token".into())),
    }
}

fn auth_config() -> Arc<ResourceServerConfig> {
    Arc::new(
        ResourceServerConfig::builder(RESOURCE, verify)
            .authorization_server("https://auth.example.com")
            .scopes_supported(["mcp:read", "mcp:admin"])
            .required_scopes(["mcp:read"])
            .tool_scopes("admin", ["mcp:admin"])
            .resource_name("Test MCP")
            .verify_timeout(Duration::from_millis(300))
            .build()
            .unwrap(),
    )
}

fn server() -> Server {
    Server::builder("auth-test", "1.0.0")
        .tool(
            json!({"name": "whoami", "inputSchema": {"type": "object"}}),
            |ctx, _| {
                let Some(a) = ctx.auth() else {
                    return Reply::tool_error("no auth");
                };
                Reply::Result(json!({"content": [], "structuredContent": {
                "sub": a.subject, "client": a.client_id, "scopes": a.scopes,
                "tenant": a.claims.get("tenant")}}))
            },
        )
        .tool(
            json!({"name": "admin", "inputSchema": {"type": "object"}}),
            |_, _| Reply::text("done"),
        )
        .build()
        .unwrap()
}

async fn start(auth: bool, http_sse: bool) -> HttpServerHandle {
    let config = HttpServerConfig {
        auth: auth.then(auth_config),
        http_sse,
        ..HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap())
    };
    serve_http(server(), config).await.unwrap()
}

struct Answer {
    status: u16,
    headers: HeaderMap,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {:?}", self.body))
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|v| v.to_str().unwrap())
    }

    fn challenge(&self) -> (u16, Option<&str>, Value) {
        (self.status, self.header("www-authenticate"), self.json())
    }
}

async fn send(
    addr: SocketAddr,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> Answer {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) = http1::handshake(TokioIo::new(stream)).await.unwrap();
    tokio::spawn(conn);
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header("host", format!("127.0.0.1:{}", addr.port()));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    if body.is_some() {
        req = req
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
    }
    let bytes = body.map(|b| b.to_string()).unwrap_or_default();
    let r = sender
        .send_request(req.body(Full::new(Bytes::from(bytes))).unwrap())
        .await
        .unwrap();
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    if headers
        .get("content-type")
        .is_some_and(|v| v == "text/event-stream")
    {
        // Streams stay open: the tests here only need their status.
        return Answer {
            status,
            headers,
            body: String::new(),
        };
    }
    let body = r.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        headers,
        body: String::from_utf8(body.to_vec()).unwrap(),
    }
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// A 2026-07-28 request with the headers a conforming client sends, plus `auth` if any.
async fn modern(addr: SocketAddr, auth: Option<&str>, method: &str, params: Value) -> Answer {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": V26,
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let name = params["name"].as_str().map(String::from);
    let authz = auth.map(bearer);
    let mut h = vec![("mcp-protocol-version", V26), ("mcp-method", method)];
    if let Some(n) = &name {
        h.push(("mcp-name", n));
    }
    if let Some(a) = &authz {
        h.push(("authorization", a));
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    send(addr, Method::POST, "/mcp", &h, Some(body)).await
}

fn call(name: &str) -> Value {
    json!({"name": name, "arguments": {}})
}

/// Initializes a legacy session as `token`; returns its id.
async fn legacy_session(addr: SocketAddr, token: &str) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let a = send(
        addr,
        Method::POST,
        "/mcp",
        &[("authorization", &bearer(token))],
        Some(init),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    a.header("mcp-session-id").unwrap().to_string()
}

async fn legacy(
    addr: SocketAddr,
    token: &str,
    session: &str,
    id: i64,
    method: &str,
    params: Value,
) -> Answer {
    let h = [
        ("authorization", bearer(token)),
        ("mcp-session-id", session.to_string()),
        ("mcp-protocol-version", "2025-11-25".to_string()),
    ];
    let h: Vec<(&str, &str)> = h.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    send(addr, Method::POST, "/mcp", &h, Some(body)).await
}

fn prm_document() -> Value {
    json!({
        "resource": RESOURCE,
        "authorization_servers": ["https://auth.example.com"],
        "scopes_supported": ["mcp:read", "mcp:admin"],
        "bearer_methods_supported": ["header"],
        "resource_name": "Test MCP",
    })
}

#[tokio::test]
async fn metadata_is_served_at_both_well_known_paths() {
    let h = start(true, false).await;
    let addr = h.local_addr();
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        // No token needed, and any Origin may read it.
        let a = send(
            addr,
            Method::GET,
            path,
            &[("origin", "https://app.example")],
            None,
        )
        .await;
        assert_eq!(a.status, 200, "{path}");
        assert_eq!(a.header("content-type"), Some("application/json"));
        assert_eq!(a.header("access-control-allow-origin"), Some("*"));
        assert_eq!(a.json(), prm_document(), "{path}");
        let a = send(addr, Method::OPTIONS, path, &[], None).await;
        assert_eq!(a.status, 204);
        assert_eq!(
            a.header("access-control-allow-methods"),
            Some("GET, HEAD, OPTIONS")
        );
        assert_eq!(a.header("access-control-allow-origin"), Some("*"));
        let a = send(addr, Method::POST, path, &[], Some(json!({}))).await;
        assert_eq!(
            (a.status, a.header("allow")),
            (405, Some("GET, HEAD, OPTIONS"))
        );
    }
    let a = send(
        addr,
        Method::GET,
        "/.well-known/oauth-protected-resource/other",
        &[],
        None,
    )
    .await;
    assert_eq!(a.status, 404);

    let open = start(false, false).await;
    let a = send(
        open.local_addr(),
        Method::GET,
        "/.well-known/oauth-protected-resource",
        &[],
        None,
    )
    .await;
    assert_eq!(a.status, 404, "no metadata without auth");
}

#[tokio::test]
async fn requests_without_a_token_get_401_with_the_challenge() {
    let h = start(true, false).await;
    let addr = h.local_addr();
    let want = format!("Bearer resource_metadata=\"{PRM_URL}\", scope=\"mcp:read\"");
    let body = json!({"error": "invalid_token", "scope": "mcp:read",
        "error_description": "this resource needs an Authorization: Bearer access token"});
    let a = modern(addr, None, "tools/list", json!({})).await;
    assert_eq!(a.challenge(), (401, Some(want.as_str()), body.clone()));
    assert_eq!(
        a.header("access-control-expose-headers"),
        Some("WWW-Authenticate")
    );
    for m in [Method::GET, Method::DELETE] {
        let a = send(addr, m, "/mcp", &[("mcp-session-id", "x")], None).await;
        assert_eq!(a.challenge(), (401, Some(want.as_str()), body.clone()));
    }
    let a = send(
        addr,
        Method::POST,
        "/mcp",
        &[("authorization", "Basic YWxpY2U6cHc=")],
        Some(json!({})),
    )
    .await;
    assert_eq!(a.status, 401);
    assert_eq!(a.header("www-authenticate"), Some(want.as_str()));
    assert_eq!(
        a.json()["error_description"],
        "the Authorization header must use the Bearer scheme"
    );
}

#[tokio::test]
async fn refused_tokens_get_401_invalid_token() {
    let h = start(true, false).await;
    let addr = h.local_addr();
    let cases = [
        ("nonsense", "unknown token"),
        ("expired", "the access token has expired"),
        (
            "wrong-aud",
            "the access token was not issued for this resource (https://mcp.example.com/mcp)",
        ),
        (
            "no-aud",
            "the access token was not issued for this resource (https://mcp.example.com/mcp)",
        ),
    ];
    for (token, why) in cases {
        let a = modern(addr, Some(token), "tools/list", json!({})).await;
        let want = format!(
            "Bearer error=\"invalid_token\", error_description=\"{why}\", resource_metadata=\"{PRM_URL}\", scope=\"mcp:read\""
        );
        let body = json!({"error": "invalid_token", "error_description": why, "scope": "mcp:read"});
        assert_eq!(a.challenge(), (401, Some(want.as_str()), body), "{token}");
    }
    // The audience compares scheme and host case-insensitively and ignores a trailing slash.
    let a = modern(addr, Some("aud-slash"), "tools/list", json!({})).await;
    assert_eq!(a.status, 200, "{}", a.body);
}

#[tokio::test]
async fn malformed_authorization_gets_400_invalid_request() {
    let h = start(true, false).await;
    let addr = h.local_addr();
    for value in ["Bearer", "Bearer ", "Bearer a b", "Bearer tok\"en"] {
        let a = send(
            addr,
            Method::POST,
            "/mcp",
            &[("authorization", value)],
            Some(json!({})),
        )
        .await;
        let want = format!(
            "Bearer error=\"invalid_request\", error_description=\"the Bearer token is empty or not in b64token syntax\", resource_metadata=\"{PRM_URL}\", scope=\"mcp:read\""
        );
        assert_eq!(
            (a.status, a.header("www-authenticate")),
            (400, Some(want.as_str())),
            "{value:?}"
        );
        assert_eq!(a.json()["error"], "invalid_request");
    }
    let a = send(
        addr,
        Method::POST,
        "/mcp",
        &[
            ("authorization", "Bearer alice"),
            ("authorization", "Bearer bob"),
        ],
        Some(json!({})),
    )
    .await;
    assert_eq!(
        (a.status, a.json()["error_description"].as_str()),
        (400, Some("more than one Authorization header"))
    );
    // The scheme is case-insensitive and base64 padding is part of the token syntax.
    let a = send(
        addr,
        Method::POST,
        "/mcp",
        &[("authorization", "bearer alice==")],
        Some(json!({})),
    )
    .await;
    assert_eq!(a.json()["error_description"], "unknown token");
}

#[tokio::test]
async fn missing_scopes_get_403_insufficient_scope() {
    let h = start(true, false).await;
    let addr = h.local_addr();
    let a = modern(addr, Some("no-scope"), "tools/list", json!({})).await;
    let want = format!(
        "Bearer error=\"insufficient_scope\", error_description=\"the access token lacks the scope mcp:read\", resource_metadata=\"{PRM_URL}\", scope=\"mcp:read\""
    );
    assert_eq!(
        a.challenge(),
        (
            403,
            Some(want.as_str()),
            json!({"error": "insufficient_scope", "scope": "mcp:read",
            "error_description": "the access token lacks the scope mcp:read"})
        )
    );
}

#[tokio::test]
async fn a_tool_with_its_own_scopes_asks_for_step_up() {
    let h = start(true, false).await;
    let addr = h.local_addr();
    let want = format!(
        "Bearer error=\"insufficient_scope\", error_description=\"the access token lacks the scope mcp:admin\", resource_metadata=\"{PRM_URL}\", scope=\"mcp:read mcp:admin\""
    );
    let a = modern(addr, Some("alice"), "tools/call", call("admin")).await;
    assert_eq!(
        (a.status, a.header("www-authenticate")),
        (403, Some(want.as_str()))
    );
    // Other tools need only the required scopes.
    let a = modern(addr, Some("alice"), "tools/call", call("whoami")).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let a = modern(addr, Some("alice-admin"), "tools/call", call("admin")).await;
    assert_eq!(a.json()["result"]["content"][0]["text"], "done");

    let s = legacy_session(addr, "alice").await;
    let a = legacy(addr, "alice", &s, 2, "tools/call", call("admin")).await;
    assert_eq!(
        (a.status, a.header("www-authenticate")),
        (403, Some(want.as_str()))
    );
    let a = legacy(addr, "alice-admin", &s, 3, "tools/call", call("admin")).await;
    assert_eq!(a.json()["result"]["content"][0]["text"], "done");
}

#[tokio::test]
async fn the_verified_token_reaches_the_tool_in_both_eras() {
    let h = start(true, false).await;
    let addr = h.local_addr();
    let want = json!({"sub": "alice", "client": "app", "scopes": ["mcp:read"], "tenant": "acme"});
    let a = modern(addr, Some("alice"), "tools/call", call("whoami")).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["result"]["structuredContent"], want);

    let s = legacy_session(addr, "alice").await;
    let a = legacy(addr, "alice", &s, 2, "tools/call", call("whoami")).await;
    assert_eq!(a.json()["result"]["structuredContent"], want);
    // A refreshed token of the same principal is seen as it is now.
    let a = legacy(addr, "alice-admin", &s, 3, "tools/call", call("whoami")).await;
    assert_eq!(
        a.json()["result"]["structuredContent"]["scopes"],
        json!(["mcp:read", "mcp:admin"])
    );

    let open = start(false, false).await;
    let a = modern(open.local_addr(), None, "tools/call", call("whoami")).await;
    assert_eq!(a.json()["result"]["content"][0]["text"], "no auth");
}

#[tokio::test]
async fn a_session_stays_with_the_principal_that_opened_it() {
    let h = start(true, false).await;
    let addr = h.local_addr();
    let s = legacy_session(addr, "alice").await;
    let foreign = json!({"jsonrpc": "2.0", "error": {"code": -32600,
        "message": "Invalid request: unknown Mcp-Session-Id for this principal: initialize a new session"}});
    let a = legacy(addr, "bob", &s, 2, "tools/list", json!({})).await;
    assert_eq!((a.status, a.json()), (404, foreign.clone()));
    let hb = [
        ("authorization", "Bearer bob"),
        ("mcp-session-id", s.as_str()),
    ];
    for m in [Method::GET, Method::DELETE] {
        let a = send(addr, m.clone(), "/mcp", &hb, None).await;
        assert_eq!((a.status, a.json()), (404, foreign.clone()), "{m}");
    }
    // The owner still has the session, and may end it.
    let a = legacy(addr, "alice", &s, 3, "tools/list", json!({})).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let ha = [
        ("authorization", "Bearer alice"),
        ("mcp-session-id", s.as_str()),
    ];
    assert_eq!(
        send(addr, Method::DELETE, "/mcp", &ha, None).await.status,
        200
    );
}

#[tokio::test]
async fn http_sse_paths_need_a_token_and_stay_with_their_principal() {
    let h = start(true, true).await;
    let addr = h.local_addr();
    let a = send(addr, Method::GET, "/sse", &[], None).await;
    assert_eq!(a.status, 401);
    // Open a stream as alice and read the endpoint event.
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) = http1::handshake(TokioIo::new(stream)).await.unwrap();
    tokio::spawn(conn);
    let req = Request::builder()
        .uri("/sse")
        .header("host", format!("127.0.0.1:{}", addr.port()))
        .header("authorization", "Bearer alice")
        .body(Full::new(Bytes::new()))
        .unwrap();
    let r = sender.send_request(req).await.unwrap();
    assert_eq!(r.status(), 200);
    let mut body = r.into_body();
    let mut buf = String::new();
    while !buf.contains("\n\n") {
        let frame = body.frame().await.unwrap().unwrap();
        if let Ok(d) = frame.into_data() {
            buf.push_str(std::str::from_utf8(&d).unwrap());
        }
    }
    let endpoint = buf
        .strip_prefix("event: endpoint\ndata: ")
        .and_then(|s| s.strip_suffix("\n\n"))
        .unwrap()
        .to_string();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let a = send(
        addr,
        Method::POST,
        &endpoint,
        &[("authorization", "Bearer bob")],
        Some(init.clone()),
    )
    .await;
    assert_eq!(a.status, 404);
    let a = send(addr, Method::POST, &endpoint, &[], Some(init.clone())).await;
    assert_eq!(a.status, 401);
    let a = send(
        addr,
        Method::POST,
        &endpoint,
        &[("authorization", "Bearer alice")],
        Some(init),
    )
    .await;
    assert_eq!(a.status, 202);
    let admin = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call("admin")});
    let a = send(
        addr,
        Method::POST,
        &endpoint,
        &[("authorization", "Bearer alice")],
        Some(admin),
    )
    .await;
    assert_eq!(a.status, 403);
}

#[tokio::test]
async fn verifier_failures_cost_one_request_and_nothing_more() {
    let h = start(true, false).await;
    let addr = h.local_addr();
    let cases = [
        ("down", "the key set is unreachable"),
        ("panic", "the token verifier failed"),
        ("slow", "the token verifier did not answer within 300ms"),
    ];
    for (token, why) in cases {
        let a = modern(addr, Some(token), "tools/list", json!({})).await;
        assert_eq!(
            a.challenge(),
            (
                503,
                None,
                json!({"error": "temporarily_unavailable", "error_description": why})
            ),
            "{token}"
        );
    }
    // A keep-alive connection survives a panicking verifier, and the server serves on.
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) = http1::handshake(TokioIo::new(stream)).await.unwrap();
    tokio::spawn(conn);
    for token in ["panic", "alice"] {
        let req = Request::builder()
            .method(Method::POST)
            .uri("/mcp")
            .header("host", format!("127.0.0.1:{}", addr.port()))
            .header("authorization", bearer(token))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", V26)
            .header("mcp-method", "tools/list")
            .body(Full::new(Bytes::from(
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
                    "io.modelcontextprotocol/protocolVersion": V26,
                    "io.modelcontextprotocol/clientCapabilities": {}}}})
                .to_string(),
            )))
            .unwrap();
        let r = sender.send_request(req).await.unwrap();
        let status = r.status().as_u16();
        r.into_body().collect().await.unwrap();
        assert_eq!(status, if token == "panic" { 503 } else { 200 });
    }
}
