//! Resumable SSE streams of legacy Streamable HTTP sessions on a real socket: the exact framing
//! (event ids, priming event, `retry:`), resumption with `Last-Event-ID` after the server closed a
//! stream (SEP-1699 polling) or the client lost it, refused ids, the bounded event store, and the
//! session table's limits.

mod http_raw;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::BodyExt;
use http_raw::{call, error_of, open, read_until, send, session, text};
use hyper::Method;
use libmcp::server::{Reply, Server};
use libmcp::transport::http::{
    EventStore, HttpServerConfig, HttpServerHandle, MemoryEventStore, serve_http,
};
use serde_json::{Value, json};
use tokio::sync::Notify;

const RETRY_MS: u64 = 1500;

struct Fixture {
    handle: HttpServerHandle,
    server: Server,
    store: Arc<MemoryEventStore>,
    /// Lets the `slow` tool finish.
    go: Arc<Notify>,
}

impl Fixture {
    fn addr(&self) -> SocketAddr {
        self.handle.local_addr()
    }
}

fn server(go: Arc<Notify>) -> Server {
    let obj = json!({"type": "object"});
    Server::builder("resume-test", "1.0.0")
        .tool_async(
            json!({"name": "steps", "inputSchema": obj}),
            |ctx| async move {
                ctx.notify_progress(1.0, Some(2.0), None);
                ctx.notify_progress(2.0, Some(2.0), None);
                Reply::text("done")
            },
        )
        .tool_async(
            json!({"name": "poll", "inputSchema": obj}),
            |ctx| async move {
                ctx.notify_progress(1.0, None, None);
                let closed = ctx.close_stream();
                ctx.notify_progress(2.0, None, None);
                tokio::time::sleep(Duration::from_millis(50)).await;
                ctx.notify_progress(3.0, None, None);
                Reply::text(format!("closed={closed}"))
            },
        )
        .tool_async(json!({"name": "slow", "inputSchema": obj}), move |ctx| {
            let go = go.clone();
            async move {
                ctx.notify_progress(1.0, None, None);
                go.notified().await;
                ctx.notify_progress(2.0, None, None);
                Reply::text("slow done")
            }
        })
        .tool_async(
            json!({"name": "many", "inputSchema": obj}),
            |ctx| async move {
                ctx.close_stream();
                for p in 1..=5 {
                    ctx.notify_progress(f64::from(p), None, None);
                }
                Reply::text("many done")
            },
        )
        .build()
        .unwrap()
}

async fn start_with(mut config: HttpServerConfig, store: MemoryEventStore) -> Fixture {
    let store = Arc::new(store);
    config.bind = "127.0.0.1:0".parse().unwrap();
    config.sse_retry = Duration::from_millis(RETRY_MS);
    config.event_store = store.clone() as Arc<dyn EventStore>;
    let go = Arc::new(Notify::new());
    let server = server(go.clone());
    let handle = serve_http(server.clone(), config).await.unwrap();
    Fixture {
        handle,
        server,
        store,
        go,
    }
}

async fn start() -> Fixture {
    start_with(HttpServerConfig::default(), MemoryEventStore::default()).await
}

/// The events of an SSE text, each as its lines.
fn events(text: &str) -> Vec<Vec<&str>> {
    assert!(
        text.ends_with("\n\n"),
        "an event stream ends with a blank line: {text:?}"
    );
    text.trim_end_matches('\n')
        .split("\n\n")
        .map(|e| e.split('\n').collect())
        .collect()
}

/// The tag of a session's event ids, from a priming event's `id: <tag>.<stream>-0` line.
fn tag_of(priming_id_line: &str) -> String {
    let id = priming_id_line.strip_prefix("id: ").unwrap();
    id.split_once('.').unwrap().0.to_owned()
}

/// Asserts one message event exactly: its id line, `event: message`, and a `data:` line whose
/// JSON is `expected`.
fn assert_message(event: &[&str], id: &str, expected: &Value) {
    assert_eq!(event.len(), 3, "{event:?}");
    assert_eq!(event[0], format!("id: {id}"));
    assert_eq!(event[1], "event: message");
    let data: Value = serde_json::from_str(event[2].strip_prefix("data: ").unwrap()).unwrap();
    assert_eq!(&data, expected);
}

fn progress(token: i64, p: f64, total: Option<f64>) -> Value {
    let mut params = json!({"progressToken": token, "progress": p});
    if let Some(t) = total {
        params["total"] = json!(t);
    }
    json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})
}

fn result(id: i64, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}})
}

