//! The endpoint mounted in the application's own Node web server (`server.handleRequest` and
//! `server.fetch`, `lib/mount.js`): each request the host received is handed to the core's
//! `HttpEndpoint::exchange` as plain data (method, target, headers, body), and its response comes
//! back as a head, then the body's chunks as the engine produces them (each SSE event). No HTTP or
//! protocol rule lives here: this only converts and delegates.
//!
//! What the host's middleware established about a request (Express's `req.auth`) stays in JS: the
//! request carries a number into the JS layer's table of them (`host_request.rs`, read back by the
//! handler's context, see `request.rs`), and the JS layer forgets a number once the engine has
//! dropped every copy of it (listed by [`ExchangeHead::released`]).

use std::sync::Arc;

use libmcp::transport::http::{ExchangeRequest, HttpEndpoint, HttpServerConfig};
use napi::Env;
use napi::bindgen_prelude::{Buffer, Function, Promise, PromiseRaw};
use napi_derive::napi;
use parking_lot::Mutex;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::error::{engine, invalid, invalid_config, parse};
use crate::host_request::{self, HostRequest};
use crate::http::{NAMES, endpoint_options};
use crate::server::NativeServer;

/// The options of `serveHttp` that belong to its own listener, refused for a mounted endpoint
/// (the application's web server binds, routes and reads the request head).
const LISTENER_ONLY: [&str; 5] = ["host", "port", "path", "maxHeaderBytes", "maxHeaders"];

/// `HttpServerConfig::for_mount` with the JS options applied (no Host/Origin check until
/// `allowedHosts` or `allowedOrigins` lists names: the core's rule).
fn mount_config(
    options: &Value,
    verifier: Option<&Function<String, Promise<String>>>,
) -> napi::Result<HttpServerConfig> {
    if let Some(key) = LISTENER_ONLY.iter().find(|k| options.get(**k).is_some()) {
        return Err(invalid(format!(
            "{key} is an option of serveHttp's own listener; a mounted endpoint is routed, bound \
             and given request heads by the application's web server"
        )));
    }
    let mut c = HttpServerConfig::for_mount();
    endpoint_options(options, verifier, &mut c)?;
    c.validate().map_err(|e| invalid_config(e, &NAMES))?;
    Ok(c)
}

/// The MCP endpoint of a server, mounted in the application's web server.
#[napi]
pub struct NativeEndpoint {
    endpoint: HttpEndpoint,
}

#[napi]
impl NativeServer {
    /// The endpoint to mount, with `options` (JSON text: legacySessions, httpSse,
    /// dnsRebindingProtection, allowedHosts, allowedOrigins, maxBodyBytes, maxSessions,
    /// sessionIdleTimeoutMs, auth, sessionStore, eventStore; the listener's own host, port, path,
    /// maxHeaderBytes and maxHeaders are refused), with `auth`, `verifier` checking bearer tokens
    /// (see `auth.rs`), and with `sessionStore` or `eventStore`, `stores` running the JS stores
    /// (see `http_stores.rs`).
    /// A server made with Redis keeps its legacy sessions there, as `serveHttp` does.
    #[napi]
    pub fn endpoint<'env>(
        &self,
        env: &'env Env,
        options: String,
        verifier: Option<Function<String, Promise<String>>>,
        stores: Option<Function<String, Promise<String>>>,
    ) -> napi::Result<PromiseRaw<'env, NativeEndpoint>> {
        let options = parse("HTTP options", &options)?;
        let mut config = mount_config(&options, verifier.as_ref())?;
        crate::http_stores::apply(&options, stores, self.redis.is_some(), &mut config)?;
        self.start_http(env, config, |server, config| async move {
            let endpoint = HttpEndpoint::new(server, config).map_err(engine)?;
            Ok(NativeEndpoint { endpoint })
        })
    }
}

#[napi]
impl NativeEndpoint {
    /// The largest request body the endpoint takes (the JS layer stops reading one past it).
    #[napi(getter)]
    pub fn max_body_bytes(&self) -> f64 {
        self.endpoint.config().max_body_bytes as f64
    }

