//! Session and event stores kept by JS (`serveHttp({sessionStore, eventStore})` and a mount's same
//! options): the core's `SessionStore` and `EventStore` seams (`libmcp::transport::http`) over one
//! JS function that `lib/http_stores.js` makes from the store objects. Requests and answers cross as
//! JSON text: `{op, ...}` in, `{ok: value}` or `{error: message}` out (the function never rejects).
//!
//! The event store is the JS store behind the core's `LocalCopyEventStore`, as the Redis store is
//! (`core/src/transport/http/local_copy.rs` says why): streams this process is still sending are
//! replayed from a bounded in-memory copy, which a call into JS could not answer in time; streams
//! that ended, or that another instance sent, from the JS store.

use std::sync::Arc;

use libmcp::transport::OutKind;
use libmcp::transport::http::{
    HttpServerConfig, LocalCopyEventStore, MemoryEventStore, ReplayError, SessionRecord,
    SessionStore, SessionStoreError, SharedEventLog, StoreFuture, StoredEvent,
};
use napi::Status;
use napi::bindgen_prelude::{Function, Promise};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use serde_json::{Value, json};

use crate::error::invalid;

/// Called with `{op, ...}` as JSON text; resolves to `{ok}` or `{error}` as JSON text.
type StoreFn = ThreadsafeFunction<String, Promise<String>, String, Status, false, true>;

/// The JS function behind both stores.
struct JsStores {
    f: StoreFn,
}

impl JsStores {
    /// Runs one operation and waits for its answer; `Err` carries the reason, for the caller to
    /// name the store.
    async fn run(&self, request: Value) -> Result<Value, String> {
        let promise = self
            .f
            .call_async_catch(request.to_string())
            .await
            .map_err(|e| e.reason.clone())?;
        let text = promise.await.map_err(|e| e.reason.clone())?;
        answer(&text)
    }

    /// Queues one operation now (so operations reach JS in the order they were made) without
    /// waiting for it; a failure is reported through `tracing`, as nobody waits for it.
    fn post(&self, request: Value) {
        let op = request["op"].as_str().unwrap_or_default().to_owned();
        let status = self.f.call_with_return_value(
            request.to_string(),
            ThreadsafeFunctionCallMode::NonBlocking,
            move |returned: napi::Result<Promise<String>>, _env| {
                let report = move |why: String| {
                    tracing::warn!(op = %op, "the JS store failed: {why}");
                };
                match returned {
                    Ok(promise) => {
                        napi::bindgen_prelude::spawn(async move {
                            let outcome = match promise.await {
                                Ok(text) => answer(&text).map(drop),
                                Err(e) => Err(e.reason.clone()),
                            };
                            if let Err(why) = outcome {
                                report(why);
                            }
                        });
                    }
                    Err(e) => report(e.reason.clone()),
                }
                Ok(())
            },
        );
        if status != Status::Ok {
            tracing::warn!(?status, "an operation could not reach the JS store");
        }
    }
}

/// Reads `{ok: value}` / `{error: message}`.
fn answer(text: &str) -> Result<Value, String> {
    let mut answer: Value =
        serde_json::from_str(text).map_err(|e| format!("an unreadable answer: {e}"))?;
    match answer.get_mut("ok") {
        Some(v) => Ok(v.take()),
        None => Err(answer["error"]
            .as_str()
            .unwrap_or("it failed without a message")
            .to_owned()),
    }
}

/// Legacy sessions recorded by the JS `sessionStore` (`{load(id), save(record), remove(id)}`).
struct JsSessionStore(Arc<JsStores>);

impl std::fmt::Debug for JsSessionStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JsSessionStore")
    }
}

impl JsSessionStore {
    async fn run(&self, request: Value) -> Result<Value, SessionStoreError> {
        self.0
            .run(request)
            .await
            .map_err(|why| SessionStoreError::Unavailable(format!("the JS sessionStore: {why}")))
    }
}

impl SessionStore for JsSessionStore {
    fn load<'a>(
        &'a self,
        id: &'a str,
    ) -> StoreFuture<'a, Result<Option<SessionRecord>, SessionStoreError>> {
        Box::pin(async move {
            match self.run(json!({"op": "session.load", "id": id})).await? {
                Value::Null => Ok(None),
                v => serde_json::from_value(v).map(Some).map_err(|e| {
                    SessionStoreError::Corrupt(format!("sessionStore.load({id:?}) gave {e}"))
                }),
            }
        })
    }

    fn save<'a>(
        &'a self,
        record: &'a SessionRecord,
    ) -> StoreFuture<'a, Result<(), SessionStoreError>> {
        Box::pin(async move {
            let record = serde_json::to_value(record)
                .map_err(|e| SessionStoreError::Corrupt(e.to_string()))?;
            self.run(json!({"op": "session.save", "record": record}))
                .await
                .map(drop)
        })
    }

    fn remove<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Result<bool, SessionStoreError>> {
        Box::pin(async move {
            let removed = self.run(json!({"op": "session.remove", "id": id})).await?;
            Ok(removed.as_bool().unwrap_or(false))
        })
    }
}

/// SSE events recorded by the JS `eventStore` (`{append(session, event), replay(session, stream,
/// after), removeSession(session)}`): the shared half of the event store (see the module's comment).
struct JsEventLog(Arc<JsStores>);