#[tokio::test]
async fn post_stream_framing_has_priming_retry_and_ids() {
    let f = start().await;
    let sid = session(f.addr(), "2025-11-25").await;
    let h = [("mcp-session-id", sid.as_str())];
    let r = open(
        f.addr(),
        Method::POST,
        &h,
        Some(call(5, "steps", json!({"progressToken": 9}))),
    )
    .await;
    assert_eq!(r.headers()["content-type"], "text/event-stream");
    let body = text(r).await;
    let ev = events(&body);
    assert_eq!(ev.len(), 4, "{body}");
    let tag = tag_of(ev[0][0]);
    assert_eq!(tag.len(), 8);
    // The priming event: an id naming the stream's start, the retry delay, empty data.
    assert_eq!(
        ev[0],
        [
            format!("id: {tag}.1-0"),
            format!("retry: {RETRY_MS}"),
            "data:".into()
        ]
    );
    assert_message(&ev[1], &format!("{tag}.1-1"), &progress(9, 1.0, Some(2.0)));
    assert_message(&ev[2], &format!("{tag}.1-2"), &progress(9, 2.0, Some(2.0)));
    assert_message(&ev[3], &format!("{tag}.1-3"), &result(5, "done"));

    // The next POST stream of the session is stream 2; a response that comes first is plain
    // JSON and uses up no events.
    let (status, body) = send(
        f.addr(),
        Method::POST,
        &h,
        Some(call(6, "steps", json!({}))),
    )
    .await;
    assert_eq!(
        (status, serde_json::from_str::<Value>(&body).unwrap()),
        (200, result(6, "done"))
    );
    let body = text(
        open(
            f.addr(),
            Method::POST,
            &h,
            Some(call(7, "steps", json!({"progressToken": 1}))),
        )
        .await,
    )
    .await;
    assert!(body.starts_with(&format!("id: {tag}.3-0\n")), "{body}");
    assert_eq!(f.store.len(&sid), 6);
}

#[tokio::test]
async fn earlier_revisions_get_ids_but_no_priming_and_cannot_be_closed() {
    let f = start().await;
    let sid = session(f.addr(), "2025-06-18").await;
    let h = [("mcp-session-id", sid.as_str())];
    let meta = json!({"progressToken": 1});
    let body = text(open(f.addr(), Method::POST, &h, Some(call(1, "poll", meta))).await).await;
    let ev = events(&body);
    assert_eq!(ev.len(), 4, "{body}");
    let tag = ev[0][0]
        .strip_prefix("id: ")
        .unwrap()
        .split_once('.')
        .unwrap()
        .0
        .to_owned();
    assert_message(&ev[0], &format!("{tag}.1-1"), &progress(1, 1.0, None));
    assert_message(&ev[1], &format!("{tag}.1-2"), &progress(1, 2.0, None));
    assert_message(&ev[2], &format!("{tag}.1-3"), &progress(1, 3.0, None));
    // Without a priming event the client could not resume, so the stream stayed open.
    assert_message(&ev[3], &format!("{tag}.1-4"), &result(1, "closed=false"));
}

#[tokio::test]
async fn a_stream_closed_by_the_server_resumes_with_the_rest_once_and_in_order() {
    let f = start().await;
    let sid = session(f.addr(), "2025-11-25").await;
    let h = [("mcp-session-id", sid.as_str())];
    let meta = json!({"progressToken": 3});
    let body = text(open(f.addr(), Method::POST, &h, Some(call(1, "poll", meta))).await).await;
    let posted = events(&body);
    // Priming, then (depending on whether the exchange saw the first progress before the
    // handler closed the stream) that progress; then the stream ended.
    assert!((1..=2).contains(&posted.len()), "{body}");
    let tag = tag_of(posted[0][0]);
    let last = posted.last().unwrap()[0].strip_prefix("id: ").unwrap();

    let resume = [("mcp-session-id", sid.as_str()), ("last-event-id", last)];
    let r = open(f.addr(), Method::GET, &resume, None).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "text/event-stream");
    let body = text(r).await;
    let resumed = events(&body);
    assert_eq!(resumed[0], [format!("retry: {RETRY_MS}")]);
    // Across both streams: every message exactly once, in order, with consecutive ids.
    let all: Vec<&Vec<&str>> = posted[1..].iter().chain(&resumed[1..]).collect();
    assert_eq!(all.len(), 4, "{body}");
    assert_message(all[0], &format!("{tag}.1-1"), &progress(3, 1.0, None));
    assert_message(all[1], &format!("{tag}.1-2"), &progress(3, 2.0, None));
    assert_message(all[2], &format!("{tag}.1-3"), &progress(3, 3.0, None));
    assert_message(all[3], &format!("{tag}.1-4"), &result(1, "closed=true"));

    // Resuming the finished stream again replays from the store, from any point.
    let from_two = format!("{tag}.1-2");
    let h2 = [
        ("mcp-session-id", sid.as_str()),
        ("last-event-id", from_two.as_str()),
    ];
    let body = text(open(f.addr(), Method::GET, &h2, None).await).await;
    let ids: Vec<&str> = events(&body)[1..].iter().map(|e| e[0]).collect();
    let want: Vec<String> = (3..=4).map(|n| format!("id: {tag}.1-{n}")).collect();
    assert_eq!(ids, want);
    let from_end = format!("{tag}.1-4");
    let h4 = [
        ("mcp-session-id", sid.as_str()),
        ("last-event-id", from_end.as_str()),
    ];
    let body = text(open(f.addr(), Method::GET, &h4, None).await).await;
    assert_eq!(body, format!("retry: {RETRY_MS}\n\n"));
}

