//! The HTTP client plumbing shared by the Streamable HTTP client transport
//! ([`crate::client::http`]) and the OAuth client ([`crate::auth::client`]): how a connection
//! reaches a server (plain TCP, or TLS with the `tls` feature) and the pooled hyper client built on
//! it. Both users depend on this module; it depends on neither.

pub(crate) mod connector;

use bytes::Bytes;
use http_body_util::Full;
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::rt::TokioExecutor;

pub(crate) use connector::{Connector, TrustRoots, check_scheme, describe};

/// The pooled HTTP client both the MCP transport and the OAuth client send requests with.
pub(crate) type Http = HyperClient<Connector, Full<Bytes>>;

/// A pooled client on `connector`.
pub(crate) fn client(connector: Connector) -> Http {
    HyperClient::builder(TokioExecutor::new()).build(connector)
}
