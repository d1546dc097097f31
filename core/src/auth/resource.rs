//! The resource server: what the MCP server requires of a bearer token and what it advertises
//! about itself. Transport-free: [`ResourceServerConfig::authenticate`] takes the `Authorization`
//! header and answers with an [`AuthInfo`] or a [`Challenge`] that the HTTP layer writes out.

use std::collections::BTreeMap;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::prm::{self, ProtectedResourceMetadata};
use super::resource_challenge::{Challenge, ChallengeKind};
use super::resource_verifier::{AuthInfo, TokenRejection, TokenVerifier};

/// A configuration the builder refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AuthConfigError {
    /// The resource identifier is not an absolute `http(s)` URL without a fragment.
    #[error("resource must be an absolute http(s) URL without a fragment: {0:?}")]
    InvalidResource(String),
    /// RFC 9728 metadata for MCP must name at least one authorization server.
    #[error("at least one authorization server is required")]
    NoAuthorizationServer,
    /// An authorization server issuer is not an absolute `http(s)` URL.
    #[error("authorization server must be an absolute http(s) URL: {0:?}")]
    InvalidAuthorizationServer(String),
    /// A scope value is empty or holds characters RFC 6749 §3.3 does not allow.
    #[error("invalid scope value: {0:?}")]
    InvalidScope(String),
}

/// How the MCP server acts as an OAuth 2.1 resource server. Build with [`ResourceServerConfig::builder`].
pub struct ResourceServerConfig {
    verifier: Arc<dyn TokenVerifier>,
    metadata: ProtectedResourceMetadata,
    metadata_url: String,
    required_scopes: Vec<String>,
    tool_scopes: BTreeMap<String, Vec<String>>,
    check_audience: bool,
    verify_timeout: Duration,
    /// Accepts DPoP-bound tokens (`Authorization: DPoP` with a proof) when set.
    #[cfg(feature = "http")]
    dpop: Option<Arc<super::dpop_check::ProofChecker>>,
}

impl std::fmt::Debug for ResourceServerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceServerConfig")
            .field("metadata", &self.metadata)
            .field("required_scopes", &self.required_scopes)
            .field("tool_scopes", &self.tool_scopes)
            .field("check_audience", &self.check_audience)
            .finish_non_exhaustive()
    }
}

impl ResourceServerConfig {
    /// Starts a configuration for the resource `resource` (the canonical URL of the MCP endpoint,
    /// e.g. `https://mcp.example.com/mcp`) whose tokens `verifier` checks.
    pub fn builder(
        resource: impl Into<String>,
        verifier: impl TokenVerifier + 'static,
    ) -> ResourceServerConfigBuilder {
        ResourceServerConfigBuilder {
            verifier: Arc::new(verifier),
            metadata: ProtectedResourceMetadata {
                resource: resource.into(),
                bearer_methods_supported: vec!["header".into()],
                ..Default::default()
            },
            required_scopes: Vec::new(),
            tool_scopes: BTreeMap::new(),
            check_audience: true,
            verify_timeout: Duration::from_secs(10),
            #[cfg(feature = "http")]
            dpop: false,
        }
    }

    /// The resource identifier.
    pub fn resource(&self) -> &str {
        &self.metadata.resource
    }

    /// The protected resource metadata document served at the well-known paths.
    pub fn metadata(&self) -> &ProtectedResourceMetadata {
        &self.metadata
    }

    /// Where the metadata lives (RFC 9728 §3.1); named in every challenge as `resource_metadata`.
    pub fn metadata_url(&self) -> &str {
        &self.metadata_url
    }

    /// The path part of [`metadata_url`](Self::metadata_url).
    #[cfg(any(test, feature = "http"))]
    pub(crate) fn metadata_path(&self) -> &str {
        prm::split_origin(&self.metadata_url).map_or(prm::WELL_KNOWN_PREFIX, |(_, p)| p)
    }

    /// Scopes every request needs.
    pub fn required_scopes(&self) -> &[String] {
        &self.required_scopes
    }