#[tokio::test]
async fn a_stream_the_client_lost_resumes_live() {
    let f = start().await;
    let sid = session(f.addr(), "2025-11-25").await;
    let h = [("mcp-session-id", sid.as_str())];
    let meta = json!({"progressToken": 4});
    let r = open(f.addr(), Method::POST, &h, Some(call(2, "slow", meta))).await;
    let mut body = r.into_body();
    let mut buf = String::new();
    read_until(&mut body, &mut buf, "\"progress\":1").await;
    let tag = tag_of(buf.lines().next().unwrap());
    drop(body);

    // Reconnect while the handler is still running: nothing is replayed yet, the rest comes live.
    let last = format!("{tag}.1-1");
    let resume = [
        ("mcp-session-id", sid.as_str()),
        ("last-event-id", last.as_str()),
    ];
    let r = open(f.addr(), Method::GET, &resume, None).await;
    assert_eq!(r.status(), 200);
    let mut body = r.into_body();
    let mut buf = String::new();
    read_until(&mut body, &mut buf, "retry:").await;
    f.go.notify_one();
    read_until(&mut body, &mut buf, "slow done").await;
    let ev = events(&buf);
    assert_eq!(ev.len(), 3, "{buf}");
    assert_message(&ev[1], &format!("{tag}.1-2"), &progress(4, 2.0, None));
    assert_message(&ev[2], &format!("{tag}.1-3"), &result(2, "slow done"));
}

#[tokio::test]
async fn unknown_foreign_and_malformed_last_event_ids_are_refused() {
    let f = start().await;
    let sid = session(f.addr(), "2025-11-25").await;
    let other = session(f.addr(), "2025-11-25").await;
    let h = [("mcp-session-id", sid.as_str())];
    let body = text(
        open(
            f.addr(),
            Method::POST,
            &h,
            Some(call(1, "steps", json!({"progressToken": 1}))),
        )
        .await,
    )
    .await;
    let tag = tag_of(events(&body)[0][0]);
    let foreign = {
        let h = [("mcp-session-id", other.as_str())];
        let body = text(
            open(
                f.addr(),
                Method::POST,
                &h,
                Some(call(1, "steps", json!({"progressToken": 1}))),
            )
            .await,
        )
        .await;
        events(&body)[0][0].strip_prefix("id: ").unwrap().to_owned()
    };
    assert_ne!(tag_of(&format!("id: {foreign}")), tag);
    let cases = [
        (
            "garbage".to_owned(),
            "Last-Event-ID is not an event id issued by this server",
        ),
        (
            format!("{tag}.1-x"),
            "Last-Event-ID is not an event id issued by this server",
        ),
        (foreign, "Last-Event-ID belongs to another session"),
        (
            format!("{tag}.9-0"),
            "Last-Event-ID names no event sent on this session",
        ),
        (
            format!("{tag}.1-4"),
            "Last-Event-ID names no event sent on this session",
        ),
        (
            format!("{tag}.0-1"),
            "Last-Event-ID names no event sent on this session",
        ),
    ];
    for (id, message) in cases {
        let h = [
            ("mcp-session-id", sid.as_str()),
            ("last-event-id", id.as_str()),
        ];
        let (status, body) = send(f.addr(), Method::GET, &h, None).await;
        assert_eq!(
            (status, error_of(&body)),
            (400, (-32600, format!("Invalid request: {message}"))),
            "{id}"
        );
    }
    // The session is unharmed.
    let ok = format!("{tag}.1-3");
    let h = [
        ("mcp-session-id", sid.as_str()),
        ("last-event-id", ok.as_str()),
    ];
    assert_eq!(send(f.addr(), Method::GET, &h, None).await.0, 200);
}

