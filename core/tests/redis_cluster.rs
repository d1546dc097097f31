//! Several libmcp instances on shared Redis stores, behind a round-robin proxy: a legacy session
//! continued on every instance, an SSE stream resumed on another instance without losing an event,
//! an MRTR round sealed on one instance and completed on another, concurrent session updates that
//! lose nothing, bounded event logs with TTLs, shared tasks, a Redis restart survived, and instances
//! started while Redis is down serving what needs no store and catching up once it is back.
//! Needs `REDIS_URL` (scripts/test.d/60-redis.sh starts a Redis server and sets it).

mod http_raw;
mod redis_group;

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::time::Duration;

use bytes::Bytes;
use http_raw::{call, error_of, open, read_until, send, session};
use hyper::Method;
use libmcp::model::logging::LoggingLevel;
use libmcp::server::{Change, InputRequired, Reply, Server, ServerBuilder};
use libmcp::store::redis::RedisStore;
use libmcp::transport::OutKind;
use libmcp::transport::http::{EventStore, ReplayError, SessionRecord, SessionStore, StoredEvent};
use redis_group::{OwnRedis, instances, options, proxy, redis_url, servers};
use serde_json::{Value, json};

const V26: &str = "2026-07-28";

fn builder() -> ServerBuilder {
    let obj = json!({"type": "object"});
    Server::builder("redis-test", "1.0.0")
        .tool(json!({"name": "echo", "inputSchema": obj}), |_, _| {
            Reply::text("echoed")
        })
        .tool_async(
            json!({"name": "logs", "inputSchema": obj}),
            |ctx| async move {
                for level in [LoggingLevel::Debug, LoggingLevel::Warning] {
                    ctx.log(level, None, json!(level.as_str()));
                }
                Reply::text("logged")
            },
        )
        .tool_async(
            json!({"name": "steps", "inputSchema": obj}),
            |ctx| async move {
                for i in 1..=5 {
                    ctx.notify_progress(f64::from(i), Some(5.0), None);
                }
                Reply::text("done")
            },
        )
        .tool(json!({"name": "ask", "inputSchema": obj}), |ctx, _| {
            let name = ctx
                .input_response("user_name")
                .and_then(|r| r["content"]["name"].as_str());
            match (name, ctx.request_state()) {
                (Some(n), Some("asked")) => Reply::text(format!("Hello, {n}!")),
                _ => InputRequired::new()
                    .elicit(
                        "user_name",
                        "What is your name?",
                        json!({"type": "object", "properties": {"name": {"type": "string"}}}),
                    )
                    .with_state("asked")
                    .into(),
            }
        })
}

async fn post(addr: SocketAddr, sid: &str, body: Value) -> (u16, String) {
    send(addr, Method::POST, &[("mcp-session-id", sid)], Some(body)).await
}

/// The (id, data) of each SSE event with data.
fn events(body: &str) -> Vec<(String, String)> {
    body.split("\n\n")
        .filter_map(|e| {
            let id = e.lines().find_map(|l| l.strip_prefix("id: "))?;
            let data = e.lines().find_map(|l| l.strip_prefix("data: "))?;
            (!data.is_empty()).then(|| (id.to_owned(), data.to_owned()))
        })
        .collect()
}

fn log_levels(body: &str) -> Vec<String> {
    events(body)
        .iter()
        .map(|(_, d)| serde_json::from_str::<Value>(d).unwrap())
        .filter(|m| m["method"] == "notifications/message")
        .map(|m| m["params"]["level"].as_str().unwrap().to_owned())
        .collect()
}

