//! The OAuth 2.1 client of MCP authorization, used by the Streamable HTTP transport: it attaches the
//! access token to every request and, on a 401 or a 403 `insufficient_scope` challenge, runs
//! discovery, registration and authorization, then the transport retries the request.
//!
//! The [`Grant`] decides how tokens are obtained: the authorization code grant with PKCE (the
//! default), or one of the extensions that need no user: client credentials with a secret or a
//! `private_key_jwt` assertion, the JWT bearer grant with a workload identity token, and
//! enterprise-managed authorization (an ID token exchanged for an ID-JAG). With
//! [`OAuthConfig::dpop`] every token request and every MCP request carries a fresh DPoP proof
//! (RFC 9449), and DPoP-bound tokens are presented with the `DPoP` scheme.
//!
//! Pluggable parts: the [`AuthorizationHandler`] shows the authorization URL to the user and returns
//! the URL the authorization server redirected back to ([`AutoRedirect`] for servers that redirect
//! at once); the [`CredentialStore`] keeps registrations per issuer and tokens per issuer and
//! resource ([`MemoryStore`] by default).
//!
//! ```no_run
//! # async fn run() -> libmcp::Result<()> {
//! use libmcp::auth::client::{AutoRedirect, OAuthClient, OAuthConfig};
//! use libmcp::client::{Client, http::HttpClientOptions};
//!
//! let auth = OAuthClient::new(OAuthConfig::new("demo", "http://127.0.0.1:8976/callback", AutoRedirect));
//! let client = Client::builder("demo", "1.0.0")
//!     .connect_http_with("http://127.0.0.1:3000/mcp", HttpClientOptions { auth: Some(auth), ..Default::default() })
//!     .await?;
//! # Ok(()) }
//! ```

mod config;
mod discovery;
mod dpop;
mod fetch;
mod flow;
mod grant;
mod grants;
mod jwt;
mod store;

use std::sync::Arc;

use parking_lot::Mutex;

use super::challenge::{BearerChallenge, parse_bearer, parse_dpop};
pub use crate::error::AuthError;
pub use config::{AuthorizationHandler, HandlerFuture, OAuthConfig, PreRegistered};
pub use dpop::USE_DPOP_NONCE;
pub use fetch::AutoRedirect;
pub use grant::{Assertion, ClientAuth, EnterpriseManaged, Grant};
pub use jwt::SigningKey;
pub use store::{ClientCredentials, CredentialStore, MemoryStore, Tokens};

/// The most authorization flows one request may trigger (a first 401, then step-ups on 403) before
/// the transport gives up and reports the failure.
pub const MAX_FLOWS_PER_REQUEST: u32 = 3;

/// Whether a response asks for the request again with a DPoP nonce: a 401 whose DPoP challenge
/// says `use_dpop_nonce` (RFC 9449 §9).
pub fn is_dpop_nonce_challenge(status: u16, www_authenticate: Option<&str>) -> bool {
    status == 401
        && www_authenticate
            .and_then(parse_dpop)
            .is_some_and(|c| c.error.as_deref() == Some(USE_DPOP_NONCE))
}

/// The token in use and where it came from.
#[derive(Clone, Debug)]
struct Current {
    access_token: String,
    issuer: String,
    scope: Option<String>,
    dpop: bool,
}

struct Inner {
    config: OAuthConfig,
    /// Reaches authorization servers when the caller gives no client of its own
    /// ([`OAuthClient::handle_challenge`]); the MCP transport passes its connection's, so they are
    /// reached with the same trust roots as the MCP server.
    http: fetch::Http,
    current: Mutex<Option<Current>>,
    /// One flow at a time; requests that fail meanwhile retry with its result.
    flow: tokio::sync::Mutex<()>,
    /// The DPoP key when DPoP is on (or why none could be made).
    dpop: Option<Result<dpop::Dpop, AuthError>>,
}

/// An OAuth client bound to one MCP connection (cheap to clone).
#[derive(Clone)]
pub struct OAuthClient {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for OAuthClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthClient")
            .field("client_name", &self.inner.config.client_name)
            .field("redirect_uri", &self.inner.config.redirect_uri)
            .field("authorized", &self.inner.current.lock().is_some())
            .finish()
    }
}

