//! `Server(redis=URL)`: the engine's Redis stores (`libmcp::store::redis`) shared by every instance
//! on that Redis: legacy sessions, SSE events, tasks, the `requestState` key ring, list changes and
//! answers to server-to-client requests (README "Running many instances").
//!
//! Redis down at start never stops a server from being made or from serving: the store connects
//! lazily and requests that need it get 503 until it answers; what must be set up front and could
//! not be (the shared key ring, the relay) is logged and left to this instance, and the change
//! fan-out is joined as soon as Redis answers.

use std::time::Duration;

use libmcp::request_state::StateSealer;
use libmcp::store::redis::{RedisOptions, RedisStore, RedisStoreError};
use libmcp::transport::http::HttpServerConfig;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// How long a first look at Redis may take before the instance goes on without it.
const FIRST_LOOK: Duration = Duration::from_secs(3);

/// How often the change fan-out is tried again while Redis does not answer.
const RETRY: Duration = Duration::from_secs(1);

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

async fn first_look<T>(
    what: &str,
    fut: impl Future<Output = Result<T, RedisStoreError>>,
) -> Option<T> {
    let why = match tokio::time::timeout(FIRST_LOOK, fut).await {
        Ok(Ok(v)) => return Some(v),
        Ok(Err(e)) => e.to_string(),
        Err(_) => format!("no answer within {FIRST_LOOK:?}"),
    };
    tracing::warn!("Redis: {what} stays local to this instance: {why}");
    None
}

/// The sealer on the shared key ring; a local random key when Redis cannot be reached now (a
/// `requestState` sealed here then opens only here).
pub fn sealer(py: Python<'_>, redis: &RedisStore) -> PyResult<StateSealer> {
    let rt = crate::runtime::handle()?;
    let shared = py.detach(|| {
        rt.block_on(first_look(
            "the requestState key ring",
            redis.state_sealer(),
        ))
    });
    Ok(shared.unwrap_or_else(StateSealer::random))
}

/// Joins the change fan-out in the background, again every second until Redis answers.
pub fn fan_out(redis: RedisStore, server: libmcp::server::Server) -> PyResult<()> {
    crate::runtime::spawn(async move {
        let mut warned = false;
        while let Err(e) = redis.fan_out_changes(&server).await {
            if !warned {
                tracing::warn!("Redis: list changes are not shared yet (retrying): {e}");
                warned = true;
            }
            tokio::time::sleep(RETRY).await;
        }
    })?;
    Ok(())
}

/// Points `config` at the shared session and event stores and, when Redis answers, the relay.
pub async fn configure(redis: &RedisStore, config: &mut HttpServerConfig) {
    redis.configure(config);
    if let Some(relay) = first_look("answers to server requests", redis.relay()).await {
        config.relay = Some(relay);
    }
}
