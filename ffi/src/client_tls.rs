//! The HTTP-only parts of `mcp_client_config`: OAuth and the TLS trust roots of `https://` URLs.

use std::ffi::c_char;

use libmcp::auth::client::{OAuthClient, OAuthConfig};
use libmcp::client::http::HttpClientOptions;

use crate::client_config::mcp_client_config;
use crate::oauth::mcp_oauth_config;
use crate::status::mcp_status;

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

/// Authorizes the HTTP client with a copy of `oauth` (NULL turns authorization off again): the
/// client sends its bearer token with every request and, on a 401 or a 403 `insufficient_scope`
/// challenge, discovers the authorization server, registers, authorizes and retries. Tokens are kept
/// in `oauth`'s store. Used by `mcp_client_builder_connect_http` only.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_set_oauth(
    config: *mut mcp_client_config,
    oauth: *const mcp_oauth_config,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        c.http.oauth = unsafe { oauth.as_ref() }.map(|o| o.config().clone());
        mcp_status::MCP_STATUS_OK
    })
}

/// Trusts the certificates of a PEM bundle (`pem_len` bytes holding one or more `-----BEGIN
/// CERTIFICATE-----` sections, e.g. a private CA or a self-signed server certificate; copied) for
/// `https://` URLs, next to the bundled Mozilla roots. Text without a CERTIFICATE section is
/// `MCP_STATUS_INVALID_ARGUMENT`; a section that does not decode fails the connect with
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_add_root_certificates_pem(
    config: *mut mcp_client_config,
    pem: *const c_char,
    pem_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let pem = try_str!(pem, pem_len);
        if !pem.contains("-----BEGIN CERTIFICATE-----") {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        c.http.root_certificates.push(pem.as_bytes().to_vec());
        mcp_status::MCP_STATUS_OK
    })
}

/// Trusts only the roots added with `mcp_client_config_add_root_certificates_pem`, not the bundled
/// Mozilla roots (default off). With none added, an `https://` connect fails with
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_config_set_skip_default_roots(
    config: *mut mcp_client_config,
    skip: bool,
) -> mcp_status {
    ffi_boundary!({
        try_mut!(config).http.skip_default_roots = skip;
        mcp_status::MCP_STATUS_OK
    })
}
