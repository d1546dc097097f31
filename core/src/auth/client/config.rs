//! How an OAuth client is configured ([`OAuthConfig`]): its registration, the user-interaction
//! step ([`AuthorizationHandler`]), its credential store and its grant.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::grant::{Assertion, ClientAuth, EnterpriseManaged, Grant};
use super::jwt::SigningKey;
use super::store::{ClientCredentials, CredentialStore, MemoryStore};
use crate::error::AuthError;

/// The future an [`AuthorizationHandler`] returns.
pub type HandlerFuture = Pin<Box<dyn Future<Output = Result<String, AuthError>> + Send>>;

/// The user-interaction step: given the authorization URL, obtain the redirect URL the
/// authorization server sent the user back to (carrying `code`, `state` and possibly `iss`).
pub trait AuthorizationHandler: Send + Sync {
    /// Runs the interaction for one authorization request.
    fn authorize(&self, authorization_url: String) -> HandlerFuture;
}

impl<F, Fut> AuthorizationHandler for F
where
    F: Fn(String) -> Fut + Send + Sync,
    Fut: Future<Output = Result<String, AuthError>> + Send + 'static,
{
    fn authorize(&self, authorization_url: String) -> HandlerFuture {
        Box::pin(self(authorization_url))
    }
}

/// Pre-registered client credentials, for one authorization server or for any.
#[derive(Clone, Debug)]
pub struct PreRegistered {
    /// The issuer the credentials belong to; `None` offers them to whichever server protects the
    /// resource.
    pub issuer: Option<String>,
    /// The credentials.
    pub credentials: ClientCredentials,
}

/// How the client registers and authorizes.
#[derive(Clone)]
pub struct OAuthConfig {
    /// `client_name` for dynamic registration.
    pub client_name: String,
    /// Where the authorization server sends the user back.
    pub redirect_uri: String,
    /// The user-interaction step.
    pub handler: Arc<dyn AuthorizationHandler>,
    /// Registrations and tokens.
    pub store: Arc<dyn CredentialStore>,
    /// Pre-registered credentials, used before anything else.
    pub pre_registered: Option<PreRegistered>,
    /// An HTTPS URL (with a path) hosting this client's metadata document, used as `client_id` with
    /// servers that advertise `client_id_metadata_document_supported`; any other URL is ignored.
    pub client_metadata_url: Option<String>,
    /// `client_uri` for dynamic registration.
    pub client_uri: Option<String>,
    /// Ask for `offline_access` (refresh tokens) when the authorization server lists it.
    pub offline_access: bool,
    /// How tokens are obtained (the authorization code grant by default).
    pub grant: Grant,
    /// DPoP (RFC 9449): a key made for this client proves possession on every token request and
    /// every request carrying a DPoP-bound token.
    pub dpop: bool,
}

/// The handler of configurations whose grant needs no user.
struct NoInteraction;

impl AuthorizationHandler for NoInteraction {
    fn authorize(&self, _authorization_url: String) -> HandlerFuture {
        Box::pin(async {
            Err(AuthError::Authorization(
                "this OAuth configuration has no authorization handler (its grant needs no user)"
                    .into(),
            ))
        })
    }
}

impl OAuthConfig {
    /// A configuration with an in-memory store, dynamic registration and refresh tokens.
    pub fn new(
        client_name: impl Into<String>,
        redirect_uri: impl Into<String>,
        handler: impl AuthorizationHandler + 'static,
    ) -> OAuthConfig {
        OAuthConfig {
            client_name: client_name.into(),
            redirect_uri: redirect_uri.into(),
            handler: Arc::new(handler),
            store: Arc::new(MemoryStore::default()),
            pre_registered: None,
            client_metadata_url: None,
            client_uri: None,
            offline_access: true,
            grant: Grant::AuthorizationCode,
            dpop: false,
        }
    }

    /// A configuration for a grant that needs no user (no redirect URI, no handler, no refresh
    /// tokens asked for): a new token is obtained with the grant whenever the current one is
    /// rejected or expires.
    pub fn with_grant(grant: Grant) -> OAuthConfig {
        OAuthConfig {
            offline_access: false,
            grant,
            ..OAuthConfig::new("libmcp", "", NoInteraction)
        }
    }

    /// The client credentials grant with a client secret (`client_secret_basic`, or
    /// `client_secret_post` when the server lists only that).
    pub fn client_credentials(
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> OAuthConfig {
        OAuthConfig::with_grant(Grant::ClientCredentials {
            client_id: client_id.into(),
            auth: ClientAuth::Secret(client_secret.into()),
        })
    }

    /// The client credentials grant authenticated with a `private_key_jwt` assertion signed by `key`.
    pub fn client_credentials_jwt(client_id: impl Into<String>, key: SigningKey) -> OAuthConfig {
        OAuthConfig::with_grant(Grant::ClientCredentials {
            client_id: client_id.into(),
            auth: ClientAuth::PrivateKeyJwt(key),
        })
    }

    /// The JWT bearer grant with a workload identity token (workload identity federation).
    pub fn jwt_bearer(client_id: Option<String>, assertion: Assertion) -> OAuthConfig {
        OAuthConfig::with_grant(Grant::JwtBearer {
            client_id,
            assertion,
        })
    }

    /// Enterprise-managed authorization.
    pub fn enterprise_managed(grant: EnterpriseManaged) -> OAuthConfig {
        OAuthConfig::with_grant(Grant::EnterpriseManaged(grant))
    }

    /// Turns DPoP on or off.
    pub fn with_dpop(mut self, on: bool) -> OAuthConfig {
        self.dpop = on;
        self
    }
}
