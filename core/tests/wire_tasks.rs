//! Tasks on the wire (stdio): the tasks extension at 2026-07-28 and the task wire of 2025-11-25.
//! Every message the server sends is validated: task messages of 2026-07-28 against the extension's
//! schema (`tests/spec/ext-tasks-draft`), everything else against the revision's own.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use libmcp::server::{InputRequired, Reply, RequestContext, Responder, Server, ServerConfig};
use serde_json::{Value, json};
use support::harness::{Wire, modern, modern_with};
use tokio::sync::Semaphore;

const REV: &str = "2026-07-28";
const EXT: &str = "io.modelcontextprotocol/tasks";

/// Shared with the fixture's handlers: releases `work`, records that it was dropped (cancelled).
#[derive(Clone)]
struct Gate {
    permits: Arc<Semaphore>,
    dropped: Arc<AtomicBool>,
}

impl Default for Gate {
    fn default() -> Self {
        Gate {
            permits: Arc::new(Semaphore::new(0)),
            dropped: Arc::default(),
        }
    }
}

struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

fn task_tool(name: &str, support: &str) -> Value {
    json!({"name": name, "inputSchema": {"type": "object"}, "execution": {"taskSupport": support}})
}

fn config(ttl_ms: u64) -> ServerConfig {
    ServerConfig {
        task_ttl_ms: Some(ttl_ms),
        task_poll_interval_ms: 50,
        ..ServerConfig::default()
    }
}

fn name_form() -> Value {
    json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
}

fn answered(ctx: &RequestContext, key: &str) -> Option<String> {
    ctx.input_response(key)?["content"]["name"]
        .as_str()
        .map(str::to_string)
}

/// A handler that waits for cancellation, then delivers a result anyway.
fn stubborn(ctx: RequestContext, responder: Responder) {
    let responder = responder.start_task();
    tokio::spawn(async move {
        ctx.cancel_flag().cancelled().await;
        responder.reply(Reply::text("finished anyway"));
    });
}

fn server(gate: &Gate, cfg: ServerConfig) -> Server {
    let g = gate.clone();
    Server::builder("tasks-fixture", "0.1.0")
        .config(cfg)
        .tool(
            json!({"name": "plain", "inputSchema": {"type": "object"}}),
            |_ctx, _| Reply::text("plain"),
        )
        .tool_async(task_tool("work", "optional"), move |_ctx| {
            let g = g.clone();
            async move {
                let _flag = DropFlag(g.dropped.clone());
                g.permits.acquire().await.expect("open").forget();
                Reply::text("done")
            }
        })
        .tool(task_tool("must", "required"), |_ctx, _| Reply::text("ran"))
        .tool(task_tool("ask_twice", "optional"), |ctx, _| {
            let answer = answered(ctx, "q");
            match (ctx.request_state(), answer) {
                (Some(first), Some(second)) if first != "none" => {
                    Reply::text(format!("{first} then {second}"))
                }
                (Some(_), Some(first)) => InputRequired::new()
                    .elicit("q", "And now?", name_form())
                    .with_state(first)
                    .into(),
                _ => InputRequired::new()
                    .elicit("q", "Name?", name_form())
                    .with_state("none")
                    .into(),
            }
        })
        .tool_handler(task_tool("stubborn", "optional"), Arc::new(stubborn))
        .build()
        .expect("valid fixture")
}

fn with_tasks(extra: Value) -> Value {
    modern_with(extra, json!({"elicitation": {}, "extensions": {EXT: {}}}))
}

fn server_info() -> Value {
    json!({"io.modelcontextprotocol/serverInfo": {"name": "tasks-fixture", "version": "0.1.0"}})
}

