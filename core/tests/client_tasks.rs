//! The client's task API against the in-process server, both eras: a call that becomes a task is
//! polled at the server's interval (input requests answered inside the task through the registered
//! handlers), one that needs input first runs its MRTR rounds before the task exists, a task is
//! cancelled, and a subscription by task id receives the task's status changes.

mod support;

use std::time::Duration;

use libmcp::client::{Client, TaskCall, VersionPreference};
use libmcp::model::TaskStatus;
use libmcp::server::{InputRequired, Reply, RequestContext, Responder, Server, ServerConfig};
use libmcp::transport::http::{HttpServerConfig, serve_http};
use libmcp::{Error, ProtocolVersion};
use serde_json::{Value, json};

fn task_tool(name: &str, support: &str) -> Value {
    json!({"name": name, "inputSchema": {"type": "object"}, "execution": {"taskSupport": support}})
}

fn name_of(ctx: &RequestContext) -> Option<String> {
    ctx.input_response("name")?["content"]["name"]
        .as_str()
        .map(str::to_string)
}

fn ask_name() -> Reply {
    InputRequired::new()
        .elicit(
            "name",
            "Name?",
            json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
        )
        .into()
}

/// Asks for a name before the task exists, then greets inside a task.
fn greet_later(ctx: RequestContext, responder: Responder) {
    match name_of(&ctx) {
        None => responder.reply(ask_name()),
        Some(n) => responder
            .start_task()
            .reply(Reply::text(format!("later, {n}"))),
    }
}

/// The `sleepy` tool: sleeps `ms` milliseconds.
async fn sleepy_tool(ctx: RequestContext) -> Reply {
    let ms = ctx.arguments()["ms"].as_u64().unwrap_or(0);
    tokio::time::sleep(Duration::from_millis(ms)).await;
    Reply::text(format!("slept {ms} ms"))
}

fn server() -> Server {
    Server::builder("tasks-server", "1.0.0")
        .config(ServerConfig {
            task_poll_interval_ms: 20,
            ..ServerConfig::default()
        })
        .tool_async(task_tool("sleepy", "optional"), sleepy_tool)
        .tool(task_tool("greet", "required"), |ctx, _| {
            match name_of(ctx) {
                Some(n) => Reply::text(format!("Hello, {n}!")),
                None => ask_name(),
            }
        })
        .tool_handler(
            task_tool("greet_later", "required"),
            std::sync::Arc::new(greet_later),
        )
        .tool_async(task_tool("fails", "optional"), |_ctx| async move {
            Reply::Error(libmcp::RpcError::internal("broken"))
        })
        .build()
        .unwrap()
}

async fn connect(pref: VersionPreference) -> Client {
    support::inprocess::connect(server(), "tasks-client", pref).await
}

