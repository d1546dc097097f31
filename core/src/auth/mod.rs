//! MCP authorization (OAuth 2.1): the metadata documents and challenges both sides share, and the
//! client that obtains tokens for the Streamable HTTP transport.

pub mod challenge;
pub mod metadata;
pub mod pkce;
pub mod urls;

#[cfg(feature = "http")]
pub mod client;
