//! Where legacy Streamable HTTP sessions are recorded, so that several server instances behind one
//! load balancer can serve the same session: the [`SessionStore`] seam, the serialisable
//! [`SessionRecord`] it holds, and the bounded in-memory default, [`MemorySessionStore`].

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The future a [`SessionStore`] method returns.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The principal a session is bound to: the same subject and client may use it on any instance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredPrincipal {
    /// The end user (`sub`), if the token named one.
    pub subject: Option<String>,
    /// The OAuth client the token was issued to.
    pub client_id: Option<String>,
}

/// Everything another instance needs to serve a legacy session: its negotiated state, as plain
/// serialisable data (JSON with camelCase keys through serde).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionRecord {
    /// The `Mcp-Session-Id`.
    pub id: String,
    /// The negotiated protocol version (a legacy revision, e.g. `2025-06-18`).
    pub protocol_version: String,
    /// The client's `capabilities` from `initialize` (an object).
    pub client_capabilities: Value,
    /// The client's `clientInfo` from `initialize`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_info: Option<Value>,
    /// Whether `notifications/initialized` arrived.
    pub initialized: bool,
    /// The level set with `logging/setLevel` (`debug` .. `emergency`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_level: Option<String>,
    /// The resource URIs subscribed with `resources/subscribe`, sorted.
    #[serde(default)]
    pub subscriptions: Vec<String>,
    /// The principal the session is bound to (servers with authorization).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub principal: Option<StoredPrincipal>,
    /// The session's part of its SSE event ids, so that every instance issues and recognises them.
    pub event_tag: String,
    /// When the session was created, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// When a request last used the session, in milliseconds since the Unix epoch.
    pub last_seen_ms: u64,
}

impl SessionRecord {
    /// The record as JSON, for stores that keep bytes.
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a session record always serialises")
    }

    /// Reads a record written by [`to_json`](Self::to_json); malformed bytes give
    /// [`SessionStoreError::Corrupt`] naming the problem.
    pub fn from_json(bytes: &[u8]) -> Result<SessionRecord, SessionStoreError> {
        serde_json::from_slice(bytes).map_err(|e| SessionStoreError::Corrupt(e.to_string()))
    }

    /// Three-way merge of a change: `self` is the stored record now, `base` what a writer started
    /// from and `ours` what it wants to write. A field `ours` changed from `base` takes `ours`'
    /// value, any other keeps the stored one (so a concurrent change by another writer to another
    /// field survives); subscriptions merge by element (the URIs `ours` added are added, those it
    /// removed are removed, the rest stay as stored); `initialized` never goes back to `false`;
    /// `lastSeen` is the later of the two. The identity, tag and creation time stay as stored.
    pub fn merge(&self, base: &SessionRecord, ours: &SessionRecord) -> SessionRecord {
        fn pick<T: Clone + PartialEq>(stored: &T, base: &T, ours: &T) -> T {
            if ours != base {
                ours.clone()
            } else {
                stored.clone()
            }
        }
        let mut subscriptions: Vec<String> = self
            .subscriptions
            .iter()
            .filter(|u| !base.subscriptions.contains(u) || ours.subscriptions.contains(u))
            .cloned()
            .collect();
        for u in &ours.subscriptions {
            if !base.subscriptions.contains(u) && !subscriptions.contains(u) {
                subscriptions.push(u.clone());
            }
        }
        subscriptions.sort();
        SessionRecord {
            protocol_version: pick(
                &self.protocol_version,
                &base.protocol_version,
                &ours.protocol_version,
            ),
            client_capabilities: pick(
                &self.client_capabilities,
                &base.client_capabilities,
                &ours.client_capabilities,
            ),
            client_info: pick(&self.client_info, &base.client_info, &ours.client_info),
            initialized: self.initialized || ours.initialized,
            log_level: pick(&self.log_level, &base.log_level, &ours.log_level),
            subscriptions,
            principal: pick(&self.principal, &base.principal, &ours.principal),
            last_seen_ms: self.last_seen_ms.max(ours.last_seen_ms),
            ..self.clone()
        }
    }

    /// Whether `other` records the same state, ignoring when each was last seen.
    pub fn same_state(&self, other: &SessionRecord) -> bool {
        SessionRecord {
            last_seen_ms: other.last_seen_ms,
            ..self.clone()
        } == *other
    }
}

/// Why a [`SessionStore`] could not answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SessionStoreError {
    /// The stored record cannot be read back (the server answers 500 naming the problem).
    #[error("the stored session record is corrupt: {0}")]
    Corrupt(String),
    /// The store holds as many sessions as it may (a new session gets 503).
    #[error("the session store is full")]
    Full,
    /// The store cannot be reached or failed (the request gets 503).
    #[error("the session store is unavailable: {0}")]
    Unavailable(String),
}