    /// The scopes a `tools/call` of `tool` needs: the required scopes plus the tool's own.
    pub fn scopes_for_tool(&self, tool: &str) -> Vec<String> {
        let mut all = self.required_scopes.clone();
        for s in self.tool_scopes.get(tool).into_iter().flatten() {
            if !all.contains(s) {
                all.push(s.clone());
            }
        }
        all
    }

    /// Checks an `Authorization` header value (`None` when absent): the scheme and token syntax,
    /// then the verifier, then expiry, audience and the required scopes.
    pub async fn authenticate(&self, authorization: Option<&str>) -> Result<AuthInfo, Challenge> {
        self.authenticate_request(authorization, None, "POST").await
    }

    /// [`Self::authenticate`] for a `method` request whose `DPoP` header is `dpop_proof`. With
    /// DPoP on ([`ResourceServerConfigBuilder::dpop`]), `Authorization: DPoP <token>` is accepted
    /// when the proof is valid for this request (RFC 9449 §4.3: signature, `htm`, `htu` = the
    /// resource URL, `iat` within [`PROOF_WINDOW_SECS`](super::PROOF_WINDOW_SECS), `ath`, a `jti` not seen before) and its key
    /// is the one the token is bound to (`cnf.jkt` among the verifier's claims, §6.1); a bound
    /// token presented as a bearer token is refused (§7.2).
    pub async fn authenticate_request(
        &self,
        authorization: Option<&str>,
        dpop_proof: Option<&str>,
        method: &str,
    ) -> Result<AuthInfo, Challenge> {
        let (dpop_scheme, token) = self.access_token(authorization)?;
        let proof_key = match dpop_scheme {
            true => Some(self.check_proof(dpop_proof, method, token)?),
            false => None,
        };
        let failed = || {
            Challenge::new(
                ChallengeKind::Unavailable,
                "the token verifier failed",
                Vec::new(),
            )
        };
        let verifier = &self.verifier;
        let verified = std::panic::catch_unwind(AssertUnwindSafe(|| verifier.verify(token)))
            .map_err(|_| failed())?;
        let info = match tokio::time::timeout(self.verify_timeout, CatchUnwind(verified)).await {
            Ok(Ok(Ok(info))) => info,
            Ok(Ok(Err(TokenRejection::Invalid(why)))) => return Err(self.invalid(why)),
            Ok(Ok(Err(TokenRejection::Unavailable(why)))) => {
                return Err(Challenge::new(ChallengeKind::Unavailable, why, Vec::new()));
            }
            Ok(Err(())) => return Err(failed()),
            Err(_) => {
                return Err(Challenge::new(
                    ChallengeKind::Unavailable,
                    format!(
                        "the token verifier did not answer within {:?}",
                        self.verify_timeout
                    ),
                    Vec::new(),
                ));
            }
        };
        if let Some(exp) = info.expires_at {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            if exp <= now {
                return Err(self.invalid("the access token has expired"));
            }
        }
        if self.check_audience
            && !info
                .audience
                .iter()
                .any(|a| same_resource(a, self.resource()))
        {
            return Err(self.invalid(format!(
                "the access token was not issued for this resource ({})",
                self.resource()
            )));
        }
        let bound = info
            .claims
            .get("cnf")
            .and_then(|c| c.get("jkt"))
            .and_then(Value::as_str);
        match (bound, proof_key) {
            (Some(b), Some(k)) if b != k => {
                return Err(self.invalid(
                    "the DPoP proof is signed by another key than the one the token is bound to",
                ));
            }
            (Some(_), None) => {
                return Err(self.invalid(
                    "the access token is DPoP-bound: present it with the DPoP scheme and a proof",
                ));
            }
            (None, Some(_)) => {
                return Err(self.invalid("the access token is not DPoP-bound (no cnf.jkt)"));
            }
            _ => {}
        }
        self.check_scopes(&info, &self.required_scopes)?;
        Ok(info)
    }

