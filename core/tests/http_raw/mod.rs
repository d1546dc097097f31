//! A bare HTTP/1.1 client for the server tests: one request per connection, every byte the test's.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::client::conn::http1;
use hyper::{Method, Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpStream;

/// Sends one request to `/mcp`; JSON bodies get the content type and accept header of a client.
pub async fn open(
    addr: SocketAddr,
    method: Method,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> Response<Incoming> {
    open_path(addr, method, "/mcp", headers, body).await
}

/// Like [`open`], to `path` (the 2024-11-05 HTTP+SSE transport's `/sse` and `/messages?...`).
pub async fn open_path(
    addr: SocketAddr,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> Response<Incoming> {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) = http1::handshake(TokioIo::new(stream)).await.unwrap();
    tokio::spawn(async move {
        let _ = conn.await;
    });
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
    sender
        .send_request(req.body(Full::new(Bytes::from(bytes))).unwrap())
        .await
        .unwrap()
}

/// The whole body as text (the server must end it within 5 s).
pub async fn text(r: Response<Incoming>) -> String {
    let body = tokio::time::timeout(Duration::from_secs(5), r.into_body().collect())
        .await
        .expect("the body ends within 5 s")
        .unwrap()
        .to_bytes();
    String::from_utf8(body.to_vec()).unwrap()
}

/// Status and whole body.
pub async fn send(
    addr: SocketAddr,
    method: Method,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (u16, String) {
    let r = open(addr, method, headers, body).await;
    let status = r.status().as_u16();
    (status, text(r).await)
}

/// Reads raw body text until `needle` has arrived.
pub async fn read_until(body: &mut Incoming, buf: &mut String, needle: &str) {
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

/// Opens a legacy session at `version` (initialize, then initialized); returns its id.
pub async fn session(addr: SocketAddr, version: &str) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}});
    let r = open(addr, Method::POST, &[], Some(init)).await;
    assert_eq!(r.status(), 200);
    let id = r.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let body: Value = serde_json::from_str(&text(r).await).unwrap();
    assert_eq!(body["result"]["protocolVersion"], version);
    let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let h = [("mcp-session-id", id.as_str())];
    assert_eq!(send(addr, Method::POST, &h, Some(done)).await.0, 202);
    id
}

/// A `tools/call` request.
pub fn call(id: i64, name: &str, meta: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": name, "arguments": {}, "_meta": meta}})
}

/// The JSON-RPC error of a body: (code, message).
pub fn error_of(body: &str) -> (i64, String) {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body}"));
    (
        v["error"]["code"].as_i64().unwrap(),
        v["error"]["message"].as_str().unwrap().to_owned(),
    )
}
