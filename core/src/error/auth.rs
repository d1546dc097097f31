//! Why an OAuth authorization failed, one variant per step of the flow a host may report differently
//! (ask the user again, re-register, request another scope).

/// Why authorization failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AuthError {
    /// Protected-resource or authorization-server discovery found nothing usable.
    #[error("discovery failed: {0}")]
    Discovery(String),
    /// A metadata document is invalid or does not match (resource, issuer, PKCE support).
    #[error("metadata rejected: {0}")]
    Metadata(String),
    /// No client registration could be obtained (the server refused dynamic registration, none is
    /// pre-registered, ...).
    #[error("client registration failed: {0}")]
    Registration(String),
    /// The user or the authorization server declined the authorization request (an `error` in the
    /// redirect such as `access_denied`, or the application's handler declined).
    #[error("denied: {0}")]
    Denied(String),
    /// The authorization request failed or its response was rejected (state or issuer mismatch,
    /// no code).
    #[error("authorization request failed: {0}")]
    Authorization(String),
    /// The token endpoint refused the grant as `invalid_grant` (an expired or reused code, a revoked
    /// refresh token).
    #[error("invalid grant: {0}")]
    InvalidGrant(String),
    /// The token endpoint refused otherwise or answered nonsense.
    #[error("token request failed: {0}")]
    Token(String),
    /// The resource server still answers `403 insufficient_scope` after every step-up allowed.
    #[error("insufficient scope: {0}")]
    InsufficientScope(String),
    /// The resource server still rejects the token (`401`) after every flow allowed.
    #[error("token rejected: {0}")]
    Rejected(String),
    /// The configured client credentials cannot be used (a private key that does not parse, an
    /// unsupported signing algorithm, an assertion file that cannot be read).
    #[error("client credentials unusable: {0}")]
    Credentials(String),
    /// An HTTP exchange with a metadata, registration or token endpoint failed.
    #[error("HTTP request failed: {0}")]
    Http(String),
}
