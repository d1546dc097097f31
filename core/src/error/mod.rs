//! Errors: the JSON-RPC error object that travels on the wire ([`RpcError`]) and the one error type of
//! the Rust API ([`Error`]), whose variants a host maps to its own exceptions.
//!
//! A protocol failure keeps its code, message and data unchanged from the peer to every binding; errors
//! raised locally (timeouts, a closed transport) are separate variants so they never look like a peer's.
//! Each message carries one prefix naming its kind, once: the detail inside never repeats it.

mod auth;
mod definition;
mod rpc;

use std::fmt;
use std::time::Duration;

pub use auth::AuthError;
pub use definition::{ConfigError, DefinitionError, DefinitionKind};
pub use rpc::{RpcError, code};

/// The source of a [`TransportError`].
type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// The error type of the Rust API.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The peer answered with a JSON-RPC error (code, message and data as the peer sent them).
    #[error("peer error: {0}")]
    Rpc(RpcError),
    /// Moving bytes failed: an I/O error, an HTTP exchange, TLS, an unexpected HTTP status.
    #[error("transport error: {0}")]
    Transport(TransportError),
    /// No response arrived within the request timeout (progress notifications reset it).
    #[error("request timed out after {0:?}")]
    Timeout(Duration),
    /// The request was cancelled locally.
    #[error("request cancelled")]
    Cancelled,
    /// The connection is closed (or closed before the answer arrived).
    #[error("connection closed")]
    Closed,
    /// The peer broke the protocol (an invalid response, an unknown resultType, ...).
    #[error("protocol violation: {0}")]
    Protocol(String),
    /// No protocol version acceptable to both sides.
    #[error("version negotiation failed: {0}")]
    Negotiation(String),
    /// OAuth authorization failed, for the reason given.
    #[error("authorization failed: {0}")]
    Authorization(AuthError),
    /// A value given to the API is invalid (a bad URL, parameters that are not an object, ...).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// The server builder rejected these definitions (every problem, not only the first).
    #[error("invalid definition: {}", definition::Joined(.0))]
    InvalidDefinitions(Vec<DefinitionError>),
    /// A configuration value breaks a rule.
    #[error("invalid configuration: {0}")]
    InvalidConfig(ConfigError),
}

/// The kind of an [`Error`], for hosts that map errors to their own exception classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// [`Error::Rpc`].
    Rpc,
    /// [`Error::Transport`].
    Transport,
    /// [`Error::Timeout`].
    Timeout,
    /// [`Error::Cancelled`].
    Cancelled,
    /// [`Error::Closed`].
    Closed,
    /// [`Error::Protocol`].
    Protocol,
    /// [`Error::Negotiation`].
    Negotiation,
    /// [`Error::Authorization`].
    Authorization,
    /// [`Error::InvalidArgument`], [`Error::InvalidDefinitions`] and [`Error::InvalidConfig`]: the
    /// caller gave something invalid.
    InvalidArgument,
}

impl Error {
    /// The kind of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Rpc(_) => ErrorKind::Rpc,
            Error::Transport(_) => ErrorKind::Transport,
            Error::Timeout(_) => ErrorKind::Timeout,
            Error::Cancelled => ErrorKind::Cancelled,
            Error::Closed => ErrorKind::Closed,
            Error::Protocol(_) => ErrorKind::Protocol,
            Error::Negotiation(_) => ErrorKind::Negotiation,
            Error::Authorization(_) => ErrorKind::Authorization,
            Error::InvalidArgument(_) | Error::InvalidDefinitions(_) | Error::InvalidConfig(_) => {
                ErrorKind::InvalidArgument
            }
        }
    }

    /// The message without its kind prefix (`"bad URL ..."` for `invalid argument: bad URL ...`), for
    /// hosts whose exception class already names the kind. A peer error gives its message unchanged.
    pub fn detail(&self) -> String {
        match self {
            Error::Rpc(e) => e.message.clone(),
            Error::Transport(e) => e.to_string(),
            Error::Protocol(m) | Error::Negotiation(m) | Error::InvalidArgument(m) => m.clone(),
            Error::Authorization(e) => e.to_string(),
            Error::InvalidDefinitions(list) => definition::Joined(list).to_string(),
            Error::InvalidConfig(e) => e.to_string(),
            Error::Timeout(_) | Error::Cancelled | Error::Closed => self.to_string(),
        }
    }

    /// A transport error with a message and no underlying cause.
    pub(crate) fn transport(message: impl Into<String>) -> Error {
        Error::Transport(TransportError::new(message))
    }
}