/// Calls a tool as a task and checks the exact CreateTaskResult; returns the task id.
async fn create(w: &mut Wire, id: i64, tool: &str) -> String {
    let r = w
        .request(
            json!(id),
            "tools/call",
            with_tasks(json!({"name": tool, "arguments": {}})),
        )
        .await;
    let result = &r["result"];
    let task_id = result["taskId"].as_str().expect("a taskId").to_string();
    assert_eq!(task_id.len(), 32, "128 random bits in hex: {task_id}");
    assert!(task_id.chars().all(|c| c.is_ascii_hexdigit()));
    let created = result["createdAt"].as_str().expect("createdAt");
    assert!(
        created.len() == 24 && created.ends_with('Z') && created.as_bytes()[10] == b'T',
        "ISO 8601 UTC: {created}"
    );
    assert_eq!(
        *result,
        json!({"resultType": "task", "taskId": task_id, "status": "working",
            "createdAt": created, "lastUpdatedAt": created, "ttlMs": 60_000, "pollIntervalMs": 50,
            "_meta": server_info()})
    );
    task_id
}

async fn get(w: &mut Wire, id: i64, task: &str) -> Value {
    w.request(json!(id), "tasks/get", with_tasks(json!({"taskId": task})))
        .await
}

/// Polls `tasks/get` until the task has `status`; returns the DetailedTask.
async fn wait_for(w: &mut Wire, first_id: i64, task: &str, status: &str) -> Value {
    for i in 0..250 {
        let r = get(w, first_id + i, task).await;
        if r["result"]["status"] == status {
            return r["result"].clone();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("task {task} never reached {status}");
}

/// The DetailedTask fields a status has besides the timestamps, as the server must send them.
fn detailed(task: &Value, status: &str, extra: Value) -> Value {
    let mut d = json!({"taskId": task["taskId"], "status": status, "createdAt": task["createdAt"],
        "lastUpdatedAt": task["lastUpdatedAt"], "ttlMs": 60_000, "pollIntervalMs": 50,
        "resultType": "complete", "_meta": server_info()});
    for (k, v) in extra.as_object().unwrap() {
        d[k] = v.clone();
    }
    d
}

#[tokio::test]
async fn discover_advertises_the_extension() {
    let mut w = Wire::start(server(&Gate::default(), config(60_000)), REV);
    let r = w
        .request(json!(1), "server/discover", modern(json!({})))
        .await;
    assert_eq!(r["result"]["capabilities"]["extensions"], json!({EXT: {}}));
    assert!(r["result"]["capabilities"].get("tasks").is_none());
    // 2026-07-28 has no Tool.execution: task support is not listed there.
    let r = w.request(json!(2), "tools/list", modern(json!({}))).await;
    let work = &r["result"]["tools"][1];
    assert_eq!(
        *work,
        json!({"name": "work", "inputSchema": {"type": "object"}})
    );
    w.finish().await;
}

#[tokio::test]
async fn a_task_runs_and_inlines_its_result() {
    let gate = Gate::default();
    let mut w = Wire::start(server(&gate, config(60_000)), REV);
    let task = create(&mut w, 1, "work").await;
    let working = get(&mut w, 2, &task).await;
    assert_eq!(
        working["result"],
        detailed(&working["result"], "working", json!({}))
    );
    gate.permits.add_permits(1);
    let done = wait_for(&mut w, 10, &task, "completed").await;
    assert_eq!(
        done,
        detailed(
            &done,
            "completed",
            json!({"result": {"content": [{"type": "text", "text": "done"}], "resultType": "complete",
                "_meta": server_info()}})
        )
    );
    w.finish().await;
}

#[tokio::test]
async fn clients_without_the_extension_get_no_tasks() {
    let mut w = Wire::start(server(&Gate::default(), config(60_000)), REV);
    let missing = json!({"code": -32021, "message": "Missing required client capability",
        "data": {"requiredCapabilities": {"extensions": {EXT: {}}}}});
    let r = w
        .request(
            json!(1),
            "tools/call",
            modern(json!({"name": "must", "arguments": {}})),
        )
        .await;
    assert_eq!(r["error"]["code"], missing["code"]);
    assert_eq!(r["error"]["data"], missing["data"]);
    for (i, method) in ["tasks/get", "tasks/cancel"].iter().enumerate() {
        let r = w
            .request(json!(10 + i), method, modern(json!({"taskId": "x"})))
            .await;
        assert_eq!(r["error"]["code"], -32021, "{method}");
        assert_eq!(r["error"]["data"], missing["data"], "{method}");
    }
    let r = w
        .request(
            json!(20),
            "subscriptions/listen",
            modern(json!({"notifications": {"taskIds": ["x"]}})),
        )
        .await;
    assert_eq!(r["error"]["code"], -32021);
    // A task-supporting tool falls back to running synchronously; so does `ask_twice`'s MRTR.
    let r = w
        .request(
            json!(30),
            "tools/call",
            modern(json!({"name": "ask_twice", "arguments": {}})),
        )
        .await;
    assert_eq!(r["result"]["resultType"], "input_required");
    w.finish().await;
}

#[tokio::test]
async fn unknown_ids_removed_methods_and_the_legacy_param() {
    let mut w = Wire::start(server(&Gate::default(), config(60_000)), REV);
    let r = get(&mut w, 1, "no-such-task").await;
    assert_eq!(
        r["error"],
        json!({"code": -32602, "message": "Invalid params: unknown or expired taskId \"no-such-task\""})
    );
    for (i, method) in ["tasks/update", "tasks/cancel"].iter().enumerate() {
        let r = w
            .request(
                json!(2 + i),
                method,
                with_tasks(json!({"taskId": "no-such-task", "inputResponses": {}})),
            )
            .await;
        assert_eq!(r["error"]["code"], -32602, "{method}");
    }
    for (i, method) in ["tasks/result", "tasks/list"].iter().enumerate() {
        let r = w
            .request(json!(5 + i), method, with_tasks(json!({"taskId": "x"})))
            .await;
        assert_eq!(r["error"]["code"], -32601, "{method}");
    }
    // A 2025-11-25 `task` param is ignored: the sync tool stays sync.
    let r = w
        .request(
            json!(8),
            "tools/call",
            with_tasks(json!({"name": "plain", "arguments": {}, "task": {"ttl": 1000}})),
        )
        .await;
    assert_eq!(
        r["result"],
        json!({"content": [{"type": "text", "text": "plain"}], "resultType": "complete", "_meta": server_info()})
    );
    let r = w
        .request(
            json!(9),
            "tasks/update",
            with_tasks(json!({"taskId": "x", "inputResponses": []})),
        )
        .await;
    assert_eq!(
        r["error"],
        json!({"code": -32602, "message": "Invalid params: inputResponses must be an object"})
    );
    w.finish().await;
}

#[tokio::test]
async fn input_rounds_inside_a_task_use_fresh_keys() {
    let mut w = Wire::start(server(&Gate::default(), config(60_000)), REV);
    let task = create(&mut w, 1, "ask_twice").await;
    let first = wait_for(&mut w, 10, &task, "input_required").await;
    let ask = |message: &str| {
        json!({"method": "elicitation/create", "params": {"mode": "form", "message": message,
            "requestedSchema": name_form()}})
    };
    assert_eq!(
        first,
        detailed(
            &first,
            "input_required",
            json!({"inputRequests": {"q-1": ask("Name?")}})
        )
    );
    // Unknown keys are ignored and acknowledged; the task keeps waiting.
    let ack = w
        .request(
            json!(300),
            "tasks/update",
            with_tasks(json!({"taskId": task, "inputResponses": {"stale": {"action": "cancel"}}})),
        )
        .await;
    assert_eq!(
        ack["result"],
        json!({"resultType": "complete", "_meta": server_info()})
    );
    assert_eq!(
        get(&mut w, 301, &task).await["result"]["status"],
        "input_required"
    );
    let answer = |name: &str| json!({"action": "accept", "content": {"name": name}});
    w.request(
        json!(302),
        "tasks/update",
        with_tasks(json!({"taskId": task, "inputResponses": {"q-1": answer("Ada")}})),
    )
    .await;
    let second = wait_for(&mut w, 400, &task, "input_required").await;
    // The second round asks under a key never used before in this task.
    assert_eq!(second["inputRequests"], json!({"q-2": ask("And now?")}));
    w.request(
        json!(700),
        "tasks/update",
        with_tasks(json!({"taskId": task, "inputResponses": {"q-2": answer("Grace")}})),
    )
    .await;
    let done = wait_for(&mut w, 800, &task, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "Ada then Grace");
    w.finish().await;
}

#[tokio::test]
async fn cancel_stops_the_handler_and_is_idempotent() {
    let gate = Gate::default();
    let mut w = Wire::start(server(&gate, config(60_000)), REV);
    let task = create(&mut w, 1, "work").await;
    let ack = w
        .request(
            json!(2),
            "tasks/cancel",
            with_tasks(json!({"taskId": task})),
        )
        .await;
    assert_eq!(
        ack["result"],
        json!({"resultType": "complete", "_meta": server_info()})
    );
    let cancelled = get(&mut w, 3, &task).await["result"].clone();
    assert_eq!(
        cancelled,
        detailed(
            &cancelled,
            "cancelled",
            json!({"statusMessage": "cancelled by the client"})
        )
    );
    for _ in 0..100 {
        if gate.dropped.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        gate.dropped.load(Ordering::SeqCst),
        "the handler saw the cancellation"
    );
    let again = w
        .request(
            json!(4),
            "tasks/cancel",
            with_tasks(json!({"taskId": task})),
        )
        .await;
    assert_eq!(again["result"], ack["result"]);
    w.finish().await;
}

#[tokio::test]
async fn cancellation_racing_completion_keeps_the_first_terminal_status() {
    let gate = Gate::default();
    let mut w = Wire::start(server(&gate, config(60_000)), REV);
    // Completion first: a later cancel changes nothing.
    let done = create(&mut w, 1, "work").await;
    gate.permits.add_permits(1);
    wait_for(&mut w, 10, &done, "completed").await;
    w.request(
        json!(300),
        "tasks/cancel",
        with_tasks(json!({"taskId": done})),
    )
    .await;
    let r = get(&mut w, 301, &done).await;
    assert_eq!(r["result"]["status"], "completed");
    assert_eq!(r["result"]["result"]["content"][0]["text"], "done");
    // Cancel first: the result the handler delivers afterwards is dropped.
    let task = create(&mut w, 400, "stubborn").await;
    w.request(
        json!(401),
        "tasks/cancel",
        with_tasks(json!({"taskId": task})),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let r = get(&mut w, 402, &task).await;
    assert_eq!(r["result"]["status"], "cancelled");
    assert!(r["result"].get("result").is_none());
    w.finish().await;
}

#[tokio::test]
async fn tasks_expire_after_their_ttl() {
    let gate = Gate::default();
    let mut w = Wire::start(server(&gate, config(150)), REV);
    let r = w
        .request(
            json!(1),
            "tools/call",
            with_tasks(json!({"name": "work", "arguments": {}})),
        )
        .await;
    assert_eq!(r["result"]["ttlMs"], 150);
    let task = r["result"]["taskId"].as_str().unwrap().to_string();
    assert_eq!(get(&mut w, 2, &task).await["result"]["status"], "working");
    tokio::time::sleep(Duration::from_millis(250)).await;
    let r = get(&mut w, 3, &task).await;
    assert_eq!(r["error"]["code"], -32602);
    w.finish().await;
}

#[tokio::test]
async fn listen_streams_carry_status_notifications() {
    let gate = Gate::default();
    let mut w = Wire::start(server(&gate, config(60_000)), REV);
    let task = create(&mut w, 1, "work").await;
    w.send(
        json!({"jsonrpc": "2.0", "id": "L", "method": "subscriptions/listen",
        "params": with_tasks(json!({"notifications": {"taskIds": [task]}}))}),
    )
    .await;
    let ack = w.recv().await;
    assert_eq!(
        ack,
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": "L"},
                "notifications": {"taskIds": [task]}}})
    );
    gate.permits.add_permits(1);
    let n = w.recv().await;
    let p = &n["params"];
    assert_eq!(n["method"], "notifications/tasks");
    assert_eq!(
        *p,
        json!({"taskId": task, "status": "completed", "createdAt": p["createdAt"],
            "lastUpdatedAt": p["lastUpdatedAt"], "ttlMs": 60_000, "pollIntervalMs": 50,
            "result": {"content": [{"type": "text", "text": "done"}], "resultType": "complete", "_meta": server_info()},
            "_meta": {"io.modelcontextprotocol/subscriptionId": "L"}})
    );
    w.finish().await;
}