    #[cfg(feature = "http")]
    fn check_proof(
        &self,
        proof: Option<&str>,
        method: &str,
        token: &str,
    ) -> Result<String, Challenge> {
        let Some(checker) = &self.dpop else {
            return Err(self.invalid("DPoP is not accepted here"));
        };
        let proof =
            proof.ok_or_else(|| self.invalid("a DPoP request needs one DPoP proof header"))?;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        checker
            .check(proof, method, self.resource(), token, now)
            .map_err(|why| self.invalid(why))
    }

    #[cfg(not(feature = "http"))]
    fn check_proof(&self, _: Option<&str>, _: &str, _: &str) -> Result<String, Challenge> {
        Err(self.invalid("DPoP is not accepted here"))
    }

    /// Whether DPoP-bound tokens are accepted.
    fn accepts_dpop(&self) -> bool {
        #[cfg(feature = "http")]
        return self.dpop.is_some();
        #[cfg(not(feature = "http"))]
        return false;
    }

    /// Checks that `info` holds every scope a `tools/call` of `tool` needs (step-up authorization).
    /// The 403 names the scopes this operation needs, not those the token already holds beyond
    /// them: RFC 6750 §3.1 as SEP-2350 reads it; clients accumulate their scopes themselves.
    pub fn authorize_tool(&self, info: &AuthInfo, tool: &str) -> Result<(), Challenge> {
        if self.tool_scopes.contains_key(tool) {
            self.check_scopes(info, &self.scopes_for_tool(tool))?;
        }
        Ok(())
    }

    fn check_scopes(&self, info: &AuthInfo, needed: &[String]) -> Result<(), Challenge> {
        let missing: Vec<&str> = needed
            .iter()
            .filter(|n| !info.scopes.contains(n))
            .map(String::as_str)
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(Challenge::new(
            ChallengeKind::InsufficientScope,
            format!("the access token lacks the scope {}", missing.join(" ")),
            needed.to_vec(),
        ))
    }

    fn invalid(&self, why: impl Into<String>) -> Challenge {
        Challenge::new(
            ChallengeKind::InvalidToken,
            why,
            self.required_scopes.clone(),
        )
    }

    /// The token of `Bearer <b64token>` (RFC 6750 §2.1; the scheme is case-insensitive), or of
    /// `DPoP <b64token>` when DPoP is accepted (RFC 9449 §7.1); whether it was DPoP.
    fn access_token<'a>(
        &self,
        authorization: Option<&'a str>,
    ) -> Result<(bool, &'a str), Challenge> {
        let scope = || self.required_scopes.clone();
        let Some(value) = authorization else {
            return Err(Challenge::new(
                ChallengeKind::MissingToken,
                "this resource needs an Authorization: Bearer access token",
                scope(),
            ));
        };
        let (scheme, rest) = value.split_once(' ').unwrap_or((value, ""));
        let dpop = self.accepts_dpop() && scheme.eq_ignore_ascii_case("dpop");
        if !dpop && !scheme.eq_ignore_ascii_case("bearer") {
            return Err(Challenge::new(
                ChallengeKind::MissingToken,
                "the Authorization header must use the Bearer scheme",
                scope(),
            ));
        }
        let token = rest.trim_matches(' ');
        let body = token.trim_end_matches('=');
        let b64token = !body.is_empty()
            && body
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b));
        if !b64token {
            return Err(Challenge::new(
                ChallengeKind::InvalidRequest,
                "the Bearer token is empty or not in b64token syntax",
                scope(),
            ));
        }
        Ok((dpop, token))
    }
}

/// Builds a [`ResourceServerConfig`]. A clone shares the verifier.
#[derive(Clone)]
pub struct ResourceServerConfigBuilder {
    verifier: Arc<dyn TokenVerifier>,
    metadata: ProtectedResourceMetadata,
    required_scopes: Vec<String>,
    tool_scopes: BTreeMap<String, Vec<String>>,
    check_audience: bool,
    verify_timeout: Duration,
    #[cfg(feature = "http")]
    dpop: bool,
}

