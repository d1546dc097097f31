//! Legacy sessions shared between server instances through one `SessionStore` and one
//! `EventStore`: a session opened on one instance is served by another with its negotiated wire,
//! state changes and DELETE travel through the store, the principal binding holds everywhere,
//! expired and reaped records are 404, and a corrupt record is a clear error.

mod http_raw;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http_raw::{call, error_of, send, session};
use hyper::Method;
use libmcp::auth::{AuthInfo, ResourceServerConfig, TokenRejection};
use libmcp::model::logging::LoggingLevel;
use libmcp::server::{Reply, Server};
use libmcp::transport::http::{
    HttpServerConfig, HttpServerHandle, MemoryEventStore, MemorySessionStore, SessionRecord,
    SessionStore, SessionStoreError, StoreFuture, serve_http,
};
use parking_lot::Mutex;
use serde_json::{Value, json};

fn server() -> Server {
    let obj = json!({"type": "object"});
    Server::builder("store-test", "1.0.0")
        .tool(json!({"name": "echo", "inputSchema": obj}), |_, _| {
            Reply::text("echoed")
        })
        .tool_async(
            json!({"name": "logs", "inputSchema": obj}),
            |ctx| async move {
                for level in [
                    LoggingLevel::Debug,
                    LoggingLevel::Info,
                    LoggingLevel::Warning,
                ] {
                    ctx.log(level, None, json!(level.as_str()));
                }
                Reply::text("logged")
            },
        )
        .tool_async(
            json!({"name": "steps", "inputSchema": obj}),
            |ctx| async move {
                ctx.notify_progress(1.0, Some(2.0), None);
                ctx.notify_progress(2.0, Some(2.0), None);
                Reply::text("done")
            },
        )
        .tool(json!({"name": "whoami", "inputSchema": obj}), |ctx, _| {
            let sub = ctx.auth().and_then(|a| a.subject.clone());
            Reply::text(sub.unwrap_or_default())
        })
        .build()
        .unwrap()
}

/// Two instances sharing `sessions` and one event store, each with `tweak` applied to its config.
async fn pair(
    sessions: Arc<dyn SessionStore>,
    tweak: impl Fn(&mut HttpServerConfig),
) -> (HttpServerHandle, HttpServerHandle) {
    let events = Arc::new(MemoryEventStore::default());
    let mut handles = Vec::new();
    for _ in 0..2 {
        let mut config = HttpServerConfig {
            session_store: sessions.clone(),
            event_store: events.clone(),
            ..HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap())
        };
        tweak(&mut config);
        handles.push(serve_http(server(), config).await.unwrap());
    }
    let b = handles.pop().unwrap();
    (handles.pop().unwrap(), b)
}

fn ping(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
}

async fn post(addr: SocketAddr, sid: &str, body: Value) -> (u16, String) {
    send(addr, Method::POST, &[("mcp-session-id", sid)], Some(body)).await
}

/// The JSON-RPC messages of an SSE body (`data:` lines with content).
fn messages(body: &str) -> Vec<Value> {
    body.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter(|d| !d.is_empty())
        .map(|d| serde_json::from_str(d).unwrap())
        .collect()
}

