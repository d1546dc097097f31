//! The steps of one authorization: choosing the scope, getting a client registration, the
//! authorization request with PKCE and its response checks (`state`, RFC 9207 `iss`), and the token
//! requests with the client authentication the server accepts (secret, assertion or none) and,
//! with DPoP, a proof and the nonce retry.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hyper::Method;
use serde_json::{Value, json};

use super::super::pkce::{Pkce, random_token};
use super::super::urls;
use super::discovery::Discovered;
use super::dpop::{Dpop, USE_DPOP_NONCE};
use super::fetch::{Http, send};
use super::jwt::{SigningKey, assertion_claims, now};
use super::{AuthError, ClientCredentials, OAuthConfig, Tokens};

/// The scope to request: the challenge's `scope`, else PRM `scopes_supported`, else none; joined with
/// the scope requested before from the same server (SEP-2350); plus `offline_access` when refresh
/// tokens are wanted and the authorization server lists it.
pub(crate) fn select_scope(
    challenge_scope: Option<&str>,
    prm_scopes: Option<&[String]>,
    previous: Option<&str>,
    offline_access: bool,
) -> Option<String> {
    fn add(scopes: &mut Vec<String>, s: &str) {
        for part in s.split_whitespace() {
            if !scopes.iter().any(|x| x == part) {
                scopes.push(part.to_owned());
            }
        }
    }
    let mut scopes: Vec<String> = Vec::new();
    if let Some(prev) = previous {
        add(&mut scopes, prev);
    }
    match (challenge_scope.filter(|s| !s.trim().is_empty()), prm_scopes) {
        (Some(s), _) => add(&mut scopes, s),
        (None, Some(list)) => list.iter().for_each(|s| add(&mut scopes, s)),
        (None, None) => {}
    }
    if scopes.is_empty() {
        return None;
    }
    if offline_access {
        add(&mut scopes, "offline_access");
    }
    Some(scopes.join(" "))
}

/// The token endpoint authentication method: the one registered for the client, else (with a secret)
/// `client_secret_basic` or `client_secret_post` as the server lists them, else `none`.
pub(crate) fn auth_method(client: &ClientCredentials, supported: Option<&[String]>) -> String {
    if let Some(m) = &client.token_endpoint_auth_method {
        return m.clone();
    }
    if client.client_secret.is_none() {
        return "none".into();
    }
    // RFC 8414 §2: absent means client_secret_basic only.
    let supported: Vec<&str> = supported
        .map(|s| s.iter().map(String::as_str).collect())
        .unwrap_or_else(|| vec!["client_secret_basic"]);
    for m in ["client_secret_basic", "client_secret_post", "none"] {
        if supported.contains(&m) {
            return m.into();
        }
    }
    "client_secret_basic".into()
}

/// Registers with RFC 7591 dynamic client registration.
pub(crate) async fn register(
    http: &Http,
    config: &OAuthConfig,
    found: &Discovered,
    endpoint: &str,
) -> Result<ClientCredentials, AuthError> {
    let supported = found
        .metadata
        .as_ref()
        .and_then(|m| m.token_endpoint_auth_methods_supported.clone());
    // A native client has no secret to keep: ask to be public when the server allows it.
    let requested = match supported.as_deref() {
        None => "client_secret_basic",
        Some(s) if s.iter().any(|m| m == "none") => "none",
        Some(s) if s.iter().any(|m| m == "client_secret_basic") => "client_secret_basic",
        Some(s) if s.iter().any(|m| m == "client_secret_post") => "client_secret_post",
        Some(_) => "none",
    };
    let loopback =
        urls::split(&config.redirect_uri).is_some_and(|p| urls::is_loopback_authority(p.authority));
    let mut body = json!({
        "client_name": config.client_name,
        "redirect_uris": [config.redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": requested,
        "application_type": if loopback { "native" } else { "web" },
    });
    if let Some(uri) = &config.client_uri {
        body["client_uri"] = json!(uri);
    }
    let reply = send(
        http,
        Method::POST,
        endpoint,
        &[("accept", "application/json".into())],
        Some(("application/json", body.to_string().into_bytes())),
    )
    .await?;
    if !reply.ok() {
        return Err(AuthError::Registration(format!(
            "{endpoint} refused the registration: {}",
            reply.oauth_error()
        )));
    }
    let doc = reply
        .json("the registration response")
        .map_err(AuthError::Registration)?;
    let client_id = doc["client_id"]
        .as_str()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            AuthError::Registration(format!("{endpoint} answered without a client_id"))
        })?;
    Ok(ClientCredentials {
        client_id: client_id.to_owned(),
        client_secret: doc["client_secret"].as_str().map(str::to_owned),
        token_endpoint_auth_method: doc["token_endpoint_auth_method"]
            .as_str()
            .map(str::to_owned),
    })
}