impl std::fmt::Debug for ResourceServerConfigBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceServerConfigBuilder")
            .field("metadata", &self.metadata)
            .finish_non_exhaustive()
    }
}

impl ResourceServerConfigBuilder {
    /// Adds an authorization server (its issuer identifier). At least one is required.
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.metadata.authorization_servers.push(issuer.into());
        self
    }

    /// The scopes advertised in the metadata (`scopes_supported`); clients request all of them when a
    /// challenge names none.
    pub fn scopes_supported<I: IntoIterator<Item = S>, S: Into<String>>(
        mut self,
        scopes: I,
    ) -> Self {
        self.metadata.scopes_supported = Some(scopes.into_iter().map(Into::into).collect());
        self
    }

    /// Scopes every request needs (named in the `scope` of every challenge).
    pub fn required_scopes<I: IntoIterator<Item = S>, S: Into<String>>(
        mut self,
        scopes: I,
    ) -> Self {
        self.required_scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Scopes a `tools/call` of `tool` needs beyond the required ones; without them the call gets
    /// 403 `insufficient_scope` naming the full set, so the client can step up.
    pub fn tool_scopes<I: IntoIterator<Item = S>, S: Into<String>>(
        mut self,
        tool: impl Into<String>,
        scopes: I,
    ) -> Self {
        self.tool_scopes
            .insert(tool.into(), scopes.into_iter().map(Into::into).collect());
        self
    }

    /// The human-readable `resource_name`.
    pub fn resource_name(mut self, name: impl Into<String>) -> Self {
        self.metadata.resource_name = Some(name.into());
        self
    }

    /// The `resource_documentation` URL.
    pub fn resource_documentation(mut self, url: impl Into<String>) -> Self {
        self.metadata.resource_documentation = Some(url.into());
        self
    }

    /// A further metadata member, kept as given.
    pub fn metadata_member(mut self, name: impl Into<String>, value: Value) -> Self {
        self.metadata.extra.insert(name.into(), value);
        self
    }

    /// Whether a token's audience must name this resource (default: yes, as MCP requires; turn it
    /// off only when the verifier already checks it).
    pub fn check_audience(mut self, on: bool) -> Self {
        self.check_audience = on;
        self
    }

    /// Accepts DPoP-bound access tokens (RFC 9449) besides bearer tokens (default off); see
    /// [`ResourceServerConfig::authenticate_request`].
    #[cfg(feature = "http")]
    pub fn dpop(mut self, on: bool) -> Self {
        self.dpop = on;
        self
    }

    /// How long the verifier may take before the request gets 503 (default 10 s).
    pub fn verify_timeout(mut self, timeout: Duration) -> Self {
        self.verify_timeout = timeout;
        self
    }

    /// Checks the configuration.
    pub fn build(self) -> Result<ResourceServerConfig, AuthConfigError> {
        let resource = &self.metadata.resource;
        if resource.contains('#') {
            return Err(AuthConfigError::InvalidResource(resource.clone()));
        }
        let metadata_url = prm::metadata_url_for(resource)
            .ok_or_else(|| AuthConfigError::InvalidResource(resource.clone()))?;
        if self.metadata.authorization_servers.is_empty() {
            return Err(AuthConfigError::NoAuthorizationServer);
        }
        for s in &self.metadata.authorization_servers {
            if prm::split_origin(s).is_none() {
                return Err(AuthConfigError::InvalidAuthorizationServer(s.clone()));
            }
        }
        let supported = self.metadata.scopes_supported.iter().flatten();
        let tools = self.tool_scopes.values().flatten();
        for s in self.required_scopes.iter().chain(supported).chain(tools) {
            // RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
            let ok = !s.is_empty()
                && s.bytes()
                    .all(|b| b == 0x21 || (0x23..=0x7e).contains(&b) && b != b'\\');
            if !ok {
                return Err(AuthConfigError::InvalidScope(s.clone()));
            }
        }
        Ok(ResourceServerConfig {
            verifier: self.verifier,
            metadata: self.metadata,
            metadata_url,
            required_scopes: self.required_scopes,
            tool_scopes: self.tool_scopes,
            check_audience: self.check_audience,
            verify_timeout: self.verify_timeout,
            #[cfg(feature = "http")]
            dpop: self.dpop.then(Default::default),
        })
    }
}

