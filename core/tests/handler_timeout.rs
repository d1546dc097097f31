//! `ServerConfig::handler_timeout` over stdio in both eras: a handler that has not answered in time
//! gets its request answered by the engine (-32603 with `data.handlerTimeoutMs`) and cancelled, its
//! late answer never reaches the wire, and the connection serves on; a handler that answers in time
//! and a request run as a task are not limited.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use libmcp::server::{Reply, RequestContext, Server, ServerConfig};
use serde_json::{Value, json};
use support::harness::{Wire, modern, modern_with};

const LIMIT_MS: u64 = 300;

/// Records, when the handler's future ends (it is dropped once its request is cancelled, or runs
/// to its end), whether its request was cancelled by then.
struct SawCancel(RequestContext, Arc<AtomicBool>);

impl Drop for SawCancel {
    fn drop(&mut self) {
        self.1.store(self.0.is_cancelled(), Ordering::SeqCst);
    }
}

/// A server whose `slow` tool would answer after twice the limit (recording whether its request was
/// cancelled) and whose `fast` tool answers at once.
fn server(saw_cancel: Arc<AtomicBool>) -> Server {
    let config = ServerConfig {
        handler_timeout: Some(Duration::from_millis(LIMIT_MS)),
        ..ServerConfig::default()
    };
    Server::builder("deadline", "1.0.0")
        .config(config)
        .tool_async(json!({"name": "slow"}), move |ctx| {
            let saw = saw_cancel.clone();
            async move {
                let _saw = SawCancel(ctx, saw);
                tokio::time::sleep(Duration::from_millis(2 * LIMIT_MS)).await;
                Reply::text("too late")
            }
        })
        .tool(json!({"name": "fast"}), |_ctx, _args| Reply::text("in time"))
        // Runs as a task (the client asks for one): its request is answered at once with the task.
        .tool_async(
            json!({"name": "long", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}}),
            |_ctx| async move {
                tokio::time::sleep(Duration::from_millis(2 * LIMIT_MS)).await;
                Reply::text("done")
            },
        )
        .build()
        .unwrap()
}

async fn start(revision: &str, saw: Arc<AtomicBool>) -> Wire {
    let mut w = Wire::start(server(saw), revision);
    if revision != "2026-07-28" {
        let init = w
            .request(
                json!(0),
                "initialize",
                json!({"protocolVersion": revision, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
            )
            .await;
        assert_eq!(init["result"]["protocolVersion"], revision);
        w.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
    }
    w
}

fn call(revision: &str, name: &str) -> Value {
    let params = json!({"name": name, "arguments": {}});
    if revision == "2026-07-28" {
        modern(params)
    } else {
        params
    }
}

#[tokio::test]
async fn a_late_handler_is_answered_by_the_engine_and_the_connection_serves_on() {
    for revision in ["2026-07-28", "2025-11-25"] {
        let saw = Arc::new(AtomicBool::new(false));
        let mut w = start(revision, saw.clone()).await;
        let timed_out = w
            .request(json!(1), "tools/call", call(revision, "slow"))
            .await;
        assert_eq!(
            timed_out,
            json!({"jsonrpc": "2.0", "id": 1, "error": {
                "code": -32603,
                "message": "Internal error: the handler did not answer within 300 ms (the server's handler_timeout)",
                "data": {"handlerTimeoutMs": LIMIT_MS}
            }}),
            "{revision}"
        );
        let fast = w
            .request(json!(2), "tools/call", call(revision, "fast"))
            .await;
        assert_eq!(
            fast["result"]["content"][0]["text"], "in time",
            "{revision}"
        );
        // The slow handler finishes within this silence; its answer is dropped.
        w.expect_silence(2 * LIMIT_MS + 300).await;
        assert!(
            saw.load(Ordering::SeqCst),
            "{revision}: the handler saw its request cancelled"
        );
        // The id is free again, and answered normally.
        let again = w
            .request(json!(1), "tools/call", call(revision, "fast"))
            .await;
        assert_eq!(
            again["result"]["content"][0]["text"], "in time",
            "{revision}"
        );
        w.finish().await;
    }
}

#[tokio::test]
async fn the_limit_does_not_reach_a_task_nor_a_handler_that_answers_in_time() {
    let saw = Arc::new(AtomicBool::new(false));
    let mut w = start("2026-07-28", saw.clone()).await;
    // `fast` 50 times in a row: each answered once, by its handler, and nothing after.
    for id in 10..60 {
        let r = w
            .request(json!(id), "tools/call", call("2026-07-28", "fast"))
            .await;
        assert_eq!(r["result"]["content"][0]["text"], "in time");
    }
    w.expect_silence(LIMIT_MS + 200).await;
    // A task outlives the limit and completes.
    let tasks = |extra: Value| {
        modern_with(
            extra,
            json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}),
        )
    };
    let created = w
        .request(
            json!(70),
            "tools/call",
            tasks(json!({"name": "long", "arguments": {}})),
        )
        .await;
    let task = created["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a CreateTaskResult: {created}"))
        .to_string();
    w.expect_silence(LIMIT_MS + 200).await;
    let mut status = Value::Null;
    for id in 71..171 {
        let got = w
            .request(json!(id), "tasks/get", tasks(json!({"taskId": task})))
            .await;
        status = got["result"].clone();
        if status["status"] != "working" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(status["status"], "completed", "{status}");
    assert!(!saw.load(Ordering::SeqCst));
    w.finish().await;
}