/// One authorization request: builds the URL, hands it to the handler, checks the redirect and
/// returns the code and the PKCE verifier.
pub(crate) async fn authorize(
    config: &OAuthConfig,
    found: &Discovered,
    client: &ClientCredentials,
    scope: Option<&str>,
) -> Result<(String, Pkce), AuthError> {
    let pkce = Pkce::generate();
    let state = random_token();
    let mut params: Vec<(&str, &str)> = vec![
        ("response_type", "code"),
        ("client_id", &client.client_id),
        ("redirect_uri", &config.redirect_uri),
        ("state", &state),
        ("code_challenge", &pkce.challenge),
        ("code_challenge_method", "S256"),
    ];
    if let Some(scope) = scope {
        params.push(("scope", scope));
    }
    params.push(("resource", &found.resource));
    let url = urls::with_query(&found.authorization_endpoint, &params);
    let redirect = config.handler.authorize(url).await?;
    let code = check_redirect(&redirect, &state, found)?;
    Ok((code, pkce))
}

/// The checks on the authorization response, all before the code is redeemed: an `error`, the
/// `state`, and `iss` compared as a plain string with the recorded issuer (RFC 9207; required when
/// the server advertises it).
pub(crate) fn check_redirect(
    redirect: &str,
    state: &str,
    found: &Discovered,
) -> Result<String, AuthError> {
    let params = urls::query_params(redirect)
        .map_err(|e| AuthError::Authorization(format!("the redirect URL is malformed: {e}")))?;
    let get = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    if let Some(err) = get("error") {
        let desc = get("error_description").unwrap_or("");
        return Err(AuthError::Denied(
            format!("the authorization server refused: {err} {desc}")
                .trim_end()
                .to_owned(),
        ));
    }
    if get("state") != Some(state) {
        return Err(AuthError::Authorization(
            "the authorization response's state does not match the request's".into(),
        ));
    }
    let advertised = found
        .metadata
        .as_ref()
        .and_then(|m| m.authorization_response_iss_parameter_supported)
        == Some(true);
    match get("iss") {
        Some(iss) if iss != found.issuer => {
            return Err(AuthError::Authorization(format!(
                "the authorization response comes from issuer {iss:?}, expected {:?}; not redeeming the code",
                found.issuer
            )));
        }
        None if advertised => {
            return Err(AuthError::Authorization(format!(
                "{} advertises authorization_response_iss_parameter_supported but its response has no iss; not redeeming the code",
                found.issuer
            )));
        }
        _ => {}
    }
    get("code")
        .filter(|c| !c.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| AuthError::Authorization("the authorization response has no code".into()))
}

/// A token request to the authorization server found by discovery: `grant` (the grant's own form
/// parameters) plus `resource`, with the client authentication the server accepts (a
/// `private_key_jwt` assertion when `key` is given), and a DPoP proof when `dpop` is given.
pub(crate) async fn token_request(
    http: &Http,
    found: &Discovered,
    client: &ClientCredentials,
    grant: &[(&str, &str)],
    requested_scope: Option<&str>,
    dpop: Option<&Dpop>,
    key: Option<&SigningKey>,
) -> Result<Tokens, AuthError> {
    let supported = found
        .metadata
        .as_ref()
        .and_then(|m| m.token_endpoint_auth_methods_supported.as_deref());
    let mut form: Vec<(&str, &str)> = grant.to_vec();
    form.push(("resource", &found.resource));
    let assertion_key = key.map(|k| (k, found.issuer.as_str()));
    let doc = post_token(
        http,
        &found.token_endpoint,
        client,
        supported,
        &form,
        dpop,
        assertion_key,
    )
    .await?;
    parse_tokens(&doc, requested_scope, dpop.is_some())
}

