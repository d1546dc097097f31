//! The client's OAuth 2.1 authorization (`libmcp::auth::client`) for `Client.connectHttp(url,
//! {oauth, onAuthorize})`: the `oauth` options mapped onto `OAuthConfig`, with the user-interaction
//! step a JS function (given the authorization URL, it resolves to the URL the authorization server
//! redirected back to), or a `grant` that needs no user (client credentials, JWT bearer,
//! enterprise-managed), with DPoP on request. Discovery, registration, PKCE, the token requests,
//! the proofs and the retries are the core's.

use std::sync::Arc;

use libmcp::auth::client::{
    Assertion, AuthError, AutoRedirect, ClientCredentials, EnterpriseManaged, OAuthClient,
    OAuthConfig, PreRegistered, SigningKey,
};
use napi::Status;
use napi::bindgen_prelude::{Function, Promise};
use napi::threadsafe_function::ThreadsafeFunction;
use serde_json::{Map, Value};

use crate::error::invalid;

type AuthorizeTsfn = ThreadsafeFunction<String, Promise<String>, String, Status, false, true>;

fn text<'a>(o: &'a Map<String, Value>, k: &str) -> napi::Result<Option<&'a str>> {
    text_in(o, "oauth", k)
}

/// The optional string `k` of the options object named `what`.
fn text_in<'a>(o: &'a Map<String, Value>, what: &str, k: &str) -> napi::Result<Option<&'a str>> {
    match o.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(invalid(format!("{what}.{k} must be a string"))),
    }
}

fn required<'a>(o: &'a Map<String, Value>, what: &str, k: &str) -> napi::Result<&'a str> {
    match o.get(k) {
        Some(Value::String(s)) => Ok(s),
        _ => Err(invalid(format!("{what}.{k} must be a string"))),
    }
}

/// A JWT given as `KEY` (the token) or `KEY + "File"` (a file read at each use).
fn assertion(g: &Map<String, Value>, k: &str) -> napi::Result<Assertion> {
    let file = format!("{k}File");
    match (g.get(k), g.get(&file)) {
        (Some(Value::String(v)), None) => Ok(Assertion::Value(v.clone())),
        (None, Some(Value::String(f))) => Ok(Assertion::File(f.into())),
        _ => Err(invalid(format!(
            "oauth.grant needs one of {k} (the token) or {file} (a file holding it), as a string"
        ))),
    }
}

/// The configuration of a grant that needs no user, `oauth.grant`: `{type: "clientCredentials",
/// clientId, clientSecret}` or `{type: "clientCredentials", clientId, privateKeyPem,
/// signingAlgorithm?}` (PKCS #8, `private_key_jwt`); `{type: "jwtBearer", clientId?, assertion |
/// assertionFile}`; `{type: "enterpriseManaged", idpTokenEndpoint, idpClientId, idpClientSecret?,
/// idToken | idTokenFile, clientId, clientSecret?}`.
fn grant_config(g: &Value) -> napi::Result<OAuthConfig> {
    let Value::Object(g) = g else {
        return Err(invalid("oauth.grant must be an object"));
    };
    const W: &str = "oauth.grant";
    match g.get("type").and_then(Value::as_str) {
        Some("clientCredentials") => {
            let id = required(g, W, "clientId")?;
            match (
                text_in(g, W, "clientSecret")?,
                text_in(g, W, "privateKeyPem")?,
            ) {
                (Some(secret), None) => Ok(OAuthConfig::client_credentials(id, secret)),
                (None, Some(pem)) => {
                    let alg = text_in(g, W, "signingAlgorithm")?.unwrap_or("ES256");
                    let key = SigningKey::from_pkcs8_pem(pem, alg)
                        .map_err(|e| invalid(format!("oauth.grant.privateKeyPem: {e}")))?;
                    Ok(OAuthConfig::client_credentials_jwt(id, key))
                }
                _ => Err(invalid(
                    "a clientCredentials grant needs one of clientSecret or privateKeyPem",
                )),
            }
        }
        Some("jwtBearer") => Ok(OAuthConfig::jwt_bearer(
            text_in(g, W, "clientId")?.map(String::from),
            assertion(g, "assertion")?,
        )),
        Some("enterpriseManaged") => {
            let client = match text_in(g, W, "clientSecret")? {
                Some(secret) => {
                    ClientCredentials::confidential(required(g, W, "clientId")?, secret)
                }
                None => ClientCredentials::public(required(g, W, "clientId")?),
            };
            Ok(OAuthConfig::enterprise_managed(EnterpriseManaged {
                idp_token_endpoint: required(g, W, "idpTokenEndpoint")?.to_owned(),
                idp_client_id: required(g, W, "idpClientId")?.to_owned(),
                idp_client_secret: text_in(g, W, "idpClientSecret")?.map(String::from),
                id_token: assertion(g, "idToken")?,
                client,
            }))
        }
        other => Err(invalid(format!(
            "oauth.grant.type must be clientCredentials, jwtBearer or enterpriseManaged, got {}",
            other.map_or_else(|| "nothing".to_owned(), |t| format!("{t:?}"))
        ))),
    }
}

