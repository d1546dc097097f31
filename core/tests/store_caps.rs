//! Every store the engine keeps between requests stops growing at its cap (README, "Limits": what
//! the engine keeps and its cap). Each store is filled to its cap, then driven with several times
//! as many more entries, and the heap this process holds (counted by the allocator below, exact and
//! independent of the machine's load) must stay where it was at the cap: without the cap it would
//! grow by the entries' size again and again. The client's era cache is checked by count in
//! `core/src/client/http/mod.rs`.
//!
//! One test runs the stores one after the other, so that no other test allocates meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::future::Future;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use libmcp::schema::SchemaCache;
use libmcp::server::Server;
use libmcp::server::tasks::{MemoryTaskStore, TaskRecord, TaskStore, TaskStoreError};
use libmcp::transport::OutKind;
use libmcp::transport::http::{
    EventStore, ExchangeRequest, HttpEndpoint, HttpServerConfig, MemoryEventStore, StoredEvent,
};
use serde_json::json;

/// The system allocator, counting the bytes it has handed out and not taken back.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is passed to `System` unchanged; only a counter is updated besides.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System`'s.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

/// The heap held before a store was used, at its cap, and after many more entries.
struct Growth {
    store: &'static str,
    before: isize,
    at_cap: isize,
    after: isize,
}

impl Growth {
    /// The entries beyond the cap added at most 2% of what filling the store to its cap took (and
    /// at least 16 KiB is allowed, for the allocator's and the runtime's own bookkeeping).
    fn assert_flat(&self) {
        let filled = self.at_cap - self.before;
        assert!(
            filled > 0,
            "{}: filling it to its cap took no memory",
            self.store
        );
        let margin = (filled / 50).max(16 * 1024);
        assert!(
            self.after - self.at_cap <= margin,
            "{}: the heap grew past the cap: {} bytes before, {} at the cap, {} after (allowed: +{margin})",
            self.store,
            self.before,
            self.at_cap,
            self.after
        );
        eprintln!(
            "{}: {} bytes to fill, {:+} bytes beyond the cap",
            self.store,
            filled,
            self.after - self.at_cap
        );
    }
}

/// The output of a future that is ready at once (the in-memory stores answer at once).
fn ready<T>(f: impl Future<Output = T>) -> T {
    let mut f = std::pin::pin!(f);
    match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(v) => v,
        Poll::Pending => panic!("an in-memory store did not answer at once"),
    }
}

/// A session's SSE event log: 1024 events (and 8 MiB) per session by default; here a new stream
/// every fourth event, so that the streams' marks are driven to their bound too.
fn event_log() -> Growth {
    let store = MemoryEventStore::default();
    let event = |i: u64| StoredEvent {
        stream: i / 4,
        seq: i % 4 + 1,
        kind: OutKind::Notification,
        data: Bytes::from(vec![b'x'; 1024]),
    };
    let before = live();
    // 1024 events, and 1024 streams' marks (the marks of streams whose events were all dropped are
    // kept up to the same number).
    for i in 0..4 * 1024 {
        store.append("s", event(i));
    }
    assert_eq!(store.len("s"), 1024);
    let at_cap = live();
    for i in 4 * 1024..16 * 1024 {
        store.append("s", event(i));
    }
    assert_eq!(store.len("s"), 1024);
    Growth {
        store: "event log (events)",
        before,
        at_cap,
        after: live(),
    }
}

/// The same log's byte cap: 8 MiB, reached by 64 KiB events long before 1024 of them.
fn event_log_bytes() -> Growth {
    let store = MemoryEventStore::default();
    let event = |i: u64| StoredEvent {
        stream: 1,
        seq: i + 1,
        kind: OutKind::Notification,
        data: Bytes::from(vec![b'y'; 64 * 1024]),
    };
    let before = live();
    for i in 0..128 {
        store.append("s", event(i));
    }
    assert_eq!(store.bytes("s"), 8 * 1024 * 1024);
    let at_cap = live();
    for i in 128..1024 {
        store.append("s", event(i));
    }
    assert_eq!((store.len("s"), store.bytes("s")), (128, 8 * 1024 * 1024));
    Growth {
        store: "event log (bytes)",
        before,
        at_cap,
        after: live(),
    }
}

/// The compiled JSON Schemas of a server: 256, the least recently used dropped.
fn schema_cache() -> Growth {
    let cache = SchemaCache::new(256);
    let schema = |i: usize| {
        json!({"type": "object", "properties": {format!("p{i}"): {"type": "string", "maxLength": i}},
               "required": [format!("p{i}")]})
    };
    let before = live();
    for i in 0..256 {
        cache.compile(&schema(i)).unwrap();
    }
    assert_eq!(cache.len(), 256);
    let at_cap = live();
    for i in 256..4 * 256 {
        cache.compile(&schema(i)).unwrap();
    }
    assert_eq!(cache.len(), 256);
    Growth {
        store: "schema cache",
        before,
        at_cap,
        after: live(),
    }
}