async fn modern(addr: SocketAddr, id: i64, params: Value) -> (u16, Value) {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": V26,
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "redis-test", "version": "1"},
    });
    let name = params["name"].as_str().unwrap_or_default().to_owned();
    let headers = [
        ("mcp-protocol-version", V26),
        ("mcp-method", "tools/call"),
        ("mcp-name", name.as_str()),
    ];
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
    let (status, text) = send(addr, Method::POST, &headers, Some(body)).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_legacy_session_opened_on_one_instance_is_continued_on_the_others() {
    let Some(url) = redis_url() else { return };
    let redis = RedisStore::connect(&url, options()).unwrap();
    let group = instances(&redis, 3, builder).await;
    let p = proxy(group.iter().map(|h| h.local_addr()).collect()).await;

    // initialize on the first instance, initialized on the second.
    let sid = session(p.addr, "2025-06-18").await;
    // Calls land on the third, first, second ...
    for id in 1..=3 {
        let (status, body) = post(p.addr, &sid, call(id, "echo", json!({}))).await;
        assert_eq!(status, 200, "{body}");
        assert!(body.contains("echoed"), "{body}");
    }
    // The level set on one instance filters the logs another sends.
    let set = json!({"jsonrpc": "2.0", "id": 9, "method": "logging/setLevel", "params": {"level": "warning"}});
    assert_eq!(post(p.addr, &sid, set).await.0, 200);
    for id in 10..13 {
        let (status, body) = post(p.addr, &sid, call(id, "logs", json!({}))).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(log_levels(&body), ["warning"], "{body}");
    }
    assert!(
        p.counts.iter().all(|c| c.load(Ordering::Relaxed) >= 3),
        "every instance served the session"
    );
    // DELETE on one ends it on all.
    let h = [("mcp-session-id", sid.as_str())];
    assert_eq!(send(p.addr, Method::DELETE, &h, None).await.0, 200);
    for id in 20..23 {
        let (status, body) = post(p.addr, &sid, call(id, "echo", json!({}))).await;
        assert_eq!(status, 404, "{body}");
    }
}

#[tokio::test]
async fn an_sse_stream_resumes_on_another_instance_without_losing_an_event() {
    let Some(url) = redis_url() else { return };
    let redis = RedisStore::connect(&url, options()).unwrap();
    let group = instances(&redis, 3, builder).await;
    let (a, b, c) = (
        group[0].local_addr(),
        group[1].local_addr(),
        group[2].local_addr(),
    );

    let sid = session(a, "2025-11-25").await;
    let (status, body) = post(a, &sid, call(1, "steps", json!({"progressToken": "p"}))).await;
    assert_eq!(status, 200);
    let sent = events(&body);
    assert_eq!(
        sent.len(),
        6,
        "five progress notifications and the result: {body}"
    );
    // The client saw only the first two events, then lost the stream; it resumes elsewhere.
    for (resume_on, seen) in [(b, 2), (c, 0), (b, 5)] {
        let h = [
            ("mcp-session-id", sid.as_str()),
            ("last-event-id", sent[seen.max(1) - 1].0.as_str()),
        ];
        let (status, replay) = send(resume_on, Method::GET, &h, None).await;
        assert_eq!(status, 200, "{replay}");
        let skip = seen.max(1);
        assert_eq!(events(&replay), sent[skip..], "resumed after event {skip}");
    }
}

#[tokio::test]
async fn a_sealed_request_state_completes_on_another_instance() {
    let Some(url) = redis_url() else { return };
    let redis = RedisStore::connect(&url, options()).unwrap();
    let group = instances(&redis, 2, builder).await;
    let (status, first) = modern(
        group[0].local_addr(),
        1,
        json!({"name": "ask", "arguments": {}}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let state = first["result"]["requestState"].clone();
    let answer = json!({"user_name": {"action": "accept", "content": {"name": "Ada"}}});
    let retry =
        json!({"name": "ask", "arguments": {}, "inputResponses": answer, "requestState": state});
    let (status, done) = modern(group[1].local_addr(), 2, retry).await;
    assert_eq!(status, 200);
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Ada!",
        "{done}"
    );
    // A server with a key of its own refuses the token.
    let alone = builder().build().unwrap();
    let config =
        libmcp::transport::http::HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap());
    let other = libmcp::transport::http::serve_http(alone, config)
        .await
        .unwrap();
    let retry =
        json!({"name": "ask", "arguments": {}, "inputResponses": answer, "requestState": state});
    let (_, refused) = modern(other.local_addr(), 3, retry).await;
    assert!(refused.to_string().contains("requestState"), "{refused}");
}

