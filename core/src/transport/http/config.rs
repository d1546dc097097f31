//! Tunables of the Streamable HTTP server. Every limit has a safe default.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use super::relay::MessageRelay;
use super::session_store::{MemorySessionStore, SessionStore};
use super::store::{EventStore, MemoryEventStore};
use crate::auth::ResourceServerConfig;
use crate::error::ConfigError;

/// The least [`HttpServerConfig::max_header_bytes`]: hyper's read buffer cannot be smaller.
pub const MIN_HEADER_BYTES: usize = 8192;

/// How the HTTP server binds, routes and protects itself.
#[derive(Clone, Debug)]
pub struct HttpServerConfig {
    /// Address to listen on; loopback by default (port 0 picks a free port).
    pub bind: SocketAddr,
    /// The one MCP endpoint path.
    pub path: String,
    /// Serve legacy (2025-03-26 .. 2025-11-25) sessions on the same endpoint: `initialize`,
    /// `Mcp-Session-Id`, GET and DELETE. When off, GET and DELETE get 405.
    pub legacy_sessions: bool,
    /// Serve a POST that carries neither a session, `_meta` nor a protocol-version header as
    /// 2025-03-26 (which sent no such header), statelessly. When off such a POST gets 400.
    pub assume_2025_03_26: bool,
    /// Also serve the 2024-11-05 HTTP+SSE transport: GET [`sse_path`](Self::sse_path) opens a
    /// session's event stream (first event `endpoint`), and the client POSTs its messages to
    /// [`messages_path`](Self::messages_path)`?sessionId=...`. Off by default.
    pub http_sse: bool,
    /// The HTTP+SSE event-stream path.
    pub sse_path: String,
    /// The HTTP+SSE message path.
    pub messages_path: String,
    /// Check `Host` and `Origin` against [`allowed_hosts`](Self::allowed_hosts) and
    /// [`allowed_origins`](Self::allowed_origins) (DNS-rebinding protection).
    pub dns_rebinding_protection: bool,
    /// Host names (without port) accepted in `Host`, and in `Origin` for any scheme and port.
    /// Empty: `Host` is not checked (and `Origin` only against
    /// [`allowed_origins`](Self::allowed_origins), when that is not empty either).
    pub allowed_hosts: Vec<String>,
    /// Further exact origins (`scheme://host[:port]`) accepted in `Origin`.
    pub allowed_origins: Vec<String>,
    /// Largest accepted request body; larger ones get 413.
    pub max_body_bytes: usize,
    /// Largest request head (request line and headers) in bytes; a larger one gets HTTP 431 and
    /// the connection is closed (the listener serves the next one). At least 8192.
    pub max_header_bytes: usize,
    /// Most header fields one request may carry; more get HTTP 431 and the connection is closed.
    pub max_headers: usize,
    /// Most legacy sessions alive at once; `initialize` beyond that gets 503.
    pub max_sessions: usize,
    /// A legacy session with no request and no open stream for this long is ended.
    pub session_idle_timeout: Duration,
    /// Interval of SSE keep-alive comments on open streams.
    pub sse_keepalive: Duration,
    /// OAuth 2.1 resource-server mode: every request to the endpoint (and the HTTP+SSE paths) needs
    /// a valid bearer token, and the protected resource metadata is served at the well-known paths.
    /// Off (`None`) by default.
    pub auth: Option<Arc<ResourceServerConfig>>,
    /// The reconnection delay sent as `retry:` when a legacy session's SSE stream opens (sessions
    /// that negotiated 2025-11-25 or later, which also get a priming event).
    pub sse_retry: Duration,
    /// Where the events of legacy sessions' SSE streams are kept for resumption with
    /// `Last-Event-ID`. The default is a [`MemoryEventStore`] with its default bounds; see
    /// [`EventStore`] for what a shared store does and does not give a multi-instance deployment.
    pub event_store: Arc<dyn EventStore>,
    /// Where legacy Streamable HTTP sessions are recorded. Share one store (and the
    /// [`event_store`](Self::event_store)) between instances to let any of them serve a session;
    /// see [`SessionStore`] for what that gives and what still needs sticky routing. The default
    /// is a [`MemorySessionStore`] of this instance alone, which also drops records unused for 30
    /// minutes: with a longer [`session_idle_timeout`](Self::session_idle_timeout), give it a
    /// store with a matching bound ([`MemorySessionStore::new`]).
    pub session_store: Arc<dyn SessionStore>,
    /// Passes a client's answer to a server-to-client request that another instance sent (and
    /// waits on) to that instance; `None` (the default) drops such an answer, as one instance alone
    /// has nobody to pass it to.
    pub relay: Option<Arc<dyn MessageRelay>>,
    /// Answer every POST that carries requests with one JSON body (`application/json`), never an
    /// SSE stream (the server's choice in both eras: 2025-11-25 and 2026-07-28
    /// basic/transports/streamable-http). The handler's notifications (progress, log messages)
    /// are then dropped, and a request it sends to the client (legacy elicitation, sampling,
    /// roots) fails at once with -32603, as there is no stream to carry them; 2026-07-28 input
    /// requests travel in the result (MRTR) and are not affected. Off by default: the response is
    /// JSON when it comes first, and an SSE stream carries it otherwise.
    pub json_response: bool,
    /// Serve legacy (2025-03-26 .. 2025-11-25) requests without sessions, as servers that keep no
    /// state between requests do (2025-11-25 basic/transports/streamable-http, "Session
    /// Management": a server MAY assign a session ID; without one there is no
    /// `Mcp-Session-Id`): `initialize` is answered and nothing is kept (no `Mcp-Session-Id`
    /// header), and any other request is served on its own as the revision its
    /// `MCP-Protocol-Version` header names (2025-03-26 without one, which sent none), ignoring
    /// an `Mcp-Session-Id` it carries. GET and DELETE get 405, whatever
    /// [`legacy_sessions`](Self::legacy_sessions) says. A request to the client (legacy
    /// elicitation, sampling, roots) fails at once with -32603, as its answer would reach no
    /// session, and notifications a handler sends outside its request reach nobody. The
    /// 2026-07-28 wire is stateless already and unchanged. Off by default.
    pub legacy_stateless: bool,
}

