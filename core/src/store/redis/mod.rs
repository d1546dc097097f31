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
//! clients of every instance. When Redis cannot be reached, whether at start or later, instances
//! start and serve what needs no store (the stateless wire, local handlers); requests that need it
//! are answered with a JSON-RPC error (503 for a legacy session's requests) and the connection is
//! re-established in the background ([`ConnectionManager`](redis::aio::ConnectionManager)), the key
//! ring read and the channels subscribed once Redis answers; nothing else stops.
//!
//! [`SessionStore`]: crate::transport::http::SessionStore
//! [`EventStore`]: crate::transport::http::EventStore
//! [`TaskStore`]: crate::server::tasks::TaskStore

mod connection;
mod events;
mod fanout;
mod pubsub;
mod relay;
mod sealing;
mod sessions;
mod tasks;

use std::sync::Arc;
use std::time::Duration;

pub use connection::{RedisOptions, RedisStore, RedisStoreError};
pub(crate) use connection::{now_ms, ttl_ms, unavailable};
pub use events::RedisEventStore;
pub use relay::RedisRelay;
pub use sessions::RedisSessionStore;
pub use tasks::RedisTaskStore;

use crate::request_state::StateSealer;
use crate::server::Server;
use crate::transport::http::HttpServerConfig;

impl RedisStore {
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
    /// the first look at the ring, then follows it in the background for as long as the sealer (or
    /// a server built with it) lives. When Redis cannot be reached, returns at once a sealer
    /// [awaiting its keys](StateSealer::awaiting_keys): requests that must seal or open a
    /// `requestState` get a JSON-RPC error (-32603) until the ring is read, which is tried every
    /// second (logged both ways). An error only when Redis holds an unreadable ring.
    pub async fn state_sealer(&self) -> Result<StateSealer, RedisStoreError> {
        sealing::follow(self.clone()).await
    }

    /// Passes the changes `server` announces (`notifications/*/list_changed`,
    /// `notifications/resources/updated`) to every other instance that joined, over Redis pub/sub,
    /// and announces theirs to `server`'s listening clients (legacy sessions and `subscriptions/listen`
    /// streams). Returns once subscribed, or at once when Redis cannot be reached (changes then stay
    /// local until it answers; logged); follows the channel for as long as the server lives,
    /// subscribing again after Redis comes back.
    pub async fn fan_out_changes(&self, server: &Server) -> Result<(), RedisStoreError> {
        fanout::join(self.clone(), server).await
    }

    /// A relay for [`HttpServerConfig::relay`]: a client's answer to a server-to-client request
    /// (elicitation, sampling, roots) POSTed to one instance reaches the instance whose handler
    /// waits for it. One per server; subscribed when this returns, or, when Redis cannot be reached
    /// now, as soon as it answers (answers stay with the instance they reach meanwhile; logged).
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
}
