//! The metadata documents of MCP authorization, shared by the client (discovery) and the server
//! (serving them): RFC 9728 protected-resource metadata and RFC 8414 / OpenID Connect Discovery
//! authorization-server metadata. Fields the engine does not act on are kept in `extra`, so a
//! document round-trips unchanged.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::urls;

pub use super::prm::ProtectedResourceMetadata;

/// RFC 8414 authorization-server metadata (also the OpenID Connect Discovery document).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AuthorizationServerMetadata {
    /// The issuer identifier; must equal the identifier the metadata URL was built from.
    pub issuer: String,
    /// Where the user authorizes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorization_endpoint: Option<String>,
    /// Where codes and refresh tokens are exchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_endpoint: Option<String>,
    /// RFC 7591 dynamic client registration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration_endpoint: Option<String>,
    /// Scopes the server issues.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scopes_supported: Option<Vec<String>>,
    /// `code`, ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_types_supported: Option<Vec<String>>,
    /// `authorization_code`, `refresh_token`, ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grant_types_supported: Option<Vec<String>>,
    /// `client_secret_basic` (the RFC 8414 default when absent), `client_secret_post`, `none`, ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// PKCE methods; MCP clients require `S256` here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_challenge_methods_supported: Option<Vec<String>>,
    /// RFC 9207: the server sends `iss` in authorization responses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorization_response_iss_parameter_supported: Option<bool>,
    /// The server accepts URL client ids that point to a client metadata document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id_metadata_document_supported: Option<bool>,
    /// Every other member.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl AuthorizationServerMetadata {
    /// Whether the server advertises `scope` in `scopes_supported`.
    pub fn supports_scope(&self, scope: &str) -> bool {
        self.scopes_supported
            .as_ref()
            .is_some_and(|s| s.iter().any(|x| x == scope))
    }

    /// Whether PKCE with S256 is advertised (absence of the field counts as no).
    pub fn supports_s256(&self) -> bool {
        self.code_challenge_methods_supported
            .as_ref()
            .is_some_and(|m| m.iter().any(|x| x == "S256"))
    }
}

/// Whether a protected-resource metadata `resource` covers the server URL the client is talking to:
/// same scheme and authority (compared case-insensitively) and a path that is the server's path or a
/// whole-segment prefix of it. Query and fragment must be absent from `resource`.
pub fn resource_covers(resource: &str, server_url: &str) -> bool {
    let (Some(r), Some(s)) = (urls::split(resource), urls::split(server_url)) else {
        return false;
    };
    if r.fragment.is_some()
        || r.query.is_some()
        || !r.scheme.eq_ignore_ascii_case(s.scheme)
        || !r.authority.eq_ignore_ascii_case(s.authority)
    {
        return false;
    }
    let rp = r.path.trim_end_matches('/');
    let sp = s.path.trim_end_matches('/');
    rp.is_empty() || sp == rp || sp.starts_with(&format!("{rp}/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resource_matching() {
        assert!(resource_covers(
            "http://localhost:1/mcp",
            "http://localhost:1/mcp"
        ));
        assert!(resource_covers(
            "http://localhost:1",
            "http://localhost:1/mcp"
        ));
        assert!(resource_covers(
            "http://localhost:1/",
            "http://localhost:1/mcp"
        ));
        assert!(resource_covers(
            "HTTP://LOCALHOST:1/mcp",
            "http://localhost:1/mcp/"
        ));
        assert!(resource_covers("http://h/a", "http://h/a/b"));
        assert!(!resource_covers("http://h/a", "http://h/ab"));
        assert!(!resource_covers(
            "https://evil.example.com/mcp",
            "http://localhost:1/mcp"
        ));
        assert!(!resource_covers(
            "http://localhost:2/mcp",
            "http://localhost:1/mcp"
        ));
        assert!(!resource_covers(
            "http://localhost:1/other",
            "http://localhost:1/mcp"
        ));
        assert!(!resource_covers(
            "http://localhost:1/mcp#x",
            "http://localhost:1/mcp"
        ));
        assert!(!resource_covers("not a url", "http://localhost:1/mcp"));
    }

    #[test]
    fn documents_round_trip_with_extras() {
        let doc = json!({
            "issuer": "http://a", "token_endpoint": "http://a/token",
            "code_challenge_methods_supported": ["S256"], "scopes_supported": ["x", "offline_access"],
            "jwks_uri": "http://a/jwks"
        });
        let m: AuthorizationServerMetadata = serde_json::from_value(doc.clone()).unwrap();
        assert!(m.supports_s256() && m.supports_scope("offline_access") && !m.supports_scope("y"));
        assert_eq!(m.extra["jwks_uri"], "http://a/jwks");
        assert_eq!(serde_json::to_value(&m).unwrap(), doc);
        let prm: ProtectedResourceMetadata = serde_json::from_value(
            json!({"resource": "http://r/mcp", "authorization_servers": ["http://a"]}),
        )
        .unwrap();
        assert_eq!(prm.authorization_servers, ["http://a"]);
        assert!(
            serde_json::from_value::<ProtectedResourceMetadata>(
                json!({"authorization_servers": []})
            )
            .is_err()
        );
        let no_pkce: AuthorizationServerMetadata =
            serde_json::from_value(json!({"issuer": "x"})).unwrap();
        assert!(!no_pkce.supports_s256());
    }
}
