//! The MCP client: connects over stdio (or any byte stream), probes the server's era and adapts,
//! fulfils input requests (MRTR, and legacy server-to-client requests) through registered handlers.
//!
//! ```no_run
//! use libmcp::client::Client;
//! use libmcp::transport::child::ChildSpec;
//! use serde_json::json;
//!
//! # async fn run() -> libmcp::Result<()> {
//! let client = Client::builder("demo-client", "1.0.0")
//!     .connect_stdio(ChildSpec::new("my-server", ["--stdio"]))
//!     .await?;
//! for tool in client.list_all_tools().await? {
//!     println!("{}: {}", tool.name, tool.description.unwrap_or_default());
//! }
//! let result = client.call_tool("echo", json!({"text": "hi"})).await?;
//! assert!(!result.is_error());
//! client.close().await;
//! # Ok(()) }
//! ```

mod builder;
mod connection;
mod handshake;
#[cfg(feature = "http")]
pub mod http;
mod mrtr;
mod pages;
mod raw;
mod skills;
mod subscription;
mod tasks;
mod typed;
mod validate;

use std::sync::Arc;
use std::time::Duration;

use parking_lot::{Mutex, RwLock};
use serde_json::{Map, Value, json};

pub use builder::{ClientBuilder, InputHandler};
pub use connection::{CallOptions, ProgressFn};
pub use handshake::VersionPreference;
pub use pages::{Listed, Pages};
pub use subscription::{Subscription, SubscriptionFilter, task_of};
pub use tasks::TaskCall;

use crate::error::{Error, Result};
use crate::meta;
use crate::model::logging::LoggingLevel;
use crate::transport::child::ChildProcess;
use crate::version::{Era, ProtocolVersion};
use connection::Connection;

/// Sees a notification: its method and params.
pub type NotificationFn = Arc<dyn Fn(&str, &Value) + Send + Sync>;

/// Which way a message crossed the connection, for [`ClientBuilder::on_wire`].
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

/// A connected client. Cheap to clone; calls may run concurrently.
#[derive(Clone)]
pub struct Client {
    pub(crate) conn: Arc<Connection>,
    pub(crate) info: Arc<Value>,
    pub(crate) server: Arc<RwLock<ServerDescription>>,
    pub(crate) child: Arc<Mutex<Option<ChildProcess>>>,
    pub(crate) stop_writer: Arc<Mutex<Option<tokio::sync::oneshot::Sender<()>>>>,
    /// Transport teardown run once by [`Client::close`] (HTTP: abort streams, DELETE the session).
    pub(crate) on_close: Arc<Mutex<Option<CloseHook>>>,
}

/// A transport's teardown, awaited once when the client closes.
pub(crate) type CloseHook = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

impl Client {
    /// Starts building a client with its implementation name and version.
    pub fn builder(name: impl Into<String>, version: impl Into<String>) -> ClientBuilder {
        ClientBuilder::new(name, version)
    }

    /// What the client learned about the server.
    pub fn server(&self) -> ServerDescription {
        self.server.read().clone()
    }

    /// The era in use.
    pub fn era(&self) -> Era {
        self.server.read().era
    }

    fn modern_meta(&self, version: &ProtocolVersion, tasks: bool) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert(meta::PROTOCOL_VERSION.into(), json!(version.as_str()));
        let mut caps = self.conn.handlers.capabilities();
        if tasks {
            caps["extensions"] = json!({ crate::model::tasks::EXTENSION: {} });
        }
        m.insert(meta::CLIENT_CAPABILITIES.into(), caps);
        m.insert(meta::CLIENT_INFO.into(), (*self.info).clone());
        if let Some(l) = self.conn.config.log_level {
            m.insert(meta::LOG_LEVEL.into(), json!(l.as_str()));
        }
        m
    }

    /// Sends one request as-is (no input rounds): `_meta` is added for the era in use, and the raw
    /// result comes back, `resultType` included.
    pub async fn request(&self, method: &str, params: Value, opts: &CallOptions) -> Result<Value> {
        self.request_as(method, params, opts, false).await
    }

    /// Like [`request`](Self::request); with `tasks` the request's capabilities (modern) declare
    /// the tasks extension.
    pub(crate) async fn request_as(
        &self,
        method: &str,
        params: Value,
        opts: &CallOptions,
        tasks: bool,
    ) -> Result<Value> {
        let params = match params {
            Value::Object(m) => m,
            Value::Null => Map::new(),
            _ => return Err(Error::InvalidArgument("params must be an object".into())),
        };
        let (era, version) = {
            let s = self.server.read();
            (s.era, s.version.clone())
        };
        let extra = (era == Era::Modern).then(|| self.modern_meta(&version, tasks));
        self.conn.call(method, params, extra, opts).await
    }

    /// Sends a request and checks its `resultType`: a missing one reads as complete, an unknown one is
    /// a protocol violation. Input requests are fulfilled and the call retried (MRTR).
    pub async fn call(&self, method: &str, params: Value, opts: &CallOptions) -> Result<Value> {
        mrtr::call_with_input(self, method, params, opts).await
    }

    /// `server/discover` (modern servers).
    pub async fn discover(&self) -> Result<Value> {
        self.call("server/discover", json!({}), &CallOptions::default())
            .await
    }

    /// `ping` (legacy era only; the modern era removed it).
    pub async fn ping(&self) -> Result<()> {
        if self.era() == Era::Modern {
            return Err(Error::InvalidArgument(
                "ping does not exist in the modern era".into(),
            ));
        }
        self.request("ping", json!({}), &CallOptions::default())
            .await
            .map(|_| ())
    }

    /// Subscribes to change notifications: a `subscriptions/listen` stream (modern) or the session's
    /// notifications plus `resources/subscribe` (legacy), behind one API.
    pub async fn subscribe(&self, filter: SubscriptionFilter) -> Result<Subscription> {
        subscription::open(self, filter).await
    }

    /// The process id of a spawned server, while it runs.
    pub fn server_pid(&self) -> Option<u32> {
        self.child.lock().as_ref().and_then(ChildProcess::id)
    }

    /// Closes the connection: stdin of a child server is closed, then the process is stopped.
    pub async fn close(&self) {
        if let Some(stop) = self.stop_writer.lock().take() {
            let _ = stop.send(());
        }
        let child = self.child.lock().take();
        if let Some(child) = child {
            let _ = child.shutdown().await;
        }
        let hook = self.on_close.lock().take();
        if let Some(hook) = hook {
            hook.await;
        }
        self.conn.close();
    }

    /// Resolves when the server side of the connection has closed.
    pub async fn closed(&self) {
        self.conn.closed().await
    }
}
