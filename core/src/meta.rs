//! Reserved `_meta` keys of the protocol and the per-request metadata of the modern era.

use serde_json::{Map, Value};

use crate::error::RpcError;

/// Request `_meta`: the protocol version of this request (2026-07-28, required).
pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// Request `_meta`: the client capabilities declared on this request (2026-07-28, required).
pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// Request `_meta`: the client implementation (2026-07-28, recommended).
pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// Request `_meta`: the minimum log level for this request's `notifications/message` (2026-07-28).
pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// Result `_meta`: the server implementation (2026-07-28).
pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// Listen-stream `_meta`: the id of the `subscriptions/listen` request a message belongs to.
pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// Request `_meta`: the progress token opting the request into `notifications/progress`.
pub const PROGRESS_TOKEN: &str = "progressToken";

/// The `_meta` object of a params object, if it has one.
pub fn of(params: Option<&Value>) -> Option<&Map<String, Value>> {
    params?.get("_meta")?.as_object()
}

/// The modern protocol version a request names in its `_meta`, if any (a non-string counts as absent).
pub fn modern_version(params: Option<&Value>) -> Option<&str> {
    of(params)?.get(PROTOCOL_VERSION)?.as_str()
}

/// The per-request metadata of a modern request, checked in the order the spec recommends for shape.
#[derive(Clone, Debug)]
pub struct RequestMeta {
    /// The declared client capabilities (an object).
    pub client_capabilities: Value,
    /// The self-reported client implementation.
    pub client_info: Option<Value>,
    /// The requested minimum log level.
    pub log_level: Option<crate::model::logging::LoggingLevel>,
}

impl RequestMeta {
    /// Reads the required keys of a modern request's `_meta` (the version was checked before this).
    pub fn parse(params: Option<&Value>) -> Result<RequestMeta, RpcError> {
        let meta = of(params).ok_or_else(|| {
            RpcError::invalid_params(format!("params._meta must be an object carrying {PROTOCOL_VERSION} and {CLIENT_CAPABILITIES}"))
        })?;
        let caps = match meta.get(CLIENT_CAPABILITIES) {
            Some(v @ Value::Object(_)) => v.clone(),
            Some(_) => {
                return Err(RpcError::invalid_params(format!(
                    "_meta {CLIENT_CAPABILITIES} must be an object"
                )));
            }
            None => {
                return Err(RpcError::invalid_params(format!(
                    "params._meta is missing {CLIENT_CAPABILITIES}"
                )));
            }
        };
        let log_level = match meta.get(LOG_LEVEL) {
            None => None,
            Some(v) => Some(serde_json::from_value(v.clone()).map_err(|_| {
                RpcError::invalid_params(format!("_meta {LOG_LEVEL} must be one of debug, info, notice, warning, error, critical, alert, emergency"))
            })?),
        };
        Ok(RequestMeta {
            client_capabilities: caps,
            client_info: meta.get(CLIENT_INFO).cloned(),
            log_level,
        })
    }
}
