//! The JSON-RPC error object that travels on the wire, and the codes JSON-RPC and MCP define for it.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// JSON-RPC and MCP error codes.
pub mod code {
    /// Invalid JSON was received.
    pub const PARSE_ERROR: i32 = -32700;
    /// The JSON sent is not a valid request object.
    pub const INVALID_REQUEST: i32 = -32600;
    /// The method does not exist or is not available (also: gated behind an unadvertised capability).
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// Invalid method parameters (also: unknown tool or prompt, resource not found in 2026-07-28).
    pub const INVALID_PARAMS: i32 = -32602;
    /// Internal error of the server.
    pub const INTERNAL_ERROR: i32 = -32603;
    /// Resource not found, as legacy revisions (2025-11-25 and earlier) defined it.
    pub const RESOURCE_NOT_FOUND_LEGACY: i32 = -32002;
    /// A Streamable HTTP header does not match the body (2026-07-28).
    pub const HEADER_MISMATCH: i32 = -32020;
    /// The request needs a client capability that was not declared on it (2026-07-28).
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;
    /// The requested protocol version is not served (2026-07-28).
    pub const UNSUPPORTED_PROTOCOL_VERSION: i32 = -32022;
}

/// A JSON-RPC error object: `{code, message, data?}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RpcError {
    /// The error code.
    pub code: i32,
    /// A short human-readable description.
    pub message: String,
    /// Additional information defined by the code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl RpcError {
    /// An error with a code and message and no data.
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// The same error with `data` attached.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// -32700.
    pub fn parse_error(detail: impl std::fmt::Display) -> Self {
        Self::new(code::PARSE_ERROR, format!("Parse error: {detail}"))
    }

    /// -32600.
    pub fn invalid_request(detail: impl std::fmt::Display) -> Self {
        Self::new(code::INVALID_REQUEST, format!("Invalid request: {detail}"))
    }

    /// -32601, with the method name as `data`.
    pub fn method_not_found(method: &str) -> Self {
        Self::new(code::METHOD_NOT_FOUND, "Method not found")
            .with_data(Value::String(method.into()))
    }

    /// -32602.
    pub fn invalid_params(detail: impl std::fmt::Display) -> Self {
        Self::new(code::INVALID_PARAMS, format!("Invalid params: {detail}"))
    }

    /// -32603.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        Self::new(code::INTERNAL_ERROR, format!("Internal error: {detail}"))
    }

    /// -32022 with `data: {supported, requested}`.
    pub fn unsupported_version(supported: &[&str], requested: &str) -> Self {
        Self::new(
            code::UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
        )
        .with_data(json!({ "supported": supported, "requested": requested }))
    }

    /// -32021 with `data: {requiredCapabilities}`.
    pub fn missing_capability(required: Value) -> Self {
        Self::new(
            code::MISSING_REQUIRED_CLIENT_CAPABILITY,
            "Missing required client capability",
        )
        .with_data(json!({ "requiredCapabilities": required }))
    }

    /// -32020.
    pub fn header_mismatch(detail: impl std::fmt::Display) -> Self {
        Self::new(code::HEADER_MISMATCH, format!("Header mismatch: {detail}"))
    }

    /// Resource not found: -32602 with `data.uri` (2026-07-28), or -32002 for a legacy revision.
    pub fn resource_not_found(uri: &str, legacy_code: bool) -> Self {
        let code = if legacy_code {
            code::RESOURCE_NOT_FOUND_LEGACY
        } else {
            code::INVALID_PARAMS
        };
        Self::new(code, format!("Resource not found: {uri}")).with_data(json!({ "uri": uri }))
    }

    /// Whether this is a resource-not-found error of either era.
    pub fn is_resource_not_found(&self) -> bool {
        self.code == code::RESOURCE_NOT_FOUND_LEGACY
            || (self.code == code::INVALID_PARAMS
                && self.data.as_ref().and_then(|d| d.get("uri")).is_some())
    }
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (code {})", self.message, self.code)
    }
}

impl std::error::Error for RpcError {}
