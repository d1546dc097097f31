//! The Streamable HTTP transport, server side, on hyper 1: one endpoint (default `/mcp`) serving the
//! stateless 2026-07-28 wire and legacy sessions (2025-03-26 .. 2025-11-25) side by side, and on
//! request the deprecated 2024-11-05 HTTP+SSE transport.
//!
//! ```no_run
//! # async fn run(server: libmcp::server::Server) -> std::io::Result<()> {
//! use libmcp::transport::http::{HttpServerConfig, serve_http};
//! let handle = serve_http(server, HttpServerConfig::default()).await?;
//! eprintln!("listening on http://{}/mcp", handle.local_addr());
//! handle.wait().await;
//! # Ok(()) }
//! ```

mod auth;
mod batch;
mod body;
mod config;
mod dispatch;
mod events;
mod headers;
mod input;
mod legacy_sse;
mod resume;
mod security;
mod server;
mod sessions;
mod store;
mod streams;

pub use config::HttpServerConfig;
pub use server::{HttpServerHandle, serve_http};
pub use store::{EventStore, MemoryEventStore, ReplayError, StoredEvent};
