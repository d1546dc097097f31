//! What the application plugs in: a [`TokenVerifier`] that turns a bearer token into [`AuthInfo`]
//! or a [`TokenRejection`].

use std::future::Future;
use std::pin::Pin;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Who and what a verified access token stands for. Handlers read it through
/// `RequestContext::auth`; the transport uses it for scope, expiry and audience checks and to bind
/// legacy sessions to the identity that opened them.
///
/// Its JSON form, for hosts in other languages, is `{"subject", "clientId", "scopes", "expiresAt",
/// "audience", "claims"}`; every member may be left out when reading it (absent is unset), and an
/// unknown member is an error.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct AuthInfo {
    /// The end user (`sub`), if the token names one.
    pub subject: Option<String>,
    /// The OAuth client the token was issued to (`client_id` / `azp`).
    pub client_id: Option<String>,
    /// The scopes granted.
    pub scopes: Vec<String>,
    /// Expiry as seconds since the Unix epoch (`exp`); `None` for tokens without one.
    pub expires_at: Option<u64>,
    /// The resources the token is meant for (`aud`, or RFC 8707 `resource`).
    pub audience: Vec<String>,
    /// Any further claims the verifier wants handlers to see.
    pub claims: Map<String, Value>,
}

impl AuthInfo {
    /// Nothing known yet; fill in with the builder methods.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the subject.
    pub fn subject(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    /// Sets the client id.
    pub fn client_id(mut self, client_id: impl Into<String>) -> Self {
        self.client_id = Some(client_id.into());
        self
    }

    /// Sets the granted scopes.
    pub fn scopes<I: IntoIterator<Item = S>, S: Into<String>>(mut self, scopes: I) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the expiry (seconds since the Unix epoch).
    pub fn expires_at(mut self, unix_seconds: u64) -> Self {
        self.expires_at = Some(unix_seconds);
        self
    }

    /// Sets the audience.
    pub fn audience<I: IntoIterator<Item = S>, S: Into<String>>(mut self, audience: I) -> Self {
        self.audience = audience.into_iter().map(Into::into).collect();
        self
    }

    /// Adds one extra claim.
    pub fn claim(mut self, name: impl Into<String>, value: Value) -> Self {
        self.claims.insert(name.into(), value);
        self
    }

    /// Whether every scope in `needed` was granted.
    pub fn has_scopes<S: AsRef<str>>(&self, needed: &[S]) -> bool {
        needed
            .iter()
            .all(|n| self.scopes.iter().any(|s| s == n.as_ref()))
    }

    /// Whether two tokens stand for the same principal (subject and client): a legacy session stays
    /// with the principal that opened it, even as that principal's tokens are refreshed.
    pub fn same_principal(&self, other: &AuthInfo) -> bool {
        self.subject == other.subject && self.client_id == other.client_id
    }
}

/// Why a verifier refused a token.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TokenRejection {
    /// The token is unknown, malformed, revoked, expired or not for this resource: 401 with
    /// `error="invalid_token"`. The text becomes `error_description`.
    Invalid(String),
    /// The verifier could not decide (its key set or introspection endpoint is unreachable): 503,
    /// so the client retries later instead of starting a new authorization.
    Unavailable(String),
}

/// The future a [`TokenVerifier`] returns.
pub type VerifyFuture<'a> =
    Pin<Box<dyn Future<Output = Result<AuthInfo, TokenRejection>> + Send + 'a>>;

/// Checks a bearer token: signature, issuer and claims for a JWT, or an introspection call. The
/// library then checks expiry, audience and scopes on the [`AuthInfo`] it returns. Called on a
/// tokio worker once per HTTP request; a panic or a timeout is answered 503 and harms nothing else.
///
/// Any `Fn(String) -> impl Future<Output = Result<AuthInfo, TokenRejection>>` is a verifier.
pub trait TokenVerifier: Send + Sync {
    /// Verifies one token (the part after `Bearer `).
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a>;
}

impl<F, Fut> TokenVerifier for F
where
    F: Fn(String) -> Fut + Send + Sync,
    Fut: Future<Output = Result<AuthInfo, TokenRejection>> + Send + 'static,
{
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(self(token.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_form_reads_back_and_refuses_unknown_members() {
        let info = AuthInfo::new()
            .subject("ada")
            .client_id("c1")
            .scopes(["mcp:read"])
            .expires_at(7)
            .audience(["https://r.example/mcp"])
            .claim("tenant", Value::from("t1"));
        let json = serde_json::to_value(&info).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"subject": "ada", "clientId": "c1", "scopes": ["mcp:read"],
                "expiresAt": 7, "audience": ["https://r.example/mcp"],
                "claims": {"tenant": "t1"}})
        );
        assert_eq!(serde_json::from_value::<AuthInfo>(json).unwrap(), info);
        let partial: AuthInfo = serde_json::from_str(r#"{"subject":"bob"}"#).unwrap();
        assert_eq!(partial, AuthInfo::new().subject("bob"));
        let e = serde_json::from_str::<AuthInfo>(r#"{"scope":"x"}"#).unwrap_err();
        assert!(e.to_string().starts_with("unknown field `scope`"), "{e}");
    }
}
