//! The connected client as a value: its connection, what it learned about the server, and how it
//! sends a request and closes. The calls built on top (input rounds, lists, tasks, subscriptions)
//! are in the files beside this one.

use std::sync::Arc;

use parking_lot::{Mutex, RwLock};
use serde_json::{Map, Value, json};

use super::connection::{CallOptions, Connection};
use super::description::ServerDescription;
use crate::error::{Error, Result};
use crate::meta;
use crate::transport::child::ChildProcess;
use crate::version::{Era, ProtocolVersion};

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
    /// What the client learned about the server.
    pub fn server(&self) -> ServerDescription {
        self.server.read().clone()
    }

    /// The era in use.
    pub fn era(&self) -> Era {
        self.server.read().era
    }

    pub(super) fn modern_meta(&self, version: &ProtocolVersion, tasks: bool) -> Map<String, Value> {
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
