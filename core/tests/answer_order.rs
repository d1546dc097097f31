//! A request leaves the session's in-flight table before its answer reaches the connection: a peer
//! that reads the answer and sends its next request at once is never refused by `max_in_flight`
//! (core/src/server/complete.rs, `answer_request`). The peer here answers synchronously, from
//! inside the sink, which is the fastest a real peer can be.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use libmcp::outgoing::{Outbound, Outgoing, Sink};
use libmcp::server::{Reply, Server, ServerConfig, Session};
use parking_lot::Mutex;
use serde_json::{Value, json};
use tokio::sync::mpsc;

const CALLS: i64 = 40;

fn call(id: i64) -> Vec<u8> {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {
            "name": "echo", "arguments": {"text": id.to_string()},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        }
    })
    .to_string()
    .into_bytes()
}

/// Sends call `id + 1` from inside the delivery of the answer to call `id`.
struct EagerPeer {
    session: OnceLock<Session>,
    seen: Mutex<Vec<Value>>,
    done: mpsc::UnboundedSender<()>,
}

impl Outbound for EagerPeer {
    fn send(&self, msg: Outgoing) -> bool {
        let answer: Value = serde_json::from_slice(&msg.bytes).expect("JSON");
        let id = answer["id"].as_i64();
        self.seen.lock().push(answer);
        match id {
            Some(id) if id < CALLS => {
                if let Some(session) = self.session.get() {
                    session.handle_bytes(&call(id + 1));
                }
            }
            _ => {
                let _ = self.done.send(());
            }
        }
        true
    }
}

#[tokio::test]
async fn an_answered_request_no_longer_counts_against_max_in_flight() {
    let server = Server::builder("order", "1.0.0")
        .tool(
            json!({"name": "echo", "inputSchema": {"type": "object",
                   "properties": {"text": {"type": "string"}}}}),
            |_ctx, args| Reply::text(args["text"].as_str().unwrap_or_default()),
        )
        .config(ServerConfig {
            max_in_flight: 1,
            ..ServerConfig::default()
        })
        .build()
        .expect("server");
    let (done, mut finished) = mpsc::unbounded_channel();
    let peer = Arc::new(EagerPeer {
        session: OnceLock::new(),
        seen: Mutex::new(Vec::new()),
        done,
    });
    let session = server.session(Sink::new(peer.clone()));
    assert!(peer.session.set(session.clone()).is_ok());
    session.handle_bytes(&call(1));
    tokio::time::timeout(Duration::from_secs(10), finished.recv())
        .await
        .expect("every call answered within 10 s");
    let seen = peer.seen.lock().clone();
    assert_eq!(seen.len(), CALLS as usize, "{seen:#?}");
    for (n, answer) in seen.iter().enumerate() {
        let id = n as i64 + 1;
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(
            answer["result"]["content"][0]["text"],
            id.to_string(),
            "call {id} refused or failed: {answer}"
        );
    }
    // Nothing is left in flight once every answer is delivered.
    assert_eq!(session.inflight(), 0);
}
