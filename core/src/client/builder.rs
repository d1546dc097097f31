//! Building and connecting a client over stdio (a child process or any reader/writer pair); HTTP
//! connections are made by [`super::http`]. Either way the era probe of [`super::handshake`] runs
//! once the transport is up.

use std::sync::Arc;

use parking_lot::{Mutex, RwLock};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncRead, AsyncWrite, BufReader};

use super::config::{ClientConfig, ClientHandlers, InputHandler, WireDirection};
use super::connection::Connection;
use super::description::ServerDescription;
use super::handle::Client;
use super::handshake::{self, VersionPreference};
use crate::error::Result;
use crate::transport::Sink;
use crate::transport::child::{self, ChildSpec};
use crate::transport::lines::{Line, LineReader};
use crate::version::{Era, ProtocolVersion};

impl Client {
    /// Starts building a client with its implementation name and version.
    pub fn builder(name: impl Into<String>, version: impl Into<String>) -> ClientBuilder {
        ClientBuilder::new(name, version)
    }
}

/// Builds a [`Client`].
pub struct ClientBuilder {
    info: Map<String, Value>,
    preference: VersionPreference,
    handlers: ClientHandlers,
    config: ClientConfig,
}

fn boxed<F, Fut>(f: F) -> InputHandler
where
    F: Fn(Value) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = std::result::Result<Value, crate::RpcError>> + Send + 'static,
{
    Arc::new(move |v| Box::pin(f(v)))
}

impl ClientBuilder {
    pub(crate) fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        let mut info = Map::new();
        info.insert("name".into(), json!(name.into()));
        info.insert("version".into(), json!(version.into()));
        ClientBuilder {
            info,
            preference: VersionPreference::Auto,
            handlers: ClientHandlers::default(),
            config: ClientConfig::default(),
        }
    }

    /// Sets a field of the implementation object (`title`, `description`, ...).
    pub fn info_field(mut self, key: &str, value: Value) -> Self {
        self.info.insert(key.into(), value);
        self
    }

    /// Chooses the era and version.
    pub fn version_preference(mut self, p: VersionPreference) -> Self {
        self.preference = p;
        self
    }

    /// Replaces the tunables.
    pub fn config(mut self, c: ClientConfig) -> Self {
        self.config = c;
        self
    }

    /// Answers elicitation requests (declares `elicitation.form`; see [`Self::elicitation_url`]).
    pub fn on_elicitation<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = std::result::Result<Value, crate::RpcError>> + Send + 'static,
    {
        self.handlers.elicitation = Some(boxed(f));
        self.handlers.elicitation_form = true;
        self
    }

    /// Also declares URL-mode elicitation.
    pub fn elicitation_url(mut self, on: bool) -> Self {
        self.handlers.elicitation_url = on;
        self
    }

    /// Answers sampling requests.
    pub fn on_sampling<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = std::result::Result<Value, crate::RpcError>> + Send + 'static,
    {
        self.handlers.sampling = Some(boxed(f));
        self
    }

    /// Declares `sampling.tools` (tool use inside sampling).
    pub fn sampling_tools(mut self, on: bool) -> Self {
        self.handlers.sampling_tools = on;
        self
    }

    /// Answers `roots/list` with a fixed list of roots (`{uri, name?}` objects).
    pub fn roots(mut self, roots: Vec<Value>) -> Self {
        let result = json!({ "roots": roots });
        self.handlers.roots = Some(boxed(move |_| {
            let r = result.clone();
            async move { Ok(r) }
        }));
        self
    }

    /// Answers `roots/list` with a handler.
    pub fn on_roots<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = std::result::Result<Value, crate::RpcError>> + Send + 'static,
    {
        self.handlers.roots = Some(boxed(f));
        self
    }

    /// Sees every notification from the server.
    pub fn on_notification(mut self, f: impl Fn(&str, &Value) + Send + Sync + 'static) -> Self {
        self.handlers.on_notification = Some(Arc::new(f));
        self
    }

    /// Sees every JSON-RPC message sent to or received from the server, in order, before the client
    /// acts on it (for wire tracing; called on the engine's tasks, so it must not block).
    pub fn on_wire(mut self, f: impl Fn(WireDirection, &[u8]) + Send + Sync + 'static) -> Self {
        self.handlers.on_wire = Some(Arc::new(f));
        self
    }

    /// Spawns the server and connects to it over its stdin/stdout.
    pub async fn connect_stdio(self, spec: ChildSpec) -> Result<Client> {
        let (process, pipes) = child::spawn(&spec)?;
        let pref = self.preference.clone();
        let client = self.start(pipes.stdout, pipes.stdin);
        *client.child.lock() = Some(process);
        match handshake::negotiate(&client, &pref).await {
            Ok(()) => Ok(client),
            Err(e) => {
                client.close().await;
                Err(e)
            }
        }
    }

    /// Connects over an existing byte stream pair (newline-delimited JSON).
    pub async fn connect_io<R, W>(self, reader: R, writer: W) -> Result<Client>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let pref = self.preference.clone();
        let client = self.start(reader, writer);
        match handshake::negotiate(&client, &pref).await {
            Ok(()) => Ok(client),
            Err(e) => {
                client.close().await;
                Err(e)
            }
        }
    }

    /// Connects to a Streamable HTTP endpoint (`http://host:port/path`), probing the server's era
    /// once per origin (see [`super::http`]).
    #[cfg(feature = "http")]
    pub async fn connect_http(self, url: &str) -> Result<Client> {
        self.connect_http_with(url, super::http::HttpClientOptions::default())
            .await
    }

    /// [`Self::connect_http`] with options (extra headers).
    #[cfg(feature = "http")]
    pub async fn connect_http_with(
        self,
        url: &str,
        options: super::http::HttpClientOptions,
    ) -> Result<Client> {
        super::http::connect(
            Value::Object(self.info),
            self.preference,
            self.handlers,
            self.config,
            url,
            options,
        )
        .await
    }

    fn start<R, W>(self, reader: R, writer: W) -> Client
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (sink, rx) = Sink::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel();
        tokio::spawn(crate::transport::stdio::write_loop(writer, rx, stop_rx));
        let max = self.config.max_message_bytes;
        let conn = Connection::new(sink, self.handlers, self.config);
        let reader_conn = conn.clone();
        tokio::spawn(async move {
            let mut lines = LineReader::new(BufReader::with_capacity(64 * 1024, reader), max);
            loop {
                match lines.next().await {
                    Ok(Line::Frame(bytes)) => reader_conn.on_frame(bytes),
                    Ok(Line::TooLong) => {
                        tracing::warn!("client: dropped a message over {max} bytes")
                    }
                    Ok(Line::Eof) | Err(_) => break,
                }
            }
            reader_conn.close();
        });
        Client {
            conn,
            info: Arc::new(Value::Object(self.info)),
            server: Arc::new(RwLock::new(ServerDescription {
                era: Era::Modern,
                version: ProtocolVersion::LATEST,
                supported_versions: vec![],
                capabilities: json!({}),
                server_info: None,
                instructions: None,
            })),
            child: Arc::new(Mutex::new(None)),
            stop_writer: Arc::new(Mutex::new(Some(stop_tx))),
            on_close: Arc::new(Mutex::new(None)),
        }
    }
}
