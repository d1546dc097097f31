//! The OAuth 2.0 Protected Resource Metadata document (RFC 9728 §2), which an MCP server serves at
//! `/.well-known/oauth-protected-resource[/<path>]` so clients can find its authorization servers.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Where RFC 9728 places protected resource metadata: this prefix goes between the host and the
/// path of the resource identifier.
pub const WELL_KNOWN_PREFIX: &str = "/.well-known/oauth-protected-resource";

/// An RFC 9728 protected resource metadata document. Absent optional members are omitted on the wire.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProtectedResourceMetadata {
    /// The resource identifier (the canonical URL of the MCP endpoint). Required.
    pub resource: String,
    /// Issuer identifiers of the authorization servers that issue tokens for this resource.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authorization_servers: Vec<String>,
    /// URL of the resource's JSON Web Key Set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jwks_uri: Option<String>,
    /// Scope values used in authorization requests to access this resource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scopes_supported: Option<Vec<String>>,
    /// How bearer tokens may be presented; MCP allows only `header`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bearer_methods_supported: Vec<String>,
    /// JWS algorithms the resource uses to sign responses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_signing_alg_values_supported: Vec<String>,
    /// Human-readable name of the resource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_name: Option<String>,
    /// URL of developer documentation for the resource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_documentation: Option<String>,
    /// URL of the resource's data-usage policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_policy_uri: Option<String>,
    /// URL of the resource's terms of service.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_tos_uri: Option<String>,
    /// Whether the resource supports mutual-TLS certificate-bound access tokens (RFC 8705).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_client_certificate_bound_access_tokens: Option<bool>,
    /// Authorization details types supported (RFC 9396).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authorization_details_types_supported: Vec<String>,
    /// JWS algorithms accepted for DPoP proofs (RFC 9449).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dpop_signing_alg_values_supported: Vec<String>,
    /// Whether the resource always requires DPoP-bound access tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dpop_bound_access_tokens_required: Option<bool>,
    /// Further members (extensions, `signed_metadata`), kept as given.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The metadata URL RFC 9728 §3.1 derives from a resource identifier: the well-known prefix goes
/// between the authority and the path (a root path adds nothing); query and fragment are dropped.
/// `None` when `resource` is not an absolute `http(s)` URL.
pub fn metadata_url_for(resource: &str) -> Option<String> {
    let (origin, path) = split_origin(resource)?;
    let path = path.trim_end_matches('/');
    Some(format!("{origin}{WELL_KNOWN_PREFIX}{path}"))
}

/// Splits an absolute `http(s)` URL into `scheme://authority` and its path (without query or
/// fragment). `None` for anything else.
pub(crate) fn split_origin(url: &str) -> Option<(&str, &str)> {
    let parts = super::urls::split(url).filter(|p| matches!(p.scheme, "http" | "https"))?;
    let origin = &url[..parts.scheme.len() + "://".len() + parts.authority.len()];
    Some((origin, parts.path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn metadata_url_inserts_the_prefix_before_the_path() {
        let cases = [
            (
                "https://mcp.example.com/mcp",
                "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
            ),
            (
                "https://mcp.example.com",
                "https://mcp.example.com/.well-known/oauth-protected-resource",
            ),
            (
                "https://mcp.example.com/",
                "https://mcp.example.com/.well-known/oauth-protected-resource",
            ),
            (
                "http://127.0.0.1:8080/a/b?x=1",
                "http://127.0.0.1:8080/.well-known/oauth-protected-resource/a/b",
            ),
        ];
        for (resource, want) in cases {
            assert_eq!(
                metadata_url_for(resource).as_deref(),
                Some(want),
                "{resource}"
            );
        }
        assert_eq!(metadata_url_for("ftp://x/y"), None);
        assert_eq!(metadata_url_for("https:///mcp"), None);
    }

    #[test]
    fn absent_members_are_omitted() {
        let doc = ProtectedResourceMetadata {
            resource: "https://r.example/mcp".into(),
            authorization_servers: vec!["https://as.example".into()],
            bearer_methods_supported: vec!["header".into()],
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_value(&doc).unwrap(),
            json!({"resource": "https://r.example/mcp",
                   "authorization_servers": ["https://as.example"],
                   "bearer_methods_supported": ["header"]})
        );
    }
}