/// A working task with a 256-byte result, as the store keeps it (its JSON form, as a shared store
/// would read it).
fn task(id: usize, created_ms: u64, ttl_ms: Option<u64>) -> TaskRecord {
    let text = "x".repeat(256);
    let record = json!({"id": format!("task-{id:08}"), "status": "working", "method": "tools/call",
        "createdMs": created_ms, "updatedMs": created_ms, "ttlMs": ttl_ms,
        "result": {"content": [{"type": "text", "text": text}]}});
    TaskRecord::from_json(record.to_string().as_bytes()).unwrap()
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

/// The task store: at most its capacity of unexpired tasks; creating more fails.
fn task_store_full() -> Growth {
    let store = MemoryTaskStore::new(2000);
    let now = now_ms();
    let before = live();
    for i in 0..2000 {
        ready(store.create(task(i, now, None))).unwrap();
    }
    let at_cap = live();
    for i in 2000..8000 {
        let refused = ready(store.create(task(i, now, None)));
        assert!(
            matches!(refused, Err(TaskStoreError::Full(2000))),
            "{refused:?}"
        );
    }
    assert_eq!(store.len(), 2000);
    Growth {
        store: "task store (full)",
        before,
        at_cap,
        after: live(),
    }
}

/// Expired tasks are dropped when the next one is created: tasks that outlive their TTL never
/// pile up, however many are created.
fn task_store_expiry() -> Growth {
    let store = MemoryTaskStore::new(2000);
    let long_ago = now_ms() - 60_000;
    let before = live();
    for i in 0..2000 {
        ready(store.create(task(i, long_ago, Some(1_000)))).unwrap();
    }
    // Each was expired when created: every creation swept those before it.
    let at_cap = live();
    for i in 2000..20_000 {
        ready(store.create(task(i, long_ago, Some(1_000)))).unwrap();
    }
    assert!(store.len() <= 1, "{} expired tasks kept", store.len());
    Growth {
        store: "task store (expired)",
        before,
        at_cap,
        after: live(),
    }
}

fn initialize() -> ExchangeRequest {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "caps", "version": "1"}}});
    ExchangeRequest::new("POST", "/mcp")
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .body(body.to_string())
}

/// Opens a legacy session; its id.
async fn open(endpoint: &HttpEndpoint) -> String {
    let mut ex = endpoint.exchange(initialize()).await;
    assert_eq!(ex.status, 200);
    while ex.body.next_chunk().await.is_some() {}
    ex.headers
        .iter()
        .find(|(k, _)| k == "mcp-session-id")
        .map(|(_, v)| v.clone())
        .expect("a session id")
}

/// Ends a legacy session with a DELETE.
async fn delete(endpoint: &HttpEndpoint, id: &str) {
    let mut ex = endpoint
        .exchange(
            ExchangeRequest::new("DELETE", "/mcp")
                .header("Mcp-Session-Id", id)
                .header("MCP-Protocol-Version", "2025-11-25"),
        )
        .await;
    assert_eq!(ex.status, 200, "DELETE");
    while ex.body.next_chunk().await.is_some() {}
}

/// Legacy HTTP sessions: at most `max_sessions`; `initialize` beyond gets 503 and keeps nothing.
/// Then sessions opened and deleted, 64 at a time, over and over: what the first round left
/// (tables at their largest) must not grow with the rounds after it.
async fn sessions() -> (Growth, Growth) {
    let server = Server::builder("caps", "1.0.0").build().unwrap();
    let config = HttpServerConfig {
        max_sessions: 64,
        ..HttpServerConfig::for_mount()
    };
    let endpoint = HttpEndpoint::new(server, config).unwrap();
    // One request first, so that what the endpoint starts once (its sweeper) is not counted.
    let mut warm = endpoint.exchange(ExchangeRequest::new("GET", "/mcp")).await;
    while warm.body.next_chunk().await.is_some() {}
    let before = live();
    let mut ids = Vec::new();
    for _ in 0..64 {
        ids.push(open(&endpoint).await);
    }
    let at_cap = live();
    for _ in 0..512 {
        let mut ex = endpoint.exchange(initialize()).await;
        assert_eq!(ex.status, 503);
        while ex.body.next_chunk().await.is_some() {}
    }
    let cap = Growth {
        store: "legacy HTTP sessions (at max_sessions)",
        before,
        at_cap,
        after: live(),
    };

    let round = |ids: Vec<String>| {
        let endpoint = &endpoint;
        async move {
            for id in &ids {
                delete(endpoint, id).await;
            }
            let mut next = Vec::new();
            for _ in 0..64 {
                next.push(open(endpoint).await);
            }
            next
        }
    };
    let mut ids = round(ids).await;
    let churned = live();
    for _ in 0..10 {
        ids = round(ids).await;
    }
    let churn = Growth {
        store: "legacy HTTP sessions (opened and deleted)",
        before,
        at_cap: churned,
        after: live(),
    };
    for id in &ids {
        delete(&endpoint, id).await;
    }
    (cap, churn)
}

#[test]
fn every_store_stops_growing_at_its_cap() {
    for growth in [
        event_log(),
        event_log_bytes(),
        schema_cache(),
        task_store_full(),
        task_store_expiry(),
    ] {
        growth.assert_flat();
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (cap, churn) = runtime.block_on(sessions());
    cap.assert_flat();
    churn.assert_flat();
}