/// The challenge a response carries, when it asks for authorization: any 401, or a 403 whose
/// Bearer (else DPoP) challenge says `insufficient_scope`.
pub fn challenge_of(status: u16, www_authenticate: Option<&str>) -> Option<BearerChallenge> {
    let parsed = www_authenticate.and_then(|h| parse_bearer(h).or_else(|| parse_dpop(h)));
    match status {
        401 => Some(parsed.unwrap_or_default()),
        403 => parsed.filter(BearerChallenge::is_insufficient_scope),
        _ => None,
    }
}

impl OAuthClient {
    /// A client with this configuration.
    pub fn new(config: OAuthConfig) -> OAuthClient {
        OAuthClient {
            inner: Arc::new(Inner {
                dpop: config.dpop.then(dpop::Dpop::generate),
                config,
                http: fetch::default_client(),
                current: Mutex::new(None),
                flow: tokio::sync::Mutex::new(()),
            }),
        }
    }

    fn dpop(&self) -> Result<Option<&dpop::Dpop>, AuthError> {
        match &self.inner.dpop {
            None => Ok(None),
            Some(Ok(d)) => Ok(Some(d)),
            Some(Err(e)) => Err(e.clone()),
        }
    }

    /// The headers that authorize one request (`method` to `url`): `Authorization` with the
    /// `Bearer` or, for a DPoP-bound token, the `DPoP` scheme, and then a fresh `DPoP` proof bound
    /// to the method, the URL and the token (RFC 9449 §7.1). Empty before authorization.
    pub fn authorization_headers(&self, method: &str, url: &str) -> Vec<(&'static str, String)> {
        let Some(current) = self.inner.current.lock().clone() else {
            return Vec::new();
        };
        if !current.dpop {
            return vec![("authorization", format!("Bearer {}", current.access_token))];
        }
        let proof = self
            .dpop()
            .and_then(|d| d.ok_or_else(|| AuthError::Credentials("DPoP is off".into())))
            .and_then(|d| d.proof(method, url, Some(&current.access_token)));
        match proof {
            Ok(p) => vec![
                ("authorization", format!("DPoP {}", current.access_token)),
                ("dpop", p),
            ],
            Err(e) => {
                tracing::warn!("oauth: no DPoP proof for {method} {url}: {e}");
                vec![("authorization", format!("DPoP {}", current.access_token))]
            }
        }
    }

    /// Records a `DPoP-Nonce` the server at `url` sent (RFC 9449 §9); whether it is new, so a
    /// request refused with `use_dpop_nonce` is worth sending again. False without DPoP.
    pub fn note_dpop_nonce(&self, url: &str, nonce: &str) -> bool {
        matches!(self.dpop(), Ok(Some(d)) if d.note_nonce(url, nonce))
    }

    /// The access token to send, if authorized.
    pub fn access_token(&self) -> Option<String> {
        self.inner
            .current
            .lock()
            .as_ref()
            .map(|c| c.access_token.clone())
    }

    /// Answers a challenge from `server_url` to a request sent with `sent_token`: afterwards
    /// [`Self::access_token`] holds a token worth retrying with. When another request already
    /// replaced `sent_token`, nothing is done. Authorization servers are reached with the default
    /// trust roots.
    pub async fn handle_challenge(
        &self,
        server_url: &str,
        challenge: &BearerChallenge,
        sent_token: Option<&str>,
    ) -> Result<(), AuthError> {
        let http = self.inner.http.clone();
        self.handle_challenge_via(&http, server_url, challenge, sent_token)
            .await
    }

