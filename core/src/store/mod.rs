//! Shared backends for the state that ties a client to one process: legacy sessions, their SSE
//! event logs, tasks and the `requestState` sealing keys, so that many instances behind a load
//! balancer can serve the same clients.

#[cfg(feature = "redis")]
pub mod redis;
