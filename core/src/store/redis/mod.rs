//! Redis behind the store interfaces ([`SessionStore`], [`EventStore`], [`TaskStore`]) and a shared,
//! rotating `requestState` key ring, for many libmcp instances behind one load balancer.
//!
//! ```no_run
//! # async fn run(server: libmcp::server::ServerBuilder) -> Result<(), Box<dyn std::error::Error>> {
//! use libmcp::store::redis::{RedisOptions, RedisStore};
//! use libmcp::transport::http::{HttpServerConfig, serve_http};
//! let redis = RedisStore::connect("redis://127.0.0.1:6379/0", RedisOptions::default())?;
//! let server = server
//!     .task_store(redis.task_store())
//!     .state_sealer(redis.state_sealer().await?)
//!     .build()?;
//! let mut config = HttpServerConfig::default();
//! redis.configure(&mut config);
//! let handle = serve_http(server, config).await?;
//! # handle.wait().await; Ok(()) }
//! ```
//!
//! Every key starts with [`RedisOptions::prefix`] and carries a TTL (the session idle timeout for
//! sessions and event logs, the task's own TTL for tasks), except the one small hash of sealing keys.
//! With [`RedisStore::fan_out_changes`], a change announced on one instance reaches the listening
//! clients of every instance. When Redis cannot be reached, requests that need it are answered 503 with a JSON-RPC error and
//! the connection is re-established in the background ([`ConnectionManager`]); nothing else stops.
//!
//! [`SessionStore`]: crate::transport::http::SessionStore
//! [`EventStore`]: crate::transport::http::EventStore
//! [`TaskStore`]: crate::server::tasks::TaskStore

mod events;
mod fanout;
mod pubsub;
mod relay;
mod sealing;
mod sessions;
mod tasks;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

pub use events::RedisEventStore;
pub use relay::RedisRelay;
pub use sessions::RedisSessionStore;
pub use tasks::RedisTaskStore;

use crate::request_state::StateSealer;
use crate::server::Server;
use crate::transport::http::HttpServerConfig;

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
    client: redis::Client,
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

    /// A session store whose records expire after `idle` without use (the server's
    /// [`session_idle_timeout`](HttpServerConfig::session_idle_timeout)).
    pub fn session_store(&self, idle: Duration) -> Arc<RedisSessionStore> {
        Arc::new(RedisSessionStore::new(self.clone(), idle))
    }

    /// An event store whose logs expire after `idle` without a new event.
    pub fn event_store(&self, idle: Duration) -> Arc<RedisEventStore> {
        Arc::new(RedisEventStore::new(self.clone(), idle))
    }

    /// A task store.
    pub fn task_store(&self) -> Arc<RedisTaskStore> {
        Arc::new(RedisTaskStore::new(self.clone()))
    }

    /// A `requestState` sealer following the key ring shared in Redis: every instance seals with the
    /// same current key, a new one replaces it every [`key_rotation`](RedisOptions::key_rotation),
    /// and the replaced key opens tokens for [`key_grace`](RedisOptions::key_grace) more. Waits for
    /// the first look at the ring (an error when Redis cannot be reached), then follows it in the
    /// background for as long as the sealer (or a server built with it) lives.
    pub async fn state_sealer(&self) -> Result<StateSealer, RedisStoreError> {
        sealing::follow(self.clone()).await
    }

    /// Passes the changes `server` announces (`notifications/*/list_changed`,
    /// `notifications/resources/updated`) to every other instance that joined, over Redis pub/sub,
    /// and announces theirs to `server`'s listening clients (legacy sessions and `subscriptions/listen`
    /// streams). Returns once subscribed (an error when Redis cannot be reached); follows the channel
    /// for as long as the server lives, subscribing again after Redis comes back.
    pub async fn fan_out_changes(&self, server: &Server) -> Result<(), RedisStoreError> {
        fanout::join(self.clone(), server).await
    }

    /// A relay for [`HttpServerConfig::relay`]: a client's answer to a server-to-client request
    /// (elicitation, sampling, roots) POSTed to one instance reaches the instance whose handler
    /// waits for it. One per server; subscribed when this returns.
    pub async fn relay(&self) -> Result<Arc<RedisRelay>, RedisStoreError> {
        RedisRelay::new(self.clone()).await
    }

    /// Points `config` at the shared session and event stores, expiring with its
    /// [`session_idle_timeout`](HttpServerConfig::session_idle_timeout) (set that first).
    pub fn configure(&self, config: &mut HttpServerConfig) {
        let idle = config.session_idle_timeout;
        config.session_store = self.session_store(idle);
        config.event_store = self.event_store(idle);
    }

    pub(crate) fn conn(&self) -> ConnectionManager {
        self.conn.clone()
    }

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