/// A transport failure: what failed, and the underlying error (I/O, hyper, TLS) when there is one.
///
/// The message is complete on its own; [`std::error::Error::source`] gives the underlying error for
/// callers that inspect it (for example to downcast to [`std::io::Error`]).
#[derive(Debug)]
pub struct TransportError {
    message: String,
    source: Option<BoxError>,
}

impl TransportError {
    /// A failure described by `message` alone.
    pub fn new(message: impl Into<String>) -> Self {
        TransportError {
            message: message.into(),
            source: None,
        }
    }

    /// A failure described by `message`, caused by `source`.
    pub fn with_source(message: impl Into<String>, source: impl Into<BoxError>) -> Self {
        TransportError {
            message: message.into(),
            source: Some(source.into()),
        }
    }

    /// The description of the failure.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The underlying I/O error, when the failure is one.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        let mut cause: Option<&(dyn std::error::Error + 'static)> =
            self.source.as_deref().map(|e| e as _);
        while let Some(e) = cause {
            if let Some(io) = e.downcast_ref::<std::io::Error>() {
                return Some(io);
            }
            cause = e.source();
        }
        None
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TransportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|e| e as _)
    }
}

impl From<RpcError> for Error {
    fn from(e: RpcError) -> Self {
        Error::Rpc(e)
    }
}

impl From<TransportError> for Error {
    fn from(e: TransportError) -> Self {
        Error::Transport(e)
    }
}

impl From<AuthError> for Error {
    fn from(e: AuthError) -> Self {
        Error::Authorization(e)
    }
}

impl From<DefinitionError> for Error {
    fn from(e: DefinitionError) -> Self {
        Error::InvalidDefinitions(vec![e])
    }
}

impl From<ConfigError> for Error {
    fn from(e: ConfigError) -> Self {
        Error::InvalidConfig(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Transport(TransportError::with_source(e.to_string(), e))
    }
}

/// Result alias of the Rust API.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_message_names_its_kind_once() {
        let defs = Error::InvalidDefinitions(vec![
            DefinitionError::new(DefinitionKind::Tool, "a", "duplicate name"),
            DefinitionError::unnamed(DefinitionKind::Prompt, "needs a string name"),
        ]);
        assert_eq!(
            defs.to_string(),
            "invalid definition: tool \"a\": duplicate name; prompt: needs a string name"
        );
        assert_eq!(
            defs.detail(),
            "tool \"a\": duplicate name; prompt: needs a string name"
        );
        let auth = Error::from(AuthError::Denied("access_denied".into()));
        assert_eq!(
            auth.to_string(),
            "authorization failed: denied: access_denied"
        );
        assert_eq!(auth.kind(), ErrorKind::Authorization);
        let cfg = Error::from(ConfigError::new("request_timeout", "must not be zero"));
        assert_eq!(
            cfg.to_string(),
            "invalid configuration: request_timeout: must not be zero"
        );
        assert_eq!(Error::Closed.to_string(), "connection closed");
    }

    #[test]
    fn a_transport_error_keeps_its_io_source() {
        let io = std::io::Error::new(std::io::ErrorKind::BrokenPipe, "pipe gone");
        let Error::Transport(t) = Error::from(io) else {
            panic!("not a transport error")
        };
        assert_eq!(
            t.io_error().map(std::io::Error::kind),
            Some(std::io::ErrorKind::BrokenPipe)
        );
        assert_eq!(t.to_string(), "pipe gone");
        assert!(std::error::Error::source(&t).is_some());
    }
}