#[tokio::test]
async fn a_list_change_on_one_instance_reaches_the_listeners_of_every_instance() {
    let Some(url) = redis_url() else { return };
    let redis = RedisStore::connect(&url, options()).unwrap();
    let group = servers(&redis, 3, builder).await;
    // A legacy session on each instance, each with its standalone GET stream open.
    let mut streams = Vec::new();
    for (h, _) in &group {
        let sid = session(h.local_addr(), "2025-06-18").await;
        let r = open(
            h.local_addr(),
            Method::GET,
            &[("mcp-session-id", sid.as_str())],
            None,
        )
        .await;
        assert_eq!(r.status(), 200);
        streams.push(r.into_body());
    }
    // A tool added on the second instance, a resource list change announced on the third.
    let obj = json!({"type": "object"});
    group[1]
        .1
        .add_tool(
            json!({"name": "late", "inputSchema": obj}),
            libmcp::server::sync_handler(|_| Reply::text("late")),
        )
        .unwrap();
    group[2].1.notify(Change::Resources);
    for body in &mut streams {
        let mut buf = String::new();
        read_until(body, &mut buf, "notifications/tools/list_changed").await;
        read_until(body, &mut buf, "notifications/resources/list_changed").await;
        assert_eq!(
            buf.matches("list_changed").count(),
            2,
            "each change once: {buf}"
        );
    }
}

/// Opens a legacy session whose client can answer elicitation requests.
async fn eliciting_session(addr: SocketAddr) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "raw", "version": "1"}}});
    let r = open(addr, Method::POST, &[], Some(init)).await;
    assert_eq!(r.status(), 200);
    let id = r.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(post(addr, &id, done).await.0, 202);
    id
}

#[tokio::test]
async fn an_elicitation_sent_by_one_instance_is_answered_through_another() {
    let Some(url) = redis_url() else { return };
    let redis = RedisStore::connect(&url, options()).unwrap();
    let group = servers(&redis, 3, builder).await;
    let (a, b, c) = (
        group[0].0.local_addr(),
        group[1].0.local_addr(),
        group[2].0.local_addr(),
    );
    let sid = eliciting_session(a).await;
    // The session is served on C first, so the request below comes from an instance that
    // rehydrated it, and the answer goes through the two others.
    assert_eq!(post(c, &sid, call(1, "echo", json!({}))).await.0, 200);
    for (asker, answerer, id) in [(c, b, 2), (a, b, 3), (b, a, 4)] {
        let h = [("mcp-session-id", sid.as_str())];
        let r = open(asker, Method::POST, &h, Some(call(id, "ask", json!({})))).await;
        assert_eq!(r.status(), 200);
        let mut body = r.into_body();
        let mut buf = String::new();
        read_until(&mut body, &mut buf, "elicitation/create").await;
        let request: Value = events(&buf)
            .iter()
            .map(|(_, d)| serde_json::from_str::<Value>(d).unwrap())
            .find(|m| m["method"] == "elicitation/create")
            .unwrap();
        let answer = json!({"jsonrpc": "2.0", "id": request["id"],
            "result": {"action": "accept", "content": {"name": format!("Ada{id}")}}});
        assert_eq!(post(answerer, &sid, answer).await.0, 202);
        read_until(&mut body, &mut buf, &format!("Hello, Ada{id}!")).await;
    }
}

fn record(id: &str, subscriptions: &[&str]) -> SessionRecord {
    SessionRecord {
        id: id.into(),
        protocol_version: "2025-06-18".into(),
        client_capabilities: json!({}),
        client_info: None,
        initialized: true,
        log_level: None,
        subscriptions: subscriptions.iter().map(|s| (*s).to_owned()).collect(),
        principal: None,
        event_tag: "abcd".into(),
        created_ms: 1,
        last_seen_ms: u64::try_from(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_millis(),
        )
        .unwrap(),
    }
}