/// Where legacy sessions are recorded. Object-safe: the server holds an `Arc<dyn SessionStore>`.
/// Methods may be called concurrently for different and for the same session. The server answers
/// 500 naming the problem when a loaded record is unusable ([`SessionStoreError::Corrupt`], or a
/// version, level or tag it does not accept), and 503 when the store fails.
///
/// # What a shared store gives
///
/// An instance that receives an `Mcp-Session-Id` it does not run loads the session's record and
/// rehydrates a live session from it: the negotiated protocol version (and so that version's wire),
/// the client's capabilities and info, whether `notifications/initialized` arrived, the log level
/// set with `logging/setLevel`, the resource subscriptions, and the principal the session is bound
/// to (a request from another subject or client gets 404 on every instance). Every instance writes
/// the record back when one of these changes, and loads it on every request, so a change made on
/// one instance is seen by the next request on any other; DELETE on any instance ends the session
/// everywhere (the others answer 404 from then on), and a record idle for longer than
/// [`HttpServerConfig::session_idle_timeout`](super::HttpServerConfig::session_idle_timeout) is
/// expired by whichever instance sees it first. With a shared [`EventStore`](super::EventStore)
/// too, a client can resume (`Last-Event-ID`) on any instance the events already recorded for its
/// streams.
///
/// # What still needs sticky routing (by `Mcp-Session-Id`)
///
/// Live things stay in the process that holds them and are not in the record. With a
/// [`MessageRelay`](super::MessageRelay) ([`HttpServerConfig::relay`](super::HttpServerConfig::relay);
/// the Redis store has one), the client's answer to a server-to-client request (sampling,
/// elicitation, roots) may be POSTed to any instance: one that does not wait for it forwards it to
/// the others, and the one whose handler waits takes it. With the Redis store's change fan-out
/// (`RedisStore::fan_out_changes`), list changes and resource updates announced with
/// [`Server::notify`](crate::server::Server::notify) reach the listeners of every instance. Still
/// tied to one instance: requests in flight (a `notifications/cancelled` for one must reach the
/// instance running it), and open SSE streams with their live messages (a resumption elsewhere
/// replays what was recorded, then ends; messages sent later on the original instance are not
/// forwarded), including logs and progress a handler sends outside a request. Concurrent changes
/// of one session on two instances go through [`update`](Self::update): a shared store that merges
/// there (the Redis store, `libmcp::store::redis`, with feature `redis`) loses none of them; one
/// that only implements [`save`](Self::save) keeps the last write. Sessions of the 2024-11-05
/// HTTP+SSE transport live on their one event stream and are never stored.
pub trait SessionStore: Send + Sync + fmt::Debug {
    /// The record of session `id`, or `None` when there is none (never created, deleted, reaped).
    fn load<'a>(
        &'a self,
        id: &'a str,
    ) -> StoreFuture<'a, Result<Option<SessionRecord>, SessionStoreError>>;

    /// Creates or replaces the record of `record.id`.
    fn save<'a>(
        &'a self,
        record: &'a SessionRecord,
    ) -> StoreFuture<'a, Result<(), SessionStoreError>>;

    /// Writes `record`, a change this instance made to `base` (the record as it last wrote or read
    /// it). A shared store must not lose a change another instance made since `base`: it merges
    /// ([`SessionRecord::merge`]) instead of overwriting, and returns what it stored. The default
    /// (right for a store of one instance) saves `record` as it is.
    fn update<'a>(
        &'a self,
        base: &'a SessionRecord,
        record: &'a SessionRecord,
    ) -> StoreFuture<'a, Result<SessionRecord, SessionStoreError>> {
        let _ = base;
        Box::pin(async move {
            self.save(record).await?;
            Ok(record.clone())
        })
    }

    /// Deletes the record of `id`; `true` if there was one.
    fn remove<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Result<bool, SessionStoreError>>;
}

/// Milliseconds since the Unix epoch, now.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The default store: in memory, at most `max_records` records, each dropped once no request
/// has used it for `idle` (reaped whenever the store is written, and never returned by `load`).
pub struct MemorySessionStore {
    max_records: usize,
    idle: Duration,
    records: Mutex<HashMap<String, SessionRecord>>,
}

impl MemorySessionStore {
    /// A store of at most `max_records` records (at least 1), each kept while used within `idle`.
    pub fn new(max_records: usize, idle: Duration) -> MemorySessionStore {
        MemorySessionStore {
            max_records: max_records.max(1),
            idle,
            records: Mutex::new(HashMap::new()),
        }
    }

    /// Number of records kept (reaped ones included until the next write).
    pub fn len(&self) -> usize {
        self.records.lock().len()
    }

    /// Whether no record is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn expired(&self, r: &SessionRecord, now: u64) -> bool {
        now.saturating_sub(r.last_seen_ms) as u128 > self.idle.as_millis()
    }
}