#[tokio::test]
async fn the_store_bound_drops_the_oldest_events_and_then_refuses_their_replay() {
    let f = start_with(
        HttpServerConfig::default(),
        MemoryEventStore::new(3, 1 << 20),
    )
    .await;
    let sid = session(f.addr(), "2025-11-25").await;
    let h = [("mcp-session-id", sid.as_str())];
    let meta = json!({"progressToken": 8});
    let body = text(open(f.addr(), Method::POST, &h, Some(call(1, "many", meta))).await).await;
    let ev = events(&body);
    assert_eq!(ev.len(), 1, "closed right after priming: {body}");
    let tag = tag_of(ev[0][0]);

    // Six events (five progress, one result), three kept: resuming after the third works...
    let last = format!("{tag}.1-3");
    let resume = [
        ("mcp-session-id", sid.as_str()),
        ("last-event-id", last.as_str()),
    ];
    let body = text(open(f.addr(), Method::GET, &resume, None).await).await;
    let ev = events(&body);
    assert_eq!(ev.len(), 4, "{body}");
    assert_message(&ev[1], &format!("{tag}.1-4"), &progress(8, 4.0, None));
    assert_message(&ev[2], &format!("{tag}.1-5"), &progress(8, 5.0, None));
    assert_message(&ev[3], &format!("{tag}.1-6"), &result(1, "many done"));
    assert_eq!(f.store.len(&sid), 3);

    // ...resuming from earlier would skip dropped events, so it is refused.
    for seq in [0, 2] {
        let last = format!("{tag}.1-{seq}");
        let h = [
            ("mcp-session-id", sid.as_str()),
            ("last-event-id", last.as_str()),
        ];
        let (status, body) = send(f.addr(), Method::GET, &h, None).await;
        assert_eq!(
            (status, error_of(&body)),
            (
                410,
                (
                    -32600,
                    "Invalid request: the events after Last-Event-ID are no longer stored: the stream cannot be resumed"
                        .to_owned()
                )
            )
        );
    }

    // The byte bound works the same way.
    let f = start_with(HttpServerConfig::default(), MemoryEventStore::new(100, 200)).await;
    let sid = session(f.addr(), "2025-11-25").await;
    let h = [("mcp-session-id", sid.as_str())];
    text(
        open(
            f.addr(),
            Method::POST,
            &h,
            Some(call(1, "many", json!({"progressToken": 8}))),
        )
        .await,
    )
    .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        f.store.bytes(&sid) <= 200 && f.store.len(&sid) < 6,
        "{}",
        f.store.bytes(&sid)
    );
}

#[tokio::test]
async fn session_ids_are_checked_bounded_and_their_logs_dropped() {
    let config = HttpServerConfig {
        max_sessions: 1,
        ..HttpServerConfig::default()
    };
    let f = start_with(config, MemoryEventStore::default()).await;
    let sid = session(f.addr(), "2025-11-25").await;
    let h = [("mcp-session-id", sid.as_str())];
    text(
        open(
            f.addr(),
            Method::POST,
            &h,
            Some(call(1, "steps", json!({"progressToken": 1}))),
        )
        .await,
    )
    .await;
    assert_eq!(f.store.sessions(), 1);

    // A tampered session id: 404 on every method, Last-Event-ID or not.
    let mut tampered = sid.clone();
    tampered.replace_range(0..1, if sid.starts_with('0') { "1" } else { "0" });
    let t = [
        ("mcp-session-id", tampered.as_str()),
        ("last-event-id", "x.1-0"),
    ];
    for m in [Method::GET, Method::DELETE] {
        assert_eq!(send(f.addr(), m, &t, None).await.0, 404);
    }
    assert_eq!(
        send(
            f.addr(),
            Method::POST,
            &t,
            Some(call(2, "steps", json!({})))
        )
        .await
        .0,
        404
    );

    // One session at most: another initialize gets 503, with a JSON-RPC error.
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}});
    let (status, body) = send(f.addr(), Method::POST, &[], Some(init.clone())).await;
    assert_eq!(
        (status, error_of(&body)),
        (
            503,
            (-32603, "Internal error: too many sessions".to_owned())
        )
    );

    // Ending the session drops its event log and frees its slot.
    assert_eq!(send(f.addr(), Method::DELETE, &h, None).await.0, 200);
    assert_eq!(f.store.sessions(), 0);
    let r = send(f.addr(), Method::POST, &[], Some(init)).await;
    assert_eq!(r.0, 200);
}

