//! libmcp: a native engine for the Model Context Protocol.
//!
//! One engine serves and consumes both eras of MCP: the stateless 2026-07-28 revision (per-request
//! `_meta`, `server/discover`, multi round-trip requests, `subscriptions/listen`) and the legacy
//! revisions 2024-11-05 through 2025-11-25 (the `initialize` handshake and sessions).
//!
//! The library never prints. Its diagnostics (a handler that panicked, a result it rejected, a
//! malformed message it ignored, a child server's stderr lines) are [`tracing`] events under targets
//! starting with `libmcp`; a host that wants them installs a subscriber.
#![warn(missing_docs)]

pub mod auth;
pub mod error;
pub mod file_uri;
pub mod icons;
pub mod jsonrpc;
pub mod meta;
pub mod model;
pub mod names;
pub mod request_state;
pub mod schema;
mod shapes;
pub mod uri_template;
pub mod version;

pub mod client;
pub mod server;
pub mod transport;

pub use error::{Error, ErrorKind, Result, RpcError};
pub use jsonrpc::RequestId;
pub use version::{Era, ProtocolVersion};

/// The README's Rust examples, compiled as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
