//! Closing an HTTP client: `notifications/initialized` is sent, and the session's GET stream
//! opened, before the session is deleted (`connect_http` waits for both, at most 5 s), and a server
//! that never answers `notifications/initialized` delays the connection and the close only by
//! bounded times.
#![cfg(feature = "http")]

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use libmcp::Era;
use libmcp::client::Client;
use parking_lot::Mutex;
use serde_json::{Value, json};

/// A legacy (2025-11-25) server that answers `notifications/initialized` after `initialized_delay`
/// and logs `"<HTTP method> <JSON-RPC method>"` for every request as it arrives.
async fn legacy_server(initialized_delay: Duration) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let record = log.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let record = record.clone();
            tokio::spawn(async move {
                let svc = service_fn(move |req: Request<Incoming>| {
                    let record = record.clone();
                    async move {
                        let method = req.method().to_string();
                        let bytes = req.into_body().collect().await.unwrap().to_bytes();
                        let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                        let rpc = body["method"].as_str().unwrap_or("").to_owned();
                        record.lock().push(format!("{method} {rpc}"));
                        let (status, reply) = match (method.as_str(), rpc.as_str()) {
                            ("POST", "server/discover") => (400, String::new()),
                            ("POST", "initialize") => (
                                200,
                                json!({"jsonrpc": "2.0", "id": body["id"], "result": {
                                    "protocolVersion": "2025-11-25", "capabilities": {},
                                    "serverInfo": {"name": "legacy", "version": "1"}}})
                                .to_string(),
                            ),
                            ("POST", "notifications/initialized") => {
                                tokio::time::sleep(initialized_delay).await;
                                (202, String::new())
                            }
                            ("GET", _) => (405, String::new()),
                            ("DELETE", _) => (200, String::new()),
                            _ => (400, String::new()),
                        };
                        let resp = Response::builder()
                            .status(status)
                            .header("content-type", "application/json")
                            .header("mcp-session-id", "sess-1")
                            .body(Full::new(Bytes::from(reply)))
                            .unwrap();
                        Ok::<_, Infallible>(resp)
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), svc)
                    .await;
            });
        }
    });
    (url, log)
}

#[tokio::test]
async fn a_queued_initialized_is_sent_before_the_session_is_deleted() {
    let (url, log) = legacy_server(Duration::from_millis(200)).await;
    let client = Client::builder("close-test", "1.0.0")
        .connect_http(&url)
        .await
        .unwrap();
    assert_eq!(client.era(), Era::Legacy);
    client.close().await;
    assert_eq!(
        *log.lock(),
        [
            "POST server/discover",
            "POST initialize",
            "POST notifications/initialized",
            "GET ",
            "DELETE ",
        ]
    );
}

#[tokio::test]
async fn a_server_that_never_answers_delays_the_close_only_boundedly() {
    let (url, log) = legacy_server(Duration::from_secs(60)).await;
    let started = Instant::now();
    let client = Client::builder("close-test", "1.0.0")
        .connect_http(&url)
        .await
        .unwrap();
    let took = started.elapsed();
    assert!(took < Duration::from_secs(8), "connect took {took:?}");
    let started = Instant::now();
    client.close().await;
    let took = started.elapsed();
    assert!(took < Duration::from_secs(6), "close took {took:?}");
    let log = log.lock().clone();
    assert_eq!(log[2], "POST notifications/initialized", "{log:?}");
    assert_eq!(log.last().map(String::as_str), Some("DELETE "), "{log:?}");
}