fn log_levels(body: &str) -> Vec<String> {
    messages(body)
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .map(|m| m["params"]["level"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_session_opened_on_one_instance_is_served_by_another_with_its_wire() {
    let (a, b) = pair(Arc::new(MemorySessionStore::default()), |_| {}).await;
    let (a, b) = (a.local_addr(), b.local_addr());

    // 2025-03-26 allows batches: B serves one for a session A opened.
    let old = session(a, "2025-03-26").await;
    let batch = json!([ping(1), call(2, "echo", json!({}))]);
    let (status, body) = post(b, &old, batch.clone()).await;
    assert_eq!(status, 200, "{body}");
    let answers: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answers[0], json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    assert_eq!(answers[1]["result"]["content"][0]["text"], "echoed");

    // 2025-06-18 does not: B refuses with that revision's name.
    let mid = session(a, "2025-06-18").await;
    let (status, body) = post(b, &mid, batch).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        error_of(&body).1,
        "Invalid request: JSON-RPC batches are not supported by protocol revision 2025-06-18; only 2025-03-26 allows them"
    );
    let (status, body) = post(b, &mid, call(3, "echo", json!({}))).await;
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["result"]["content"][0]["text"], "echoed");

    // 2025-11-25 primes its SSE streams, on B too, with event ids of the session's tag.
    let new = session(a, "2025-11-25").await;
    let (status, body) = post(b, &new, call(4, "steps", json!({"progressToken": "p"}))).await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = body
        .lines()
        .filter_map(|l| l.strip_prefix("id: "))
        .collect();
    assert_eq!(ids.len(), 4, "priming, two progress, result: {body}");
    assert!(body.contains("\nretry: "), "{body}");
    let tag = ids[0].split('.').next().unwrap();
    assert!(
        ids.iter().all(|i| i.starts_with(&format!("{tag}."))),
        "{ids:?}"
    );

    // A numbers its streams apart from B's, so the shared event store never mixes them.
    let (_, on_a) = post(a, &new, call(5, "steps", json!({"progressToken": "q"}))).await;
    let stream_of = |id: &str| id.split(['.', '-']).nth(1).unwrap().to_owned();
    let a_ids: Vec<&str> = on_a
        .lines()
        .filter_map(|l| l.strip_prefix("id: "))
        .collect();
    assert_eq!(a_ids.len(), 4, "{on_a}");
    assert!(
        a_ids[0].starts_with(&format!("{tag}.")),
        "one tag per session"
    );
    assert_ne!(stream_of(a_ids[0]), stream_of(ids[0]));

    // The events B recorded can be resumed on A, from the shared event store.
    let resume = [("mcp-session-id", new.as_str()), ("last-event-id", ids[1])];
    let (status, replay) = send(a, Method::GET, &resume, None).await;
    assert_eq!(status, 200, "{replay}");
    let got = messages(&replay);
    assert_eq!(got.len(), 2, "{replay}");
    assert_eq!(got[0]["params"]["progress"], 2.0);
    assert_eq!(got[1]["result"]["content"][0]["text"], "done");
    assert!(replay.contains(&format!("id: {}\n", ids[3])), "{replay}");
}

#[tokio::test]
async fn set_level_on_one_instance_filters_logs_on_the_other() {
    let (a, b) = pair(Arc::new(MemorySessionStore::default()), |_| {}).await;
    let (a, b) = (a.local_addr(), b.local_addr());
    let sid = session(a, "2025-06-18").await;
    let (_, body) = post(b, &sid, call(1, "logs", json!({}))).await;
    assert_eq!(log_levels(&body), ["debug", "info", "warning"]);

    let set = json!({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel",
                     "params": {"level": "warning"}});
    assert_eq!(post(a, &sid, set).await.0, 200);
    let (_, body) = post(b, &sid, call(3, "logs", json!({}))).await;
    assert_eq!(log_levels(&body), ["warning"], "B already held the session");

    let set = json!({"jsonrpc": "2.0", "id": 4, "method": "logging/setLevel",
                     "params": {"level": "info"}});
    assert_eq!(post(b, &sid, set).await.0, 200);
    let (_, body) = post(a, &sid, call(5, "logs", json!({}))).await;
    assert_eq!(log_levels(&body), ["info", "warning"]);
}

#[tokio::test]
async fn delete_on_one_instance_ends_the_session_on_both() {
    let store = Arc::new(MemorySessionStore::default());
    let (a, b) = pair(store.clone(), |_| {}).await;
    let (a, b) = (a.local_addr(), b.local_addr());
    let sid = session(a, "2025-06-18").await;
    assert_eq!(post(b, &sid, ping(1)).await.0, 200);
    assert_eq!(store.len(), 1);

    let h = [("mcp-session-id", sid.as_str())];
    assert_eq!(send(b, Method::DELETE, &h, None).await.0, 200);
    assert_eq!(store.len(), 0);
    for addr in [a, b] {
        let (status, body) = post(addr, &sid, ping(2)).await;
        assert_eq!(status, 404, "{body}");
        assert_eq!(
            error_of(&body),
            (
                -32600,
                "Invalid request: unknown or expired Mcp-Session-Id: initialize a new session"
                    .into()
            )
        );
    }
    assert_eq!(send(a, Method::DELETE, &h, None).await.0, 404);
    // A GET or DELETE answers no request, so its error has no id: before 2025-11-25, whose schema
    // requires one, the 404 goes out bare; from 2025-11-25 on it carries the JSON-RPC error.
    for method in [Method::GET, Method::DELETE] {
        let old = [h[0], ("mcp-protocol-version", "2025-06-18")];
        assert_eq!(
            send(b, method.clone(), &old, None).await,
            (404, String::new()),
            "{method}"
        );
        let new = [h[0], ("mcp-protocol-version", "2025-11-25")];
        let (status, body) = send(b, method.clone(), &new, None).await;
        assert_eq!(status, 404, "{method}");
        assert_eq!(
            error_of(&body).1,
            "Invalid request: unknown or expired Mcp-Session-Id: initialize a new session"
        );
    }
    // So does a POST of a notification (a client's `notifications/initialized` can race its own
    // DELETE); a refused request's error answers its id in every revision.
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let old = [h[0], ("mcp-protocol-version", "2025-06-18")];
    let r = send(b, Method::POST, &old, Some(note.clone())).await;
    assert_eq!(r, (404, String::new()));
    let new = [h[0], ("mcp-protocol-version", "2025-11-25")];
    let (status, body) = send(b, Method::POST, &new, Some(note)).await;
    assert_eq!(status, 404);
    let error: Value = serde_json::from_str(&body).unwrap();
    assert!(error.get("id").is_none(), "{body}");
    let (status, body) = send(b, Method::POST, &old, Some(ping(3))).await;
    assert_eq!(status, 404);
    let error: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(error["id"], 3, "{body}");
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

async fn verify(token: String) -> Result<AuthInfo, TokenRejection> {
    let who = |sub: &str| {
        Ok(AuthInfo::new()
            .subject(sub)
            .client_id("app")
            .audience(["http://127.0.0.1/mcp"])
            .expires_at(now() + 3600))
    };
    match token.as_str() {
        "alice" | "alice-refreshed" => who("alice"),
        "bob" => who("bob"),
        _ => Err(TokenRejection::Invalid("unknown token".into())),
    }
}

#[tokio::test]
async fn a_session_stays_bound_to_its_principal_on_every_instance() {
    let auth = Arc::new(
        ResourceServerConfig::builder("http://127.0.0.1/mcp", verify)
            .authorization_server("https://auth.example.com")
            .build()
            .unwrap(),
    );
    let (a, b) = pair(Arc::new(MemorySessionStore::default()), |c| {
        c.auth = Some(auth.clone())
    })
    .await;
    let (a, b) = (a.local_addr(), b.local_addr());
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}}});
    let r = http_raw::open(
        a,
        Method::POST,
        &[("authorization", "Bearer alice")],
        Some(init),
    )
    .await;
    assert_eq!(r.status(), 200);
    let sid = r.headers()["mcp-session-id"].to_str().unwrap().to_owned();

    let as_who = |token: &'static str| {
        let sid = sid.clone();
        move |addr: SocketAddr, body: Value| {
            let sid = sid.clone();
            async move {
                let bearer = format!("Bearer {token}");
                let h = [
                    ("mcp-session-id", sid.as_str()),
                    ("authorization", bearer.as_str()),
                ];
                send(addr, Method::POST, &h, Some(body)).await
            }
        }
    };
    let principal_404 = (
        -32600,
        "Invalid request: unknown Mcp-Session-Id for this principal: initialize a new session"
            .to_owned(),
    );
    // Bob is refused on B before B ever held the session, and on A.
    for addr in [b, a] {
        let (status, body) = as_who("bob")(addr, ping(1)).await;
        assert_eq!((status, error_of(&body)), (404, principal_404.clone()));
    }
    // Alice, with a refreshed token, is served on B.
    let (status, body) = as_who("alice-refreshed")(b, call(2, "whoami", json!({}))).await;
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["result"]["content"][0]["text"], "alice");
    // Now that B holds it, Bob is still refused there, and cannot delete it anywhere.
    let (status, body) = as_who("bob")(b, ping(3)).await;
    assert_eq!((status, error_of(&body)), (404, principal_404.clone()));
    for addr in [a, b] {
        let h = [
            ("mcp-session-id", sid.as_str()),
            ("authorization", "Bearer bob"),
        ];
        assert_eq!(send(addr, Method::DELETE, &h, None).await.0, 404);
    }
    assert_eq!(as_who("alice")(a, ping(4)).await.0, 200);
}

