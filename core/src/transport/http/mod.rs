//! The Streamable HTTP transport, server side, on hyper 1: one endpoint (default `/mcp`) serving the
//! stateless 2026-07-28 wire and legacy sessions (2025-03-26 .. 2025-11-25) side by side, and on
//! request the deprecated 2024-11-05 HTTP+SSE transport.
//!
//! ```no_run
//! # async fn run(server: libmcp::server::Server) -> libmcp::Result<()> {
//! use libmcp::transport::http::{HttpServerConfig, serve_http};
//! let handle = serve_http(server, HttpServerConfig::default()).await?;
//! eprintln!("listening on http://{}/mcp", handle.local_addr());
//! handle.wait().await;
//! # Ok(()) }
//! ```
//!
//! # Several instances
//!
//! Legacy sessions are recorded in a [`SessionStore`] and their SSE events in an [`EventStore`]
//! ([`HttpServerConfig::session_store`], [`HttpServerConfig::event_store`]). Give every instance
//! the same two stores and any instance serves any session: it rehydrates the negotiated version,
//! client capabilities and info, log level, subscriptions and bound principal from the record,
//! sees changes and DELETEs made elsewhere on the next request, and replays recorded events on
//! `Last-Event-ID`. A [`MessageRelay`] ([`HttpServerConfig::relay`]) lets a client answer a
//! server-to-client request on any instance. Requests in flight and their cancellation, and open
//! streams with the messages still to come on them, stay in one process and need sticky routing by
//! `Mcp-Session-Id`; [`SessionStore`] spells this out. The 2026-07-28 stateless wire needs neither
//! store.

mod auth;
mod batch;
mod body;
mod config;
mod dispatch;
mod endpoint;
mod events;
#[cfg(feature = "fuzzing")]
pub(crate) mod fuzzing;
mod headers;
mod input;
mod legacy_sse;
mod local_copy;
mod media;
mod narrowed;
mod relay;
mod respond;
mod resume;
mod security;
mod server;
mod session_store;
mod sessions;
mod shared;
mod state;
mod store;
mod streams;

pub use config::{HttpServerConfig, MIN_HEADER_BYTES};
pub use endpoint::{Exchange, ExchangeRequest, HttpEndpoint, ResponseBody};
pub use local_copy::{LocalCopyEventStore, SharedEventLog};
pub use relay::{Deliver, MessageRelay};
pub use server::{HttpServerHandle, serve_http};
pub use session_store::{
    MemorySessionStore, SessionRecord, SessionStore, SessionStoreError, StoreFuture,
    StoredPrincipal,
};
pub use store::{EventStore, MemoryEventStore, ReplayError, StoredEvent};
