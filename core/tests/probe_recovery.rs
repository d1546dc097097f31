//! The era probe when the server is slow: `server/discover` times out, the client falls back to
//! `initialize`, and a modern server that has meanwhile committed the connection to 2026-07-28 refuses
//! it with -32022 naming its versions. The client then discovers again (without a timeout) and ends up
//! modern, instead of failing. A -32022 naming no modern version stays an error.

use std::time::Duration;

use libmcp::client::{Client, ClientConfig};
use libmcp::{Era, Error};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};

/// A scripted stdio peer: reads each client message and answers with `answer(method, id)`; `None`
/// means no answer. Returns the methods it saw, in order.
async fn peer(
    io: DuplexStream,
    mut answer: impl FnMut(&str, &Value) -> Option<(Duration, Value)> + Send + 'static,
) -> Vec<String> {
    let (read, mut write) = tokio::io::split(io);
    let mut lines = BufReader::new(read).lines();
    let mut seen = Vec::new();
    while let Ok(Some(line)) = lines.next_line().await {
        let msg: Value = serde_json::from_str(&line).unwrap();
        let method = msg["method"].as_str().unwrap_or("").to_owned();
        seen.push(method.clone());
        if let Some((delay, reply)) = answer(&method, &msg["id"]) {
            tokio::time::sleep(delay).await;
            let mut bytes = reply.to_string().into_bytes();
            bytes.push(b'\n');
            if write.write_all(&bytes).await.is_err() {
                break;
            }
        }
    }
    seen
}

fn discover_result(id: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
        "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "private",
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "slow", "version": "1"}}}})
}

fn refusal(id: &Value, supported: &[&str]) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32022,
        "message": "connection is serving the 2026-07-28 protocol; the initialize handshake is not accepted",
        "data": {"supported": supported, "requested": "2025-11-25"}}})
}

fn quick_probe() -> ClientConfig {
    ClientConfig {
        probe_timeout: Duration::from_millis(100),
        ..ClientConfig::default()
    }
}

#[tokio::test]
async fn a_late_discover_answer_then_a_refused_initialize_means_modern() {
    let (ours, theirs) = tokio::io::duplex(64 * 1024);
    let mut discovers = 0;
    let server = tokio::spawn(peer(theirs, move |method, id| match method {
        // The first discover is answered after the probe gave up; the second at once.
        "server/discover" => {
            discovers += 1;
            let delay = if discovers == 1 { 300 } else { 0 };
            Some((Duration::from_millis(delay), discover_result(id)))
        }
        "initialize" => Some((Duration::ZERO, refusal(id, &["2026-07-28"]))),
        _ => None,
    }));
    let (read, write) = tokio::io::split(ours);
    let client = Client::builder("probe-test", "1.0.0")
        .config(quick_probe())
        .connect_io(read, write)
        .await
        .unwrap();
    assert_eq!(client.era(), Era::Modern);
    assert_eq!(client.server().version.as_str(), "2026-07-28");
    client.close().await;
    let seen = server.await.unwrap();
    // The timed-out probe is cancelled before the fallback.
    assert_eq!(
        seen,
        [
            "server/discover",
            "notifications/cancelled",
            "initialize",
            "server/discover"
        ]
    );
}

#[tokio::test]
async fn a_refusal_naming_no_modern_version_stays_an_error() {
    let (ours, theirs) = tokio::io::duplex(64 * 1024);
    let server = tokio::spawn(peer(theirs, move |method, id| match method {
        "initialize" => Some((Duration::ZERO, refusal(id, &["2024-11-05"]))),
        _ => None,
    }));
    let (read, write) = tokio::io::split(ours);
    let err = Client::builder("probe-test", "1.0.0")
        .config(quick_probe())
        .connect_io(read, write)
        .await
        .err()
        .unwrap();
    match err {
        Error::Rpc(e) => assert_eq!(e.code, -32022),
        other => panic!("expected the -32022 refusal, got {other:?}"),
    }
    let seen = server.await.unwrap();
    assert_eq!(
        seen,
        ["server/discover", "notifications/cancelled", "initialize"]
    );
}
