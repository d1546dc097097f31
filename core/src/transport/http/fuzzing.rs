//! The HTTP side of [`crate::fuzzing`]: the dispatcher without a listener and the header checks.

use std::convert::Infallible;
use std::sync::Arc;

use hyper::HeaderMap;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};

use super::HttpServerConfig;
use super::state::State;
use crate::error::RpcError;
use crate::jsonrpc::Request;
use crate::server::Server;

/// The Streamable HTTP dispatcher of [`serve_http`](crate::transport::http::serve_http) without the
/// listener: serves connections handed to it, sharing sessions between them.
pub struct HttpDispatcher(Arc<State>);

impl HttpDispatcher {
    /// A dispatcher for `server` with `config` (`bind` is unused).
    pub fn new(server: Server, config: HttpServerConfig) -> HttpDispatcher {
        HttpDispatcher(State::new(server, config, false))
    }

    /// Serves one HTTP/1.1 connection over `io` until the peer closes it.
    pub async fn serve<I>(&self, io: I)
    where
        I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let state = self.0.clone();
        let (head_bytes, headers) = (state.config.max_header_bytes, state.config.max_headers);
        let service = service_fn(move |req| {
            let state = state.clone();
            async move { Ok::<_, Infallible>(state.handle(req).await) }
        });
        let _ = http1::Builder::new()
            .keep_alive(true)
            .max_buf_size(head_bytes)
            .max_headers(headers)
            .serve_connection(TokioIo::new(io), service)
            .await;
    }

    /// Ends every session and subscription, as stopping the listener does.
    pub fn close(&self) {
        self.0.server.close_subscriptions();
        self.0.sessions.clear(true);
        self.0.sse_sessions.clear(true);
    }
}

/// The 2026-07-28 header checks of one POST: `MCP-Protocol-Version` against `version`, then
/// `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` against `req`.
pub fn check_modern_headers(
    server: &Server,
    headers: &HeaderMap,
    version: &str,
    req: &Request,
) -> Result<(), RpcError> {
    super::headers::check_version(headers, version)?;
    super::headers::check(server, headers, req)
}

/// The `Content-Type` / `Accept` check of a POST: the refusal's status (415 or 406) and message.
pub fn check_post_media(headers: &HeaderMap) -> Result<(), (u16, String)> {
    use super::media::{MediaRefusal, check_post};
    check_post(headers).map_err(|r| match r {
        MediaRefusal::ContentType(m) => (415, m),
        MediaRefusal::Accept(m) => (406, m),
    })
}

/// The `Host` / `Origin` allow-list check: whether the request passes.
pub fn check_host_origin(config: &HttpServerConfig, headers: &HeaderMap) -> bool {
    super::security::check(config, headers).is_ok()
}

/// A `Last-Event-ID` parsed into tag, stream and sequence number.
pub fn parse_event_id(s: &str) -> Option<(String, u64, u64)> {
    super::events::EventId::parse(s).map(|e| (e.tag, e.stream, e.seq))
}