/// Whether an audience value names `resource`: scheme and host compare case-insensitively, and a
/// trailing slash is ignored.
fn same_resource(audience: &str, resource: &str) -> bool {
    fn canonical(u: &str) -> Option<(String, String)> {
        // ASCII lowercasing keeps byte offsets, so the origin found in the lowercased URL
        // delimits the original's path, whose case matters.
        let lower = u.to_ascii_lowercase();
        let (origin, path) = prm::split_origin(&lower)?;
        let start = origin.len();
        let path = &u[start..start + path.len()];
        Some((origin.to_owned(), path.trim_end_matches('/').to_owned()))
    }
    match (canonical(audience), canonical(resource)) {
        (Some(a), Some(r)) => a == r,
        _ => audience == resource,
    }
}

/// Turns a panic inside the verifier into an error for this one request.
struct CatchUnwind<F>(F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, ()>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Err(_) => Poll::Ready(Err(())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn alice(_token: String) -> Result<AuthInfo, TokenRejection> {
        Ok(AuthInfo::new()
            .subject("alice")
            .audience(["https://r.example/mcp"]))
    }

    fn builder() -> ResourceServerConfigBuilder {
        ResourceServerConfig::builder("https://r.example/mcp", alice)
            .authorization_server("https://as.example")
    }

    #[test]
    fn the_builder_refuses_what_rfc_9728_and_6749_forbid() {
        let no_as = ResourceServerConfig::builder("https://r.example/mcp", alice).build();
        assert_eq!(no_as.unwrap_err(), AuthConfigError::NoAuthorizationServer);
        for bad in ["r.example/mcp", "https://r.example/mcp#frag", "urn:x"] {
            let e = ResourceServerConfig::builder(bad, alice)
                .authorization_server("https://as.example")
                .build()
                .unwrap_err();
            assert_eq!(e, AuthConfigError::InvalidResource(bad.into()));
        }
        let e = builder()
            .authorization_server("as.example")
            .build()
            .unwrap_err();
        assert_eq!(
            e,
            AuthConfigError::InvalidAuthorizationServer("as.example".into())
        );
        for bad in ["", "a b", "quo\"te", "back\\slash"] {
            let e = builder().required_scopes([bad]).build().unwrap_err();
            assert_eq!(e, AuthConfigError::InvalidScope(bad.into()));
        }
        let cfg = builder().build().unwrap();
        assert_eq!(
            cfg.metadata_url(),
            "https://r.example/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            cfg.metadata_path(),
            "/.well-known/oauth-protected-resource/mcp"
        );
    }

    #[tokio::test]
    async fn without_required_scopes_the_challenge_names_none() {
        let cfg = builder().scopes_supported(["a", "b"]).build().unwrap();
        let c = cfg.authenticate(None).await.unwrap_err();
        assert_eq!(
            c.www_authenticate(cfg.metadata_url()).unwrap(),
            "Bearer resource_metadata=\"https://r.example/.well-known/oauth-protected-resource/mcp\""
        );
        let info = cfg.authenticate(Some("Bearer t")).await.unwrap();
        assert_eq!(info.subject.as_deref(), Some("alice"));
        // A tool without scopes of its own needs nothing more.
        assert_eq!(cfg.authorize_tool(&info, "any"), Ok(()));
    }

    #[test]
    fn audience_comparison() {
        let r = "https://r.example/mcp";
        for (aud, same) in [
            ("https://r.example/mcp", true),
            ("https://r.example/mcp/", true),
            ("HTTPS://R.EXAMPLE/mcp", true),
            ("https://r.example/MCP", false),
            ("https://r.example", false),
            ("https://r.example:8443/mcp", false),
            ("http://r.example/mcp", false),
            ("mcp", false),
        ] {
            assert_eq!(same_resource(aud, r), same, "{aud}");
        }
    }
}
