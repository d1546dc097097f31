//! What a client is built with: the handlers that answer the server's input requests and see its
//! notifications and wire traffic, and the client's tunables.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::model::logging::LoggingLevel;

/// Answers one input request: receives its params, returns the result object.
pub type InputHandler = Arc<
    dyn Fn(
            Value,
        )
            -> Pin<Box<dyn Future<Output = std::result::Result<Value, crate::RpcError>> + Send>>
        + Send
        + Sync,
>;

/// Sees a notification: its method and params.
pub type NotificationFn = Arc<dyn Fn(&str, &Value) + Send + Sync>;

/// Which way a message crossed the connection, for [`ClientBuilder::on_wire`](super::ClientBuilder::on_wire).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireDirection {
    /// From this client to the server.
    Sent,
    /// From the server to this client.
    Received,
}

/// Sees every JSON-RPC message the client sends or receives, as the bytes of one message.
pub type WireFn = Arc<dyn Fn(WireDirection, &[u8]) + Send + Sync>;

/// Handlers the client uses to answer input requests and observe notifications.
#[derive(Clone, Default)]
pub struct ClientHandlers {
    /// Answers `elicitation/create` with an ElicitResult.
    pub elicitation: Option<InputHandler>,
    /// Declares form-mode elicitation.
    pub elicitation_form: bool,
    /// Declares URL-mode elicitation.
    pub elicitation_url: bool,
    /// Answers `sampling/createMessage` with a CreateMessageResult.
    pub sampling: Option<InputHandler>,
    /// Declares `sampling.tools`.
    pub sampling_tools: bool,
    /// Answers `roots/list` with a ListRootsResult.
    pub roots: Option<InputHandler>,
    /// Sees every notification (method, params).
    pub on_notification: Option<NotificationFn>,
    /// Sees every message in both directions (wire tracing).
    pub on_wire: Option<WireFn>,
}

impl ClientHandlers {
    /// The capabilities object these handlers declare.
    pub fn capabilities(&self) -> Value {
        let mut caps = json!({});
        if self.elicitation.is_some() {
            let mut e = json!({});
            if self.elicitation_form {
                e["form"] = json!({});
            }
            if self.elicitation_url {
                e["url"] = json!({});
            }
            caps["elicitation"] = e;
        }
        if self.sampling.is_some() {
            caps["sampling"] = if self.sampling_tools {
                json!({"tools": {}})
            } else {
                json!({})
            };
        }
        if self.roots.is_some() {
            caps["roots"] = json!({});
        }
        caps
    }
}

/// Tunables of a client.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// Idle timeout of a request; each progress notification restarts it.
    pub request_timeout: Duration,
    /// Hard limit on one request, progress or not.
    pub max_total_timeout: Duration,
    /// How long the `server/discover` probe waits before assuming a legacy server.
    pub probe_timeout: Duration,
    /// Most input rounds of one call before the client gives up.
    pub max_input_rounds: u32,
    /// Largest accepted message from the server.
    pub max_message_bytes: usize,
    /// Log level requested per request (modern) or with `logging/setLevel` after connecting (legacy).
    pub log_level: Option<LoggingLevel>,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            request_timeout: Duration::from_secs(60),
            max_total_timeout: Duration::from_secs(600),
            probe_timeout: Duration::from_secs(5),
            max_input_rounds: 10,
            max_message_bytes: 8 * 1024 * 1024,
            log_level: None,
        }
    }
}
