//! What every request handler of the HTTP server shares. The handlers (`dispatch`, `auth`, `batch`,
//! `resume`, `legacy_sse`, `shared`) each add their part as `impl State` blocks; `dispatch` is the
//! entry that calls the others.

use super::config::HttpServerConfig;
use super::sessions::Sessions;
use crate::server::Server;

/// What every request handler shares.
pub(crate) struct State {
    pub(crate) server: Server,
    pub(crate) config: HttpServerConfig,
    pub(crate) sessions: Sessions,
    /// Sessions of the 2024-11-05 HTTP+SSE transport, keyed by their `sessionId` query parameter.
    pub(crate) sse_sessions: Sessions,
    /// Mounted in a host application's router ([`HttpEndpoint`](super::HttpEndpoint)) rather
    /// than behind this crate's own listener: any path routed here is the endpoint.
    pub(crate) mounted: bool,
}
