//! How the HTTP client reaches a server: plain TCP for `http://` URLs and, with the `tls` cargo feature,
//! TLS via rustls (ring provider) for `https://` URLs. Server certificates are checked against the
//! Mozilla root store (`webpki-roots`, unless left out) and any extra roots of the connection's
//! [`TrustRoots`]; the server name comes from the URL's host.

use hyper::Uri;
use hyper_util::client::legacy::connect::HttpConnector;

use crate::error::{Error, Result};

/// The connector type the client's hyper pool is built on.
#[cfg(feature = "tls")]
pub(crate) type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
/// The connector type the client's hyper pool is built on.
#[cfg(not(feature = "tls"))]
pub(crate) type Connector = HttpConnector;

/// Which certificates a connection trusts for `https://` URLs.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TrustRoots<'a> {
    /// Extra roots, each a PEM bundle of one or more `CERTIFICATE` sections.
    pub certificates: &'a [Vec<u8>],
    /// Trust only [`Self::certificates`], not the bundled Mozilla root store.
    #[cfg_attr(
        not(feature = "tls"),
        expect(dead_code, reason = "without TLS there is no root store to leave out")
    )]
    pub skip_default: bool,
}

/// Checks that this build can speak the URL's scheme.
pub(crate) fn check_scheme(url: &str, uri: &Uri) -> Result<()> {
    match uri.scheme_str() {
        Some("http") => Ok(()),
        Some("https") if cfg!(feature = "tls") => Ok(()),
        Some("https") => Err(Error::InvalidArgument(format!(
            "{url:?} needs TLS, and this build of libmcp has no TLS support (cargo feature `tls`)"
        ))),
        _ => Err(Error::InvalidArgument(format!(
            "{url:?} is not an http:// or https:// URL"
        ))),
    }
}

/// The connector for one client, with its trust roots.
#[cfg(not(feature = "tls"))]
pub(crate) fn build(roots: TrustRoots<'_>) -> Result<Connector> {
    if !roots.certificates.is_empty() {
        return Err(Error::InvalidArgument(
            "root certificates were given, and this build of libmcp has no TLS support (cargo feature `tls`)"
                .into(),
        ));
    }
    Ok(HttpConnector::new())
}

/// The connector for one client, with its trust roots.
#[cfg(feature = "tls")]
pub(crate) fn build(roots: TrustRoots<'_>) -> Result<Connector> {
    use std::sync::Arc;

    let roots = root_store(roots)?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::InvalidArgument(format!("TLS configuration: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let mut tcp = HttpConnector::new();
    tcp.enforce_http(false);
    Ok(hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(config)
        .https_or_http()
        .enable_http1()
        .wrap_connector(tcp))
}

/// The Mozilla roots (unless left out) plus every certificate of the extra PEM bundles.
#[cfg(feature = "tls")]
fn root_store(trust: TrustRoots<'_>) -> Result<rustls::RootCertStore> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;

    let mut roots = rustls::RootCertStore::empty();
    if !trust.skip_default {
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    }
    for (i, pem) in trust.certificates.iter().enumerate() {
        let mut found = 0;
        for cert in CertificateDer::pem_slice_iter(pem) {
            let cert = cert.map_err(|e| {
                Error::InvalidArgument(format!("root certificate bundle {i}: bad PEM: {e}"))
            })?;
            roots.add(cert).map_err(|e| {
                Error::InvalidArgument(format!(
                    "root certificate bundle {i}: not a usable certificate: {e}"
                ))
            })?;
            found += 1;
        }
        if found == 0 {
            return Err(Error::InvalidArgument(format!(
                "root certificate bundle {i} holds no PEM CERTIFICATE section"
            )));
        }
    }
    if roots.is_empty() {
        return Err(Error::InvalidArgument(
            "no trusted roots: skip_default_roots is set and no root certificates were given"
                .into(),
        ));
    }
    Ok(roots)
}

/// An error with its chain of causes (`a: b: c`): hyper's connect errors name the real cause (refused,
/// unknown certificate issuer, ...) only in their sources.
pub(crate) fn describe(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !out.ends_with(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = s.source();
    }
    out
}