impl Default for HttpServerConfig {
    fn default() -> Self {
        HttpServerConfig {
            bind: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 3000),
            path: "/mcp".into(),
            legacy_sessions: true,
            assume_2025_03_26: false,
            http_sse: false,
            sse_path: "/sse".into(),
            messages_path: "/messages".into(),
            dns_rebinding_protection: true,
            allowed_hosts: ["localhost", "127.0.0.1", "[::1]"]
                .map(String::from)
                .to_vec(),
            allowed_origins: Vec::new(),
            max_body_bytes: 4 * 1024 * 1024,
            max_header_bytes: 64 * 1024,
            max_headers: 100,
            max_sessions: 1024,
            session_idle_timeout: Duration::from_secs(30 * 60),
            sse_keepalive: Duration::from_secs(15),
            auth: None,
            sse_retry: Duration::from_secs(1),
            event_store: Arc::new(MemoryEventStore::default()),
            session_store: Arc::new(MemorySessionStore::default()),
            relay: None,
            json_response: false,
            legacy_stateless: false,
        }
    }
}

impl HttpServerConfig {
    /// The defaults, listening on `bind`. DNS-rebinding protection stays on only for a loopback
    /// address; for any other address set [`allowed_hosts`](Self::allowed_hosts) and turn it back on.
    pub fn with_bind(bind: SocketAddr) -> Self {
        HttpServerConfig {
            bind,
            dns_rebinding_protection: bind.ip().is_loopback(),
            ..HttpServerConfig::default()
        }
    }
}