#[tokio::test]
async fn a_result_is_fetched_after_the_connection_that_created_it_closed() {
    let gate = Gate::default();
    let server = server(&gate, config(60_000));
    let mut first = Wire::start(server.clone(), REV);
    let task = create(&mut first, 1, "work").await;
    first.finish().await;
    gate.permits.add_permits(1);
    let mut second = Wire::start(server, REV);
    let done = wait_for(&mut second, 1, &task, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "done");
    second.finish().await;
}

#[test]
fn the_tasks_schema_check_can_fail() {
    let tasks = support::wire::tasks_schema();
    // The 2025-11-25 nesting and a missing ttlMs are not the extension's CreateTaskResult.
    let nested = json!({"resultType": "task", "task": {"taskId": "t", "status": "working"}});
    assert!(tasks.validate("CreateTaskResult", &nested).is_err());
    let no_ttl = json!({"resultType": "task", "taskId": "t", "status": "working",
        "createdAt": "2026-07-28T00:00:00.000Z", "lastUpdatedAt": "2026-07-28T00:00:00.000Z"});
    assert!(tasks.validate("CreateTaskResult", &no_ttl).is_err());
}

const LEGACY: &str = "2025-11-25";

async fn legacy_session(gate: &Gate) -> Wire {
    let mut w = Wire::start(server(gate, config(60_000)), LEGACY);
    let r = w
        .request(
            json!(0),
            "initialize",
            json!({"protocolVersion": LEGACY, "capabilities": {"elicitation": {}},
                "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    assert_eq!(
        r["result"]["capabilities"]["tasks"],
        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}})
    );
    w.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    let r = w.request(json!(-1), "tools/list", json!({})).await;
    assert_eq!(r["result"]["tools"][1], task_tool("work", "optional"));
    w
}

