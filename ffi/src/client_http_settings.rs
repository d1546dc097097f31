//! The HTTP settings a client builder carries (OAuth, TLS roots) until it connects.

use libmcp::auth::client::{OAuthClient, OAuthConfig};
use libmcp::client::http::HttpClientOptions;

/// What `mcp_client_builder_connect_http` adds to `HttpClientOptions`.
#[derive(Clone, Default)]
pub(crate) struct HttpSettings {
    pub(crate) oauth: Option<OAuthConfig>,
    pub(crate) root_certificates: Vec<Vec<u8>>,
    pub(crate) skip_default_roots: bool,
}

impl HttpSettings {
    /// Options for one connection (a fresh OAuth client over the configuration's store).
    pub(crate) fn options(&self) -> HttpClientOptions {
        HttpClientOptions {
            auth: self.oauth.clone().map(OAuthClient::new),
            root_certificates: self.root_certificates.clone(),
            skip_default_roots: self.skip_default_roots,
            ..Default::default()
        }
    }
}
