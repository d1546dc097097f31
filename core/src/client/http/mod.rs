//! The Streamable HTTP client transport, over `http://` or, with the `tls` cargo feature, `https://`
//! (see [`HttpClientOptions`] for custom trust roots), with the fallback to the 2024-11-05 HTTP+SSE
//! transport when a server refuses `POST initialize` with 400, 404 or 405.
//!
//! Each outgoing message is one POST to the endpoint; the answer comes back as JSON or as an SSE
//! stream. Modern servers (2026-07-28) get the `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and
//! `Mcp-Param-*` headers; legacy servers (≤ 2025-11-25) get a session (`Mcp-Session-Id`), a GET stream
//! for server-initiated messages, and stream resumption with `Last-Event-ID`. The era is probed once
//! per origin and remembered for the life of the process.
//!
//! ```no_run
//! # async fn run() -> libmcp::Result<()> {
//! let client = libmcp::client::Client::builder("demo", "1.0.0")
//!     .connect_http("http://127.0.0.1:3000/mcp")
//!     .await?;
//! let tools = client.list_all_tools().await?;
//! client.close().await;
//! # Ok(()) }
//! ```

mod legacy_sse;
mod shared;
pub mod sse;
mod transport;

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use hyper::Uri;
use hyper::header::{HeaderName, HeaderValue};
use parking_lot::{Mutex, RwLock};
use serde_json::{Value, json};

use super::config::{ClientConfig, ClientHandlers};
use super::connection::Connection;
use super::description::ServerDescription;
use super::handle::Client;
use super::handshake::{self, VersionPreference};
use crate::error::{Error, Result, code};
use crate::net::{self, TrustRoots};
use crate::transport::Sink;
use crate::version::{Era, ProtocolVersion};
use shared::Shared;
use transport::HttpOutbound;

/// Options of an HTTP connection.
#[derive(Clone, Debug, Default)]
pub struct HttpClientOptions {
    /// Extra headers sent with every request (for example `Authorization`).
    pub headers: Vec<(String, String)>,
    /// OAuth 2.1: sends its bearer token, and authorizes on a 401 or 403 `insufficient_scope`.
    /// Authorization servers are reached with this connection's TLS settings
    /// ([`root_certificates`](Self::root_certificates)), also when the `OAuthClient` is shared by
    /// several connections.
    pub auth: Option<crate::auth::client::OAuthClient>,
    /// Extra trusted root certificates for `https://` URLs, each a PEM bundle of one or more
    /// `CERTIFICATE` sections (for example a private CA or a self-signed server certificate).
    /// Needs the `tls` cargo feature.
    pub root_certificates: Vec<Vec<u8>>,
    /// Trust only [`Self::root_certificates`], not the bundled Mozilla root store.
    pub skip_default_roots: bool,
}

/// The era learned per origin (`scheme://host:port`), so later connections skip the probe (at most
/// [`MAX_CACHED_ORIGINS`], each with the order it was learned in). A
/// `BTreeMap`: a process-wide hash table is reachable only through a pointer into its allocation,
/// which valgrind reports as "possibly lost" in every C host.
fn era_cache() -> &'static Mutex<BTreeMap<String, (u64, Era)>> {
    static CACHE: OnceLock<Mutex<BTreeMap<String, (u64, Era)>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(BTreeMap::new()))
}

/// Most origins whose era is remembered: a process that connects to many servers (a gateway) keeps
/// at most this many, forgetting the earliest learned first (a forgotten origin is probed again).
pub const MAX_CACHED_ORIGINS: usize = 1024;

/// Remembers `era` for `origin`, forgetting the earliest learned origin when the cache is full.
fn remember_era(cache: &mut BTreeMap<String, (u64, Era)>, origin: String, era: Era) {
    static LEARNED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    if cache.len() >= MAX_CACHED_ORIGINS && !cache.contains_key(&origin) {
        let earliest = cache
            .iter()
            .min_by_key(|(_, (at, _))| *at)
            .map(|(o, _)| o.clone());
        if let Some(o) = earliest {
            cache.remove(&o);
        }
    }
    let at = LEARNED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    cache.insert(origin, (at, era));
}

/// The era this process has learned for the origin of `url`, if any.
pub fn cached_era(url: &str) -> Option<Era> {
    let uri: Uri = url.parse().ok()?;
    era_cache().lock().get(&origin(&uri)).map(|(_, era)| *era)
}

fn origin(uri: &Uri) -> String {
    format!(
        "{}://{}",
        uri.scheme_str().unwrap_or("http"),
        uri.authority().map(|a| a.as_str()).unwrap_or("")
    )
}