impl HttpServerConfig {
    /// The defaults for an [`HttpEndpoint`](super::HttpEndpoint) mounted in the application's own
    /// web server: as [`default`](Self::default) but with no allowed host, so that neither `Host`
    /// nor `Origin` is checked, since the application (or the proxy in front of it) decides which
    /// names reach it and usually rewrites `Host`. Listing names in
    /// [`allowed_hosts`](Self::allowed_hosts) or [`allowed_origins`](Self::allowed_origins) is
    /// enough to check them (the protection stays on); the C, Python and Node mounts answer alike.
    pub fn for_mount() -> Self {
        HttpServerConfig {
            allowed_hosts: Vec::new(),
            ..HttpServerConfig::default()
        }
    }

    /// Checks the settings: the endpoint and HTTP+SSE paths start with `/` and hold no `?`, `#` or
    /// space; the body, header-count, session, idle and keep-alive limits are above zero and the
    /// header-size limit at least [`MIN_HEADER_BYTES`]; an allowed host is a
    /// bare name (not empty, no `/` or space) and an allowed origin has a scheme (`://`).
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (field, path) in [
            ("path", &self.path),
            ("sse_path", &self.sse_path),
            ("messages_path", &self.messages_path),
        ] {
            if !path.starts_with('/') || path.contains(['?', '#', ' ']) {
                return Err(ConfigError::new(
                    field,
                    format!("{path:?} must start with / and hold no ?, # or space"),
                ));
            }
        }
        ConfigError::positive("max_body_bytes", self.max_body_bytes == 0)?;
        if self.max_header_bytes < MIN_HEADER_BYTES {
            return Err(ConfigError::new(
                "max_header_bytes",
                format!(
                    "{} is below the least request head accepted ({MIN_HEADER_BYTES} bytes)",
                    self.max_header_bytes
                ),
            ));
        }
        ConfigError::positive("max_headers", self.max_headers == 0)?;
        ConfigError::positive("max_sessions", self.max_sessions == 0)?;
        ConfigError::positive(
            "session_idle_timeout",
            self.session_idle_timeout == Duration::ZERO,
        )?;
        ConfigError::positive("sse_keepalive", self.sse_keepalive == Duration::ZERO)?;
        if let Some(h) = self
            .allowed_hosts
            .iter()
            .find(|h| h.is_empty() || h.contains(['/', ' ']))
        {
            return Err(ConfigError::new(
                "allowed_hosts",
                format!("{h:?} is not a host name (no scheme, path or port)"),
            ));
        }
        if let Some(o) = self.allowed_origins.iter().find(|o| !o.contains("://")) {
            return Err(ConfigError::new(
                "allowed_origins",
                format!("{o:?} is not an origin (scheme://host[:port])"),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_config_rules() {
        assert_eq!(HttpServerConfig::default().validate(), Ok(()));
        let bad = |c: HttpServerConfig| c.validate().unwrap_err().to_string();
        let path = HttpServerConfig {
            sse_path: "sse".into(),
            ..HttpServerConfig::default()
        };
        assert_eq!(
            bad(path),
            "sse_path: \"sse\" must start with / and hold no ?, # or space"
        );
        let zero = HttpServerConfig {
            max_sessions: 0,
            ..HttpServerConfig::default()
        };
        assert_eq!(bad(zero), "max_sessions: must not be zero");
        let head = HttpServerConfig {
            max_header_bytes: 8191,
            ..HttpServerConfig::default()
        };
        assert_eq!(
            bad(head),
            "max_header_bytes: 8191 is below the least request head accepted (8192 bytes)"
        );
        let fields = HttpServerConfig {
            max_headers: 0,
            ..HttpServerConfig::default()
        };
        assert_eq!(bad(fields), "max_headers: must not be zero");
        let host = HttpServerConfig {
            allowed_hosts: vec!["http://x".into()],
            ..HttpServerConfig::default()
        };
        assert_eq!(
            bad(host),
            "allowed_hosts: \"http://x\" is not a host name (no scheme, path or port)"
        );
        let origin = HttpServerConfig {
            allowed_origins: vec!["x.example".into()],
            ..HttpServerConfig::default()
        };
        assert_eq!(
            bad(origin),
            "allowed_origins: \"x.example\" is not an origin (scheme://host[:port])"
        );
    }
}
