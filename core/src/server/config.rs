//! [`ServerConfig`]: the tunables of a server, each with a safe default (checked by
//! [`ServerConfig::validate`], in `validate`).

use std::time::Duration;

use crate::model::CacheScope;

/// Tunables of a server. Every limit has a safe default.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Items per page of `tools/list` and the other lists.
    pub page_size: usize,
    /// Largest accepted message in bytes; larger ones get -32600 and the connection carries on.
    pub max_message_bytes: usize,
    /// How long a sealed `requestState` stays valid.
    pub state_ttl: Duration,
    /// Largest `requestState` payload (the handler's state, before sealing) in bytes. A handler
    /// returning a larger state fails its request with -32603; a client sending back a token
    /// longer than the sealing of such a payload gets -32602 before any decoding.
    pub max_request_state_bytes: usize,
    /// Most input rounds one legacy request may take before it fails.
    pub max_input_rounds: u32,
    /// Most requests one session (a stdio connection, a legacy HTTP session, one modern POST) may
    /// have in flight; a request beyond that gets -32603 with `data.maxInFlight` and the session
    /// serves the next one as soon as one completes.
    pub max_in_flight: usize,
    /// `ttlMs` put on cacheable results that do not set their own.
    pub cache_ttl_ms: u64,
    /// `cacheScope` put on cacheable results that do not set their own.
    pub cache_scope: CacheScope,
    /// How long a legacy server-to-client request may wait for the client.
    pub client_request_timeout: Duration,
    /// Longest a handler (tool, prompt, resource, completion) may take to answer its request,
    /// legacy input rounds included; `None` (the default) lets handlers run as long as they
    /// like. When it passes first, the engine answers -32603 with `data.handlerTimeoutMs`,
    /// cancels the request (the handler sees it through its context) and drops the handler's
    /// later answer. A request the handler runs as a task is answered at once with the task, so
    /// the task's work is not limited.
    pub handler_timeout: Option<Duration>,
    /// How long the stdio server waits for in-flight requests after stdin closes.
    pub shutdown_grace: Duration,
    /// How long a task is kept after its creation (`ttlMs`); `None` keeps tasks until the store
    /// drops them. A 2025-11-25 client may ask for less.
    pub task_ttl_ms: Option<u64>,
    /// How often clients are asked to poll a task (`pollIntervalMs`).
    pub task_poll_interval_ms: u64,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            page_size: 100,
            max_message_bytes: 8 * 1024 * 1024,
            state_ttl: Duration::from_secs(600),
            max_request_state_bytes: 256 * 1024,
            max_input_rounds: 10,
            max_in_flight: 1024,
            cache_ttl_ms: 0,
            cache_scope: CacheScope::Private,
            client_request_timeout: Duration::from_secs(300),
            handler_timeout: None,
            shutdown_grace: Duration::from_secs(10),
            task_ttl_ms: Some(3_600_000),
            task_poll_interval_ms: 500,
        }
    }
}