#[tokio::test]
async fn legacy_tasks_create_notify_wait_and_list() {
    let gate = Gate::default();
    let mut w = legacy_session(&gate).await;
    let r = w
        .request(
            json!(1),
            "tools/call",
            json!({"name": "work", "arguments": {}, "task": {"ttl": 30_000}}),
        )
        .await;
    let task = r["result"]["task"].clone();
    let id = task["taskId"].as_str().unwrap().to_string();
    assert_eq!(
        r["result"],
        json!({"task": {"taskId": id, "status": "working", "createdAt": task["createdAt"],
            "lastUpdatedAt": task["createdAt"], "ttl": 30_000, "pollInterval": 50}})
    );
    let got = w
        .request(json!(2), "tasks/get", json!({"taskId": id}))
        .await;
    assert_eq!(got["result"], task);
    // tasks/result waits for the end.
    w.send(json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/result", "params": {"taskId": id}}))
        .await;
    w.expect_silence(100).await;
    gate.permits.add_permits(1);
    let status = w.recv().await;
    assert_eq!(status["method"], "notifications/tasks/status");
    assert_eq!(status["params"]["taskId"], id);
    assert_eq!(status["params"]["status"], "completed");
    let result = w.response_to(&json!(3)).await;
    assert_eq!(
        result["result"],
        json!({"content": [{"type": "text", "text": "done"}],
            "_meta": {"io.modelcontextprotocol/related-task": {"taskId": id}}})
    );
    let list = w.request(json!(4), "tasks/list", json!({})).await;
    assert_eq!(list["result"]["tasks"].as_array().unwrap().len(), 1);
    assert_eq!(list["result"]["tasks"][0]["status"], "completed");
    let cancel = w
        .request(json!(5), "tasks/cancel", json!({"taskId": id}))
        .await;
    assert_eq!(cancel["result"]["status"], "completed");
    // A required tool without params.task is refused; with it, it runs as a task.
    let r = w
        .request(
            json!(6),
            "tools/call",
            json!({"name": "must", "arguments": {}}),
        )
        .await;
    assert_eq!(r["error"]["code"], -32601);
    let r = w
        .request(
            json!(7),
            "tools/call",
            json!({"name": "must", "arguments": {}, "task": {}}),
        )
        .await;
    assert_eq!(r["result"]["task"]["ttl"], 60_000);
    w.finish().await;
}

#[tokio::test]
async fn legacy_task_input_is_asked_with_requests_naming_the_task() {
    let mut w = legacy_session(&Gate::default()).await;
    let r = w
        .request(
            json!(1),
            "tools/call",
            json!({"name": "ask_twice", "arguments": {}, "task": {}}),
        )
        .await;
    let id = r["result"]["task"]["taskId"].clone();
    for (round, name) in ["Ada", "Grace"].iter().enumerate() {
        let status = w.recv().await;
        assert_eq!(status["method"], "notifications/tasks/status");
        assert_eq!(status["params"]["status"], "input_required");
        let ask = w.recv().await;
        assert_eq!(ask["method"], "elicitation/create", "round {round}");
        assert_eq!(
            ask["params"]["_meta"],
            json!({"io.modelcontextprotocol/related-task": {"taskId": id}})
        );
        w.send(json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"name": name}}}))
            .await;
    }
    let status = w.recv().await;
    assert_eq!(status["params"]["status"], "completed");
    let r = w
        .request(json!(2), "tasks/result", json!({"taskId": id}))
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "Ada then Grace");
    w.finish().await;
}