#[tokio::test]
async fn concurrent_updates_of_one_session_from_two_instances_lose_no_write() {
    let Some(url) = redis_url() else { return };
    let o = options();
    let (ra, rb) = (
        RedisStore::connect(&url, o.clone()).unwrap(),
        RedisStore::connect(&url, o).unwrap(),
    );
    let idle = Duration::from_secs(60);
    let (a, b) = (ra.session_store(idle), rb.session_store(idle));
    let base = record("s1", &["file:///base"]);
    a.save(&base).await.unwrap();
    // Twenty changes from each side at once, each from the same stale base.
    let side = |store: std::sync::Arc<libmcp::store::redis::RedisSessionStore>,
                tag: &'static str| {
        let base = base.clone();
        tokio::spawn(async move {
            for i in 0..20 {
                let uri = format!("file:///{tag}{i}");
                let ours = record("s1", &["file:///base", &uri]);
                store.update(&base, &ours).await.unwrap();
            }
        })
    };
    let (x, y) = (side(a.clone(), "a"), side(b.clone(), "b"));
    x.await.unwrap();
    y.await.unwrap();
    let stored = a.load("s1").await.unwrap().unwrap();
    assert_eq!(stored.subscriptions.len(), 41, "{:?}", stored.subscriptions);
    // An unsubscribe from the base is kept too.
    let none = record("s1", &[]);
    let merged = b.update(&base, &none).await.unwrap();
    assert!(!merged.subscriptions.contains(&"file:///base".to_owned()));
    assert_eq!(merged.subscriptions.len(), 40);
    assert_eq!(a.remove("s1").await, Ok(true));
    // A deleted session is not brought back by a late update.
    b.update(&base, &none).await.unwrap();
    assert_eq!(a.load("s1").await, Ok(None));
}

fn ev(stream: u64, seq: u64) -> StoredEvent {
    StoredEvent {
        stream,
        seq,
        kind: OutKind::Notification,
        data: Bytes::from(format!("{{\"n\":{seq}}}")),
    }
}

/// Replays `stream` from a store that records asynchronously, until the `last` event is in.
async fn replay_through(
    s: &dyn EventStore,
    session: &str,
    stream: u64,
    after: u64,
    last: u64,
) -> Result<Vec<StoredEvent>, ReplayError> {
    loop {
        let r = s.replay_shared(session, stream, after).await;
        match &r {
            Ok(v) if v.last().is_some_and(|e| e.seq < last) => tokio::task::yield_now().await,
            _ => return r,
        }
    }
}

#[tokio::test]
async fn event_logs_are_bounded_expire_and_replay_from_any_instance() {
    let Some(url) = redis_url() else { return };
    let mut o = options();
    o.max_events_per_session = 10;
    let prefix = o.prefix.clone();
    let (ra, rb) = (
        RedisStore::connect(&url, o.clone()).unwrap(),
        RedisStore::connect(&url, o).unwrap(),
    );
    let idle = Duration::from_secs(60);
    let (a, b) = (ra.event_store(idle), rb.event_store(idle));
    for seq in 1..=25 {
        a.append("s", ev(7, seq));
    }
    let got = replay_through(&*b, "s", 7, 20, 25).await.unwrap();
    assert_eq!(
        got.iter().map(|e| e.seq).collect::<Vec<_>>(),
        [21, 22, 23, 24, 25]
    );
    assert_eq!(got[0].data, Bytes::from_static(b"{\"n\":21}"));
    assert_eq!(b.replay_shared("s", 7, 3).await, Err(ReplayError::Evicted));
    assert_eq!(b.replay_shared("s", 7, 15).await.unwrap().len(), 10);
    assert_eq!(b.replay_shared("s", 8, 0).await, Ok(Vec::new()));
    let mut conn = redis::Client::open(url.as_str())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let log = format!("{prefix}events:s");
    let len: i64 = redis::cmd("LLEN")
        .arg(&log)
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(len, 10, "at most max_events_per_session are kept");
    let ttl: i64 = redis::cmd("PTTL")
        .arg(&log)
        .query_async(&mut conn)
        .await
        .unwrap();
    assert!(ttl > 60_000 && ttl <= 60_000 + 7_500 + 60_000, "ttl {ttl}");
    // A gap (an append that never reached Redis) reads as evicted, never as silently missing.
    a.append("s", ev(9, 1));
    a.append("s", ev(9, 3));
    replay_through(&*b, "s", 9, 2, 3).await.ok();
    assert_eq!(b.replay_shared("s", 9, 1).await, Err(ReplayError::Evicted));
    a.remove_session("s");
    loop {
        let n: i64 = redis::cmd("EXISTS")
            .arg(&log)
            .query_async(&mut conn)
            .await
            .unwrap();
        if n == 0 {
            break;
        }
        tokio::task::yield_now().await;
    }
}