fn text(r: &libmcp::model::CallToolResult) -> String {
    serde_json::to_value(r).unwrap()["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Starts the `sleepy` tool as a task that sleeps `ms` milliseconds.
async fn sleepy(client: &Client, ms: u64, pref: &VersionPreference) -> libmcp::model::Task {
    match client
        .call_tool_as_task("sleepy", json!({ "ms": ms }))
        .await
    {
        Ok(TaskCall::Task(task)) => task,
        other => panic!("{pref:?}: sleepy runs as a task, got {other:?}"),
    }
}

/// Runs tasks through `client`: polled to the end, input inside the task, failed, cancelled.
async fn exercise(client: &Client, pref: &VersionPreference) {
    let task = sleepy(client, 50, pref).await;
    assert_eq!(task.status, TaskStatus::Working);
    assert_eq!(task.poll_interval_ms, Some(20), "{pref:?}");
    let result = client.wait_task(&task).await.unwrap();
    assert_eq!(text(&result), "slept 50 ms", "{pref:?}");
    // Input inside the task (modern: inputRequests and tasks/update; legacy: real requests).
    let r = client.call_tool_task("greet", json!({})).await.unwrap();
    assert_eq!(text(&r), "Hello, Ada!", "{pref:?}");
    // A failed task is its JSON-RPC error.
    match client.call_tool_task("fails", json!({})).await {
        Err(Error::Rpc(e)) => assert_eq!(e.message, "Internal error: broken", "{pref:?}"),
        other => panic!("{pref:?}: {other:?}"),
    }
    // Cancelled while working.
    let task = sleepy(client, 60_000, pref).await;
    client.cancel_task(&task.task_id).await.unwrap();
    assert_eq!(
        client.get_task(&task.task_id).await.unwrap().status,
        TaskStatus::Cancelled
    );
    assert!(client.wait_task(&task).await.is_err(), "{pref:?}");
}

const ERAS: [VersionPreference; 2] = [
    VersionPreference::Auto,
    VersionPreference::Legacy(ProtocolVersion::V2025_11_25),
];

#[tokio::test]
async fn tasks_over_stdio_in_both_eras() {
    for pref in ERAS {
        let client = connect(pref.clone()).await;
        exercise(&client, &pref).await;
        task_notifications(&client, &pref).await;
        client.close().await;
    }
}

#[tokio::test]
async fn tasks_over_http_in_both_eras() {
    let config = HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap());
    let handle = serve_http(server(), config).await.unwrap();
    let url = format!("http://{}/mcp", handle.local_addr());
    for pref in ERAS {
        let client = Client::builder("tasks-client", "1.0.0")
            .version_preference(pref.clone())
            .on_elicitation(|_params: Value| async move {
                Ok(json!({"action": "accept", "content": {"name": "Ada"}}))
            })
            .connect_http(&url)
            .await
            .unwrap();
        exercise(&client, &pref).await;
        task_notifications(&client, &pref).await;
        client.close().await;
    }
}

#[tokio::test]
async fn input_before_the_task_then_the_task() {
    let client = connect(VersionPreference::Auto).await;
    let r = client
        .call_tool_task("greet_later", json!({}))
        .await
        .unwrap();
    assert_eq!(text(&r), "later, Ada");
    let unknown = client.get_task("nope").await.unwrap_err();
    assert!(
        matches!(&unknown, Error::Rpc(e) if e.code == -32602),
        "{unknown:?}"
    );
    client.close().await;
}

/// Subscribes to one running task and waits for its notification: `notifications/tasks` on a listen
/// stream (modern) or the session's `notifications/tasks/status` (2025-11-25), read by `task_of`.
async fn task_notifications(client: &Client, pref: &VersionPreference) {
    let task = sleepy(client, 300, pref).await;
    let mut sub = client
        .subscribe(libmcp::client::SubscriptionFilter {
            task_ids: Some(vec![task.task_id.clone()]),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        sub.acknowledged()["taskIds"],
        json!([task.task_id]),
        "{pref:?}"
    );
    let note = tokio::time::timeout(Duration::from_secs(10), sub.next())
        .await
        .unwrap_or_else(|_| panic!("{pref:?}: no task notification"))
        .expect("the subscription is open");
    let method = match pref {
        VersionPreference::Auto => "notifications/tasks",
        _ => "notifications/tasks/status",
    };
    assert_eq!(note.method, method, "{pref:?}");
    let seen = libmcp::client::task_of(&note).unwrap().unwrap();
    assert_eq!(seen.task_id, task.task_id, "{pref:?}");
    assert_eq!(seen.status, TaskStatus::Completed, "{pref:?}");
    // Another task's status is not delivered to this subscription.
    let other = sleepy(client, 10, pref).await;
    client.wait_task(&other).await.unwrap();
    assert!(
        tokio::time::timeout(Duration::from_millis(200), sub.next())
            .await
            .is_err(),
        "{pref:?}: a task the filter does not name"
    );
    // Not a task notification, and a task notification that does not carry a task.
    let plain = libmcp::jsonrpc::Notification {
        method: "notifications/tools/list_changed".into(),
        params: None,
    };
    assert!(libmcp::client::task_of(&plain).is_none());
    let broken = libmcp::jsonrpc::Notification {
        method: "notifications/tasks".into(),
        params: Some(json!({"taskId": 7})),
    };
    assert!(matches!(
        libmcp::client::task_of(&broken),
        Some(Err(Error::Protocol(_)))
    ));
}

/// A server that asks to be polled once a minute: a follower that sees a short task end within
/// seconds was woken by the task's status notification, not by a poll.
#[tokio::test]
async fn a_follower_is_woken_by_status_notifications() {
    let slow_polls = Server::builder("tasks-server", "1.0.0")
        .config(ServerConfig {
            task_poll_interval_ms: 60_000,
            ..ServerConfig::default()
        })
        .tool_async(task_tool("sleepy", "optional"), sleepy_tool)
        .build()
        .unwrap();
    for pref in ERAS {
        let client =
            support::inprocess::connect(slow_polls.clone(), "tasks-client", pref.clone()).await;
        let task = sleepy(&client, 100, &pref).await;
        let mut seen = Vec::new();
        let result = tokio::time::timeout(
            Duration::from_secs(20),
            client.follow_task(&task, |t| seen.push(t.status)),
        )
        .await
        .unwrap_or_else(|_| panic!("{pref:?}: the follower waited for a poll"))
        .unwrap();
        assert_eq!(text(&result), "slept 100 ms", "{pref:?}");
        assert_eq!(
            seen,
            [TaskStatus::Working, TaskStatus::Completed],
            "{pref:?}"
        );
        let result = tokio::time::timeout(
            Duration::from_secs(20),
            client.call_tool_task("sleepy", json!({"ms": 100})),
        )
        .await
        .unwrap_or_else(|_| panic!("{pref:?}: wait_task waited for a poll"))
        .unwrap();
        assert_eq!(text(&result), "slept 100 ms", "{pref:?}");
        client.close().await;
    }
}

/// A scripted 2026-07-28 server that makes a task, answers `tasks/get` with it completed, and never
/// acknowledges `subscriptions/listen`; returns the ids of the listen requests it saw and those the
/// client cancelled.
async fn never_acknowledging_peer(io: tokio::io::DuplexStream) -> (Vec<Value>, Vec<Value>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let (r, mut w) = tokio::io::split(io);
    let mut lines = BufReader::new(r).lines();
    let (mut listens, mut cancelled) = (Vec::new(), Vec::new());
    let times = json!({"createdAt": "2026-12-04T00:00:00.000Z", "lastUpdatedAt": "2026-12-04T00:00:00.000Z"});
    while let Ok(Some(line)) = lines.next_line().await {
        let msg: Value = serde_json::from_str(&line).unwrap();
        let Some(id) = msg.get("id").cloned() else {
            if msg["method"] == "notifications/cancelled" {
                cancelled.push(msg["params"]["requestId"].clone());
            }
            continue;
        };
        let mut result = match msg["method"].as_str() {
            Some("server/discover") => json!({
                "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}},
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "scripted", "version": "1"}},
            }),
            Some("tools/call") => {
                json!({"resultType": "task", "taskId": "t1", "status": "working", "pollIntervalMs": 20})
            }
            Some("subscriptions/listen") => {
                listens.push(id);
                continue;
            }
            Some("tasks/get") => json!({"taskId": "t1", "status": "completed",
                "result": {"content": [{"type": "text", "text": "done"}]}}),
            other => panic!("unexpected request {other:?}"),
        };
        if let Some(m) = result.as_object_mut() {
            m.entry("resultType").or_insert(json!("complete"));
            if m.contains_key("taskId") {
                m.extend(times.as_object().unwrap().clone());
            }
        }
        let answer = json!({"jsonrpc": "2.0", "id": id, "result": result});
        w.write_all(format!("{answer}\n").as_bytes()).await.unwrap();
    }
    (listens, cancelled)
}

/// A server that never acknowledges the status subscription does not hold the follower up: it
/// gives up on the acknowledgement after a second, cancels the listen request and polls.
#[tokio::test]
async fn a_listen_never_acknowledged_falls_back_to_polling() {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let peer = tokio::spawn(never_acknowledging_peer(server_io));
    let (cr, cw) = tokio::io::split(client_io);
    let client = Client::builder("tasks-client", "1.0.0")
        .connect_io(cr, cw)
        .await
        .unwrap();
    let result = tokio::time::timeout(
        Duration::from_secs(20),
        client.call_tool_task("slow", json!({})),
    )
    .await
    .expect("the follower waited on an acknowledgement that never came")
    .unwrap();
    assert_eq!(text(&result), "done");
    client.close().await;
    let (listens, cancelled) = peer.await.unwrap();
    assert_eq!(listens.len(), 1);
    assert_eq!(
        cancelled, listens,
        "the abandoned listen request is cancelled"
    );
}
