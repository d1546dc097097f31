//! The OAuth extensions on `mcp_oauth_config`: the grants that need no user (the core's `Grant`:
//! client credentials with a secret or a `private_key_jwt` assertion, the JWT bearer grant of
//! workload identity federation, enterprise-managed authorization) and DPoP (`OAuthConfig::dpop`).
//! The protocol work (assertions, token exchange, proofs, nonces) is the core's; these setters check
//! and convert their arguments.

use std::ffi::c_char;

use libmcp::auth::client::{
    Assertion, ClientAuth, ClientCredentials, EnterpriseManaged, Grant, SigningKey,
};

use crate::error::mcp_error;
use crate::oauth::{absolute_url, mcp_oauth_config};
use crate::status::mcp_status;

/// An absolute `http://` or `https://` URL.
fn web_url(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    absolute_url(s) && (lower.starts_with("http://") || lower.starts_with("https://"))
}

/// `Some(s)` for a non-empty string.
fn some(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_owned())
}

/// A literal JWT, or the path of a file holding one (re-read at each use).
fn assertion(text: &str, from_file: bool) -> Assertion {
    if from_file {
        Assertion::File(text.into())
    } else {
        Assertion::Value(text.to_owned())
    }
}

/// Installs `grant`: a grant without a user asks for no refresh token (it runs again instead).
fn set_grant(c: &mut mcp_oauth_config, grant: Grant) -> mcp_status {
    c.config.grant = grant;
    c.config.offline_access = false;
    mcp_status::MCP_STATUS_OK
}

/// Obtains tokens with the client credentials grant (RFC 6749 §4.4), the client acting on its own
/// behalf, authenticated with `client_secret` (`client_secret_basic`, or `client_secret_post` when
/// that is all the authorization server lists). `client_id` and `client_secret` (UTF-8, copied)
/// must not be empty: `MCP_STATUS_INVALID_ARGUMENT`. The authorization callback, redirect URI and
/// pre-registered credentials are then unused, and no refresh token is asked for: a rejected or
/// expired token is replaced by running the grant again. The last `mcp_oauth_config_set_grant_*`
/// call wins.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_set_grant_client_secret(
    config: *mut mcp_oauth_config,
    client_id: *const c_char,
    client_id_len: usize,
    client_secret: *const c_char,
    client_secret_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let id = try_str!(client_id, client_id_len);
        let secret = try_str!(client_secret, client_secret_len);
        if id.is_empty() || secret.is_empty() {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        let auth = ClientAuth::Secret(secret.to_owned());
        set_grant(
            c,
            Grant::ClientCredentials {
                client_id: id.to_owned(),
                auth,
            },
        )
    })
}

/// Obtains tokens with the client credentials grant authenticated by a `private_key_jwt` assertion
/// (RFC 7523 §2.2) signed with `private_key_pem`: a PEM `PRIVATE KEY` block (PKCS #8) for
/// `signing_algorithm` ("ES256", a P-256 key, or "RS256", an RSA key; NULL with length 0 means
/// "ES256"). All UTF-8, copied. An empty `client_id`, an unsupported algorithm or a key that is not
/// such PEM (or not of the algorithm's kind) is `MCP_STATUS_INVALID_ARGUMENT` with the reason in
/// `*error_out` (may be NULL); the configuration is then unchanged. Otherwise as
/// `mcp_oauth_config_set_grant_client_secret`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_set_grant_private_key_jwt(
    config: *mut mcp_oauth_config,
    client_id: *const c_char,
    client_id_len: usize,
    private_key_pem: *const c_char,
    private_key_pem_len: usize,
    signing_algorithm: *const c_char,
    signing_algorithm_len: usize,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let id = try_str!(client_id, client_id_len);
        let pem = try_str!(private_key_pem, private_key_pem_len);
        let alg = match try_str!(signing_algorithm, signing_algorithm_len) {
            "" => "ES256",
            alg => alg,
        };
        if id.is_empty() {
            return mcp_error::new(
                mcp_status::MCP_STATUS_INVALID_ARGUMENT,
                "the client_id is empty",
            )
            .store(error_out);
        }
        let key = match SigningKey::from_pkcs8_pem(pem, alg) {
            Ok(key) => key,
            Err(e) => {
                return mcp_error::new(mcp_status::MCP_STATUS_INVALID_ARGUMENT, e.to_string())
                    .store(error_out);
            }
        };
        set_grant(
            c,
            Grant::ClientCredentials {
                client_id: id.to_owned(),
                auth: ClientAuth::PrivateKeyJwt(key),
            },
        )
    })
}