/// Form parameters or headers, by name.
pub(crate) type Pairs = Vec<(&'static str, String)>;

/// The client authentication parameters and headers for one token request. `key` (with the
/// assertion's audience, the authorization server's issuer) makes it `private_key_jwt`.
pub(crate) fn client_auth(
    client: &ClientCredentials,
    supported: Option<&[String]>,
    key: Option<(&SigningKey, &str)>,
    jti: &str,
    now: u64,
) -> Result<(Pairs, Pairs), AuthError> {
    let mut form = Vec::new();
    let mut headers = Vec::new();
    let secret = client.client_secret.as_deref().unwrap_or("");
    let method = match key {
        Some(_) => "private_key_jwt".to_owned(),
        None => auth_method(client, supported),
    };
    match method.as_str() {
        "client_secret_basic" => {
            // RFC 6749 §2.3.1: both parts form-encoded before base64.
            let pair = format!(
                "{}:{}",
                urls::encode(&client.client_id),
                urls::encode(secret)
            );
            headers.push(("authorization", format!("Basic {}", STANDARD.encode(pair))));
        }
        "client_secret_post" => {
            form.push(("client_id", client.client_id.clone()));
            form.push(("client_secret", secret.to_owned()));
        }
        "private_key_jwt" => {
            let Some((key, audience)) = key else {
                return Err(AuthError::Credentials(format!(
                    "client {} is registered for private_key_jwt but no signing key is configured",
                    client.client_id
                )));
            };
            let claims = assertion_claims(&client.client_id, audience, jti, now);
            let jwt = key.sign(&json!({"typ": "JWT"}), &claims)?;
            form.push(("client_assertion_type", CLIENT_ASSERTION_TYPE.to_owned()));
            form.push(("client_assertion", jwt));
        }
        _ if !client.client_id.is_empty() => form.push(("client_id", client.client_id.clone())),
        _ => {}
    }
    Ok((form, headers))
}

/// `client_assertion_type` of a JWT client assertion (RFC 7523 §2.2).
pub const CLIENT_ASSERTION_TYPE: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// POSTs one token request to `endpoint` and returns the JSON answer. With DPoP, a `use_dpop_nonce`
/// refusal carrying a new `DPoP-Nonce` is retried once with that nonce (RFC 9449 §8).
pub(crate) async fn post_token(
    http: &Http,
    endpoint: &str,
    client: &ClientCredentials,
    supported: Option<&[String]>,
    grant: &[(&str, &str)],
    dpop: Option<&Dpop>,
    key: Option<(&SigningKey, &str)>,
) -> Result<Value, AuthError> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let (auth_form, mut headers) = client_auth(client, supported, key, &random_token(), now())?;
        let mut form: Vec<(&str, &str)> = grant.to_vec();
        form.extend(auth_form.iter().map(|(k, v)| (*k, v.as_str())));
        headers.push(("accept", "application/json".to_owned()));
        if let Some(d) = dpop {
            headers.push(("dpop", d.proof("POST", endpoint, None)?));
        }
        let body = urls::form(&form).into_bytes();
        let reply = send(
            http,
            Method::POST,
            endpoint,
            &headers,
            Some(("application/x-www-form-urlencoded", body)),
        )
        .await?;
        let new_nonce = match (dpop, reply.headers.get("dpop-nonce")) {
            (Some(d), Some(n)) => n.to_str().is_ok_and(|n| d.note_nonce(endpoint, n)),
            _ => false,
        };
        if reply.ok() {
            return reply.json("the token response").map_err(AuthError::Token);
        }
        let error = reply
            .json("the error")
            .ok()
            .and_then(|e| e["error"].as_str().map(str::to_owned));
        if error.as_deref() == Some(USE_DPOP_NONCE) && new_nonce && attempt == 1 {
            continue;
        }
        let why = format!(
            "{endpoint} refused the token request: {}",
            reply.oauth_error()
        );
        return Err(if error.as_deref() == Some("invalid_grant") {
            AuthError::InvalidGrant(why)
        } else {
            AuthError::Token(why)
        });
    }
}

