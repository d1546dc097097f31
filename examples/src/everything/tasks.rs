//! The fixtures of the suite's tasks scenarios (`tasks-*`): a sync-only tool and task-supporting tools
//! that sleep, fail, ask for input inside the task, or gather input before the task exists.

use std::sync::Arc;
use std::time::Duration;

use libmcp::RpcError;
use libmcp::server::{InputRequired, Reply, RequestContext, Responder, ServerBuilder};
use serde_json::{Value, json};

/// A tool definition with `execution.taskSupport` set.
fn task_tool(name: &str, description: &str, support: &str, properties: Value) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties},
        "execution": {"taskSupport": support},
    })
}

/// The accepted content of an elicitation answer.
fn accepted<'a>(ctx: &'a RequestContext, key: &str) -> Option<&'a serde_json::Map<String, Value>> {
    let answer = ctx.input_response(key)?;
    (answer.get("action").and_then(Value::as_str) == Some("accept"))
        .then(|| answer.get("content")?.as_object())
        .flatten()
}

fn form(field: &str, kind: &str, description: &str) -> Value {
    json!({
        "type": "object",
        "properties": {field: {"type": kind, "description": description}},
        "required": [field],
    })
}

pub(super) fn register(b: ServerBuilder) -> ServerBuilder {
    b.tool(
        json!({
            "name": "greet",
            "description": "Sync-only: greets by name",
            "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        }),
        |_ctx, args| Reply::text(format!("Hello, {}!", args["name"].as_str().unwrap_or("World"))),
    )
    .tool_async(
        task_tool(
            "slow_compute",
            "Task-supporting: sleeps `seconds` seconds, then reports the label (stops when cancelled)",
            "optional",
            json!({"seconds": {"type": "number", "minimum": 0}, "label": {"type": "string"}}),
        ),
        |ctx| async move {
            let args = ctx.arguments();
            let seconds = args["seconds"].as_f64().unwrap_or(0.0);
            let label = args["label"].as_str().unwrap_or("unlabelled").to_string();
            // The async handler is dropped when the task is cancelled, which ends it cancelled.
            tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
            Reply::text(format!("Computed {label} after {seconds} s"))
        },
    )
    .tool_async(
        task_tool(
            "failing_job",
            "Task-required: fails with a tool error after about a second",
            "required",
            json!({}),
        ),
        |_ctx| async move {
            tokio::time::sleep(Duration::from_secs(1)).await;
            Reply::tool_error("failing_job always fails")
        },
    )
    .tool_async(
        task_tool(
            "protocol_error_job",
            "Task-supporting: ends with a protocol (JSON-RPC) error",
            "optional",
            json!({}),
        ),
        |_ctx| async move {
            Reply::Error(RpcError::internal("protocol_error_job always fails with a protocol error"))
        },
    )
    .tool(
        task_tool(
            "confirm_delete",
            "Task-supporting: asks the user to confirm deleting `filename` (inside the task), then reports",
            "optional",
            json!({"filename": {"type": "string"}}),
        ),
        |ctx, args| {
            let filename = args["filename"].as_str().unwrap_or("the file");
            match accepted(ctx, "confirm").and_then(|c| c.get("confirm")?.as_bool()) {
                Some(true) => Reply::text(format!("Deleted {filename}")),
                Some(false) => Reply::text(format!("Kept {filename}")),
                None => InputRequired::new()
                    .elicit(
                        "confirm",
                        &format!("Delete {filename}?"),
                        form("confirm", "boolean", "Confirm the deletion"),
                    )
                    .into(),
            }
        },
    )
    .tool(
        task_tool(
            "multi_input",
            "Task-supporting: asks two questions at once, then reports both answers",
            "optional",
            json!({}),
        ),
        |ctx, _args| {
            let name = accepted(ctx, "name").and_then(|c| c.get("name")?.as_str().map(str::to_string));
            let confirm = accepted(ctx, "confirm").and_then(|c| c.get("confirm")?.as_bool());
            match (name, confirm) {
                (Some(n), Some(c)) => Reply::text(format!("name={n}, confirm={c}")),
                _ => InputRequired::new()
                    .elicit("name", "What is your name?", form("name", "string", "Your name"))
                    .elicit("confirm", "Confirm?", form("confirm", "boolean", "Confirm"))
                    .into(),
            }
        },
    )
    .tool_handler(
        task_tool(
            "test_tool_with_task",
            "Task-required: asks for the user's name synchronously (MRTR), then runs as a task that greets them",
            "required",
            json!({}),
        ),
        Arc::new(compose),
    )
}

/// `test_tool_with_task`: round 1 asks for `user_name` before any task exists; the round that brings
/// the answer starts the task, whose result greets the user.
fn compose(ctx: RequestContext, responder: Responder) {
    let Some(name) =
        accepted(&ctx, "user_name").and_then(|c| c.get("name")?.as_str().map(str::to_string))
    else {
        return responder.input_required(InputRequired::new().elicit(
            "user_name",
            "What is your name?",
            form("name", "string", "Your name"),
        ));
    };
    let responder = responder.start_task();
    let Ok(rt) = tokio::runtime::Handle::try_current() else {
        return responder.error(RpcError::internal("needs a tokio runtime"));
    };
    rt.spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        responder.reply(Reply::text(format!("Hello, {name}! (from the task)")));
    });
}
