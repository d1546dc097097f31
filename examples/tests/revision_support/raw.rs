//! A raw JSON-RPC client of one revision for the everything-server in process: it writes the
//! messages itself, answers the server's requests with fixed answers, and checks every message the
//! server sends against the revision's schema, both for validity and for properties the schema does
//! not define.

use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines, ReadHalf, WriteHalf};

use crate::wire::{Side, schema_for};

type Io = tokio::io::DuplexStream;

/// The client end of one connection, with everything the server sent.
pub struct Raw {
    /// The revision spoken and checked against.
    pub revision: &'static str,
    writer: WriteHalf<Io>,
    lines: Lines<BufReader<ReadHalf<Io>>>,
    next_id: i64,
    /// Every message the server sent, in order.
    pub received: Vec<Value>,
    /// Every schema or strictness failure, with the message it concerns.
    pub failures: Vec<String>,
}

impl Raw {
    /// Serves a fresh everything-server over an in-memory pipe.
    pub fn connect(revision: &'static str) -> Raw {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        let (sr, sw) = tokio::io::split(server_io);
        let server = libmcp_examples::everything::build_server();
        tokio::spawn(async move { libmcp::transport::stdio::serve(server, sr, sw).await });
        let (cr, cw) = tokio::io::split(client_io);
        Raw {
            revision,
            writer: cw,
            lines: BufReader::new(cr).lines(),
            next_id: 1,
            received: Vec::new(),
            failures: Vec::new(),
        }
    }

    /// Whether this is the stateless 2026-07-28 era (per-request `_meta`, no handshake).
    pub fn modern(&self) -> bool {
        self.revision >= "2026-07-28"
    }

    /// The capabilities this client declares: what its revision defines.
    pub fn capabilities(&self) -> Value {
        let mut caps = json!({"roots": {"listChanged": true}, "sampling": {}});
        if self.revision >= "2025-06-18" {
            caps["elicitation"] = json!({});
        }
        caps
    }

    async fn write(&mut self, msg: &Value) {
        let mut line = msg.to_string();
        line.push('\n');
        self.writer.write_all(line.as_bytes()).await.unwrap();
    }

    /// Sends a notification.
    pub async fn notify(&mut self, method: &str, params: Value) {
        self.write(&json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    /// Sends a request and returns the server's response (`result` or `error` member), answering
    /// and checking whatever the server sends meanwhile.
    pub async fn request(&mut self, method: &str, mut params: Value) -> Result<Value, Value> {
        if self.modern() {
            let meta = params
                .as_object_mut()
                .unwrap()
                .entry("_meta")
                .or_insert_with(|| json!({}));
            meta["io.modelcontextprotocol/protocolVersion"] = json!(self.revision);
            meta["io.modelcontextprotocol/clientCapabilities"] = self.capabilities();
            meta["io.modelcontextprotocol/clientInfo"] = json!({"name": "raw", "version": "1"});
            meta["io.modelcontextprotocol/logLevel"] = json!("debug");
        }
        let id = self.next_id;
        self.next_id += 1;
        params["_meta"]["progressToken"] = json!(format!("p{id}"));
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.write(&msg).await;
        loop {
            let line =
                tokio::time::timeout(std::time::Duration::from_secs(10), self.lines.next_line())
                    .await
                    .unwrap_or_else(|_| panic!("{}: no answer to {method}", self.revision))
                    .unwrap()
                    .expect("the server closed the connection");
            let got: Value = serde_json::from_str(&line).unwrap();
            self.check(&got, Some(method));
            self.received.push(got.clone());
            if got.get("id") == Some(&json!(id)) && got.get("method").is_none() {
                return match got.get("error") {
                    Some(e) => Err(e.clone()),
                    None => Ok(got["result"].clone()),
                };
            }
            if let (Some(m), Some(rid)) = (got.get("method").and_then(Value::as_str), got.get("id"))
            {
                let answer =
                    json!({"jsonrpc": "2.0", "id": rid, "result": answer(m, &got["params"])});
                self.write(&answer).await;
            }
        }
    }

    /// Checks one server message: valid in the revision, and nothing the revision does not define.
    fn check(&mut self, msg: &Value, method: Option<&str>) {
        let schemas = schema_for(self.revision);
        let is_ours = msg.get("method").is_none();
        let method = if is_ours { method } else { None };
        if let Err(e) = schemas.check_message(msg, Side::Server, method) {
            self.failures.push(e);
        }
        match schemas.undefined_in_message(msg, Side::Server, method) {
            Ok(extra) if extra.is_empty() => {}
            Ok(extra) => self.failures.push(format!(
                "revision {}: not defined by the schema: {extra:?} in {msg}",
                self.revision
            )),
            Err(e) => self.failures.push(e),
        }
    }
}

/// The client's answer to a server-to-client request (or to an input request of the modern era).
pub fn answer(method: &str, params: &Value) -> Value {
    match method {
        "elicitation/create" => {
            let fields = params["requestedSchema"]["properties"].as_object();
            let content: Map<String, Value> = fields
                .into_iter()
                .flatten()
                .map(|(k, f)| (k.clone(), field_value(f)))
                .collect();
            json!({"action": "accept", "content": content})
        }
        "sampling/createMessage" => {
            json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "raw-model"})
        }
        "roots/list" => json!({"roots": [{"uri": "file:///tmp/root", "name": "root"}]}),
        _ => json!({}),
    }
}

/// A value for one form field: its first option, or any value of its type.
fn field_value(field: &Value) -> Value {
    let first = |v: &Value| v.as_array().and_then(|a| a.first()).cloned();
    match field["type"].as_str() {
        Some("boolean") => json!(true),
        Some("number" | "integer") => json!(1),
        Some("array") => json!([first(&field["items"]["enum"])
            .or_else(|| first(&field["items"]["anyOf"]).map(|o| o["const"].clone()))]),
        _ => first(&field["enum"])
            .or_else(|| first(&field["oneOf"]).map(|o| o["const"].clone()))
            .unwrap_or_else(|| json!("Ada")),
    }
}
