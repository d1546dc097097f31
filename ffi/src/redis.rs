//! `mcp_redis`: the shared Redis state of many instances (`libmcp::store::redis`). One connection,
//! used by a server builder (tasks, `requestState` keys, change fan-out) and by HTTP configs
//! (sessions, SSE events, answers to server-to-client requests).

use std::ffi::c_char;

use libmcp::store::redis::{RedisOptions, RedisStore};

use crate::error::mcp_error;
use crate::http_config::mcp_http_server_config;
use crate::redis_shared::SharedRedis;
use crate::runtime::mcp_runtime;
use crate::server::mcp_server_builder;
use crate::status::mcp_status;

/// A lazy connection to one Redis database. Any thread; the builders and configs it is set on keep
/// what they need, so it may be freed right after.
pub struct mcp_redis {
    pub(crate) shared: SharedRedis,
}

/// Opens a connection to the Redis database at `url` (UTF-8, e.g. "redis://127.0.0.1:6379/0";
/// "rediss://" for TLS, "redis://:password@host/db" with a password) on `runtime`, with keys under
/// the prefix "libmcp:". Connects lazily: this returns at once also when Redis is down; the
/// connection is made, and re-made after a failure, in the background. A URL that is not a Redis
/// URL is `MCP_STATUS_INVALID_ARGUMENT` with the reason in `*error_out` (may be NULL; written only on
/// failure). Free with `mcp_redis_free`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_redis_connect(
    runtime: *const mcp_runtime,
    url: *const c_char,
    url_len: usize,
    redis_out: *mut *mut mcp_redis,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let rt = try_ref!(runtime).rt.clone();
        let url = try_str!(url, url_len);
        try_out!(redis_out);
        let connected = {
            let _entered = rt.enter();
            RedisStore::connect(url, RedisOptions::default())
        };
        match connected {
            Ok(store) => {
                let h = Box::new(mcp_redis {
                    shared: SharedRedis { store, rt },
                });
                unsafe { *redis_out = Box::into_raw(h) };
                mcp_status::MCP_STATUS_OK
            }
            Err(e) => mcp_error::new(mcp_status::MCP_STATUS_INVALID_ARGUMENT, e.to_string())
                .store(error_out),
        }
    })
}

/// Frees the caller's handle; builders, configs and servers it was set on keep the connection.
/// NULL is ignored.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_redis_free(redis: *mut mcp_redis) {
    ffi_boundary!((), {
        if !redis.is_null() {
            drop(unsafe { Box::from_raw(redis) });
        }
    })
}

/// Keeps the server's tasks and its `requestState` sealing keys in `redis` (a key ring shared by
/// every instance, rotated daily, the old key accepted for an hour; this replaces a key set with
/// `mcp_server_config_set_state_key`), and makes `mcp_server_builder_build` join the change fan-out:
/// `notifications/*/list_changed` and resource updates announced on any instance reach the
/// listening clients of every instance. Takes one look at the key ring (at most the connection's
/// timeout); when Redis cannot be reached the server is built and serves all the same, and
/// requests that must seal or open a `requestState` are answered with a JSON-RPC error (-32603)
/// until Redis answers, which is tried every second (both logged through `mcp_set_log_callback`).
/// `MCP_STATUS_IO` with the reason in `*error_out` only when Redis holds a key ring it cannot read
/// (nothing changes then). Not from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_set_redis(
    builder: *mut mcp_server_builder,
    redis: *const mcp_redis,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        let shared = try_ref!(redis).shared.clone();
        if b.inner.is_none() {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        }
        let store = shared.store.clone();
        let sealer = match shared.block_on("mcp_server_builder_set_redis", async move {
            store.state_sealer().await
        }) {
            Ok(s) => s,
            Err(e) => return e.store(error_out),
        };
        let tasks = shared.store.task_store();
        b.redis = Some(shared);
        crate::builder_slot::update(&mut b.inner, |inner| {
            inner.task_store(tasks).state_sealer(sealer)
        })
    })
}

/// Keeps the legacy sessions and their SSE event logs of servers served with `config` in `redis`
/// (they expire after the session idle timeout in effect when serving), and lets a client's answer
/// to an elicitation, sampling or roots request reach the instance whose handler waits for it, on
/// whichever instance it is POSTed. Replaces stores set with `_set_session_store` and
/// `_set_event_store`. Serving starts also while Redis cannot be reached: the requests that need it
/// (a legacy session's) are answered 503 with a JSON-RPC error until it answers, and the relay
/// subscribes then.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_config_set_redis(
    config: *mut mcp_http_server_config,
    redis: *const mcp_redis,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        c.redis = Some(try_ref!(redis).shared.store.clone());
        mcp_status::MCP_STATUS_OK
    })
}
