//! The floor a JSON-RPC echo server can reach: one thread reads a line from stdin, parses it with
//! serde_json, answers `initialize`, `tools/list` and `tools/call echo`, and writes the answer.
//!
//! No protocol engine at all: no schema validation, no version or `_meta` checks, no sessions,
//! cancellation, concurrency or limits. It exists only so that `mcp-bench` can show what a
//! read-dispatch-write loop costs on the same machine in the same run. Answers are buffered and
//! flushed when no more input is waiting, so requests sent together are answered with one write.

use std::io::{self, BufRead, BufReader, BufWriter, Write};

use serde_json::{Value, json};

fn main() -> io::Result<()> {
    let mut input = BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let mut output = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return output.flush();
        }
        let Ok(request) = serde_json::from_slice::<Value>(&line) else {
            continue;
        };
        if let Some(answer) = answer(&request) {
            serde_json::to_writer(&mut output, &answer)?;
            output.write_all(b"\n")?;
        }
        if input.buffer().is_empty() {
            output.flush()?;
        }
    }
}

/// The response to `request`, or `None` for a notification.
fn answer(request: &Value) -> Option<Value> {
    let id = request.get("id")?.clone();
    let params = &request["params"];
    let result = match request["method"].as_str() {
        Some("initialize") => json!({
            "protocolVersion": params["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "echo-minimal", "version": env!("CARGO_PKG_VERSION")},
        }),
        Some("tools/list") => json!({"tools": [{
            "name": "echo",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
        }]}),
        Some("tools/call") => {
            let text = params["arguments"]["text"].as_str().unwrap_or_default();
            json!({"content": [{"type": "text", "text": text}]})
        }
        _ => {
            return Some(json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": {"code": -32601, "message": "Method not found"},
            }));
        }
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}