#[tokio::test]
async fn a_legacy_task_whose_input_request_fails_is_failed_not_answered_twice() {
    let mut w = legacy_session(&Gate::default()).await;
    let r = w
        .request(
            json!(1),
            "tools/call",
            json!({"name": "ask_twice", "arguments": {}, "task": {}}),
        )
        .await;
    let id = r["result"]["task"]["taskId"].clone();
    let status = w.recv().await;
    assert_eq!(status["params"]["status"], "input_required");
    let ask = w.recv().await;
    assert_eq!(ask["method"], "elicitation/create");
    w.send(json!({"jsonrpc": "2.0", "id": ask["id"],
        "error": {"code": -32603, "message": "no user here"}}))
        .await;
    // The request was answered with its CreateTaskResult: the failure goes to the task, and
    // nothing else is sent for id 1.
    let status = w.recv().await;
    assert_eq!(status["method"], "notifications/tasks/status");
    assert_eq!(status["params"]["status"], "failed");
    assert_eq!(
        status["params"]["statusMessage"],
        "Internal error: the client failed elicitation/create: no user here"
    );
    let r = w
        .request(json!(2), "tasks/result", json!({"taskId": id}))
        .await;
    assert_eq!(r["error"]["code"], -32603, "{r}");
    assert_eq!(
        r["error"]["message"],
        "Internal error: the client failed elicitation/create: no user here"
    );
    w.expect_silence(100).await;
    w.finish().await;
}