impl Default for MemorySessionStore {
    /// 10,000 records, reaped after 30 minutes without use (the server's default idle timeout).
    fn default() -> Self {
        MemorySessionStore::new(10_000, Duration::from_secs(30 * 60))
    }
}

impl fmt::Debug for MemorySessionStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemorySessionStore")
            .field("max_records", &self.max_records)
            .field("idle", &self.idle)
            .field("records", &self.len())
            .finish()
    }
}

impl SessionStore for MemorySessionStore {
    fn load<'a>(
        &'a self,
        id: &'a str,
    ) -> StoreFuture<'a, Result<Option<SessionRecord>, SessionStoreError>> {
        let now = now_ms();
        let found = self
            .records
            .lock()
            .get(id)
            .filter(|r| !self.expired(r, now))
            .cloned();
        Box::pin(async move { Ok(found) })
    }

    fn save<'a>(
        &'a self,
        record: &'a SessionRecord,
    ) -> StoreFuture<'a, Result<(), SessionStoreError>> {
        let now = now_ms();
        let mut records = self.records.lock();
        let result = if records.contains_key(&record.id) {
            Ok(())
        } else {
            if records.len() >= self.max_records {
                records.retain(|_, r| !self.expired(r, now));
            }
            if records.len() >= self.max_records {
                Err(SessionStoreError::Full)
            } else {
                Ok(())
            }
        };
        if result.is_ok() {
            records.insert(record.id.clone(), record.clone());
        }
        Box::pin(async move { result })
    }

    fn remove<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Result<bool, SessionStoreError>> {
        let removed = self.records.lock().remove(id).is_some();
        Box::pin(async move { Ok(removed) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, last_seen_ms: u64) -> SessionRecord {
        SessionRecord {
            id: id.into(),
            protocol_version: "2025-06-18".into(),
            client_capabilities: serde_json::json!({}),
            client_info: None,
            initialized: true,
            log_level: Some("info".into()),
            subscriptions: vec!["file:///a".into()],
            principal: None,
            event_tag: "abcd".into(),
            created_ms: last_seen_ms,
            last_seen_ms,
        }
    }

    #[tokio::test]
    async fn bounded_and_idle_records_are_reaped() {
        let s = MemorySessionStore::new(2, Duration::from_secs(60));
        let now = now_ms();
        s.save(&record("a", now - 120_000)).await.unwrap();
        s.save(&record("b", now)).await.unwrap();
        assert_eq!(s.load("a").await, Ok(None), "idle records are not returned");
        assert_eq!(s.load("b").await.unwrap().unwrap().id, "b");
        // Full: the idle record makes room, then the next is refused.
        s.save(&record("c", now)).await.unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(
            s.save(&record("d", now)).await,
            Err(SessionStoreError::Full)
        );
        // Replacing an existing record is always allowed.
        s.save(&record("c", now + 1)).await.unwrap();
        assert_eq!(s.remove("c").await, Ok(true));
        assert_eq!(s.remove("c").await, Ok(false));
    }

    #[test]
    fn a_merge_keeps_the_changes_of_both_writers() {
        let base = record("a", 5);
        // Another instance subscribed to b and set debug meanwhile.
        let stored = SessionRecord {
            subscriptions: vec!["file:///a".into(), "file:///b".into()],
            log_level: Some("debug".into()),
            last_seen_ms: 9,
            ..base.clone()
        };
        // This one unsubscribed a and subscribed c.
        let ours = SessionRecord {
            subscriptions: vec!["file:///c".into()],
            last_seen_ms: 7,
            ..base.clone()
        };
        let merged = stored.merge(&base, &ours);
        assert_eq!(merged.subscriptions, ["file:///b", "file:///c"]);
        assert_eq!(merged.log_level.as_deref(), Some("debug"));
        assert_eq!(merged.last_seen_ms, 9);
        let warn = SessionRecord {
            log_level: Some("warning".into()),
            ..base.clone()
        };
        assert_eq!(
            stored.merge(&base, &warn).log_level.as_deref(),
            Some("warning")
        );
    }

    #[test]
    fn records_round_trip_as_json_and_garbage_is_named() {
        let r = record("a", 5);
        let bytes = r.to_json();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(
            text.contains("\"protocolVersion\":\"2025-06-18\""),
            "{text}"
        );
        assert_eq!(SessionRecord::from_json(&bytes).unwrap(), r);
        let e = SessionRecord::from_json(b"{\"id\":1}").unwrap_err();
        assert!(
            matches!(&e, SessionStoreError::Corrupt(m) if m.contains("invalid type")),
            "{e}"
        );
        let later = SessionRecord {
            last_seen_ms: 9,
            ..r.clone()
        };
        assert!(r.same_state(&later));
        assert!(!r.same_state(&record("b", 5)));
        let leveled = SessionRecord {
            log_level: Some("debug".into()),
            ..r.clone()
        };
        assert!(!r.same_state(&leveled));
    }
}