impl std::fmt::Debug for JsEventLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JsEventLog")
    }
}

/// An event's kind as JS sees it: its name, and the error code for errors.
fn kind_name(kind: OutKind) -> (&'static str, Option<i32>) {
    match kind {
        OutKind::Result => ("result", None),
        OutKind::Error(code) => ("error", Some(code)),
        OutKind::Notification => ("notification", None),
        OutKind::Request => ("request", None),
    }
}

/// One event of a replay's answer (`{seq, kind, errorCode?, data}`), on `stream`.
fn replayed(stream: u64, v: &Value) -> Result<StoredEvent, String> {
    let seq = v["seq"]
        .as_u64()
        .ok_or_else(|| format!("an event without a positive integer seq: {v}"))?;
    let kind = match v["kind"].as_str() {
        Some("result") => OutKind::Result,
        Some("notification") => OutKind::Notification,
        Some("request") => OutKind::Request,
        Some("error") => OutKind::Error(
            v["errorCode"]
                .as_i64()
                .and_then(|c| i32::try_from(c).ok())
                .ok_or_else(|| format!("an error event without an integer errorCode: {v}"))?,
        ),
        _ => {
            return Err(format!(
                "an event whose kind is not result, error, notification or request: {v}"
            ));
        }
    };
    let data = v["data"]
        .as_str()
        .ok_or_else(|| format!("an event whose data is not the message's JSON text: {v}"))?;
    Ok(StoredEvent {
        stream,
        seq,
        kind,
        data: data.as_bytes().to_vec().into(),
    })
}

impl SharedEventLog for JsEventLog {
    fn append(&self, session: &str, event: &StoredEvent) {
        let (kind, code) = kind_name(event.kind);
        let data = String::from_utf8_lossy(&event.data);
        let mut e = json!({"stream": event.stream, "seq": event.seq, "kind": kind, "data": data});
        if let Some(code) = code {
            e["errorCode"] = code.into();
        }
        self.0
            .post(json!({"op": "event.append", "session": session, "event": e}));
    }

    fn replay<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        after: u64,
    ) -> StoreFuture<'a, Result<Vec<StoredEvent>, ReplayError>> {
        Box::pin(async move {
            let request =
                json!({"op": "event.replay", "session": session, "stream": stream, "after": after});
            let unavailable = |why: String| {
                tracing::warn!(session, stream, after, "eventStore.replay failed: {why}");
                ReplayError::Unavailable
            };
            let v = self.0.run(request).await.map_err(unavailable)?;
            match v.as_str() {
                Some("evicted") => return Err(ReplayError::Evicted),
                Some("unknown") => return Err(ReplayError::Unknown),
                _ => {}
            }
            let Value::Array(items) = v else {
                return Err(unavailable(format!(
                    "it gave {v}, not an array of events, 'evicted' or 'unknown'"
                )));
            };
            let mut events = Vec::with_capacity(items.len());
            for item in &items {
                let e = replayed(stream, item).map_err(unavailable)?;
                if e.seq <= events.last().map_or(after, |l: &StoredEvent| l.seq) {
                    return Err(unavailable(format!(
                        "event {} came after {}: events must follow `after` in increasing seq",
                        e.seq,
                        events.last().map_or(after, |l: &StoredEvent| l.seq)
                    )));
                }
                events.push(e);
            }
            Ok(events)
        })
    }

    fn remove_session(&self, session: &str) {
        self.0
            .post(json!({"op": "event.remove", "session": session}));
    }
}

/// Points `config` at the JS stores the options name (`sessionStore: true`, `eventStore: true`:
/// the objects themselves stay in JS, behind `f`). A server made with Redis keeps both there, so
/// giving either with it is refused.
pub(crate) fn apply(
    options: &Value,
    f: Option<Function<String, Promise<String>>>,
    redis: bool,
    config: &mut HttpServerConfig,
) -> napi::Result<()> {
    let sessions = options["sessionStore"].as_bool().unwrap_or(false);
    let events = options["eventStore"].as_bool().unwrap_or(false);
    let Some(f) = f.filter(|_| sessions || events) else {
        if sessions || events {
            return Err(invalid(
                "sessionStore and eventStore need the store function",
            ));
        }
        return Ok(());
    };
    if redis {
        return Err(invalid(
            "a server made with redis keeps its sessions and their events there: give neither \
             sessionStore nor eventStore with it",
        ));
    }
    let f = f
        .build_threadsafe_function::<String>()
        .weak::<true>()
        .callee_handled::<false>()
        .build()?;
    let js = Arc::new(JsStores { f });
    if sessions {
        config.session_store = Arc::new(JsSessionStore(js.clone()));
    }
    if events {
        // Local copies of sessions idle past the session timeout are dropped, as the Redis store
        // drops them (a session that ended on another instance would otherwise stay here for good);
        // a later resume of one reads the JS store.
        let idle = config.session_idle_timeout;
        config.event_store = Arc::new(
            LocalCopyEventStore::new(JsEventLog(js), MemoryEventStore::default())
                .forget_idle_after(idle + idle / 8),
        );
    }
    Ok(())
}
