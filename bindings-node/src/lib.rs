//! The Node addon of libmcp: a thin N-API layer (napi-rs) over the core engine. Values cross as JSON
//! text; `lib/*.js` turns them into objects, errors into `McpError` classes, and JS handlers into the
//! raw handler shape of `libmcp::server::Handler`. No protocol rule lives here: registration,
//! validation, both eras, MRTR and every transport are the core's.

// napi-derive registers exports only outside `cfg(test)`, so the unit-test build sees them unused.
#![cfg_attr(test, allow(dead_code))]

mod client;
mod client_options;
mod error;
mod http;
mod request;
mod server;
mod subscription;
