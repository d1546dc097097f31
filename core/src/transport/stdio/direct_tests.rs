//! The serving loop with stdout as a shared non-blocking pipe (what `serve_process_stdio` uses):
//! answers given on other threads are written by those threads, and must still arrive whole, once
//! each, and in order with the messages sent before them; a full pipe, `batched` and a closed
//! reader behave as documented in `stdio_out.rs`.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::unix::pipe;
use tokio::sync::mpsc;

use super::{SharedPipe, batched, serve_with};
use crate::server::{Reply, Responder, Server};

fn call(id: u64, tool: &str, text: &str) -> String {
    let msg = json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {
            "name": tool, "arguments": {"text": text},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        }
    });
    format!("{msg}\n")
}

fn schema() -> Value {
    json!({"type": "object", "properties": {"text": {"type": "string"}}})
}

/// A server whose `echo` answers on the serving task and whose `later` answers from a thread of
/// its own, or hands its responder to `parked` when given.
fn server(parked: Option<mpsc::UnboundedSender<Responder>>) -> Server {
    Server::builder("direct", "1.0.0")
        .tool(
            json!({"name": "echo", "inputSchema": schema()}),
            |_ctx, args| Reply::text(args["text"].as_str().unwrap_or_default()),
        )
        .tool_handler(
            json!({"name": "later", "inputSchema": schema()}),
            Arc::new(
                move |ctx: crate::server::RequestContext, responder: Responder| {
                    if let Some(parked) = &parked {
                        let _ = parked.send(responder);
                        return;
                    }
                    let text = ctx.arguments()["text"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned();
                    std::thread::spawn(move || responder.reply(Reply::text(text)));
                },
            ),
        )
        .build()
        .expect("server")
}

/// Starts serving over two fresh pipes: the peer's ends are returned.
fn start(
    server: Server,
) -> (
    pipe::Sender,
    pipe::Receiver,
    tokio::task::JoinHandle<crate::Result<()>>,
) {
    let (peer_tx, stdin) = pipe::pipe().expect("pipe");
    let (stdout, peer_rx) = pipe::pipe().expect("pipe");
    let stdout = Arc::new(stdout);
    let serving = tokio::spawn(serve_with(
        server,
        stdin,
        SharedPipe(stdout.clone()),
        Some(stdout),
        std::future::pending(),
    ));
    (peer_tx, peer_rx, serving)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_from_other_threads_arrive_whole_and_once_through_a_full_pipe() {
    let (mut tx, rx, serving) = start(server(None));
    // 400 answers of 2 KiB each: far more than a pipe holds, and nobody reads until all are sent,
    // so direct writes meet a full pipe and leave the rest to the serving task.
    let text = "x".repeat(2048);
    let mut requests = String::new();
    for id in 1..=400u64 {
        let tool = if id % 2 == 0 { "later" } else { "echo" };
        requests.push_str(&call(id, tool, &text));
    }
    let writer = tokio::spawn(async move {
        tx.write_all(requests.as_bytes()).await.expect("write");
        tx
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut lines = BufReader::new(rx).lines();
    let mut seen = std::collections::BTreeSet::new();
    while seen.len() < 400 {
        let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
            .await
            .unwrap_or_else(|_| panic!("only {} of 400 answers arrived", seen.len()))
            .expect("read")
            .expect("a line");
        let msg: Value = serde_json::from_str(&line).expect("every line is one whole message");
        assert_eq!(msg["result"]["content"][0]["text"], json!(text));
        assert!(
            seen.insert(msg["id"].as_u64().expect("id")),
            "answered twice: {msg}"
        );
    }
    drop(writer.await.expect("writer"));
    assert!(serving.await.expect("join").is_ok());
    assert_eq!(
        lines.next_line().await.expect("read"),
        None,
        "nothing after the answers"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batched_answers_are_written_when_the_batch_ends() {
    let (parked_tx, mut parked) = mpsc::unbounded_channel();
    let (mut tx, rx, serving) = start(server(Some(parked_tx)));
    for id in 1..=3u64 {
        tx.write_all(call(id, "later", &id.to_string()).as_bytes())
            .await
            .expect("write");
    }
    let mut responders = Vec::new();
    while responders.len() < 3 {
        responders.push(parked.recv().await.expect("parked"));
    }
    let rx = tokio::task::spawn_blocking(move || {
        batched(|| {
            for (i, r) in responders.into_iter().enumerate() {
                r.reply(Reply::text((i + 1).to_string()));
            }
            let mut probe = [0u8; 1];
            let early = rx.try_read(&mut probe);
            assert_eq!(
                early.map_err(|e| e.kind()),
                Err(std::io::ErrorKind::WouldBlock),
                "nothing is written before the batch ends"
            );
        });
        rx
    })
    .await
    .expect("batch");
    let mut lines = BufReader::new(rx).lines();
    for _ in 0..3 {
        let line = lines.next_line().await.expect("read").expect("a line");
        let msg: Value = serde_json::from_str(&line).expect("JSON");
        let id = msg["id"].as_u64().expect("id");
        assert_eq!(msg["result"]["content"][0]["text"], json!(id.to_string()));
    }
    drop(tx);
    assert!(serving.await.expect("join").is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_direct_write_ends_serving_with_the_error() {
    let (parked_tx, mut parked) = mpsc::unbounded_channel();
    let (mut tx, rx, serving) = start(server(Some(parked_tx)));
    tx.write_all(call(1, "later", "x").as_bytes())
        .await
        .expect("write");
    let responder = parked.recv().await.expect("parked");
    drop(rx);
    std::thread::spawn(move || responder.reply(Reply::text("x")))
        .join()
        .expect("reply");
    let result = tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("serving ends at once")
        .expect("join");
    let err = result.expect_err("the write failed");
    assert!(err.to_string().contains("pipe"), "{err}");
}
