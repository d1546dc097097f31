//! Where task state lives, so that a shared backend can hold it for several server instances: the
//! [`TaskStore`] seam, the serialisable [`TaskRecord`] it holds, and the bounded in-memory default,
//! [`MemoryTaskStore`]. Records stay readable for their TTL from creation and are gone after it
//! (the tasks extension's `ttlMs`; 2025-11-25 `ttl`).

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::{SystemTime, UNIX_EPOCH};

use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use crate::model::tasks::TaskStatus;

/// The future a [`TaskStore`] method returns.
pub type TaskFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Who created a task (servers with authorization): only the same subject and client may use it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskOwner {
    /// The end user (`sub`), if the token named one.
    pub subject: Option<String>,
    /// The OAuth client the token was issued to.
    pub client_id: Option<String>,
}

/// One task as plain serialisable data (JSON with camelCase keys through serde).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskRecord {
    /// The unguessable task id.
    pub id: String,
    /// The current status.
    pub status: TaskStatus,
    /// A human-readable note on the status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// The method the task runs (`tools/call`).
    pub method: String,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Time of the last status change, milliseconds since the Unix epoch.
    pub updated_ms: u64,
    /// How long the task is kept after creation; `None` keeps it until the server stops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// How often clients are asked to poll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
    /// The outstanding input requests while `input_required`, by their wire keys.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub input_requests: Map<String, Value>,
    /// The result of a completed task: exactly what the method would have returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// The JSON-RPC error object of a failed task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
    /// The principal that created the task (servers with authorization).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<TaskOwner>,
    /// Whether the task was created by a 2025-11-25 request (`params.task`).
    #[serde(default)]
    pub legacy: bool,
}

impl TaskRecord {
    /// When the record stops being served, in milliseconds since the Unix epoch.
    pub fn expires_ms(&self) -> Option<u64> {
        self.ttl_ms.map(|t| self.created_ms.saturating_add(t))
    }

    /// Whether the record's TTL has run out at `now_ms`.
    pub fn is_expired(&self, now_ms: u64) -> bool {
        self.expires_ms().is_some_and(|e| now_ms >= e)
    }

    /// The record as JSON, for stores that keep bytes.
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a task record always serialises")
    }

    /// Reads a record written by [`to_json`](Self::to_json); malformed bytes give
    /// [`TaskStoreError::Corrupt`] naming the problem.
    pub fn from_json(bytes: &[u8]) -> Result<TaskRecord, TaskStoreError> {
        serde_json::from_slice(bytes).map_err(|e| TaskStoreError::Corrupt(e.to_string()))
    }
}

/// Why a [`TaskStore`] operation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskStoreError {
    /// The store holds as many live tasks as it may.
    Full(usize),
    /// A record could not be read back.
    Corrupt(String),
    /// The backend failed (connection lost, timeout, ...).
    Backend(String),
}

impl fmt::Display for TaskStoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TaskStoreError::Full(n) => write!(f, "the task store is full ({n} live tasks)"),
            TaskStoreError::Corrupt(e) => write!(f, "a stored task record is corrupt: {e}"),
            TaskStoreError::Backend(e) => write!(f, "the task store failed: {e}"),
        }
    }
}

impl std::error::Error for TaskStoreError {}

/// Holds task records. Implementations decide where (memory, a database shared by instances); they
/// must not return a record whose TTL ran out ([`TaskRecord::is_expired`]) and should drop such
/// records so that nothing grows without bound.
pub trait TaskStore: Send + Sync {
    /// Stores a new record; it must be readable by [`get`](Self::get) once this resolves.
    fn create(&self, record: TaskRecord) -> TaskFuture<'_, Result<(), TaskStoreError>>;

    /// Replaces the record with the same id (a status change).
    fn put(&self, record: TaskRecord) -> TaskFuture<'_, Result<(), TaskStoreError>>;

    /// The record with this id, unless unknown or expired.
    fn get<'a>(&'a self, id: &'a str)
    -> TaskFuture<'a, Result<Option<TaskRecord>, TaskStoreError>>;

    /// Every unexpired record, oldest first (2025-11-25 `tasks/list`).
    fn list(&self) -> TaskFuture<'_, Result<Vec<TaskRecord>, TaskStoreError>>;
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// The in-memory [`TaskStore`]: at most `capacity` unexpired records; expired ones are dropped
/// whenever a task is created or listed.
pub struct MemoryTaskStore {
    capacity: usize,
    records: Mutex<HashMap<String, TaskRecord>>,
}

impl MemoryTaskStore {
    /// A store holding at most `capacity` unexpired tasks.
    pub fn new(capacity: usize) -> Self {
        MemoryTaskStore {
            capacity,
            records: Mutex::new(HashMap::new()),
        }
    }