#[tokio::test]
async fn tasks_are_shared_bounded_and_expire() {
    use libmcp::server::tasks::{TaskRecord, TaskStatus, TaskStore, TaskStoreError};
    let Some(url) = redis_url() else { return };
    let mut o = options();
    o.max_tasks = 2;
    let (ra, rb) = (
        RedisStore::connect(&url, o.clone()).unwrap(),
        RedisStore::connect(&url, o).unwrap(),
    );
    let (a, b) = (ra.task_store(), rb.task_store());
    let now = u64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap();
    let task = |id: &str, created_ms: u64, ttl_ms: u64| TaskRecord {
        id: id.into(),
        status: TaskStatus::Working,
        status_message: None,
        method: "tools/call".into(),
        created_ms,
        updated_ms: created_ms,
        ttl_ms: Some(ttl_ms),
        poll_interval_ms: None,
        input_requests: Default::default(),
        result: None,
        error: None,
        owner: None,
        legacy: false,
    };
    a.create(task("t1", now, 60_000)).await.unwrap();
    a.create(task("t2", now + 1, 60_000)).await.unwrap();
    assert_eq!(
        b.create(task("t3", now, 60_000)).await,
        Err(TaskStoreError::Full(2))
    );
    let mut done = task("t1", now, 60_000);
    done.status = TaskStatus::Completed;
    done.result = Some(json!({"content": []}));
    b.put(done.clone()).await.unwrap();
    assert_eq!(a.get("t1").await.unwrap(), Some(done));
    let ids: Vec<String> = b.list().await.unwrap().into_iter().map(|t| t.id).collect();
    assert_eq!(ids, ["t1", "t2"]);
    // An expired record is never returned, and frees its place.
    let old = task("t0", now - 10_000, 5_000);
    assert_eq!(a.get("t0").await.unwrap(), None);
    b.put(old).await.unwrap();
    assert_eq!(a.get("t0").await.unwrap(), None);
}

