//! `Server(redis=URL)`: the engine's Redis stores (`libmcp::store::redis`) shared by every instance
//! on that Redis: legacy sessions, SSE events, tasks, the `requestState` key ring, list changes and
//! answers to server-to-client requests (README "Running many instances").
//!
//! Redis down at start never stops a server from being made or from serving (the engine's rule,
//! `libmcp::store::redis`, the same on every surface): requests that need it are refused until it
//! answers, and the key ring, the change fan-out and the relay catch up by themselves then.

use libmcp::request_state::StateSealer;
use libmcp::store::redis::{RedisOptions, RedisStore, RedisStoreError};
use libmcp::transport::http::HttpServerConfig;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Connects (lazily) to `url`; a URL that is not a Redis URL is a `ValueError`.
pub fn connect(url: &str) -> PyResult<RedisStore> {
    let _entered = crate::runtime::handle()?.enter();
    RedisStore::connect(url, RedisOptions::default()).map_err(|e| match e {
        RedisStoreError::Url(why) => {
            PyValueError::new_err(format!("redis must be a redis:// URL, got {url:?}: {why}"))
        }
        other => PyValueError::new_err(format!("redis {url:?}: {other}")),
    })
}

/// A set-up step that failed for a reason other than Redis being down (Redis holds something
/// unreadable under our keys), as a `TransportError`.
fn unusable(py: Python<'_>, what: &str, e: RedisStoreError) -> PyErr {
    crate::errors::to_pyerr(
        py,
        libmcp::Error::Transport(libmcp::error::TransportError::new(format!(
            "redis: {what}: {e}"
        ))),
    )
}

/// The sealer on the shared key ring (the engine's rule: awaiting the ring while Redis cannot be
/// reached, requests that must seal or open a `requestState` refused meanwhile).
pub fn sealer(py: Python<'_>, redis: &RedisStore) -> PyResult<StateSealer> {
    let rt = crate::runtime::handle()?;
    py.detach(|| rt.block_on(redis.state_sealer()))
        .map_err(|e| unusable(py, "the requestState key ring", e))
}

/// Joins the change fan-out (at once, or once Redis answers).
pub fn fan_out(
    py: Python<'_>,
    redis: &RedisStore,
    server: &libmcp::server::Server,
) -> PyResult<()> {
    let rt = crate::runtime::handle()?;
    py.detach(|| rt.block_on(redis.fan_out_changes(server)))
        .map_err(|e| unusable(py, "the change fan-out", e))
}

/// Points `config` at the shared session and event stores and the relay (subscribed at once, or
/// once Redis answers).
pub async fn configure(redis: &RedisStore, config: &mut HttpServerConfig) {
    redis.configure(config);
    match redis.relay().await {
        Ok(relay) => config.relay = Some(relay),
        Err(e) => tracing::warn!("Redis: answers to server requests stay local: {e}"),
    }
}
