//! OAuth 2.1 authorization for MCP over HTTP, server side: the MCP server as a resource server.
//!
//! The library never issues or parses tokens itself. A [`TokenVerifier`] supplied by the
//! application (JWT validation, RFC 7662 introspection, a lookup table) turns a bearer token into
//! an [`AuthInfo`]; [`ResourceServerConfig`] then enforces expiry, audience binding (RFC 8707) and
//! scopes, and describes the resource in an RFC 9728 [`ProtectedResourceMetadata`] document. The
//! HTTP transport (`HttpServerConfig::auth`) serves that document and answers failures with RFC 6750
//! challenges; handlers see the caller's [`AuthInfo`] through `RequestContext::auth`.

pub mod prm;
pub mod resource;
mod resource_challenge;
mod resource_verifier;

pub use prm::ProtectedResourceMetadata;
pub use resource::{AuthConfigError, ResourceServerConfig, ResourceServerConfigBuilder};
pub use resource_challenge::{Challenge, ChallengeKind};
pub use resource_verifier::{AuthInfo, TokenRejection, TokenVerifier, VerifyFuture};