#[tokio::test]
async fn the_standalone_get_stream_is_primed_and_resumable() {
    let f = start().await;
    let sid = session(f.addr(), "2025-11-25").await;
    let h = [("mcp-session-id", sid.as_str())];
    let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
    let mut added = 0;
    let mut add_tool = || {
        added += 1;
        f.server
            .add_tool(
                json!({"name": format!("t{added}")}),
                libmcp::server::sync_handler(|_c| Reply::text("x")),
            )
            .unwrap();
    };

    let mut body = open(f.addr(), Method::GET, &h, None).await.into_body();
    let mut buf = String::new();
    read_until(&mut body, &mut buf, "data:\n\n").await;
    let tag = tag_of(buf.lines().next().unwrap());
    assert_eq!(buf, format!("id: {tag}.0-0\nretry: {RETRY_MS}\ndata:\n\n"));
    add_tool();
    read_until(&mut body, &mut buf, "list_changed").await;
    assert_message(&events(&buf)[1], &format!("{tag}.0-1"), &changed);

    // Lost while no stream is open: kept, and replayed on resumption, which then goes on live.
    drop(body);
    add_tool();
    let last = format!("{tag}.0-1");
    let resume = [
        ("mcp-session-id", sid.as_str()),
        ("last-event-id", last.as_str()),
    ];
    let mut body = open(f.addr(), Method::GET, &resume, None).await.into_body();
    let mut buf = String::new();
    read_until(&mut body, &mut buf, "list_changed").await;
    let ev = events(&buf);
    assert_eq!(ev[0], [format!("retry: {RETRY_MS}")]);
    assert_message(&ev[1], &format!("{tag}.0-2"), &changed);
    add_tool();
    let third = format!(
        "id: {tag}.0-3\nevent: message\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}}\n\n"
    );
    read_until(&mut body, &mut buf, &third).await;
    assert_message(&events(&buf)[2], &format!("{tag}.0-3"), &changed);

    // A fresh GET (which ends the one open) starts after everything sent so far.
    let fresh = open(f.addr(), Method::GET, &h, None).await;
    let mut fresh = fresh.into_body();
    let mut buf = String::new();
    read_until(&mut fresh, &mut buf, "data:\n\n").await;
    assert_eq!(buf, format!("id: {tag}.0-3\nretry: {RETRY_MS}\ndata:\n\n"));
    let end = tokio::time::timeout(Duration::from_secs(5), body.frame())
        .await
        .unwrap();
    assert!(end.is_none(), "the replaced stream ended");
}

#[tokio::test]
async fn a_cancelled_request_ends_its_stream_and_a_resume_of_it_ends_too() {
    let f = start().await;
    let sid = session(f.addr(), "2025-11-25").await;
    let h = [("mcp-session-id", sid.as_str())];
    let meta = json!({"progressToken": 5});
    let r = open(f.addr(), Method::POST, &h, Some(call(2, "slow", meta))).await;
    let mut body = r.into_body();
    let mut buf = String::new();
    read_until(&mut body, &mut buf, "\"progress\":1").await;
    let tag = tag_of(buf.lines().next().unwrap());

    // No response follows a cancelled request (2025-11-25 cancellation), so nothing more can come
    // on its stream: the body ends, instead of staying open (and kept) as long as the session.
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 2, "reason": "test"}});
    assert_eq!(send(f.addr(), Method::POST, &h, Some(cancel)).await.0, 202);
    let rest = tokio::time::timeout(Duration::from_secs(10), body.collect())
        .await
        .expect("the cancelled request's stream ends")
        .unwrap()
        .to_bytes();
    assert!(!String::from_utf8_lossy(&rest).contains("slow done"));

    // Resuming it replays what followed the given event (nothing) and ends at once as well.
    let last = format!("{tag}.1-1");
    let resume = [
        ("mcp-session-id", sid.as_str()),
        ("last-event-id", last.as_str()),
    ];
    let r = open(f.addr(), Method::GET, &resume, None).await;
    assert_eq!(r.status(), 200);
    let text = tokio::time::timeout(Duration::from_secs(10), r.into_body().collect())
        .await
        .expect("the resumed stream ends")
        .unwrap()
        .to_bytes();
    let text = String::from_utf8_lossy(&text);
    assert!(!text.contains("\"progress\""), "{text}");
}