    /// [`Self::handle_challenge`], reaching authorization servers through `http`.
    pub(crate) async fn handle_challenge_via(
        &self,
        http: &fetch::Http,
        server_url: &str,
        challenge: &BearerChallenge,
        sent_token: Option<&str>,
    ) -> Result<(), AuthError> {
        let _one_at_a_time = self.inner.flow.lock().await;
        if self.access_token().as_deref() != sent_token {
            return Ok(());
        }
        let cfg = &self.inner.config;
        let code_flow = matches!(cfg.grant, Grant::AuthorizationCode);
        let dpop = self.dpop()?;
        let found = discovery::discover(http, server_url, Some(challenge), code_flow).await?;
        let previous = self.inner.current.lock().clone();
        let issuer = found.issuer.clone();
        let resource = found.resource.clone();

        if !challenge.is_insufficient_scope()
            && let Some(tokens) = cfg.store.tokens(&issuer, &resource)
        {
            if Some(tokens.access_token.as_str()) != sent_token {
                self.set_current(&issuer, &tokens);
                return Ok(());
            }
            cfg.store.forget_tokens(&issuer, &resource);
            if let (Some(refresh), Some(client)) =
                (&tokens.refresh_token, cfg.store.client(&issuer))
            {
                let grant = [("grant_type", "refresh_token"), ("refresh_token", refresh)];
                let asked = tokens.scope.as_deref();
                if let Ok(mut fresh) =
                    flow::token_request(http, &found, &client, &grant, asked, dpop, None).await
                {
                    if fresh.refresh_token.is_none() {
                        fresh.refresh_token = tokens.refresh_token.clone();
                    }
                    cfg.store.save_tokens(&issuer, &resource, fresh.clone());
                    self.set_current(&issuer, &fresh);
                    return Ok(());
                }
            }
        }

        let prior_scope = previous
            .as_ref()
            .filter(|p| p.issuer == issuer)
            .and_then(|p| p.scope.clone());
        let offline = code_flow
            && cfg.offline_access
            && found
                .metadata
                .as_ref()
                .is_some_and(|m| m.supports_scope("offline_access"));
        let scope = flow::select_scope(
            challenge.scope.as_deref(),
            found.prm_scopes.as_deref(),
            prior_scope.as_deref(),
            offline,
        );
        if !code_flow {
            let tokens = grants::obtain(http, &cfg.grant, &found, scope.as_deref(), dpop).await?;
            cfg.store.save_tokens(&issuer, &resource, tokens.clone());
            self.set_current(&issuer, &tokens);
            return Ok(());
        }
        let client = self.client_for(http, &found).await?;
        let (code, pkce) = flow::authorize(cfg, &found, &client, scope.as_deref()).await?;
        let grant = [
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", cfg.redirect_uri.as_str()),
            ("code_verifier", pkce.verifier.as_str()),
        ];
        let mut tokens =
            flow::token_request(http, &found, &client, &grant, scope.as_deref(), dpop, None)
                .await?;
        // Remember what was asked for, so a later step-up keeps it (SEP-2350).
        if let Some(asked) = &scope {
            tokens.scope = flow::select_scope(tokens.scope.as_deref(), None, Some(asked), false);
        }
        cfg.store.save_tokens(&issuer, &resource, tokens.clone());
        self.set_current(&issuer, &tokens);
        Ok(())
    }

    fn set_current(&self, issuer: &str, tokens: &Tokens) {
        *self.inner.current.lock() = Some(Current {
            access_token: tokens.access_token.clone(),
            issuer: issuer.to_owned(),
            scope: tokens.scope.clone(),
            dpop: tokens.dpop,
        });
    }

    /// The registration to use with this authorization server: stored for its issuer, else
    /// pre-registered, else a client ID metadata document URL, else dynamic registration.
    async fn client_for(
        &self,
        http: &fetch::Http,
        found: &discovery::Discovered,
    ) -> Result<ClientCredentials, AuthError> {
        let cfg = &self.inner.config;
        let issuer = &found.issuer;
        if let Some(c) = cfg.store.client(issuer) {
            return Ok(c);
        }
        if let Some(pre) = &cfg.pre_registered
            && pre.issuer.as_deref().is_none_or(|i| i == issuer)
        {
            return Ok(pre.credentials.clone());
        }
        let cimd = found
            .metadata
            .as_ref()
            .and_then(|m| m.client_id_metadata_document_supported)
            == Some(true);
        // A client ID metadata document URL must be HTTPS with a path (SEP-991).
        let cimd_url = cfg.client_metadata_url.as_ref().filter(|u| {
            super::urls::split(u)
                .is_some_and(|p| p.scheme == "https" && p.path.len() > 1 && p.fragment.is_none())
        });
        if cimd && let Some(url) = cimd_url {
            let c = ClientCredentials {
                client_id: url.clone(),
                client_secret: None,
                token_endpoint_auth_method: Some("none".into()),
            };
            cfg.store.save_client(issuer, c.clone());
            return Ok(c);
        }
        let Some(endpoint) = &found.registration_endpoint else {
            return Err(AuthError::Registration(format!(
                "{issuer} offers no dynamic registration and no credentials are configured for it"
            )));
        };
        let c = flow::register(http, cfg, found, endpoint).await?;
        cfg.store.save_client(issuer, c.clone());
        Ok(c)
    }
}