#[tokio::test]
async fn expired_and_reaped_records_are_404_everywhere() {
    // Idle on every instance: expired by the server's idle timeout.
    let store = Arc::new(MemorySessionStore::default());
    let (a, b) = pair(store.clone(), |c| {
        c.session_idle_timeout = Duration::from_millis(300)
    })
    .await;
    let (a, b) = (a.local_addr(), b.local_addr());
    let sid = session(a, "2025-06-18").await;
    assert_eq!(post(b, &sid, ping(1)).await.0, 200);
    // Use keeps it alive across instances.
    for i in 0..4 {
        tokio::time::sleep(Duration::from_millis(150)).await;
        let addr = if i % 2 == 0 { a } else { b };
        assert_eq!(post(addr, &sid, ping(2)).await.0, 200, "round {i}");
    }
    tokio::time::sleep(Duration::from_millis(900)).await;
    assert_eq!(post(b, &sid, ping(3)).await.0, 404);
    assert_eq!(post(a, &sid, ping(4)).await.0, 404);
    assert_eq!(store.len(), 0, "the record was deleted");

    // Reaped by the store itself (its own idle bound), though A still holds the session.
    let store = Arc::new(MemorySessionStore::new(10, Duration::from_millis(200)));
    let (a, b) = pair(store.clone(), |_| {}).await;
    let (a, b) = (a.local_addr(), b.local_addr());
    let sid = session(a, "2025-06-18").await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(post(b, &sid, ping(5)).await.0, 404);
    assert_eq!(post(a, &sid, ping(6)).await.0, 404);
}

