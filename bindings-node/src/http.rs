//! Serving a `NativeServer` over Streamable HTTP (`libmcp::transport::http::serve_http`): options
//! from JS mapped onto `HttpServerConfig` (OAuth resource-server mode in `auth.rs`), and a handle
//! that closes it.

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use libmcp::server::Server;
use libmcp::transport::http::{HttpServerConfig, serve_http};
use napi::Env;
use napi::bindgen_prelude::{Function, Promise, PromiseRaw, ToNapiValue};
use napi_derive::napi;
use serde_json::Value;
use tokio::sync::{oneshot, watch};

use crate::error::{engine, invalid, invalid_config, parse};
use crate::option_values::strings;
use crate::server::NativeServer;
use crate::{auth, http_stores};

/// A running HTTP server.
#[napi]
pub struct NativeHttpServer {
    port: u32,
    host: String,
    path: String,
    stop: parking_lot::Mutex<Option<oneshot::Sender<()>>>,
    done: watch::Receiver<bool>,
}

/// `HttpServerConfig` for `serveHttp`'s own listener from the JS options object (every key
/// optional); `auth` (resource-server mode) needs the token verifier.
fn config(
    options: &Value,
    verifier: Option<&Function<String, Promise<String>>>,
) -> napi::Result<HttpServerConfig> {
    let host: IpAddr = match options.get("host").and_then(Value::as_str) {
        None | Some("localhost") => IpAddr::from([127, 0, 0, 1]),
        Some(h) => h
            .parse()
            .map_err(|_| invalid(format!("host must be an IP address, got {h:?}")))?,
    };
    let port = match options.get("port") {
        None | Some(Value::Null) => 0,
        Some(p) => p
            .as_u64()
            .and_then(|p| u16::try_from(p).ok())
            .ok_or_else(|| invalid(format!("port must be 0..65535, got {p}")))?,
    };
    let mut c = HttpServerConfig::with_bind(SocketAddr::new(host, port));
    if let Some(p) = options.get("path").and_then(Value::as_str) {
        c.path = p.into();
    }
    let number = |k: &str| options.get(k).and_then(Value::as_u64);
    if let Some(n) = number("maxHeaderBytes") {
        c.max_header_bytes = n as usize;
    }
    if let Some(n) = number("maxHeaders") {
        c.max_headers = n as usize;
    }
    endpoint_options(options, verifier, &mut c)?;
    c.validate().map_err(|e| invalid_config(e, &NAMES))?;
    Ok(c)
}

/// The options of the endpoint itself, shared by `serveHttp` and a mounted endpoint (`mount.rs`):
/// legacySessions, legacyStateless, httpSse, jsonResponse, dnsRebindingProtection, allowedHosts, allowedOrigins, maxBodyBytes,
/// maxSessions, sessionIdleTimeoutMs and auth, set on `c`.
pub(crate) fn endpoint_options(
    options: &Value,
    verifier: Option<&Function<String, Promise<String>>>,
    c: &mut HttpServerConfig,
) -> napi::Result<()> {
    let flag = |k: &str| options.get(k).and_then(Value::as_bool);
    let number = |k: &str| options.get(k).and_then(Value::as_u64);
    if let Some(b) = flag("legacySessions") {
        c.legacy_sessions = b;
    }
    if let Some(b) = flag("httpSse") {
        c.http_sse = b;
    }
    if let Some(b) = flag("jsonResponse") {
        c.json_response = b;
    }
    if let Some(b) = flag("legacyStateless") {
        c.legacy_stateless = b;
    }
    if let Some(b) = flag("dnsRebindingProtection") {
        c.dns_rebinding_protection = b;
    }
    if let Some(v) = options.get("allowedHosts") {
        c.allowed_hosts = strings(v, "allowedHosts")?;
    }
    if let Some(v) = options.get("allowedOrigins") {
        c.allowed_origins = strings(v, "allowedOrigins")?;
    }
    if let Some(n) = number("maxBodyBytes") {
        c.max_body_bytes = n as usize;
    }
    if let Some(n) = number("maxSessions") {
        c.max_sessions = n as usize;
    }
    if let Some(n) = number("sessionIdleTimeoutMs") {
        c.session_idle_timeout = Duration::from_millis(n);
    }
    match (options.get("auth").filter(|a| !a.is_null()), verifier) {
        (None, None) => {}
        (Some(auth), Some(f)) => c.auth = Some(Arc::new(auth::resource_server(auth, f)?)),
        (Some(_), None) => return Err(invalid("auth needs a token verifier function")),
        (None, Some(_)) => {
            return Err(invalid("a token verifier was given without auth options"));
        }
    }
    Ok(())
}