    /// How many records are held (expired ones not yet swept included).
    pub fn len(&self) -> usize {
        self.records.lock().len()
    }

    /// Whether no record is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn sweep(records: &mut HashMap<String, TaskRecord>) {
        let now = now_ms();
        records.retain(|_, r| !r.is_expired(now));
    }
}

impl Default for MemoryTaskStore {
    fn default() -> Self {
        MemoryTaskStore::new(10_000)
    }
}

impl TaskStore for MemoryTaskStore {
    fn create(&self, record: TaskRecord) -> TaskFuture<'_, Result<(), TaskStoreError>> {
        let mut records = self.records.lock();
        Self::sweep(&mut records);
        let out = if records.len() >= self.capacity {
            Err(TaskStoreError::Full(self.capacity))
        } else {
            records.insert(record.id.clone(), record);
            Ok(())
        };
        Box::pin(std::future::ready(out))
    }

    fn put(&self, record: TaskRecord) -> TaskFuture<'_, Result<(), TaskStoreError>> {
        let mut records = self.records.lock();
        // A record that expired meanwhile stays gone.
        if let Some(slot) = records.get_mut(&record.id)
            && !slot.is_expired(now_ms())
        {
            *slot = record;
        }
        Box::pin(std::future::ready(Ok(())))
    }

    fn get<'a>(
        &'a self,
        id: &'a str,
    ) -> TaskFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        let mut records = self.records.lock();
        let now = now_ms();
        let out = match records.get(id) {
            Some(r) if r.is_expired(now) => {
                records.remove(id);
                None
            }
            other => other.cloned(),
        };
        Box::pin(std::future::ready(Ok(out)))
    }

    fn list(&self) -> TaskFuture<'_, Result<Vec<TaskRecord>, TaskStoreError>> {
        let mut records = self.records.lock();
        Self::sweep(&mut records);
        let mut all: Vec<TaskRecord> = records.values().cloned().collect();
        all.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        Box::pin(std::future::ready(Ok(all)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, created_ms: u64, ttl_ms: Option<u64>) -> TaskRecord {
        TaskRecord {
            id: id.into(),
            status: TaskStatus::Working,
            status_message: None,
            method: "tools/call".into(),
            created_ms,
            updated_ms: created_ms,
            ttl_ms,
            poll_interval_ms: None,
            input_requests: Map::new(),
            result: None,
            error: None,
            owner: None,
            legacy: false,
        }
    }

    /// The memory store's futures are ready at once.
    fn now<T>(mut f: TaskFuture<'_, T>) -> T {
        let waker = std::task::Waker::noop();
        match f.as_mut().poll(&mut std::task::Context::from_waker(waker)) {
            std::task::Poll::Ready(v) => v,
            std::task::Poll::Pending => panic!("the memory store never waits"),
        }
    }

    #[test]
    fn the_memory_store_is_bounded_and_drops_expired_records() {
        let store = MemoryTaskStore::new(2);
        let t = now_ms();
        now(store.create(record("a", t, Some(60_000)))).unwrap();
        now(store.create(record("old", t - 10_000, Some(5_000)))).unwrap();
        // The expired record is swept to make room; the store is then full.
        now(store.create(record("b", t, None))).unwrap();
        assert_eq!(
            now(store.create(record("c", t, None))),
            Err(TaskStoreError::Full(2))
        );
        assert_eq!(now(store.get("old")).unwrap(), None);
        let ids: Vec<String> = now(store.list())
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect();
        assert_eq!(ids, ["a", "b"]);
        // A put does not revive a record that is gone.
        now(store.put(record("old", t, None))).unwrap();
        assert_eq!(now(store.get("old")).unwrap(), None);
        assert_eq!(store.len(), 2);
    }

    #[test]
    fn records_round_trip_as_json() {
        let mut r = record("x", 1, Some(2));
        r.status = TaskStatus::InputRequired;
        r.owner = Some(TaskOwner {
            subject: Some("s".into()),
            client_id: None,
        });
        assert_eq!(TaskRecord::from_json(&r.to_json()).unwrap(), r);
        assert!(matches!(
            TaskRecord::from_json(b"{}"),
            Err(TaskStoreError::Corrupt(_))
        ));
    }
}
