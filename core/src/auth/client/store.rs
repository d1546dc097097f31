//! Where client registrations and tokens live between authorization flows. Registrations are keyed
//! by issuer, so credentials from one authorization server are never presented to another (SEP-2352);
//! tokens by issuer and resource.

use std::collections::HashMap;

use parking_lot::Mutex;
use serde::{Deserialize, Serialize};

/// A client's registration at one authorization server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientCredentials {
    /// The client identifier (a URL for client ID metadata documents).
    pub client_id: String,
    /// The secret of a confidential client.
    pub client_secret: Option<String>,
    /// The token endpoint authentication method registered for the client, if the server said.
    pub token_endpoint_auth_method: Option<String>,
}

impl ClientCredentials {
    /// A public client (no secret).
    pub fn public(client_id: impl Into<String>) -> ClientCredentials {
        ClientCredentials {
            client_id: client_id.into(),
            client_secret: None,
            token_endpoint_auth_method: None,
        }
    }

    /// A confidential client.
    pub fn confidential(
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> ClientCredentials {
        ClientCredentials {
            client_id: client_id.into(),
            client_secret: Some(client_secret.into()),
            token_endpoint_auth_method: None,
        }
    }
}

/// Tokens from one token response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    /// The access token.
    pub access_token: String,
    /// The refresh token, if one was issued.
    pub refresh_token: Option<String>,
    /// Unix time (seconds) after which the access token is expired, if the server said.
    pub expires_at: Option<u64>,
    /// The scope granted (or requested, when the server did not say).
    pub scope: Option<String>,
    /// Whether the access token is DPoP-bound (`token_type` `DPoP`, RFC 9449 §5): it is presented
    /// with the `DPoP` scheme and a proof, never as a bearer token.
    #[serde(default)]
    pub dpop: bool,
}

/// Storage for registrations and tokens. Implementations must be cheap to call: the engine calls
/// them from async code without blocking in between.
pub trait CredentialStore: Send + Sync {
    /// The registration at `issuer`, if any.
    fn client(&self, issuer: &str) -> Option<ClientCredentials>;
    /// Records the registration at `issuer`.
    fn save_client(&self, issuer: &str, client: ClientCredentials);
    /// The tokens `issuer` issued for `resource`, if any.
    fn tokens(&self, issuer: &str, resource: &str) -> Option<Tokens>;
    /// Records tokens `issuer` issued for `resource`.
    fn save_tokens(&self, issuer: &str, resource: &str, tokens: Tokens);
    /// Forgets the tokens `issuer` issued for `resource` (they stopped working).
    fn forget_tokens(&self, issuer: &str, resource: &str);
}

/// The default [`CredentialStore`]: in memory, for the life of the process.
#[derive(Default)]
pub struct MemoryStore {
    clients: Mutex<HashMap<String, ClientCredentials>>,
    tokens: Mutex<HashMap<(String, String), Tokens>>,
}

impl CredentialStore for MemoryStore {
    fn client(&self, issuer: &str) -> Option<ClientCredentials> {
        self.clients.lock().get(issuer).cloned()
    }
    fn save_client(&self, issuer: &str, client: ClientCredentials) {
        self.clients.lock().insert(issuer.to_owned(), client);
    }
    fn tokens(&self, issuer: &str, resource: &str) -> Option<Tokens> {
        self.tokens
            .lock()
            .get(&(issuer.to_owned(), resource.to_owned()))
            .cloned()
    }
    fn save_tokens(&self, issuer: &str, resource: &str, tokens: Tokens) {
        self.tokens
            .lock()
            .insert((issuer.to_owned(), resource.to_owned()), tokens);
    }
    fn forget_tokens(&self, issuer: &str, resource: &str) {
        self.tokens
            .lock()
            .remove(&(issuer.to_owned(), resource.to_owned()));
    }
}
