//! Finding the authorization server of an MCP server: protected-resource metadata (from the
//! challenge's `resource_metadata`, else the path-based then the root well-known URL), then the
//! authorization server's metadata (OAuth then OpenID, path variants in the spec's order) with its
//! `issuer` checked. A server without protected-resource metadata is treated as a 2025-03-26 server:
//! metadata at its origin, else the default endpoints `/authorize`, `/token` and `/register` there.

use hyper::Method;

use super::super::challenge::BearerChallenge;
use super::super::metadata::{
    AuthorizationServerMetadata, ProtectedResourceMetadata, resource_covers,
};
use super::super::urls;
use super::AuthError;
use super::fetch::{Http, send};

/// What discovery learned.
#[derive(Clone, Debug)]
pub(crate) struct Discovered {
    /// The `resource` parameter to send: PRM's `resource` verbatim, else the server URL.
    pub resource: String,
    /// Scopes from PRM `scopes_supported`.
    pub prm_scopes: Option<Vec<String>>,
    /// The issuer recorded for this flow (checked against `iss` in the authorization response).
    pub issuer: String,
    /// The authorization server's metadata, when it publishes any.
    pub metadata: Option<AuthorizationServerMetadata>,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub registration_endpoint: Option<String>,
}

/// Discovery for `server_url`. `code_flow`: the authorization code grant will be used, so the
/// authorization server must have an authorization endpoint and support PKCE S256.
pub(crate) async fn discover(
    http: &Http,
    server_url: &str,
    challenge: Option<&BearerChallenge>,
    code_flow: bool,
) -> Result<Discovered, AuthError> {
    let prm = protected_resource_metadata(http, server_url, challenge).await?;
    let Some(prm) = prm else {
        return legacy_discovery(http, server_url, code_flow).await;
    };
    let issuer = prm.authorization_servers.first().cloned().ok_or_else(|| {
        AuthError::Discovery(format!(
            "the protected-resource metadata of {server_url} names no authorization server"
        ))
    })?;
    let metadata = authorization_server_metadata(http, &issuer)
        .await?
        .ok_or_else(|| {
            AuthError::Discovery(format!(
                "authorization server {issuer} publishes no metadata at any of {}",
                urls::authorization_server_metadata_urls(&issuer).join(", ")
            ))
        })?;
    from_metadata(prm.resource, prm.scopes_supported, metadata, code_flow)
}

fn from_metadata(
    resource: String,
    prm_scopes: Option<Vec<String>>,
    metadata: AuthorizationServerMetadata,
    code_flow: bool,
) -> Result<Discovered, AuthError> {
    let issuer = metadata.issuer.clone();
    let missing =
        |what: &str| AuthError::Metadata(format!("the metadata of {issuer} has no {what}"));
    let authorization_endpoint = match metadata.authorization_endpoint.clone() {
        Some(e) => e,
        None if !code_flow => String::new(),
        None => return Err(missing("authorization_endpoint")),
    };
    let token_endpoint = metadata
        .token_endpoint
        .clone()
        .ok_or_else(|| missing("token_endpoint"))?;
    if code_flow && !metadata.supports_s256() {
        return Err(AuthError::Metadata(format!(
            "authorization server {issuer} does not advertise PKCE S256 in code_challenge_methods_supported ({:?}); refusing to authorize without it",
            metadata
                .code_challenge_methods_supported
                .as_deref()
                .unwrap_or_default()
        )));
    }
    Ok(Discovered {
        resource,
        prm_scopes,
        registration_endpoint: metadata.registration_endpoint.clone(),
        issuer,
        metadata: Some(metadata),
        authorization_endpoint,
        token_endpoint,
    })
}

/// 2025-03-26: the authorization server is the MCP server's origin.
async fn legacy_discovery(
    http: &Http,
    server_url: &str,
    code_flow: bool,
) -> Result<Discovered, AuthError> {
    let origin = urls::split(server_url)
        .map(|p| p.origin())
        .ok_or_else(|| AuthError::Discovery(format!("{server_url:?} is not an absolute URL")))?;
    if let Some(metadata) = authorization_server_metadata(http, &origin).await? {
        return from_metadata(server_url.to_owned(), None, metadata, code_flow);
    }
    Ok(Discovered {
        resource: server_url.to_owned(),
        prm_scopes: None,
        issuer: origin.clone(),
        metadata: None,
        authorization_endpoint: format!("{origin}/authorize"),
        token_endpoint: format!("{origin}/token"),
        registration_endpoint: Some(format!("{origin}/register")),
    })
}

/// The server's protected-resource metadata, `None` when none of the locations has any.
async fn protected_resource_metadata(
    http: &Http,
    server_url: &str,
    challenge: Option<&BearerChallenge>,
) -> Result<Option<ProtectedResourceMetadata>, AuthError> {
    let mut candidates: Vec<String> = Vec::new();
    if let Some(url) = challenge.and_then(|c| c.resource_metadata.clone()) {
        candidates.push(url);
    }
    for url in urls::protected_resource_metadata_urls(server_url) {
        if !candidates.contains(&url) {
            candidates.push(url);
        }
    }
    for url in candidates {
        let reply = send(http, Method::GET, &url, &[], None).await?;
        if !reply.ok() {
            continue;
        }
        let doc = reply
            .json("the protected-resource metadata")
            .map_err(|e| AuthError::Metadata(format!("{url}: {e}")))?;
        let prm: ProtectedResourceMetadata = serde_json::from_value(doc).map_err(|e| {
            AuthError::Metadata(format!("{url}: invalid protected-resource metadata: {e}"))
        })?;
        if !resource_covers(&prm.resource, server_url) {
            return Err(AuthError::Metadata(format!(
                "the protected-resource metadata at {url} is for resource {:?}, which does not match the server URL {server_url}",
                prm.resource
            )));
        }
        return Ok(Some(prm));
    }
    Ok(None)
}

/// The metadata of the authorization server `issuer`, `None` when no candidate URL has any. A
/// document whose `issuer` differs from `issuer` (exact comparison, RFC 8414 §3.3) is rejected.
async fn authorization_server_metadata(
    http: &Http,
    issuer: &str,
) -> Result<Option<AuthorizationServerMetadata>, AuthError> {
    let mut rejected: Option<String> = None;
    for url in urls::authorization_server_metadata_urls(issuer) {
        let reply = send(http, Method::GET, &url, &[], None).await?;
        if !reply.ok() {
            continue;
        }
        let doc = reply
            .json("the authorization server metadata")
            .map_err(|e| AuthError::Metadata(format!("{url}: {e}")))?;
        let metadata: AuthorizationServerMetadata = serde_json::from_value(doc).map_err(|e| {
            AuthError::Metadata(format!("{url}: invalid authorization server metadata: {e}"))
        })?;
        if metadata.issuer != issuer {
            rejected = Some(format!(
                "the metadata at {url} names issuer {:?}, not {issuer:?}",
                metadata.issuer
            ));
            continue;
        }
        return Ok(Some(metadata));
    }
    match rejected {
        Some(why) => Err(AuthError::Metadata(format!("{why}; metadata discarded"))),
        None => Ok(None),
    }
}
