//! `new Server(info, {redis})`: the engine's Redis stores (`libmcp::store::redis`) shared by every
//! instance on that Redis: tasks, the `requestState` key ring and list changes (set up when the
//! server is made), legacy sessions, their SSE events and answers to server-to-client requests
//! (set up by `serveHttp`). README "Running many instances".
//!
//! Each set-up step needs Redis to answer once, as in the C ABI (`ffi/src/redis.rs`): when it does
//! not, the step fails with a transport error naming it, and the caller may try again; after that,
//! an outage only gives 503s (the store reconnects by itself).

use libmcp::Error;
use libmcp::error::TransportError;
use libmcp::request_state::StateSealer;
use libmcp::server::Server;
use libmcp::store::redis::{RedisOptions, RedisStore, RedisStoreError};
use libmcp::transport::http::HttpServerConfig;

use crate::error::{engine, invalid};

/// Connects (lazily) to `url`; a URL that is not a Redis URL is an invalid argument.
pub(crate) fn connect(url: &str) -> napi::Result<RedisStore> {
    napi::bindgen_prelude::within_runtime_if_available(|| {
        RedisStore::connect(url, RedisOptions::default())
    })
    .map_err(|e| match e {
        RedisStoreError::Url(why) => {
            invalid(format!("redis must be a redis:// URL, got {url:?}: {why}"))
        }
        other => invalid(format!("redis {url:?}: {other}")),
    })
}

/// A set-up step that failed for a reason other than Redis being down (Redis holds something
/// unreadable under our keys), as a transport error.
fn unusable(what: &str, e: RedisStoreError) -> napi::Error {
    engine(Error::Transport(TransportError::new(format!(
        "redis: {what}: {e}"
    ))))
}

/// The sealer on the shared key ring (the engine's rule: awaiting the ring while Redis cannot be
/// reached, requests that must seal or open a `requestState` refused meanwhile); blocks the caller
/// (the JS thread, in the constructor) for one look at the ring.
pub(crate) fn sealer(redis: &RedisStore) -> napi::Result<StateSealer> {
    napi::bindgen_prelude::block_on(redis.state_sealer())
        .map_err(|e| unusable("the requestState key ring", e))
}

/// Joins the change fan-out (blocking until subscribed, or at once when Redis cannot be reached: it
/// subscribes once Redis answers), so that list changes and resource updates announced on any
/// instance reach the listening clients of every instance.
pub(crate) fn fan_out(redis: &RedisStore, server: &Server) -> napi::Result<()> {
    napi::bindgen_prelude::block_on(redis.fan_out_changes(server))
        .map_err(|e| unusable("the change fan-out", e))
}

/// Points `config` at the shared session and event stores (expiring with its idle timeout, so set
/// that first) and the relay (subscribed at once, or once Redis answers).
pub(crate) async fn configure(
    redis: &RedisStore,
    config: &mut HttpServerConfig,
) -> napi::Result<()> {
    redis.configure(config);
    let relay = redis
        .relay()
        .await
        .map_err(|e| unusable("answers to server requests", e))?;
    config.relay = Some(relay);
    Ok(())
}