/// The OAuth client of the `oauth` options: either `grant` (see [`grant_config`]) or the
/// authorization code grant with `redirectUri` (required), `clientName`, `clientMetadataUrl`,
/// `clientUri`, `offlineAccess`, `preRegistered` (`{clientId, clientSecret?, issuer?}`); and
/// `dpop` (sender-constrained tokens, RFC 9449). Without `authorize` the authorization URL is
/// fetched and its redirect followed (for authorization servers that redirect at once).
pub(crate) fn oauth_client(
    o: &Value,
    authorize: Option<&Function<String, Promise<String>>>,
) -> napi::Result<OAuthClient> {
    let Value::Object(o) = o else {
        return Err(invalid("oauth must be an object"));
    };
    let dpop = match o.get("dpop") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(on)) => *on,
        Some(_) => return Err(invalid("oauth.dpop must be a boolean")),
    };
    if let Some(g) = o.get("grant").filter(|g| !g.is_null()) {
        if authorize.is_some() {
            return Err(invalid(
                "onAuthorize is for the authorization code grant, not oauth.grant",
            ));
        }
        return Ok(OAuthClient::new(grant_config(g)?.with_dpop(dpop)));
    }
    let redirect = text(o, "redirectUri")?
        .ok_or_else(|| invalid("oauth.redirectUri must be the URL the user is sent back to"))?;
    let name = text(o, "clientName")?.unwrap_or("libmcp-node-client");
    let mut config = match authorize {
        Some(f) => {
            let tsfn: Arc<AuthorizeTsfn> = Arc::new(
                f.build_threadsafe_function::<String>()
                    .weak::<true>()
                    .callee_handled::<false>()
                    .build()?,
            );
            let handler = move |url: String| {
                let tsfn = tsfn.clone();
                async move {
                    let failed = |e: napi::Error| {
                        AuthError::Denied(format!("the authorization handler failed: {e}"))
                    };
                    let promise = tsfn.call_async_catch(url).await.map_err(failed)?;
                    promise.await.map_err(failed)
                }
            };
            OAuthConfig::new(name, redirect, handler)
        }
        None => OAuthConfig::new(name, redirect, AutoRedirect),
    };
    config.client_metadata_url = text(o, "clientMetadataUrl")?.map(String::from);
    config.client_uri = text(o, "clientUri")?.map(String::from);
    match o.get("offlineAccess") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(on)) => config.offline_access = *on,
        Some(_) => return Err(invalid("oauth.offlineAccess must be a boolean")),
    }
    match o.get("preRegistered") {
        None | Some(Value::Null) => {}
        Some(Value::Object(p)) => {
            let field = |k: &str| match p.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(invalid(format!("oauth.preRegistered.{k} must be a string"))),
            };
            let client_id = field("clientId")?
                .ok_or_else(|| invalid("oauth.preRegistered.clientId must be a string"))?;
            config.pre_registered = Some(PreRegistered {
                issuer: field("issuer")?,
                credentials: ClientCredentials {
                    client_id,
                    client_secret: field("clientSecret")?,
                    token_endpoint_auth_method: field("tokenEndpointAuthMethod")?,
                },
            });
        }
        Some(_) => return Err(invalid("oauth.preRegistered must be an object")),
    }
    Ok(OAuthClient::new(config.with_dpop(dpop)))
}
