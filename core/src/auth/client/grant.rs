//! How an OAuth client obtains tokens ([`Grant`]) and what each grant carries, as configuration
//! data; running a grant is `grants.rs`, the authorization code flow `flow.rs`.

use std::path::PathBuf;

use super::jwt::SigningKey;
use super::store::ClientCredentials;
use crate::error::AuthError;

/// A JWT the client presents but did not issue: a literal, or a file read at each use (workload
/// identity tokens are typically rotated on disk).
#[derive(Clone, Debug)]
pub enum Assertion {
    /// The token itself.
    Value(String),
    /// A file holding the token (surrounding whitespace ignored).
    File(PathBuf),
}

impl Assertion {
    pub(crate) fn read(&self) -> Result<String, AuthError> {
        let token = match self {
            Assertion::Value(v) => v.trim().to_owned(),
            Assertion::File(path) => std::fs::read_to_string(path)
                .map_err(|e| {
                    AuthError::Credentials(format!("cannot read {}: {e}", path.display()))
                })?
                .trim()
                .to_owned(),
        };
        if token.is_empty() {
            return Err(AuthError::Credentials("the assertion is empty".into()));
        }
        Ok(token)
    }
}

/// How a client-credentials client authenticates at the token endpoint.
#[derive(Clone, Debug)]
pub enum ClientAuth {
    /// A client secret, sent as `client_secret_basic` or `client_secret_post` (as the server lists).
    Secret(String),
    /// A `private_key_jwt` assertion signed with this key (RFC 7523 §2.2).
    PrivateKeyJwt(SigningKey),
}

/// Enterprise-managed authorization: where the ID token is exchanged, and the client's
/// registration at the MCP server's authorization server.
#[derive(Clone, Debug)]
pub struct EnterpriseManaged {
    /// The identity provider's token endpoint.
    pub idp_token_endpoint: String,
    /// The client id at the identity provider.
    pub idp_client_id: String,
    /// The client secret at the identity provider, if it has one.
    pub idp_client_secret: Option<String>,
    /// The user's ID token from the identity provider.
    pub id_token: Assertion,
    /// The client's registration at the MCP server's authorization server.
    pub client: ClientCredentials,
}

/// How the client obtains tokens.
#[derive(Clone, Debug, Default)]
pub enum Grant {
    /// The authorization code grant with PKCE, through the [`super::AuthorizationHandler`].
    #[default]
    AuthorizationCode,
    /// The client credentials grant, for a client acting on its own behalf.
    ClientCredentials {
        /// The client id.
        client_id: String,
        /// How it authenticates.
        auth: ClientAuth,
    },
    /// The JWT bearer grant with a workload identity token as the assertion.
    JwtBearer {
        /// The client id to send (public client), if the server needs one.
        client_id: Option<String>,
        /// The workload's token.
        assertion: Assertion,
    },
    /// Enterprise-managed authorization (ID token → ID-JAG → access token).
    EnterpriseManaged(EnterpriseManaged),
}