    /// Starts answering one request: `method`, `target` (path and query), `headers` as
    /// `[name, value, name, value, ...]` (Node's `rawHeaders`), the whole `body`, and `host`, the
    /// request's number in the JS layer's table of host values, if any. The engine works on it
    /// at once; read the answer from the returned exchange.
    #[napi]
    pub fn exchange(
        &self,
        method: String,
        target: String,
        headers: Vec<String>,
        body: Buffer,
        host: Option<f64>,
    ) -> napi::Result<NativeExchange> {
        if !headers.len().is_multiple_of(2) {
            return Err(invalid(
                "headers must be [name, value, ...] pairs, got an odd number of strings",
            ));
        }
        let mut req = ExchangeRequest::new(method, target).body(body.to_vec());
        let mut it = headers.into_iter();
        while let (Some(name), Some(value)) = (it.next(), it.next()) {
            req = req.header(name, value);
        }
        if let Some(n) = host {
            req = req.extension(HostRequest::new(n));
        }
        let (tx, rx) = mpsc::channel(1);
        let endpoint = self.endpoint.clone();
        let task = napi::bindgen_prelude::spawn(run(endpoint, req, tx));
        Ok(NativeExchange {
            rx: Arc::new(tokio::sync::Mutex::new(rx)),
            task: Mutex::new(Some(task)),
        })
    }

    /// Ends every session, open stream and subscription of the endpoint now.
    #[napi]
    pub fn close(&self) {
        self.endpoint.close();
    }
}

/// What an exchange's task hands to the JS layer.
enum Message {
    Head {
        status: u16,
        headers: Vec<(String, String)>,
        /// The whole body, unless the body is an event stream.
        body: Option<Vec<u8>>,
    },
    Chunk(Vec<u8>),
}

/// Runs one exchange: the head (with the whole body, when it is not a stream), then each chunk of
/// a stream, each sent when the JS layer has taken the one before. Aborting the task drops the
/// exchange, which ends it in the engine (a modern request still running is cancelled).
async fn run(endpoint: HttpEndpoint, req: ExchangeRequest, tx: mpsc::Sender<Message>) {
    let mut ex = endpoint.exchange(req).await;
    let stream = ex.body.is_stream();
    let body = if stream {
        None
    } else {
        let mut whole = Vec::new();
        while let Some(chunk) = ex.body.next_chunk().await {
            whole.extend_from_slice(&chunk);
        }
        Some(whole)
    };
    let head = Message::Head {
        status: ex.status,
        headers: ex.headers,
        body,
    };
    if tx.send(head).await.is_err() || !stream {
        return;
    }
    while let Some(chunk) = ex.body.next_chunk().await {
        if tx.send(Message::Chunk(chunk.to_vec())).await.is_err() {
            return;
        }
    }
}

/// The head of an exchange's response.
#[napi(object)]
pub struct ExchangeHead {
    /// The HTTP status.
    pub status: u32,
    /// The headers as `[name, value, ...]`, names lowercase.
    pub headers: Vec<String>,
    /// The whole body; absent when it is an event stream (read it with `next`).
    pub body: Option<Buffer>,
    /// Host request numbers the engine no longer holds: the JS layer forgets their values.
    pub released: Vec<f64>,
}

/// One request being answered by the endpoint. Closing it (or dropping it) ends the exchange:
/// what the host does when its client goes away.
#[napi]
pub struct NativeExchange {
    rx: Arc<tokio::sync::Mutex<mpsc::Receiver<Message>>>,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl Drop for NativeExchange {
    fn drop(&mut self) {
        self.close();
    }
}

#[napi]
impl NativeExchange {
    /// The response's head; `null` when the exchange was closed first.
    #[napi]
    pub async fn head(&self) -> Option<ExchangeHead> {
        let message = self.rx.lock().await.recv().await;
        let Some(Message::Head {
            status,
            headers,
            body,
        }) = message
        else {
            return None;
        };
        Some(ExchangeHead {
            status: u32::from(status),
            headers: headers.into_iter().flat_map(|(k, v)| [k, v]).collect(),
            body: body.map(Buffer::from),
            released: host_request::take_released(),
        })
    }

    /// The next chunk of an event stream (one event, or a keep-alive comment); `null` once it has
    /// ended or the exchange was closed.
    #[napi]
    pub async fn next(&self) -> Option<Buffer> {
        match self.rx.lock().await.recv().await {
            Some(Message::Chunk(c)) => Some(Buffer::from(c)),
            _ => None,
        }
    }

    /// Ends the exchange now (the client went away): a modern request still running is
    /// cancelled, a stream is closed.
    #[napi]
    pub fn close(&self) {
        if let Some(task) = self.task.lock().take() {
            task.abort();
        }
    }
}
