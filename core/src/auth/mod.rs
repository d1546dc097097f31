//! OAuth 2.1 authorization for MCP over HTTP. Client side: [`client`] obtains tokens for the
//! Streamable HTTP transport (discovery, registration, PKCE, step-up, refresh) from the shared
//! documents in [`metadata`] and the challenges parsed by [`challenge`]. Server side, below: the MCP
//! server as a resource server.
//!
//! The library never issues or parses tokens itself. A [`TokenVerifier`] supplied by the
//! application (JWT validation, RFC 7662 introspection, a lookup table) turns a bearer token into
//! an [`AuthInfo`]; [`ResourceServerConfig`] then enforces expiry, audience binding (RFC 8707) and
//! scopes, and describes the resource in an RFC 9728 [`ProtectedResourceMetadata`] document. The
//! HTTP transport (`HttpServerConfig::auth`) serves that document and answers failures with RFC 6750
//! challenges; handlers see the caller's [`AuthInfo`] through `RequestContext::auth`.
//!
//! ```no_run
//! # #[cfg(feature = "http")]
//! # async fn run(server: libmcp::server::Server) -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use libmcp::auth::{AuthInfo, ResourceServerConfig, TokenRejection};
//! use libmcp::transport::http::{HttpServerConfig, serve_http};
//!
//! // A verifier: here a fixed token; really a JWT check or an introspection call.
//! let verify = |token: String| async move {
//!     match token.as_str() {
//!         "s3cret" => Ok(AuthInfo::new()
//!             .subject("alice")
//!             .scopes(["mcp:read"])
//!             .audience(["https://mcp.example.com/mcp"])),
//!         _ => Err(TokenRejection::Invalid("unknown token".into())),
//!     }
//! };
//! let auth = ResourceServerConfig::builder("https://mcp.example.com/mcp", verify)
//!     .authorization_server("https://auth.example.com")
//!     .scopes_supported(["mcp:read", "mcp:write"])
//!     .required_scopes(["mcp:read"])
//!     .tool_scopes("delete_everything", ["mcp:write"])
//!     .build()?;
//! let config = HttpServerConfig { auth: Some(Arc::new(auth)), ..HttpServerConfig::default() };
//! serve_http(server, config).await?.wait().await;
//! # Ok(()) }
//! ```

pub mod challenge;
#[cfg(feature = "http")]
mod dpop_check;
pub mod metadata;
pub mod pkce;
pub mod prm;
pub mod resource;
mod resource_challenge;
mod resource_verifier;
pub mod urls;

#[cfg(feature = "http")]
pub mod client;

#[cfg(feature = "http")]
pub use dpop_check::PROOF_WINDOW_SECS;
pub use prm::ProtectedResourceMetadata;
pub use resource::{AuthConfigError, ResourceServerConfig, ResourceServerConfigBuilder};
pub use resource_challenge::{Challenge, ChallengeKind};
pub use resource_verifier::{AuthInfo, TokenRejection, TokenVerifier, VerifyFuture};
