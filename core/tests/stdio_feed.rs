//! `StdioFeed`: a stdio connection whose input the host reads and feeds in chunks cut anywhere
//! (core/src/transport/stdio_feed.rs). The answers are exactly those of `stdio::serve`, checked
//! against the revision's schema; oversized lines, the end of input, backpressure and a failed
//! output behave as documented.

mod support;

use std::time::Duration;

use libmcp::server::{Reply, Server, ServerConfig};
use libmcp::transport::stdio::{HIGH_WATER, StdioFeed};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader, DuplexStream, Lines};

use support::wire::{Side, assert_valid_message};

const REVISION: &str = "2026-07-28";

fn server(max_message_bytes: usize) -> Server {
    Server::builder("feed", "1.0.0")
        .config(ServerConfig {
            max_message_bytes,
            ..ServerConfig::default()
        })
        .tool(
            json!({"name": "echo", "inputSchema": {"type": "object",
                   "properties": {"text": {"type": "string"}}}}),
            |_ctx, args| Reply::text(args["text"].as_str().unwrap_or_default()),
        )
        .tool_async(json!({"name": "slow"}), |_ctx| async {
            tokio::time::sleep(Duration::from_millis(200)).await;
            Reply::text("slow")
        })
        .build()
        .expect("server")
}

fn call(id: u64, tool: &str, text: &str) -> String {
    let msg = json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {
            "name": tool, "arguments": {"text": text},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": REVISION,
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        }
    });
    format!("{msg}\n")
}

async fn next(lines: &mut Lines<BufReader<DuplexStream>>) -> Value {
    let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
        .await
        .expect("an answer in time")
        .expect("read")
        .expect("a line");
    let msg: Value = serde_json::from_str(&line).expect("JSON");
    assert_valid_message(REVISION, &msg, Side::Server, Some("tools/call"));
    msg
}

#[tokio::test]
async fn chunks_cut_anywhere_give_the_answers_of_whole_lines() {
    let (writer, reader) = tokio::io::duplex(1 << 20);
    let mut lines = BufReader::new(reader).lines();
    let mut feed = StdioFeed::new(&server(256), writer);
    let input = format!(
        "{}\n\r\n{}{}\n{}",
        call(1, "echo", "one").trim_end(),
        call(2, "echo", &"x".repeat(300)),
        call(3, "echo", "three").trim_end(),
        call(4, "echo", "four").trim_end(),
    );
    for chunk in input.as_bytes().chunks(7) {
        feed.feed(chunk).expect("fed");
    }
    let first = next(&mut lines).await;
    assert_eq!(first["id"], 1);
    assert_eq!(first["result"]["content"][0]["text"], "one");
    let too_long = next(&mut lines).await;
    assert_eq!(too_long["id"], Value::Null);
    assert_eq!(too_long["error"]["code"], -32600);
    assert_eq!(
        too_long["error"]["message"],
        "Invalid request: message exceeds the limit of 256 bytes"
    );
    assert_eq!(next(&mut lines).await["id"], 3);
    // The last line has no newline yet: it is handled when the input ends.
    feed.end();
    let last = next(&mut lines).await;
    assert_eq!(last["result"]["content"][0]["text"], "four");
    feed.finish().await.expect("finished");
    assert_eq!(
        lines.next_line().await.expect("read"),
        None,
        "output closed"
    );
}

#[tokio::test]
async fn finishing_answers_requests_in_flight_then_refuses_input() {
    let (writer, reader) = tokio::io::duplex(1 << 20);
    let mut lines = BufReader::new(reader).lines();
    let mut feed = StdioFeed::new(&server(1 << 20), writer);
    feed.feed(call(1, "slow", "").as_bytes()).expect("fed");
    feed.end();
    let err = feed.feed(call(2, "echo", "late").as_bytes()).unwrap_err();
    assert_eq!(err.kind(), libmcp::ErrorKind::Closed, "{err}");
    feed.finish().await.expect("finished");
    let answer = next(&mut lines).await;
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["content"][0]["text"], "slow");
    assert_eq!(lines.next_line().await.expect("read"), None);
}

#[tokio::test]
async fn a_peer_that_does_not_read_makes_feed_report_backpressure() {
    let (writer, mut reader) = tokio::io::duplex(1 << 16);
    let mut feed = StdioFeed::new(&server(4 << 20), writer);
    let text = "y".repeat(1 << 20);
    let mut backlog = 0;
    for id in 1..=20 {
        backlog = feed.feed(call(id, "echo", &text).as_bytes()).expect("fed");
    }
    assert!(backlog >= HIGH_WATER, "{backlog} bytes wait");
    let blocked = tokio::time::timeout(Duration::from_millis(100), feed.writable()).await;
    assert!(
        blocked.is_err(),
        "not writable while the peer reads nothing"
    );
    let drain = tokio::spawn(async move {
        let mut all = Vec::new();
        reader.read_to_end(&mut all).await.expect("read");
        all
    });
    tokio::time::timeout(Duration::from_secs(30), feed.writable())
        .await
        .expect("writable once the peer reads");
    feed.finish().await.expect("finished");
    let all = drain.await.expect("drained");
    let answers: Vec<Value> = all
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).expect("JSON"))
        .collect();
    assert_eq!(answers.len(), 20);
    for (i, a) in answers.iter().enumerate() {
        assert_eq!(a["id"], i as u64 + 1);
        assert_eq!(
            a["result"]["content"][0]["text"].as_str().map(str::len),
            Some(1 << 20)
        );
    }
}

#[tokio::test]
async fn a_failed_output_fails_feed_and_finish() {
    let (writer, reader) = tokio::io::duplex(1 << 16);
    drop(reader);
    let mut feed = StdioFeed::new(&server(1 << 20), writer);
    feed.feed(call(1, "echo", "lost").as_bytes()).expect("fed");
    let refused = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match feed.feed(b"\n") {
                Ok(_) => tokio::time::sleep(Duration::from_millis(5)).await,
                Err(e) => return e,
            }
        }
    })
    .await
    .expect("feed fails once the write failed");
    assert_eq!(refused.kind(), libmcp::ErrorKind::Transport, "{refused}");
    let err = feed.finish().await.expect_err("the output failed");
    assert_eq!(err.kind(), libmcp::ErrorKind::Transport, "{err}");
}