#[tokio::test]
async fn tasks_belong_to_the_principal_that_created_them() {
    use libmcp::auth::AuthInfo;
    use libmcp::jsonrpc::parse_message;
    use libmcp::outgoing::Sink;

    let server = server(&Gate::default(), config(60_000));
    let (sink, mut out) = Sink::channel();
    let session = server.stateless_session(sink.clone());
    let alice = Arc::new(AuthInfo::new().subject("alice").client_id("app"));
    let mallory = Arc::new(AuthInfo::new().subject("mallory").client_id("app"));
    let send = |id: i64, method: &str, params: Value, who: &Arc<AuthInfo>| {
        let msg =
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": with_tasks(params)});
        let msg = parse_message(msg.to_string().as_bytes()).unwrap();
        session.handle_message_as(msg, sink.clone(), Some(who.clone()));
    };
    let mut next = async || -> Value {
        let m = tokio::time::timeout(Duration::from_secs(5), out.recv())
            .await
            .unwrap()
            .unwrap();
        serde_json::from_slice(&m.bytes).unwrap()
    };
    send(
        1,
        "tools/call",
        json!({"name": "work", "arguments": {}}),
        &alice,
    );
    let created = next().await;
    let id = created["result"]["taskId"].as_str().unwrap().to_string();
    for (i, method) in ["tasks/get", "tasks/cancel"].iter().enumerate() {
        send(10 + i as i64, method, json!({"taskId": id}), &mallory);
        let r = next().await;
        assert_eq!(
            r["error"],
            json!({"code": -32602, "message": format!("Invalid params: unknown or expired taskId {id:?}")}),
            "{method} by another principal"
        );
    }
    send(20, "tasks/get", json!({"taskId": id}), &alice);
    assert_eq!(next().await["result"]["status"], "working");
}
