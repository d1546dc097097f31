//! The grants that need no user: client credentials (RFC 6749 §4.4) authenticated with a secret or a
//! `private_key_jwt` assertion (RFC 7523 §2.2), the JWT bearer grant (RFC 7523 §2.1) with a workload
//! identity token, and enterprise-managed authorization: the user's ID token exchanged at the
//! enterprise identity provider for an Identity Assertion JWT Authorization Grant (ID-JAG, RFC 8693
//! token exchange), which the MCP server's authorization server redeems as a JWT bearer grant.

use super::discovery::Discovered;
use super::dpop::Dpop;
use super::fetch::Http;
use super::flow::{post_token, token_request};
use super::grant::{ClientAuth, EnterpriseManaged, Grant};
use super::{AuthError, ClientCredentials, Tokens};

/// `grant_type` of the JWT bearer grant (RFC 7523 §2.1).
pub const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// `grant_type` of token exchange (RFC 8693 §2.1).
pub const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
/// The token type of an OpenID Connect ID token (RFC 8693 §3).
pub const ID_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:id_token";
/// The token type of an Identity Assertion JWT Authorization Grant.
pub const ID_JAG_TYPE: &str = "urn:ietf:params:oauth:token-type:id-jag";

/// Runs a grant other than the authorization code grant.
pub(crate) async fn obtain(
    http: &Http,
    grant: &Grant,
    found: &Discovered,
    scope: Option<&str>,
    dpop: Option<&Dpop>,
) -> Result<Tokens, AuthError> {
    let mut form: Vec<(&str, String)> = Vec::new();
    let (client, key) = match grant {
        Grant::AuthorizationCode => {
            return Err(AuthError::Authorization(
                "the authorization code grant needs the interactive flow".into(),
            ));
        }
        Grant::ClientCredentials { client_id, auth } => {
            form.push(("grant_type", "client_credentials".into()));
            match auth {
                ClientAuth::Secret(s) => (ClientCredentials::confidential(client_id, s), None),
                ClientAuth::PrivateKeyJwt(k) => (
                    ClientCredentials {
                        token_endpoint_auth_method: Some("private_key_jwt".into()),
                        ..ClientCredentials::public(client_id)
                    },
                    Some(k),
                ),
            }
        }
        Grant::JwtBearer {
            client_id,
            assertion,
        } => {
            form.push(("grant_type", JWT_BEARER.into()));
            form.push(("assertion", assertion.read()?));
            let client = ClientCredentials::public(client_id.clone().unwrap_or_default());
            (client, None)
        }
        Grant::EnterpriseManaged(e) => {
            let id_jag = exchange_for_id_jag(http, e, found, scope).await?;
            form.push(("grant_type", JWT_BEARER.into()));
            form.push(("assertion", id_jag));
            (e.client.clone(), None)
        }
    };
    if let Some(s) = scope {
        form.push(("scope", s.to_owned()));
    }
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    token_request(http, found, &client, &pairs, scope, dpop, key).await
}

/// The RFC 8693 token exchange at the identity provider: the ID token for an ID-JAG whose audience
/// is the MCP server's authorization server and whose resource is the MCP server.
pub(crate) fn id_jag_request<'a>(
    id_token: &'a str,
    found: &'a Discovered,
    scope: Option<&'a str>,
) -> Vec<(&'a str, &'a str)> {
    let mut form = vec![
        ("grant_type", TOKEN_EXCHANGE),
        ("requested_token_type", ID_JAG_TYPE),
        ("audience", found.issuer.as_str()),
        ("resource", found.resource.as_str()),
        ("subject_token", id_token),
        ("subject_token_type", ID_TOKEN_TYPE),
    ];
    if let Some(s) = scope {
        form.push(("scope", s));
    }
    form
}

async fn exchange_for_id_jag(
    http: &Http,
    e: &EnterpriseManaged,
    found: &Discovered,
    scope: Option<&str>,
) -> Result<String, AuthError> {
    let id_token = e.id_token.read()?;
    let form = id_jag_request(&id_token, found, scope);
    let idp_client = ClientCredentials {
        client_id: e.idp_client_id.clone(),
        client_secret: e.idp_client_secret.clone(),
        token_endpoint_auth_method: None,
    };
    let doc = post_token(
        http,
        &e.idp_token_endpoint,
        &idp_client,
        None,
        &form,
        None,
        None,
    )
    .await?;
    if doc["issued_token_type"].as_str() != Some(ID_JAG_TYPE) {
        return Err(AuthError::Token(format!(
            "{} issued a {:?} token, not an ID-JAG ({ID_JAG_TYPE})",
            e.idp_token_endpoint, doc["issued_token_type"]
        )));
    }
    doc["access_token"]
        .as_str()
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| {
            AuthError::Token(format!(
                "{} answered the token exchange without an access_token",
                e.idp_token_endpoint
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::client::grant::Assertion;

    #[test]
    fn id_jag_exchange_form() {
        let found = Discovered {
            resource: "http://rs/mcp".into(),
            prm_scopes: None,
            issuer: "http://as".into(),
            metadata: None,
            authorization_endpoint: String::new(),
            token_endpoint: "http://as/token".into(),
            registration_endpoint: None,
        };
        assert_eq!(
            id_jag_request("idt", &found, Some("read")),
            vec![
                ("grant_type", TOKEN_EXCHANGE),
                ("requested_token_type", ID_JAG_TYPE),
                ("audience", "http://as"),
                ("resource", "http://rs/mcp"),
                ("subject_token", "idt"),
                ("subject_token_type", ID_TOKEN_TYPE),
                ("scope", "read"),
            ]
        );
    }

    #[test]
    fn assertions_are_read_at_use() {
        assert_eq!(Assertion::Value(" a.b.c\n".into()).read().unwrap(), "a.b.c");
        let dir = std::env::temp_dir().join(format!("libmcp-assertion-{}", std::process::id()));
        std::fs::write(&dir, "x.y.z\n").unwrap();
        let file = Assertion::File(dir.clone());
        assert_eq!(file.read().unwrap(), "x.y.z");
        std::fs::write(&dir, "rotated").unwrap();
        assert_eq!(file.read().unwrap(), "rotated");
        std::fs::remove_file(&dir).unwrap();
        assert!(file.read().unwrap_err().to_string().contains("cannot read"));
        assert!(Assertion::Value("  ".into()).read().is_err());
    }
}