/// The JS option of each field [`HttpServerConfig::validate`] may name (`path` is the same in both).
pub(crate) const NAMES: [(&str, &str); 7] = [
    ("allowedHosts", "allowed_hosts"),
    ("allowedOrigins", "allowed_origins"),
    ("maxBodyBytes", "max_body_bytes"),
    ("maxHeaderBytes", "max_header_bytes"),
    ("maxHeaders", "max_headers"),
    ("maxSessions", "max_sessions"),
    ("sessionIdleTimeoutMs", "session_idle_timeout"),
];

#[napi]
impl NativeServer {
    /// Serves over Streamable HTTP with `options` (JSON text: host, port, path, legacySessions,
    /// httpSse, dnsRebindingProtection, allowedHosts, allowedOrigins, maxBodyBytes, maxHeaderBytes,
    /// maxHeaders, maxSessions, sessionIdleTimeoutMs, auth, sessionStore, eventStore) and, with
    /// `auth`, `verifier` checking bearer tokens (see `auth.rs`), with `sessionStore` or
    /// `eventStore`, `stores` running the JS stores (see `http_stores.rs`). A server made with Redis keeps its legacy sessions, their events and answers to
    /// server-to-client requests there (failing with a transport error when Redis does not answer
    /// now). Resolves once the port is bound.
    #[napi]
    pub fn serve_http<'env>(
        &self,
        env: &'env Env,
        options: String,
        verifier: Option<Function<String, Promise<String>>>,
        stores: Option<Function<String, Promise<String>>>,
    ) -> napi::Result<PromiseRaw<'env, NativeHttpServer>> {
        let options = parse("HTTP options", &options)?;
        let mut config = config(&options, verifier.as_ref())?;
        http_stores::apply(&options, stores, self.redis.is_some(), &mut config)?;
        self.start_http(env, config, listen)
    }
}

impl NativeServer {
    /// Runs `start` on the runtime with the server and `config`, pointed first at the server's
    /// Redis stores (if it was made with Redis); the promise resolves to what `start` gives.
    pub(crate) fn start_http<'env, T, F>(
        &self,
        env: &'env Env,
        config: HttpServerConfig,
        start: impl FnOnce(Server, HttpServerConfig) -> F + Send + 'static,
    ) -> napi::Result<PromiseRaw<'env, T>>
    where
        T: ToNapiValue + Send + 'static,
        F: Future<Output = napi::Result<T>> + Send + 'static,
    {
        let server = self.server.clone();
        let redis = self.redis.clone();
        env.spawn_future(async move {
            let mut config = config;
            if let Some(r) = &redis {
                crate::redis::configure(r, &mut config).await?;
            }
            start(server, config).await
        })
    }
}

/// Binds and starts the HTTP server; its handle stops it.
async fn listen(server: Server, config: HttpServerConfig) -> napi::Result<NativeHttpServer> {
    let path = config.path.clone();
    let handle = serve_http(server, config).await.map_err(engine)?;
    let addr = handle.local_addr();
    let (stop, stopped) = oneshot::channel::<()>();
    let (done_tx, done) = watch::channel(false);
    tokio::spawn(async move {
        let _ = stopped.await;
        handle.shutdown().await;
        done_tx.send_replace(true);
    });
    Ok(NativeHttpServer {
        port: u32::from(addr.port()),
        host: addr.ip().to_string(),
        path,
        stop: parking_lot::Mutex::new(Some(stop)),
        done,
    })
}

#[napi]
impl NativeHttpServer {
    /// The port bound.
    #[napi(getter)]
    pub fn port(&self) -> u32 {
        self.port
    }

    /// The endpoint's URL.
    #[napi(getter)]
    pub fn url(&self) -> String {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        format!("http://{host}:{}{}", self.port, self.path)
    }

    /// Stops accepting, ends every session and stream, and resolves when that is done.
    #[napi]
    pub async fn close(&self) -> napi::Result<()> {
        if let Some(stop) = self.stop.lock().take() {
            let _ = stop.send(());
        }
        self.closed().await
    }

    /// Resolves when the server has stopped (keeps Node's event loop alive until then).
    #[napi]
    pub async fn closed(&self) -> napi::Result<()> {
        let mut done = self.done.clone();
        let _ = done.wait_for(|d| *d).await;
        Ok(())
    }
}
