//! The HTTP client against what servers on the Python SDK 1.x answer: a JSON-RPC error whose id is
//! `"server-error"` on a 4xx belongs to the POST it answers (no wait for a timeout), and a 404 for a
//! session the server has lost starts a new session with a fresh `initialize` (2025-11-25, Streamable
//! HTTP session management), then sends the request again.
#![cfg(feature = "http")]

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use libmcp::client::{CallOptions, Client, ClientConfig};
use libmcp::model::Tool;
use libmcp::{Era, Error};
use parking_lot::Mutex;
use serde_json::{Value, json};

/// What the stand-in server does and saw.
#[derive(Default)]
struct State {
    /// `"<HTTP method> <JSON-RPC method> <session or ->"`, GETs left out.
    log: Mutex<Vec<String>>,
    /// The session the server knows (others get 404).
    live: Mutex<Option<String>>,
    sessions: AtomicU32,
    /// Answer `initialize` with 503 (the server cannot start sessions any more).
    refuse_initialize: AtomicBool,
}

fn server_error(status: u16, message: &str) -> (u16, String) {
    let body = json!({"jsonrpc": "2.0", "id": "server-error",
        "error": {"code": -32600, "message": message}});
    (status, body.to_string())
}

/// Answers one request the way a Python SDK 1.x Streamable HTTP server does.
fn answer(state: &State, method: &str, session: Option<&str>, body: &Value) -> (u16, String) {
    let rpc = body["method"].as_str().unwrap_or("");
    if method == "GET" {
        return (405, String::new());
    }
    state
        .log
        .lock()
        .push(format!("{method} {rpc} {}", session.unwrap_or("-")));
    if method == "DELETE" {
        return (200, String::new());
    }
    if rpc == "initialize" {
        if state.refuse_initialize.load(Ordering::SeqCst) {
            return server_error(503, "Service Unavailable: no new sessions");
        }
        let n = state.sessions.fetch_add(1, Ordering::SeqCst) + 1;
        *state.live.lock() = Some(format!("s{n}"));
        let result = json!({"jsonrpc": "2.0", "id": body["id"], "result": {
            "protocolVersion": body["params"]["protocolVersion"], "capabilities": {"tools": {}},
            "serverInfo": {"name": "sdk1-like", "version": "1"}}});
        return (200, result.to_string());
    }
    let Some(session) = session else {
        return server_error(400, "Bad Request: Missing session ID");
    };
    if state.live.lock().as_deref() != Some(session) {
        return server_error(404, "Not Found: Session has been terminated");
    }
    match rpc {
        "notifications/initialized" => (202, String::new()),
        "tools/list" => (
            200,
            json!({"jsonrpc": "2.0", "id": body["id"], "result": {"tools": []}}).to_string(),
        ),
        _ => server_error(400, "Bad Request: unsupported"),
    }
}

async fn start(state: Arc<State>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let state = state.clone();
            tokio::spawn(async move {
                let svc = service_fn(move |req: Request<Incoming>| {
                    let state = state.clone();
                    async move {
                        let method = req.method().to_string();
                        let session = req
                            .headers()
                            .get("mcp-session-id")
                            .and_then(|v| v.to_str().ok())
                            .map(str::to_owned);
                        let bytes = req.into_body().collect().await.unwrap().to_bytes();
                        let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                        let (status, reply) = answer(&state, &method, session.as_deref(), &body);
                        let mut resp = Response::builder()
                            .status(status)
                            .header("content-type", "application/json");
                        if let Some(s) = state.live.lock().clone() {
                            resp = resp.header("mcp-session-id", s);
                        }
                        Ok::<_, Infallible>(resp.body(Full::new(Bytes::from(reply))).unwrap())
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), svc)
                    .await;
            });
        }
    });
    url
}

