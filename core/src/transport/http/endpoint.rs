//! The Streamable HTTP endpoint as a value: everything the server does over HTTP (both eras on one
//! endpoint, legacy sessions, GET/POST/DELETE, SSE with resumption, HTTP+SSE, Host/Origin checks,
//! the OAuth resource server, limits, shared stores) behind one call that takes a request and gives
//! a response. [`serve_http`](super::serve_http) is a listener over it; an application with a web
//! server of its own mounts it as a route: a [`tower_service::Service`] for axum and hyper, or
//! [`HttpEndpoint::exchange`] for hosts that are not Rust (the C, Python and Node bindings).
//!
//! ```no_run
//! # fn run(server: libmcp::server::Server) -> libmcp::Result<()> {
//! use libmcp::transport::http::{HttpEndpoint, HttpServerConfig};
//! let endpoint = HttpEndpoint::new(server, HttpServerConfig::for_mount())?;
//! // axum: Router::new().route("/health", get(ok)).nest_service("/mcp", endpoint)
//! # let _ = endpoint; Ok(()) }
//! ```

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Weak};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame, SizeHint};
use hyper::http::{self, Extensions, HeaderName, HeaderValue, Method, Request, Response};
use parking_lot::Mutex;

use super::body::HttpBody;
use super::config::HttpServerConfig;
use super::dispatch::BoxError;
use super::respond::rpc_error;
use super::sessions::Sessions;
use super::state::State;
use crate::error::RpcError;
use crate::server::Server;

/// The MCP endpoint of one [`Server`], to be mounted in a web server the application owns. Cheap
/// to clone (clones share sessions and streams); dropping the last clone ends its sessions, as
/// [`close`](Self::close) does.
///
/// Any path routed to the endpoint is the endpoint: the host decides the mount point, and may or
/// may not strip it. With [`HttpServerConfig::http_sse`] the 2024-11-05 HTTP+SSE paths are
/// recognised by their ending (`.../sse`, `.../messages`), and the stream's `endpoint` event names
/// the message path relative to the stream's URL. `bind` and `path` of the config are unused.
///
/// `Host`/`Origin` checking follows the config: [`HttpServerConfig::for_mount`] turns it off (the
/// application, or the proxy in front of it, owns `Host`); list the names the application is
/// reached by in `allowed_hosts` and turn `dns_rebinding_protection` on to keep it.
#[derive(Clone)]
pub struct HttpEndpoint {
    shared: Arc<Shared>,
}

struct Shared {
    state: Arc<State>,
    /// The task that expires idle sessions; started on the first request (or at construction
    /// inside a tokio runtime).
    sweeper: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl Drop for Shared {
    fn drop(&mut self) {
        if let Some(t) = self.sweeper.lock().take() {
            t.abort();
        }
        self.state.close();
    }
}

impl std::fmt::Debug for HttpEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpEndpoint")
            .field("sessions", &self.shared.state.sessions.len())
            .finish_non_exhaustive()
    }
}

impl HttpEndpoint {
    /// The endpoint of `server` with `config`; a config that [`HttpServerConfig::validate`]
    /// refuses is [`Error::InvalidConfig`](crate::Error::InvalidConfig).
    pub fn new(server: Server, config: HttpServerConfig) -> crate::Result<HttpEndpoint> {
        config.validate()?;
        Ok(HttpEndpoint::build(server, config, true))
    }

    /// The endpoint behind this crate's own listener (`mounted: false`: only the configured paths).
    pub(crate) fn build(server: Server, config: HttpServerConfig, mounted: bool) -> HttpEndpoint {
        let state = State::new(server, config, mounted);
        let endpoint = HttpEndpoint {
            shared: Arc::new(Shared {
                state,
                sweeper: Mutex::new(None),
            }),
        };
        endpoint.start_sweeper();
        endpoint
    }

    /// The settings the endpoint runs with (a host may read `max_body_bytes` to stop reading a
    /// body early; the endpoint enforces it either way).
    pub fn config(&self) -> &HttpServerConfig {
        &self.shared.state.config
    }

    /// Answers one HTTP request. The response body is a whole JSON (or empty) body or an SSE
    /// stream that ends when the exchange does; drop it to end the exchange early (a 2026-07-28
    /// request whose stream is dropped before its answer is cancelled, as is any request whose
    /// response future is dropped before the first message).
    pub async fn handle<B>(&self, req: Request<B>) -> Response<ResponseBody>
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        self.start_sweeper();
        self.shared
            .state
            .clone()
            .handle(req)
            .await
            .map(ResponseBody)
    }

    /// Answers one request given as plain data, for hosts that are not Rust: the C, Python and
    /// Node bindings call this from their web servers' handlers. A request line or header the
    /// `http` types refuse is answered 400, naming it.
    pub async fn exchange(&self, req: ExchangeRequest) -> Exchange {
        let response = match req.into_http() {
            Ok(r) => self.handle(r).await,
            Err(why) => {
                let e = RpcError::invalid_request(why);
                rpc_error(hyper::StatusCode::BAD_REQUEST, None, &e).map(ResponseBody)
            }
        };
        let (parts, body) = response.into_parts();
        Exchange {
            status: parts.status.as_u16(),
            headers: parts
                .headers
                .iter()
                .map(|(k, v)| {
                    let v = String::from_utf8_lossy(v.as_bytes()).into_owned();
                    (k.as_str().to_owned(), v)
                })
                .collect(),
            body,
        }
    }

    /// Ends every session, open stream and subscription now (clones share them). Records in a
    /// shared session store stay: other instances may still serve those sessions.
    pub fn close(&self) {
        if let Some(t) = self.shared.sweeper.lock().take() {
            t.abort();
        }
        self.shared.state.close();
    }

    fn start_sweeper(&self) {
        let mut sweeper = self.shared.sweeper.lock();
        if sweeper.is_some() {
            return;
        }
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let every = (self.config().session_idle_timeout / 4)
            .clamp(Duration::from_millis(100), Duration::from_secs(30));
        *sweeper = Some(rt.spawn(sweep(Arc::downgrade(&self.shared.state), every)));
    }
}

