//! OAuth 2.1 resource-server mode for `serveHttp`: the `auth` options mapped onto the core's
//! `ResourceServerConfig` (libmcp::auth), whose token verifier is a JS function. The core checks
//! expiry, audience and scopes on what the verifier returns, serves the protected resource
//! metadata and answers with the challenges; this file only converts.

use std::sync::Arc;
use std::time::Duration;

use libmcp::auth::{AuthInfo, ResourceServerConfig, TokenRejection};
use napi::Status;
use napi::bindgen_prelude::{Function, Promise};
use napi::threadsafe_function::ThreadsafeFunction;
use serde_json::Value;

use crate::error::invalid;
use crate::option_values::strings;

/// The JS verifier: called with the bearer token, resolves to JSON text `{"ok": {subject?,
/// clientId?, scopes?, expiresAt?, audience?, claims?}}`, `{"invalid": reason}` (401
/// invalid_token) or `{"unavailable": reason}` (503).
type VerifyTsfn = ThreadsafeFunction<String, Promise<String>, String, Status, false, true>;

/// The resource-server configuration from the JS `auth` options (JSON, the verifier aside):
/// `resource` (required), `authorizationServers`, `scopesSupported`, `requiredScopes`,
/// `toolScopes` (`{tool: [scope, ...]}`), `resourceName`, `resourceDocumentation`,
/// `checkAudience`, `verifyTimeoutMs`.
pub(crate) fn resource_server(
    o: &Value,
    verifier: &Function<String, Promise<String>>,
) -> napi::Result<ResourceServerConfig> {
    let Value::Object(o) = o else {
        return Err(invalid("auth must be an object"));
    };
    let resource = o
        .get("resource")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("auth.resource must be the endpoint's canonical URL (a string)"))?;
    let tsfn: Arc<VerifyTsfn> = Arc::new(
        verifier
            .build_threadsafe_function::<String>()
            .weak::<true>()
            .callee_handled::<false>()
            .build()?,
    );
    let verify = move |token: String| {
        let tsfn = tsfn.clone();
        async move { verify(&tsfn, token).await }
    };
    let mut b = ResourceServerConfig::builder(resource, verify);
    let list = |k: &str| -> napi::Result<Option<Vec<String>>> {
        o.get(k)
            .map(|v| strings(v, &format!("auth.{k}")))
            .transpose()
    };
    for issuer in list("authorizationServers")?.unwrap_or_default() {
        b = b.authorization_server(issuer);
    }
    if let Some(s) = list("scopesSupported")? {
        b = b.scopes_supported(s);
    }
    if let Some(s) = list("requiredScopes")? {
        b = b.required_scopes(s);
    }
    if let Some(v) = o.get("toolScopes") {
        let Value::Object(tools) = v else {
            return Err(invalid(
                "auth.toolScopes must be an object of scope arrays by tool",
            ));
        };
        for (tool, scopes) in tools {
            b = b.tool_scopes(tool, strings(scopes, &format!("auth.toolScopes.{tool}"))?);
        }
    }
    let text = |k: &str| -> napi::Result<Option<String>> {
        match o.get(k) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(invalid(format!("auth.{k} must be a string"))),
        }
    };
    if let Some(name) = text("resourceName")? {
        b = b.resource_name(name);
    }
    if let Some(url) = text("resourceDocumentation")? {
        b = b.resource_documentation(url);
    }
    match o.get("checkAudience") {
        None => {}
        Some(Value::Bool(on)) => b = b.check_audience(*on),
        Some(_) => return Err(invalid("auth.checkAudience must be a boolean")),
    }
    match o.get("verifyTimeoutMs") {
        None => {}
        Some(v) => {
            let ms = v
                .as_u64()
                .filter(|&ms| ms > 0)
                .ok_or_else(|| invalid("auth.verifyTimeoutMs must be a positive integer"))?;
            b = b.verify_timeout(Duration::from_millis(ms));
        }
    }
    b.build().map_err(|e| invalid(format!("auth: {e}")))
}

/// Runs the JS verifier on `token` and decodes its answer.
async fn verify(f: &VerifyTsfn, token: String) -> Result<AuthInfo, TokenRejection> {
    let failed =
        |e: napi::Error| TokenRejection::Unavailable(format!("the token verifier failed: {e}"));
    let promise = f.call_async_catch(token).await.map_err(failed)?;
    let text = promise.await.map_err(failed)?;
    let answer: Value = serde_json::from_str(&text)
        .map_err(|e| TokenRejection::Unavailable(format!("the token verifier's answer: {e}")))?;
    let reason = |k: &str| {
        answer
            .get(k)
            .map(|r| r.as_str().unwrap_or_default().to_owned())
    };
    if let Some(r) = reason("invalid") {
        return Err(TokenRejection::Invalid(r));
    }
    if let Some(r) = reason("unavailable") {
        return Err(TokenRejection::Unavailable(r));
    }
    auth_info(&answer["ok"]).map_err(TokenRejection::Unavailable)
}

/// `AuthInfo` from what the verifier resolved to; a wrong type is the verifier's fault (503).
fn auth_info(v: &Value) -> Result<AuthInfo, String> {
    let Value::Object(o) = v else {
        return Err("the token verifier must resolve to an object (or null to refuse)".into());
    };
    let text = |k: &str| match o.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("the token verifier's {k} must be a string")),
    };
    let list = |k: &str| match o.get(k) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(v) => v
            .as_array()
            .and_then(|a| a.iter().map(|s| s.as_str().map(String::from)).collect())
            .ok_or_else(|| format!("the token verifier's {k} must be an array of strings")),
    };
    let mut info = AuthInfo::new()
        .scopes(list("scopes")?)
        .audience(list("audience")?);
    if let Some(s) = text("subject")? {
        info = info.subject(s);
    }
    if let Some(c) = text("clientId")? {
        info = info.client_id(c);
    }
    match o.get("expiresAt") {
        None | Some(Value::Null) => {}
        Some(v) => {
            let at = v
                .as_f64()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or("the token verifier's expiresAt must be seconds since the Unix epoch")?;
            info = info.expires_at(at as u64);
        }
    }
    match o.get("claims") {
        None | Some(Value::Null) => {}
        Some(Value::Object(claims)) => {
            for (k, v) in claims {
                info = info.claim(k, v.clone());
            }
        }
        Some(_) => return Err("the token verifier's claims must be an object".into()),
    }
    Ok(info)
}