pub(crate) async fn connect(
    info: Value,
    preference: VersionPreference,
    handlers: ClientHandlers,
    config: ClientConfig,
    url: &str,
    options: HttpClientOptions,
) -> Result<Client> {
    let endpoint: Uri = url
        .parse()
        .map_err(|e| Error::InvalidArgument(format!("bad URL {url:?}: {e}")))?;
    net::check_scheme(url, &endpoint)?;
    let connector = net::connector::build(TrustRoots {
        certificates: &options.root_certificates,
        skip_default: options.skip_default_roots,
    })?;
    let mut extra = Vec::new();
    for (k, v) in &options.headers {
        let name = HeaderName::from_bytes(k.as_bytes())
            .map_err(|e| Error::InvalidArgument(format!("bad header name {k:?}: {e}")))?;
        let value = HeaderValue::from_str(v)
            .map_err(|e| Error::InvalidArgument(format!("bad value for header {k}: {e}")))?;
        extra.push((name, value));
    }
    let server = Arc::new(RwLock::new(ServerDescription {
        era: Era::Modern,
        version: ProtocolVersion::LATEST,
        supported_versions: vec![],
        capabilities: json!({}),
        server_info: None,
        instructions: None,
    }));
    let origin = origin(&endpoint);
    let shared = Shared::new(
        endpoint,
        extra,
        server.clone(),
        connector,
        options.auth.clone(),
    );
    let sink = Sink::new(Arc::new(HttpOutbound::new(shared.clone())));
    let conn = Connection::new(sink, handlers, config);
    let _ = shared.conn.set(Arc::downgrade(&conn));
    let close_shared = shared.clone();
    let client = Client {
        conn,
        info: Arc::new(info),
        server,
        child: Arc::new(Mutex::new(None)),
        stop_writer: Arc::new(Mutex::new(None)),
        on_close: Arc::new(Mutex::new(Some(Box::pin(async move {
            // Messages still queued (say `notifications/initialized`) go out before the shutdown.
            close_shared.flush(shared::CLOSE_FLUSH).await;
            close_shared.abort_all();
            close_shared.delete_session().await;
        })))),
    };
    let cached = era_cache().lock().get(&origin).map(|(_, era)| *era);
    let outcome = match (&preference, cached) {
        (VersionPreference::Auto, Some(Era::Legacy)) => {
            handshake::initialize(&client, &ProtocolVersion::LATEST_LEGACY).await
        }
        (VersionPreference::Auto, Some(Era::Modern)) => {
            handshake::discover(&client, ProtocolVersion::LATEST, None).await
        }
        (VersionPreference::Auto, None) => probe(&client, &shared).await,
        (pref, _) => handshake::negotiate(&client, pref).await,
    };
    match outcome {
        Ok(()) => {
            remember_era(&mut era_cache().lock(), origin, client.era());
            if client.era() == Era::Legacy {
                // `notifications/initialized` and the GET stream it opens go out before the client
                // is handed over, so a server message sent right after (a list change, say) finds
                // the stream open instead of being dropped for want of one.
                shared.flush(shared::READY_FLUSH).await;
            }
            Ok(client)
        }
        Err(e) => {
            client.close().await;
            Err(e)
        }
    }
}

/// The HTTP era probe: `server/discover` with the modern headers; a discover result or a recognised
/// modern error means modern, as does a 404 carrying -32601; anything else means legacy.
async fn probe(client: &Client, shared: &Shared) -> Result<()> {
    match handshake::probe_discover(client).await {
        Ok(()) => Ok(()),
        Err(e) if handshake::probe_is_final(&e) => Err(e),
        Err(Error::Rpc(e))
            if e.code == code::METHOD_NOT_FOUND
                && shared
                    .probe_status
                    .load(std::sync::atomic::Ordering::SeqCst)
                    == 404 =>
        {
            // A modern server without server/discover: keep the modern era, learn nothing more.
            Ok(())
        }
        // Authorization failed: initialize would only run (and fail) the same flow again.
        Err(e) if shared.auth_failed.load(std::sync::atomic::Ordering::SeqCst) => Err(e),
        Err(_) => handshake::initialize_fallback(client).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_era_cache_keeps_at_most_its_cap_forgetting_the_earliest() {
        let mut cache = BTreeMap::new();
        for i in 0..MAX_CACHED_ORIGINS + 100 {
            remember_era(&mut cache, format!("http://h{i}:1"), Era::Modern);
        }
        assert_eq!(cache.len(), MAX_CACHED_ORIGINS);
        assert!(!cache.contains_key("http://h0:1") && !cache.contains_key("http://h99:1"));
        assert!(cache.contains_key("http://h100:1"));
        // Learning an origin again replaces it without forgetting another.
        remember_era(&mut cache, "http://h100:1".into(), Era::Legacy);
        assert_eq!(cache.len(), MAX_CACHED_ORIGINS);
        assert_eq!(cache["http://h100:1"].1, Era::Legacy);
    }
}
