//! The client's task API against the in-process server, both eras: a call that becomes a task is
//! polled at the server's interval (input requests answered inside the task through the registered
//! handlers), one that needs input first runs its MRTR rounds before the task exists, and a task is
//! cancelled.

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

fn server() -> Server {
    Server::builder("tasks-server", "1.0.0")
        .config(ServerConfig {
            task_poll_interval_ms: 20,
            ..ServerConfig::default()
        })
        .tool_async(task_tool("sleepy", "optional"), |ctx| async move {
            let ms = ctx.arguments()["ms"].as_u64().unwrap_or(0);
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Reply::text(format!("slept {ms} ms"))
        })
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

/// Runs tasks through `client`: polled to the end, input inside the task, failed, cancelled.
async fn exercise(client: &Client, pref: &VersionPreference) {
    let TaskCall::Task(task) = client
        .call_tool_as_task("sleepy", json!({"ms": 50}))
        .await
        .unwrap()
    else {
        panic!("{pref:?}: sleepy runs as a task");
    };
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
    let TaskCall::Task(task) = client
        .call_tool_as_task("sleepy", json!({"ms": 60_000}))
        .await
        .unwrap()
    else {
        panic!("a task");
    };
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