/// Expires idle sessions every `every` until the endpoint is gone.
async fn sweep(state: Weak<State>, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.tick().await;
    loop {
        tick.tick().await;
        let Some(state) = state.upgrade() else {
            return;
        };
        state.sse_sessions.expire(state.config.session_idle_timeout);
        state.sweep().await;
    }
}

impl State {
    /// The shared state of one endpoint; attaches the relay, if any.
    pub(crate) fn new(server: Server, config: HttpServerConfig, mounted: bool) -> Arc<State> {
        let state = Arc::new(State {
            server,
            config,
            sessions: Sessions::default(),
            sse_sessions: Sessions::default(),
            mounted,
        });
        if let Some(relay) = &state.config.relay {
            let weak = Arc::downgrade(&state);
            relay.attach(Arc::new(move |id: &str, bytes: &[u8]| {
                let state = weak.upgrade();
                if let Some(state) = &state {
                    state.deliver_forwarded(id, bytes);
                }
                state.is_some()
            }));
        }
        state
    }

    /// Ends subscriptions, sessions and streams (session records and event logs stay).
    pub(crate) fn close(&self) {
        self.server.close_subscriptions();
        self.sessions.clear(false);
        self.sse_sessions.clear(true);
    }
}

impl<B> tower_service::Service<Request<B>> for HttpEndpoint
where
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<BoxError>,
{
    type Response = Response<ResponseBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        let endpoint = self.clone();
        Box::pin(async move { Ok(endpoint.handle(req).await) })
    }
}

/// The body of an endpoint's response: a whole JSON (or empty) body, or an SSE stream fed by the
/// engine. Dropping it ends the exchange.
pub struct ResponseBody(HttpBody);

impl std::fmt::Debug for ResponseBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            HttpBody::Full(_) => "ResponseBody::Full",
            HttpBody::Sse(_) => "ResponseBody::Sse",
        })
    }
}

impl ResponseBody {
    /// The next chunk of the body; `None` once it has ended. An SSE stream yields each event (and
    /// keep-alive comment) as it is produced.
    pub async fn next_chunk(&mut self) -> Option<Bytes> {
        loop {
            match self.frame().await? {
                Ok(frame) => {
                    if let Ok(data) = frame.into_data() {
                        return Some(data);
                    }
                }
                Err(never) => match never {},
            }
        }
    }

    /// Whether this is an event stream (its chunks arrive over time) rather than a whole body.
    pub fn is_stream(&self) -> bool {
        matches!(self.0, HttpBody::Sse(_))
    }
}

impl Body for ResponseBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.get_mut().0).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.0.size_hint()
    }
}

/// One HTTP request as plain data, for [`HttpEndpoint::exchange`].
#[derive(Debug, Default)]
pub struct ExchangeRequest {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: Bytes,
    extensions: Extensions,
}

impl ExchangeRequest {
    /// A request with `method` (`POST`, `GET`, ...) for `target` (the path and query, e.g.
    /// `/mcp?x=1`), no headers and an empty body.
    pub fn new(method: impl Into<String>, target: impl Into<String>) -> ExchangeRequest {
        ExchangeRequest {
            method: method.into(),
            target: target.into(),
            ..ExchangeRequest::default()
        }
    }

    /// Adds a header (repeat a name for several values).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The whole request body.
    pub fn body(mut self, body: impl Into<Bytes>) -> Self {
        self.body = body.into();
        self
    }

    /// Attaches a value handlers can read with
    /// [`RequestContext::http_extension`](crate::server::RequestContext::http_extension): what
    /// the host's middleware established about the request (a principal, a tenant).
    pub fn extension<T: Clone + Send + Sync + 'static>(mut self, value: T) -> Self {
        self.extensions.insert(value);
        self
    }

    fn into_http(self) -> Result<Request<Full<Bytes>>, String> {
        let method = Method::from_bytes(self.method.as_bytes())
            .map_err(|_| format!("{:?} is not an HTTP method", self.method))?;
        let target = if self.target.is_empty() {
            "/"
        } else {
            &self.target
        };
        let uri: http::Uri = target
            .parse()
            .map_err(|_| format!("{target:?} is not a request target (path and query)"))?;
        let mut req = Request::new(Full::new(self.body));
        *req.method_mut() = method;
        *req.uri_mut() = uri;
        let headers = req.headers_mut();
        for (name, value) in &self.headers {
            let n = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| format!("{name:?} is not a header name"))?;
            // A field value carries no surrounding whitespace (RFC 9110 section 5.5); some web
            // servers hand it over untrimmed.
            let v = HeaderValue::from_str(value.trim_matches([' ', '\t']))
                .map_err(|_| format!("the value of header {name:?} is not a header value"))?;
            headers.append(n, v);
        }
        *req.extensions_mut() = self.extensions;
        Ok(req)
    }
}

/// The response of [`HttpEndpoint::exchange`]: status, headers (names lowercase), and the body to
/// read with [`ResponseBody::next_chunk`] until it ends.
#[derive(Debug)]
pub struct Exchange {
    /// The HTTP status.
    pub status: u16,
    /// The response headers, in order, names lowercase.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: ResponseBody,
}