/// The tokens of a token response. `dpop`: the request carried a DPoP proof, so a `DPoP` token type
/// is expected as well as `Bearer` (RFC 9449 §5).
pub(crate) fn parse_tokens(
    doc: &Value,
    requested_scope: Option<&str>,
    dpop: bool,
) -> Result<Tokens, AuthError> {
    let access_token = doc["access_token"]
        .as_str()
        .filter(|t| !t.is_empty())
        .ok_or_else(|| AuthError::Token("the token response has no access_token".into()))?;
    let bound = match doc["token_type"].as_str() {
        Some(t) if t.eq_ignore_ascii_case("bearer") => false,
        Some(t) if dpop && t.eq_ignore_ascii_case("dpop") => true,
        other => {
            return Err(AuthError::Token(format!(
                "the token response's token_type is {other:?}, not {}",
                if dpop { "DPoP or Bearer" } else { "Bearer" }
            )));
        }
    };
    Ok(Tokens {
        access_token: access_token.to_owned(),
        refresh_token: doc["refresh_token"].as_str().map(str::to_owned),
        expires_at: doc["expires_in"].as_u64().map(|s| now().saturating_add(s)),
        scope: doc["scope"].as_str().or(requested_scope).map(str::to_owned),
        dpop: bound,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn scope_selection_order() {
        let prm = strings(&["a", "b"]);
        assert_eq!(
            select_scope(Some("x y"), Some(&prm), None, false).as_deref(),
            Some("x y")
        );
        assert_eq!(
            select_scope(None, Some(&prm), None, false).as_deref(),
            Some("a b")
        );
        assert_eq!(
            select_scope(Some(" "), Some(&prm), None, false).as_deref(),
            Some("a b")
        );
        assert_eq!(select_scope(None, None, None, true), None);
        assert_eq!(
            select_scope(Some("w"), None, Some("b w"), true).as_deref(),
            Some("b w offline_access")
        );
        assert_eq!(
            select_scope(
                Some("mcp:write"),
                Some(&strings(&["p"])),
                Some("mcp:basic"),
                false
            )
            .as_deref(),
            Some("mcp:basic mcp:write")
        );
    }

    #[test]
    fn auth_method_selection() {
        let public = ClientCredentials::public("c");
        let secret = ClientCredentials::confidential("c", "s");
        let list = |v: &[&str]| strings(v);
        assert_eq!(
            auth_method(&public, Some(&list(&["client_secret_basic"]))),
            "none"
        );
        assert_eq!(auth_method(&secret, None), "client_secret_basic");
        assert_eq!(
            auth_method(&secret, Some(&list(&["client_secret_post"]))),
            "client_secret_post"
        );
        assert_eq!(auth_method(&secret, Some(&list(&["none"]))), "none");
        let registered = ClientCredentials {
            token_endpoint_auth_method: Some("client_secret_post".into()),
            ..secret.clone()
        };
        assert_eq!(
            auth_method(&registered, Some(&list(&["client_secret_basic"]))),
            "client_secret_post"
        );
    }

    fn found(iss_supported: Option<bool>) -> Discovered {
        Discovered {
            resource: "http://r/mcp".into(),
            prm_scopes: None,
            issuer: "http://as".into(),
            metadata: Some(crate::auth::metadata::AuthorizationServerMetadata {
                issuer: "http://as".into(),
                authorization_response_iss_parameter_supported: iss_supported,
                ..Default::default()
            }),
            authorization_endpoint: "http://as/authorize".into(),
            token_endpoint: "http://as/token".into(),
            registration_endpoint: None,
        }
    }

    #[test]
    fn redirect_checks() {
        let f = found(Some(true));
        let ok = "http://localhost:3000/callback?code=c&state=s&iss=http%3A%2F%2Fas";
        assert_eq!(check_redirect(ok, "s", &f).unwrap(), "c");
        let err = |url: &str, f: &Discovered| check_redirect(url, "s", f).unwrap_err().to_string();
        assert!(err("http://cb/?code=c&state=x&iss=http%3A%2F%2Fas", &f).contains("state"));
        assert!(err("http://cb/?code=c&state=s", &f).contains("has no iss"));
        assert!(err("http://cb/?code=c&state=s&iss=http%3A%2F%2Fas%2F", &f).contains("expected"));
        assert_eq!(
            check_redirect("http://cb/?error=access_denied&state=s", "s", &f),
            Err(AuthError::Denied(
                "the authorization server refused: access_denied".into()
            ))
        );
        assert!(err("http://cb/?state=s&iss=http%3A%2F%2Fas", &f).contains("no code"));
        let quiet = found(None);
        assert_eq!(
            check_redirect("http://cb/?code=c&state=s", "s", &quiet).unwrap(),
            "c"
        );
        assert!(
            err("http://cb/?code=c&state=s&iss=https%3A%2F%2Fevil", &quiet).contains("expected")
        );
    }

    fn owned(v: &[(&'static str, &str)]) -> Pairs {
        v.iter().map(|(k, v)| (*k, v.to_string())).collect()
    }

    #[test]
    fn client_secret_basic_and_post_bodies() {
        let secret = ClientCredentials::confidential("my client", "s&cret");
        let basic = client_auth(&secret, None, None, "j", 0).unwrap();
        // base64("my%20client:s%26cret"): both parts form-encoded first (RFC 6749 §2.3.1).
        assert_eq!(
            basic,
            (
                Pairs::new(),
                owned(&[("authorization", "Basic bXklMjBjbGllbnQ6cyUyNmNyZXQ=")])
            )
        );
        let post_only = strings(&["client_secret_post"]);
        let post = client_auth(&secret, Some(&post_only), None, "j", 0).unwrap();
        assert_eq!(
            post,
            (
                owned(&[("client_id", "my client"), ("client_secret", "s&cret")]),
                Pairs::new()
            )
        );
        let public = client_auth(&ClientCredentials::public("p"), None, None, "j", 0).unwrap();
        assert_eq!(public, (owned(&[("client_id", "p")]), Pairs::new()));
        let anonymous = client_auth(&ClientCredentials::public(""), None, None, "j", 0).unwrap();
        assert_eq!(anonymous, (Pairs::new(), Pairs::new()));
    }

    #[test]
    fn private_key_jwt_body_and_claims() {
        let key = SigningKey::generate_es256().unwrap();
        let client = ClientCredentials::public("cid");
        let (form, headers) =
            client_auth(&client, None, Some((&key, "http://as")), "jti-1", 1000).unwrap();
        assert!(headers.is_empty());
        assert_eq!(form.len(), 2);
        assert_eq!(
            form[0],
            (
                "client_assertion_type",
                "urn:ietf:params:oauth:client-assertion-type:jwt-bearer".to_owned()
            )
        );
        assert_eq!(form[1].0, "client_assertion");
        let jwt = &form[1].1;
        assert!(crate::auth::client::jwt::verify_es256(&key, jwt));
        let (header, claims, _) = crate::auth::client::jwt::decode_unverified(jwt);
        assert_eq!(header, json!({"typ": "JWT", "alg": "ES256"}));
        assert_eq!(
            claims,
            json!({"iss": "cid", "sub": "cid", "aud": "http://as", "iat": 1000, "exp": 1300, "jti": "jti-1"})
        );
        let registered = ClientCredentials {
            token_endpoint_auth_method: Some("private_key_jwt".into()),
            ..client
        };
        assert!(
            client_auth(&registered, None, None, "j", 0)
                .unwrap_err()
                .to_string()
                .contains("no signing key")
        );
    }

    #[test]
    fn token_responses() {
        let t = parse_tokens(
            &json!({"access_token": "t", "token_type": "bearer", "expires_in": 60, "refresh_token": "r"}),
            Some("a"),
            false,
        )
        .unwrap();
        assert_eq!(
            (
                t.access_token.as_str(),
                t.refresh_token.as_deref(),
                t.scope.as_deref()
            ),
            ("t", Some("r"), Some("a"))
        );
        assert!(t.expires_at.is_some());
        assert!(!t.dpop);
        assert!(parse_tokens(&json!({"token_type": "Bearer"}), None, false).is_err());
        let dpop = json!({"access_token": "t", "token_type": "DPoP"});
        assert!(parse_tokens(&dpop, None, false).is_err());
        assert!(parse_tokens(&dpop, None, true).unwrap().dpop);
        let na = json!({"access_token": "t", "token_type": "N_A"});
        assert!(
            parse_tokens(&na, None, true)
                .unwrap_err()
                .to_string()
                .contains("not DPoP or Bearer")
        );
    }
}
