//! A raw JSON-RPC peer for wire tests: the server under test runs `transport::stdio::serve` over an
//! in-memory pipe; the test writes exact JSON lines and reads exact JSON lines back. Every message the
//! server sends is validated against the official schema of the revision under test.

use std::collections::HashMap;
use std::time::Duration;

use libmcp::server::Server;
use serde_json::{Value, json};
use tokio::io::DuplexStream;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines, ReadHalf, WriteHalf};

use super::wire::{Side, assert_valid_message, assert_valid_modern_with_tasks};

/// The test's end of a connection to a server.
pub struct Wire {
    writer: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    /// The revision whose schema validates what the server sends.
    pub revision: String,
    methods: HashMap<String, String>,
    /// Server messages read while waiting for something else.
    pub backlog: Vec<Value>,
    task: tokio::task::JoinHandle<libmcp::Result<()>>,
}

/// `_meta` of a modern request with the given client capabilities.
pub fn modern_meta(caps: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": caps,
        "io.modelcontextprotocol/clientInfo": {"name": "wire-test", "version": "1.0.0"}
    })
}

impl Wire {
    /// Starts serving `server` on a fresh connection.
    pub fn start(server: Server, revision: &str) -> Wire {
        let (ours, theirs) = tokio::io::duplex(1 << 22);
        let (sr, sw) = tokio::io::split(theirs);
        let task = tokio::spawn(libmcp::transport::stdio::serve(server, sr, sw));
        let (r, w) = tokio::io::split(ours);
        Wire {
            writer: w,
            lines: BufReader::new(r).lines(),
            revision: revision.into(),
            methods: HashMap::new(),
            backlog: Vec::new(),
            task,
        }
    }

    /// Sends one message (remembering request methods to validate their results).
    pub async fn send(&mut self, msg: Value) {
        if let (Some(id), Some(m)) = (msg.get("id"), msg.get("method").and_then(Value::as_str)) {
            self.methods.insert(id.to_string(), m.to_string());
        }
        self.send_raw(msg.to_string().as_bytes()).await;
    }

    /// Sends raw bytes followed by a newline.
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).await.unwrap();
        self.writer.write_all(b"\n").await.unwrap();
        self.writer.flush().await.unwrap();
    }

    /// The next message from the server (validated), failing after 5 s.
    pub async fn recv(&mut self) -> Value {
        self.try_recv(Duration::from_secs(5))
            .await
            .expect("the server sent nothing within 5 s")
    }

    /// The next message, unvalidated: only for id-less errors under revisions before 2025-11-25,
    /// whose schemas cannot express them (they require an id; JSON-RPC has none to give).
    pub async fn recv_unchecked(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(5), self.lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        serde_json::from_str(&line).unwrap()
    }

    /// The next message within `wait`, or `None`.
    pub async fn try_recv(&mut self, wait: Duration) -> Option<Value> {
        let line = tokio::time::timeout(wait, self.lines.next_line())
            .await
            .ok()?
            .unwrap()?;
        let msg: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("server wrote non-JSON {line:?}: {e}"));
        let method = msg
            .get("id")
            .and_then(|id| self.methods.get(&id.to_string()))
            .cloned();
        let is_response = msg.get("result").is_some() || msg.get("error").is_some();
        if msg.is_array() {
            return Some(msg);
        }
        let method = if is_response { method.as_deref() } else { None };
        if self.revision == "2026-07-28" {
            // Task messages are the tasks extension's, checked against its schema.
            assert_valid_modern_with_tasks(&msg, method);
        } else {
            assert_valid_message(&self.revision, &msg, Side::Server, method);
        }
        Some(msg)
    }

    /// Sends a request and returns its response, keeping other messages in `backlog`.
    pub async fn request(&mut self, id: Value, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        self.response_to(&id).await
    }

    /// Reads until the response to `id`.
    pub async fn response_to(&mut self, id: &Value) -> Value {
        loop {
            let m = self.recv().await;
            if m.get("id") == Some(id) && m.get("method").is_none() {
                return m;
            }
            self.backlog.push(m);
        }
    }

    /// Asserts the server sends nothing for `ms` milliseconds.
    pub async fn expect_silence(&mut self, ms: u64) {
        if let Some(m) = self.try_recv(Duration::from_millis(ms)).await {
            panic!("expected silence, got {m}");
        }
    }

    /// Closes the client end and waits for the server to finish cleanly.
    pub async fn finish(mut self) {
        self.writer.shutdown().await.unwrap();
        while let Ok(Some(_)) = self.lines.next_line().await {}
        tokio::time::timeout(Duration::from_secs(15), self.task)
            .await
            .expect("server exits")
            .unwrap()
            .unwrap();
    }
}

/// A modern request's params: `extra` merged with `_meta`.
pub fn modern(extra: Value) -> Value {
    modern_with(
        extra,
        json!({"elicitation": {}, "sampling": {}, "roots": {}}),
    )
}

/// Like [`modern`] with explicit client capabilities.
pub fn modern_with(mut extra: Value, caps: Value) -> Value {
    extra["_meta"] = modern_meta(caps);
    extra
}