#[tokio::test]
async fn a_redis_restart_mid_run_is_answered_503_and_then_survived() {
    if redis_url().is_none() {
        return;
    }
    let mut own = OwnRedis::start();
    let redis = RedisStore::connect(&own.url(), options()).unwrap();
    let group = instances(&redis, 2, builder).await;
    let p = proxy(group.iter().map(|h| h.local_addr()).collect()).await;
    let sid = session(p.addr, "2025-06-18").await;
    assert_eq!(post(p.addr, &sid, call(1, "echo", json!({}))).await.0, 200);

    own.down();
    for id in 2..6 {
        let (status, body) = post(p.addr, &sid, call(id, "echo", json!({}))).await;
        assert_eq!(status, 503, "{body}");
        let (code, message) = error_of(&body);
        assert_eq!(code, -32603, "{body}");
        assert!(message.contains("unavailable"), "{message}");
    }
    // The stateless wire does not need Redis.
    let (status, answer) = modern(p.addr, 7, json!({"name": "echo", "arguments": {}})).await;
    assert_eq!(status, 200, "{answer}");

    own.up();
    // The connection comes back in the background; the session (on disk in Redis) is served again.
    let mut id = 100;
    loop {
        id += 1;
        let (status, body) = post(p.addr, &sid, call(id, "echo", json!({}))).await;
        if status == 200 {
            assert!(body.contains("echoed"), "{body}");
            break;
        }
        assert_eq!(status, 503, "{body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for id in 200..204 {
        assert_eq!(post(p.addr, &sid, call(id, "echo", json!({}))).await.0, 200);
    }
    assert!(session(p.addr, "2025-11-25").await.len() == 64);
}

/// Retries `attempt` every 50 ms until it gives a value, for at most 20 s.
async fn eventually<T, F: std::future::Future<Output = Option<T>>>(
    what: &str,
    mut attempt: impl FnMut() -> F,
) -> T {
    for _ in 0..400 {
        if let Some(v) = attempt().await {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{what}: not within 20 s of Redis coming back");
}

#[tokio::test]
async fn instances_started_while_redis_is_down_serve_what_needs_no_store_and_catch_up() {
    if redis_url().is_none() {
        return;
    }
    let mut own = OwnRedis::start();
    own.down();
    let redis = RedisStore::connect(&own.url(), options()).unwrap();
    // Starting needs no Redis: the key ring, the change fan-out and the relay wait for it.
    let group = servers(&redis, 2, builder).await;
    let (a, b) = (group[0].0.local_addr(), group[1].0.local_addr());

    // The stateless wire is served.
    let (status, answer) = modern(a, 1, json!({"name": "echo", "arguments": {}})).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "echoed", "{answer}");
    // An answer that must seal a requestState with the shared keys is refused, saying why.
    let (status, refused) = modern(a, 2, json!({"name": "ask", "arguments": {}})).await;
    assert_eq!(status, 200, "{refused}");
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    let why = refused["error"]["message"].as_str().unwrap();
    assert!(why.contains("shared key ring cannot be reached"), "{why}");
    // A legacy session needs the session store: 503 with the JSON-RPC error.
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}});
    let (status, body) = send(a, Method::POST, &[], Some(init.clone())).await;
    assert_eq!(status, 503, "{body}");
    let (code, message) = error_of(&body);
    assert_eq!(code, -32603, "{body}");
    assert!(message.contains("unavailable"), "{message}");

    own.up();
    // Sessions, in the background-reconnected store.
    eventually("a legacy session", || {
        let init = init.clone();
        async move {
            let (status, _) = send(a, Method::POST, &[], Some(init)).await;
            (status == 200).then_some(())
        }
    })
    .await;
    // The key ring, read by both instances: sealed on one, opened on the other.
    let answer = json!({"user_name": {"action": "accept", "content": {"name": "Ada"}}});
    let done = eventually(
        "a requestState sealed on one instance and opened on the other",
        || {
            let answer = answer.clone();
            async move {
                let (_, first) = modern(a, 3, json!({"name": "ask", "arguments": {}})).await;
                let state = first["result"]["requestState"].clone();
                if !state.is_string() {
                    return None;
                }
                let retry = json!({"name": "ask", "arguments": {},
                               "inputResponses": answer, "requestState": state});
                let (_, done) = modern(b, 4, retry).await;
                done["result"].is_object().then_some(done)
            }
        },
    )
    .await;
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Ada!",
        "{done}"
    );
    // The change fan-out, subscribed once Redis answered: a tool added on one instance reaches a
    // listener of the other.
    let sid = session(b, "2025-06-18").await;
    let r = open(b, Method::GET, &[("mcp-session-id", sid.as_str())], None).await;
    assert_eq!(r.status(), 200);
    let mut stream = r.into_body();
    let obj = json!({"type": "object"});
    let mut buf = String::new();
    for i in 0.. {
        group[0]
            .1
            .add_tool(
                json!({"name": format!("late{i}"), "inputSchema": obj}),
                libmcp::server::sync_handler(|_| Reply::text("late")),
            )
            .unwrap();
        let seen = tokio::time::timeout(
            Duration::from_millis(500),
            read_until(&mut stream, &mut buf, "notifications/tools/list_changed"),
        )
        .await;
        if seen.is_ok() {
            break;
        }
        assert!(i < 40, "no list change reached the other instance: {buf}");
    }
}

#[tokio::test]
async fn a_redis_that_never_answers_does_not_hold_the_set_up() {
    // Accepts connections (the kernel's backlog) and never answers a command.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("redis://{}/0", silent.local_addr().unwrap());
    let redis = RedisStore::connect(&url, options()).unwrap();
    let started = std::time::Instant::now();
    let group = tokio::time::timeout(Duration::from_secs(20), servers(&redis, 1, builder))
        .await
        .expect("set-up bounded by the store's timeout");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let (status, answer) = modern(
        group[0].0.local_addr(),
        1,
        json!({"name": "echo", "arguments": {}}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    drop(silent);
}