/// A store that keeps records as JSON bytes, which a test can overwrite, or make fail.
#[derive(Debug, Default)]
struct BytesStore {
    records: Mutex<HashMap<String, Vec<u8>>>,
    down: AtomicBool,
}

impl BytesStore {
    fn check(&self) -> Result<(), SessionStoreError> {
        if self.down.load(Ordering::Relaxed) {
            return Err(SessionStoreError::Unavailable("connection refused".into()));
        }
        Ok(())
    }
}

impl SessionStore for BytesStore {
    fn load<'a>(
        &'a self,
        id: &'a str,
    ) -> StoreFuture<'a, Result<Option<SessionRecord>, SessionStoreError>> {
        Box::pin(async move {
            self.check()?;
            let bytes = self.records.lock().get(id).cloned();
            bytes.map(|b| SessionRecord::from_json(&b)).transpose()
        })
    }

    fn save<'a>(
        &'a self,
        record: &'a SessionRecord,
    ) -> StoreFuture<'a, Result<(), SessionStoreError>> {
        Box::pin(async move {
            self.check()?;
            self.records
                .lock()
                .insert(record.id.clone(), record.to_json());
            Ok(())
        })
    }

    fn remove<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Result<bool, SessionStoreError>> {
        Box::pin(async move {
            self.check()?;
            Ok(self.records.lock().remove(id).is_some())
        })
    }
}

#[tokio::test]
async fn a_corrupt_record_or_a_failing_store_is_a_clear_error() {
    let store = Arc::new(BytesStore::default());
    let (a, b) = pair(store.clone(), |_| {}).await;
    let (a, b) = (a.local_addr(), b.local_addr());
    let sid = session(a, "2025-06-18").await;
    let good = store.records.lock()[&sid].clone();
    let record: Value = serde_json::from_slice(&good).unwrap();
    assert_eq!(record["protocolVersion"], "2025-06-18");
    assert_eq!(record["initialized"], true);

    let set = |bytes: Vec<u8>| store.records.lock().insert(sid.clone(), bytes);
    set(b"{\"id\": 7".to_vec());
    for addr in [b, a] {
        let (status, body) = post(addr, &sid, ping(1)).await;
        assert_eq!(status, 500, "{body}");
        let (code, message) = error_of(&body);
        assert_eq!(code, -32603);
        assert!(
            message.starts_with(
                "Internal error: Mcp-Session-Id: the stored session record is corrupt: "
            ),
            "{message}"
        );
    }

    let mut bad = record.clone();
    bad["protocolVersion"] = json!("1999-01-01");
    set(serde_json::to_vec(&bad).unwrap());
    let (status, body) = post(b, &sid, ping(2)).await;
    assert_eq!(status, 500);
    assert_eq!(
        error_of(&body).1,
        "Internal error: Mcp-Session-Id: the stored session record is corrupt: protocolVersion \"1999-01-01\" is not a legacy revision this server serves"
    );
    let mut bad = record.clone();
    bad["logLevel"] = json!("loud");
    set(serde_json::to_vec(&bad).unwrap());
    let (_, body) = post(b, &sid, ping(3)).await;
    assert_eq!(
        error_of(&body).1,
        "Internal error: Mcp-Session-Id: the stored session record is corrupt: logLevel \"loud\" is not a log level"
    );

    // Restored, the session works on both; a store outage is 503 and passes.
    set(good);
    assert_eq!(post(b, &sid, ping(4)).await.0, 200);
    store.down.store(true, Ordering::Relaxed);
    let (status, body) = post(a, &sid, ping(5)).await;
    assert_eq!(status, 503);
    assert_eq!(
        error_of(&body).1,
        "Internal error: Mcp-Session-Id: the session store is unavailable: connection refused"
    );
    store.down.store(false, Ordering::Relaxed);
    assert_eq!(post(a, &sid, ping(6)).await.0, 200);
    session(b, "2025-11-25").await;
}
