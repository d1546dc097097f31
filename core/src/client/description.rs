//! What the client learned about the server when it connected.

use serde_json::Value;

use crate::version::{Era, ProtocolVersion};

/// What the client learned about the server when it connected.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerDescription {
    /// The era in use.
    pub era: Era,
    /// The protocol version in use.
    pub version: ProtocolVersion,
    /// The versions the server named (modern: `supportedVersions`; legacy: the negotiated one).
    pub supported_versions: Vec<String>,
    /// The server's capabilities.
    pub capabilities: Value,
    /// The server's implementation object, if it sent one.
    pub server_info: Option<Value>,
    /// The server's instructions, if any.
    pub instructions: Option<String>,
}
