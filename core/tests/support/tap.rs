//! A tap between a real client and a real server: copies every line both ways, validates each message
//! against the official schema of the revision under test, and records what the client sent.

use std::collections::HashMap;
use std::sync::Arc;

use libmcp::server::Server;
use parking_lot::Mutex;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};

use super::wire::{Side, assert_valid_message};

/// What passed through the tap.
#[derive(Default)]
pub struct Recorded {
    /// Messages the client sent, in order.
    pub from_client: Vec<Value>,
    /// Messages the server sent, in order.
    pub from_server: Vec<Value>,
}

/// The client's ends of a tapped connection, and the record.
pub struct Tap {
    /// Read half for the client.
    pub reader: ReadHalf<DuplexStream>,
    /// Write half for the client.
    pub writer: WriteHalf<DuplexStream>,
    /// Everything seen so far.
    pub record: Arc<Mutex<Recorded>>,
}

/// Serves `server` behind a tap validating against `revision`.
pub fn tapped(server: Server, revision: &str) -> Tap {
    let (client_end, tap_client) = tokio::io::duplex(1 << 22);
    let (tap_server, server_end) = tokio::io::duplex(1 << 22);
    let (sr, sw) = tokio::io::split(server_end);
    tokio::spawn(libmcp::transport::stdio::serve(server, sr, sw));
    let record = Arc::new(Mutex::new(Recorded::default()));
    let methods: Arc<Mutex<HashMap<String, String>>> = Arc::default();
    let (tcr, tcw) = tokio::io::split(tap_client);
    let (tsr, tsw) = tokio::io::split(tap_server);
    tokio::spawn(pump(
        tcr,
        tsw,
        Side::Client,
        revision.to_string(),
        record.clone(),
        methods.clone(),
    ));
    tokio::spawn(pump(
        tsr,
        tcw,
        Side::Server,
        revision.to_string(),
        record.clone(),
        methods,
    ));
    let (reader, writer) = tokio::io::split(client_end);
    Tap {
        reader,
        writer,
        record,
    }
}

async fn pump(
    from: ReadHalf<DuplexStream>,
    mut to: WriteHalf<DuplexStream>,
    side: Side,
    revision: String,
    record: Arc<Mutex<Recorded>>,
    methods: Arc<Mutex<HashMap<String, String>>>,
) {
    let mut lines = BufReader::new(from).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let msg: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("{side:?} wrote non-JSON {line:?}: {e}"));
        let id = msg.get("id").map(Value::to_string);
        let method = msg
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_string);
        // A message with modern `_meta` (the era probe) is checked against its own revision, and so is
        // the answer to it.
        let own = msg["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]
            .as_str()
            .map(str::to_string);
        let (answered, rev) = match (&id, &method) {
            (Some(id), Some(m)) => {
                let rev = own.unwrap_or_else(|| revision.clone());
                methods
                    .lock()
                    .insert(format!("{side:?}{id}"), format!("{rev} {m}"));
                (None, rev)
            }
            (Some(id), None) => {
                let other = if side == Side::Client {
                    "Server"
                } else {
                    "Client"
                };
                match methods.lock().get(&format!("{other}{id}")) {
                    Some(entry) => {
                        let (rev, m) = entry.split_once(' ').unwrap();
                        (Some(m.to_string()), rev.to_string())
                    }
                    None => (None, revision.clone()),
                }
            }
            _ => (None, own.unwrap_or_else(|| revision.clone())),
        };
        // Errors answering the probe come from a legacy server and follow its revision's rules.
        let rev = if msg.get("error").is_some() {
            revision.clone()
        } else {
            rev
        };
        assert_valid_message(&rev, &msg, side, answered.as_deref());
        {
            let mut r = record.lock();
            match side {
                Side::Client => r.from_client.push(msg),
                Side::Server => r.from_server.push(msg),
            }
        }
        if to.write_all(line.as_bytes()).await.is_err() || to.write_all(b"\n").await.is_err() {
            break;
        }
        let _ = to.flush().await;
    }
    let _ = to.shutdown().await;
}
