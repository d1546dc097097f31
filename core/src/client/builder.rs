//! Building and connecting a client, including the era probe: `server/discover` first; a modern answer
//! or a modern error means a modern server; anything else (another error, a timeout) means legacy, and
//! the client falls back to `initialize`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use parking_lot::{Mutex, RwLock};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncRead, AsyncWrite, BufReader};

use super::connection::{CallOptions, Connection};
use super::{Client, ClientConfig, ClientHandlers, ServerDescription};
use crate::error::{Error, Result, code};
use crate::meta;
use crate::transport::Sink;
use crate::transport::child::{self, ChildSpec};
use crate::transport::lines::{Line, LineReader};
use crate::version::{Era, ProtocolVersion};

/// Answers one input request: receives its params, returns the result object.
pub type InputHandler = Arc<
    dyn Fn(
            Value,
        )
            -> Pin<Box<dyn Future<Output = std::result::Result<Value, crate::RpcError>> + Send>>
        + Send
        + Sync,
>;

/// Which era and version the client asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum VersionPreference {
    /// Probe with `server/discover` and fall back to `initialize` (the default).
    #[default]
    Auto,
    /// Only the modern era, starting with this version.
    Modern(ProtocolVersion),
    /// Only the legacy era, asking for this version at `initialize`.
    Legacy(ProtocolVersion),
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
    pub fn on_wire(
        mut self,
        f: impl Fn(super::WireDirection, &[u8]) + Send + Sync + 'static,
    ) -> Self {
        self.handlers.on_wire = Some(Arc::new(f));
        self
    }

    /// Spawns the server and connects to it over its stdin/stdout.
    pub async fn connect_stdio(self, spec: ChildSpec) -> Result<Client> {
        let (process, pipes) = child::spawn(&spec)?;
        let pref = self.preference.clone();
        let client = self.start(pipes.stdout, pipes.stdin);
        *client.child.lock() = Some(process);
        match negotiate(&client, &pref).await {
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
        match negotiate(&client, &pref).await {
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

/// Runs the era probe and records what the server is.
pub(crate) async fn negotiate(client: &Client, pref: &VersionPreference) -> Result<()> {
    match pref {
        VersionPreference::Legacy(v) => initialize(client, v).await,
        VersionPreference::Modern(v) => discover(client, v.clone(), None).await,
        VersionPreference::Auto => {
            let probe = discover(
                client,
                ProtocolVersion::LATEST,
                Some(client.conn.config.probe_timeout),
            )
            .await;
            match probe {
                Ok(()) => Ok(()),
                // A recognised modern error is definitive: no fallback.
                Err(Error::Rpc(e))
                    if [
                        code::HEADER_MISMATCH,
                        code::MISSING_REQUIRED_CLIENT_CAPABILITY,
                        code::UNSUPPORTED_PROTOCOL_VERSION,
                    ]
                    .contains(&e.code) =>
                {
                    Err(Error::Rpc(e))
                }
                Err(Error::Negotiation(m)) => Err(Error::Negotiation(m)),
                Err(Error::Transport(m)) => Err(Error::Transport(m)),
                Err(_) => initialize_fallback(client).await,
            }
        }
    }
}

/// The probe's fallback: `initialize` at the newest legacy version. A server that refuses it with
/// -32022 naming only modern versions is modern after all (its answer to a probe that timed out came
/// too late, and it has committed the connection to 2026-07-28): the client then discovers at the
/// newest of those versions it speaks, without a timeout.
pub(crate) async fn initialize_fallback(client: &Client) -> Result<()> {
    match initialize(client, &ProtocolVersion::LATEST_LEGACY).await {
        Err(Error::Rpc(e)) if e.code == code::UNSUPPORTED_PROTOCOL_VERSION => {
            let modern = e
                .data
                .as_ref()
                .and_then(|d| d.get("supported"))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(ProtocolVersion::new)
                .filter(|v| v.is_known() && v.era() == Era::Modern)
                .max();
            match modern {
                Some(v) => discover(client, v, None).await,
                None => Err(Error::Rpc(e)),
            }
        }
        other => other,
    }
}

pub(crate) async fn discover(
    client: &Client,
    version: ProtocolVersion,
    timeout: Option<std::time::Duration>,
) -> Result<()> {
    let mut version = version;
    for _ in 0..2 {
        set_era(client, Era::Modern, version.clone());
        let opts = CallOptions {
            timeout,
            on_progress: None,
        };
        match client.request("server/discover", json!({}), &opts).await {
            Ok(result) => return record_discover(client, version, result),
            Err(Error::Rpc(e)) if e.code == code::UNSUPPORTED_PROTOCOL_VERSION => {
                let supported: Vec<String> = e
                    .data
                    .as_ref()
                    .and_then(|d| d.get("supported"))
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                let pick = supported
                    .iter()
                    .map(ProtocolVersion::new)
                    .filter(|v| v.is_known() && v.era() == Era::Modern)
                    .max();
                // Retry even with the same version: the server may have refused for another reason
                // (the loop runs twice at most).
                match pick {
                    Some(v) => version = v,
                    _ => {
                        return Err(Error::Negotiation(format!(
                            "the server supports {supported:?}, none of which this client speaks in the modern era"
                        )));
                    }
                }
            }
            Err(e) => return Err(e),
        }
    }
    Err(Error::Negotiation(
        "the server rejected every version it offered".into(),
    ))
}

fn record_discover(client: &Client, version: ProtocolVersion, result: Value) -> Result<()> {
    match result.get("resultType").and_then(Value::as_str) {
        None | Some("complete") => {}
        Some(other) => {
            return Err(Error::Protocol(format!(
                "server/discover answered resultType {other:?}"
            )));
        }
    }
    let supported: Vec<String> = result
        .get("supportedVersions")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::Protocol("server/discover result has no supportedVersions".into()))?
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    let mut d = client.server.write();
    d.era = Era::Modern;
    d.version = version;
    d.supported_versions = supported;
    d.capabilities = result.get("capabilities").cloned().unwrap_or(json!({}));
    d.server_info = meta::of(Some(&result))
        .and_then(|m| m.get(meta::SERVER_INFO))
        .cloned();
    d.instructions = result
        .get("instructions")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(())
}

fn set_era(client: &Client, era: Era, version: ProtocolVersion) {
    let mut d = client.server.write();
    d.era = era;
    d.version = version;
}

pub(crate) async fn initialize(client: &Client, version: &ProtocolVersion) -> Result<()> {
    set_era(client, Era::Legacy, version.clone());
    let params = json!({
        "protocolVersion": version.as_str(),
        "capabilities": client.conn.handlers.capabilities(),
        "clientInfo": *client.info,
    });
    let result = client
        .request("initialize", params, &CallOptions::default())
        .await?;
    let answered = result
        .get("protocolVersion")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::Protocol("initialize result has no protocolVersion".into()))?;
    let agreed = ProtocolVersion::new(answered);
    if !agreed.is_known() || agreed.era() != Era::Legacy {
        return Err(Error::Negotiation(format!(
            "the server offered protocol version {answered}, which this client does not speak"
        )));
    }
    {
        let mut d = client.server.write();
        d.era = Era::Legacy;
        d.version = agreed.clone();
        d.supported_versions = vec![answered.to_string()];
        d.capabilities = result.get("capabilities").cloned().unwrap_or(json!({}));
        d.server_info = result.get("serverInfo").cloned();
        d.instructions = result
            .get("instructions")
            .and_then(Value::as_str)
            .map(str::to_string);
    }
    client.conn.notify("notifications/initialized", None);
    if let Some(level) = client.conn.config.log_level
        && client.server.read().capabilities.get("logging").is_some()
    {
        client
            .request(
                "logging/setLevel",
                json!({ "level": level.as_str() }),
                &CallOptions::default(),
            )
            .await?;
    }
    Ok(())
}
