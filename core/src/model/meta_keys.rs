//! The reserved `_meta` keys of the protocol (re-exported by [`crate::meta`], which holds the rules
//! for reading them).

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