/// Timeouts far beyond the test's own limit: a request that is not answered at once fails the test.
fn patient() -> ClientConfig {
    ClientConfig {
        request_timeout: Duration::from_secs(3600),
        max_total_timeout: Duration::from_secs(3600),
        probe_timeout: Duration::from_secs(3600),
        ..ClientConfig::default()
    }
}

async fn within<T>(what: &str, f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(30), f)
        .await
        .unwrap_or_else(|_| panic!("{what} was not answered: an error reply was dropped"))
}

async fn connect(state: &Arc<State>) -> Client {
    let url = start(state.clone()).await;
    let client = within(
        "the era probe",
        Client::builder("errors-test", "1.0.0")
            .config(patient())
            .connect_http(&url),
    )
    .await
    .unwrap();
    assert_eq!(client.era(), Era::Legacy);
    client
}

#[tokio::test]
async fn a_server_error_id_answers_the_post_it_came_with() {
    let state = Arc::new(State::default());
    let client = connect(&state).await;
    // The probe's 400 `server-error` ended it at once; the client fell back to initialize.
    assert_eq!(
        state.log.lock()[..2],
        ["POST server/discover -", "POST initialize -"]
    );
    let r = within(
        "tools/call",
        client.call(
            "tools/call",
            json!({"name": "x", "arguments": {}}),
            &CallOptions::default(),
        ),
    )
    .await;
    match r {
        Err(Error::Rpc(e)) => {
            assert_eq!(e.code, -32600);
            assert_eq!(e.message, "Bad Request: unsupported");
        }
        other => panic!("expected the server's error, got {other:?}"),
    }
    client.close().await;
}

#[tokio::test]
async fn a_lost_session_is_replaced_and_the_request_sent_again() {
    let state = Arc::new(State::default());
    let client = connect(&state).await;
    client.list_page::<Tool>(None).await.unwrap();
    // The server forgets the session (a restart, an idle timeout).
    *state.live.lock() = None;
    state.log.lock().clear();
    let r = within("tools/list", client.list_page::<Tool>(None))
        .await
        .unwrap();
    assert!(r.tools.is_empty());
    assert_eq!(
        *state.log.lock(),
        [
            "POST tools/list s1",
            "POST initialize -",
            "POST notifications/initialized s2",
            "POST tools/list s2",
        ]
    );
    // The new session serves what follows.
    client.list_page::<Tool>(None).await.unwrap();
    client.close().await;
    assert_eq!(state.log.lock().last().unwrap(), "DELETE  s2");
}

#[tokio::test]
async fn concurrent_requests_share_one_new_session() {
    let state = Arc::new(State::default());
    let client = connect(&state).await;
    *state.live.lock() = None;
    // Polled together: every POST carries the lost session before any answer is read.
    let (a, b, c) = within("three tools/list", async {
        tokio::join!(
            client.list_page::<Tool>(None),
            client.list_page::<Tool>(None),
            client.list_page::<Tool>(None)
        )
    })
    .await;
    assert!(a.is_ok() && b.is_ok() && c.is_ok(), "{a:?} {b:?} {c:?}");
    let log = state.log.lock().clone();
    let inits = log
        .iter()
        .filter(|l| l.starts_with("POST initialize"))
        .count();
    assert_eq!(
        inits, 2,
        "one initialize at connect, one for the lost session: {log:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn a_session_that_cannot_be_replaced_is_reported_at_once() {
    let state = Arc::new(State::default());
    let client = connect(&state).await;
    *state.live.lock() = None;
    state.refuse_initialize.store(true, Ordering::SeqCst);
    let r = within("tools/list", client.list_page::<Tool>(None)).await;
    match r {
        Err(Error::Transport(m)) => {
            let m = m.to_string();
            assert!(
                m.starts_with("the server ended the session (HTTP 404 Not Found) and a new session could not be started: initialize was answered HTTP 503"),
                "{m}"
            );
        }
        other => panic!("expected a transport error, got {other:?}"),
    }
    client.close().await;
}
