//! The client's OAuth 2.1 authorization (`libmcp::auth::client`) for `Client.connectHttp(url,
//! {oauth, onAuthorize})`: the `oauth` options mapped onto `OAuthConfig`, with the user-interaction
//! step a JS function (given the authorization URL, it resolves to the URL the authorization server
//! redirected back to). Discovery, registration, PKCE, the token requests and the retries are the
//! core's.

use std::sync::Arc;

use libmcp::auth::client::{
    AuthError, AutoRedirect, ClientCredentials, OAuthClient, OAuthConfig, PreRegistered,
};
use napi::Status;
use napi::bindgen_prelude::{Function, Promise};
use napi::threadsafe_function::ThreadsafeFunction;
use serde_json::{Map, Value};

use crate::error::invalid;

type AuthorizeTsfn = ThreadsafeFunction<String, Promise<String>, String, Status, false, true>;

fn text<'a>(o: &'a Map<String, Value>, k: &str) -> napi::Result<Option<&'a str>> {
    match o.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(invalid(format!("oauth.{k} must be a string"))),
    }
}

/// The OAuth client of the `oauth` options: `redirectUri` (required), `clientName`,
/// `clientMetadataUrl`, `clientUri`, `offlineAccess`, `preRegistered` (`{clientId, clientSecret?,
/// issuer?}`). Without `authorize` the authorization URL is fetched and its redirect followed
/// (for authorization servers that redirect at once).
pub(crate) fn oauth_client(
    o: &Value,
    authorize: Option<&Function<String, Promise<String>>>,
) -> napi::Result<OAuthClient> {
    let Value::Object(o) = o else {
        return Err(invalid("oauth must be an object"));
    };
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
    Ok(OAuthClient::new(config))
}
