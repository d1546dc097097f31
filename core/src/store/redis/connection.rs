//! The connection to Redis every store shares ([`RedisStore`]), its options and its error, and the
//! helpers the stores build their keys and expiries with. The stores themselves (`sessions`,
//! `events`, `tasks`, `sealing`, `relay`, `fanout`) are made from it in `mod.rs`.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

/// Tunables of the Redis stores; every one has a safe default.
#[derive(Clone, Debug)]
pub struct RedisOptions {
    /// The first part of every key, so that several deployments can share one Redis database.
    pub prefix: String,
    /// How long one Redis command may take before the request that needs it gets 503.
    pub timeout: Duration,
    /// Most SSE events kept per session (the oldest are dropped first, as in
    /// [`MemoryEventStore`](crate::transport::http::MemoryEventStore)).
    pub max_events_per_session: usize,
    /// Most bytes of SSE event data kept per session.
    pub max_event_bytes_per_session: usize,
    /// Most tasks kept at once (a new one beyond that is refused as full).
    pub max_tasks: usize,
    /// How long a task without its own TTL is kept.
    pub max_task_ttl: Duration,
    /// How often a new `requestState` key replaces the current one.
    pub key_rotation: Duration,
    /// How long a replaced key is still accepted; keep it at least as long as a sealed
    /// `requestState` lives.
    pub key_grace: Duration,
}

impl Default for RedisOptions {
    /// Prefix `libmcp:`, 2 s per command, 1024 events and 8 MiB per session, 100,000 tasks kept at
    /// most a day, a new sealing key every day with the old one accepted for an hour.
    fn default() -> Self {
        RedisOptions {
            prefix: "libmcp:".into(),
            timeout: Duration::from_secs(2),
            max_events_per_session: 1024,
            max_event_bytes_per_session: 8 * 1024 * 1024,
            max_tasks: 100_000,
            max_task_ttl: Duration::from_secs(24 * 3600),
            key_rotation: Duration::from_secs(24 * 3600),
            key_grace: Duration::from_secs(3600),
        }
    }
}

/// Why the Redis stores could not be set up.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RedisStoreError {
    /// The URL is not a Redis URL (`redis://host:port/db`).
    #[error("not a usable Redis URL: {0}")]
    Url(String),
    /// Redis did not answer.
    #[error("Redis is unavailable: {0}")]
    Unavailable(String),
    /// Redis holds something under a key of ours that is not what libmcp wrote there.
    #[error("Redis holds an unreadable value: {0}")]
    Corrupt(String),
}

/// A connection to one Redis database, from which the stores are made. Clones share the connection.
#[derive(Clone)]
pub struct RedisStore {
    pub(super) client: redis::Client,
    conn: ConnectionManager,
    options: Arc<RedisOptions>,
}

impl fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisStore")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// Connects to `url` (e.g. `redis://127.0.0.1:6379/0`) lazily: this returns at once, also when
    /// Redis is down, and the connection is made (and re-made after a failure) in the background.
    /// Must be called within a tokio runtime.
    pub fn connect(url: &str, options: RedisOptions) -> Result<RedisStore, RedisStoreError> {
        let client = redis::Client::open(url).map_err(|e| RedisStoreError::Url(e.to_string()))?;
        let config = ConnectionManagerConfig::new()
            .set_response_timeout(Some(options.timeout))
            .set_connection_timeout(Some(options.timeout))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(500));
        let conn = ConnectionManager::new_lazy_with_config(client.clone(), config)
            .map_err(|e| RedisStoreError::Url(e.to_string()))?;
        Ok(RedisStore {
            client,
            conn,
            options: Arc::new(options),
        })
    }

    /// Whether Redis answers a `PING` now.
    pub async fn ping(&self) -> Result<(), RedisStoreError> {
        redis::cmd("PING")
            .query_async::<()>(&mut self.conn.clone())
            .await
            .map_err(unavailable)
    }

    /// The options the stores are made with.
    pub fn options(&self) -> &RedisOptions {
        &self.options
    }

    /// A handle on the shared connection, for one command or pipeline.
    pub(crate) fn conn(&self) -> ConnectionManager {
        self.conn.clone()
    }

    /// The key of `id` among the keys of `kind`, under the prefix.
    pub(crate) fn key(&self, kind: &str, id: &str) -> String {
        format!("{}{kind}:{id}", self.options.prefix)
    }
}

/// A session's keys outlive its last use by the idle timeout plus the slack by which the server may
/// refresh a record late (an eighth of the idle timeout) and a minute for clocks.
pub(crate) fn ttl_ms(idle: Duration) -> u64 {
    let ttl = idle + idle / 8 + Duration::from_secs(60);
    u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX)
}

pub(crate) fn unavailable(e: redis::RedisError) -> RedisStoreError {
    RedisStoreError::Unavailable(e.to_string())
}

/// Milliseconds since the Unix epoch, now.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