/// Obtains tokens with the JWT bearer grant (RFC 7523 §2.1) presenting a workload identity token
/// (workload identity federation): `assertion` is the JWT itself, or, when `from_file` is true, the
/// path of a file holding it, read again at each use (platforms rotate these tokens on disk; an
/// unreadable or empty file fails that authorization). `client_id` is sent when not empty (NULL
/// with length 0 sends none). All UTF-8, copied; an empty `assertion` is
/// `MCP_STATUS_INVALID_ARGUMENT`. Otherwise as `mcp_oauth_config_set_grant_client_secret`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_set_grant_jwt_bearer(
    config: *mut mcp_oauth_config,
    client_id: *const c_char,
    client_id_len: usize,
    assertion_text: *const c_char,
    assertion_len: usize,
    from_file: bool,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let id = try_str!(client_id, client_id_len);
        let text = try_str!(assertion_text, assertion_len);
        if text.trim().is_empty() {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        set_grant(
            c,
            Grant::JwtBearer {
                client_id: some(id),
                assertion: assertion(text, from_file),
            },
        )
    })
}

/// Obtains tokens with enterprise-managed authorization: the user's ID token (`id_token`, or when
/// `id_token_from_file` is true the path of a file holding it, read at each use) is exchanged at the
/// enterprise identity provider's token endpoint `idp_token_endpoint` (an `http://` or `https://`
/// URL) for an Identity Assertion JWT Authorization Grant (ID-JAG, RFC 8693 token exchange) as
/// client `idp_client_id` (with `idp_client_secret` when not empty; NULL with length 0 for none),
/// and the ID-JAG is redeemed at the MCP server's authorization server as a JWT bearer grant by the
/// client registered there as `client_id` with `client_secret` (NULL with length 0 for a public
/// client). All UTF-8, copied. A bad endpoint URL or an empty `idp_client_id`, `id_token` or
/// `client_id` is `MCP_STATUS_INVALID_ARGUMENT`. Otherwise as
/// `mcp_oauth_config_set_grant_client_secret`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_set_grant_enterprise_managed(
    config: *mut mcp_oauth_config,
    idp_token_endpoint: *const c_char,
    idp_token_endpoint_len: usize,
    idp_client_id: *const c_char,
    idp_client_id_len: usize,
    idp_client_secret: *const c_char,
    idp_client_secret_len: usize,
    id_token: *const c_char,
    id_token_len: usize,
    id_token_from_file: bool,
    client_id: *const c_char,
    client_id_len: usize,
    client_secret: *const c_char,
    client_secret_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let endpoint = try_str!(idp_token_endpoint, idp_token_endpoint_len);
        let idp_id = try_str!(idp_client_id, idp_client_id_len);
        let idp_secret = try_str!(idp_client_secret, idp_client_secret_len);
        let token = try_str!(id_token, id_token_len);
        let id = try_str!(client_id, client_id_len);
        let secret = try_str!(client_secret, client_secret_len);
        if !web_url(endpoint) || idp_id.is_empty() || token.trim().is_empty() || id.is_empty() {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        let grant = EnterpriseManaged {
            idp_token_endpoint: endpoint.to_owned(),
            idp_client_id: idp_id.to_owned(),
            idp_client_secret: some(idp_secret),
            id_token: assertion(token, id_token_from_file),
            client: ClientCredentials {
                client_id: id.to_owned(),
                client_secret: some(secret),
                token_endpoint_auth_method: None,
            },
        };
        set_grant(c, Grant::EnterpriseManaged(grant))
    })
}

/// Turns DPoP (RFC 9449) on or off (default off). On: the client makes an ES256 key of its own,
/// sends a fresh proof (`htm`, `htu`, `iat`, `jti`, and `ath` and the server's `nonce` when there
/// are) with every token request and every request carrying a DPoP-bound token (presented as
/// `Authorization: DPoP`), and retries once with the nonce when the authorization server or the MCP
/// server answers `use_dpop_nonce`. Works with every grant, the authorization code grant included.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_set_dpop(config: *mut mcp_oauth_config, on: bool) -> mcp_status {
    ffi_boundary!({
        try_mut!(config).config.dpop = on;
        mcp_status::MCP_STATUS_OK
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_endpoints_are_web_urls() {
        assert!(web_url("http://idp.example/token"));
        assert!(web_url("HTTPS://idp.example/token"));
        assert!(!web_url("urn:example:token"));
        assert!(!web_url("http:/idp"));
        assert!(!web_url("not a url"));
        assert!(!web_url(""));
    }
}
