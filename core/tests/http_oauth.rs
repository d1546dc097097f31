//! The OAuth client of the Streamable HTTP transport against an authorization server and an MCP
//! resource server written here (one hyper server, two roles): PRM discovery from the challenge,
//! path-inserted AS metadata, dynamic registration, PKCE S256 verified by the token endpoint, the
//! `resource` parameter exactly as PRM publishes it, scope selection and step-up, RFC 9207 `iss`,
//! refresh tokens, and the retry limit.
#![cfg(feature = "http")]

use std::convert::Infallible;
use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use libmcp::auth::client::{
    AutoRedirect, ClientCredentials, OAuthClient, OAuthConfig, PreRegistered,
};
use libmcp::auth::urls::query_params;
use libmcp::client::http::HttpClientOptions;
use libmcp::client::{Client, VersionPreference};
use libmcp::error::AuthError;
use libmcp::{Error, ProtocolVersion};
use parking_lot::Mutex;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// How the servers behave.
#[derive(Clone, Default)]
struct Behaviour {
    /// `iss` in the redirect: `None` correct, `Some("")` omitted, `Some("SLASH")` the issuer with a
    /// trailing slash, `Some(x)` x.
    iss: Option<&'static str>,
    /// Override PRM `resource`.
    prm_resource: Option<String>,
    /// `scopes_supported` of the AS.
    as_scopes: Option<Vec<&'static str>>,
    /// tools/call needs this scope (403 insufficient_scope otherwise).
    call_scope: Option<&'static str>,
    /// The challenge of a 403 never goes away.
    always_403: bool,
    /// Tokens stop working after this many MCP requests each.
    token_uses: Option<usize>,
    /// The AS advertises client ID metadata documents.
    cimd: bool,
    /// `token_endpoint_auth_methods_supported` (default `["none"]`).
    auth_methods: Option<Vec<&'static str>>,
}

#[derive(Default)]
struct State {
    base: String,
    b: Behaviour,
    registrations: Vec<Value>,
    authorizations: Vec<Vec<(String, String)>>,
    token_requests: Vec<Vec<(String, String)>>,
    /// The Authorization header of each token request.
    token_auth: Vec<Option<String>>,
    challenge: Option<String>,
    /// token -> (scope, uses)
    tokens: Vec<(String, String, usize)>,
    refresh_tokens: Vec<(String, String)>,
    mcp_auth: Vec<Option<String>>,
}

type Shared = Arc<Mutex<State>>;

fn get<'a>(params: &'a [(String, String)], k: &str) -> Option<&'a str> {
    params.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str())
}

fn reply(status: u16, headers: &[(&str, String)], body: Value) -> Response<Full<Bytes>> {
    let mut b = Response::builder()
        .status(status)
        .header("content-type", "application/json");
    for (k, v) in headers {
        b = b.header(*k, v.as_str());
    }
    b.body(Full::new(Bytes::from(body.to_string()))).unwrap()
}

fn issue(st: &mut State, scope: String) -> Value {
    let n = st.tokens.len() + 1;
    let token = format!("tok-{n}");
    let refresh = format!("ref-{n}");
    st.tokens.push((token.clone(), scope.clone(), 0));
    st.refresh_tokens.push((refresh.clone(), scope.clone()));
    json!({"access_token": token, "token_type": "Bearer", "expires_in": 3600,
           "refresh_token": refresh, "scope": scope})
}

async fn handle(st: Shared, req: Request<Incoming>) -> Response<Full<Bytes>> {
    let path = req.uri().path().to_owned();
    let query = req.uri().query().unwrap_or("").to_owned();
    let auth = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body = req.into_body().collect().await.unwrap().to_bytes();
    let mut st = st.lock();
    let base = st.base.clone();
    let issuer = format!("{base}/as");
    let prm_url = format!("{base}/.well-known/oauth-protected-resource/mcp");
    match path.as_str() {
        "/.well-known/oauth-protected-resource/mcp" => {
            let resource = st.b.prm_resource.clone().unwrap_or(format!("{base}/mcp"));
            reply(
                200,
                &[],
                json!({"resource": resource, "authorization_servers": [issuer],
                       "scopes_supported": ["read", "profile"]}),
            )
        }
        "/.well-known/oauth-authorization-server/as" => {
            let mut m = json!({
                "issuer": issuer,
                "authorization_endpoint": format!("{issuer}/authorize"),
                "token_endpoint": format!("{issuer}/token"),
                "registration_endpoint": format!("{issuer}/register"),
                "response_types_supported": ["code"],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none"],
                "authorization_response_iss_parameter_supported": true,
            });
            if let Some(s) = &st.b.as_scopes {
                m["scopes_supported"] = json!(s);
            }
            if st.b.cimd {
                m["client_id_metadata_document_supported"] = json!(true);
            }
            if let Some(methods) = &st.b.auth_methods {
                m["token_endpoint_auth_methods_supported"] = json!(methods);
            }
            reply(200, &[], m)
        }
        "/as/register" => {
            let doc: Value = serde_json::from_slice(&body).unwrap();
            st.registrations.push(doc);
            reply(201, &[], json!({"client_id": "client-1"}))
        }
        "/as/authorize" => {
            let params = query_params(&query).unwrap();
            st.challenge = get(&params, "code_challenge").map(str::to_owned);
            let redirect = get(&params, "redirect_uri").unwrap().to_owned();
            let state = get(&params, "state").unwrap_or("").to_owned();
            st.authorizations.push(params);
            let n = st.authorizations.len();
            let mut location = format!("{redirect}?code=code-{n}&state={state}");
            match st.b.iss {
                None => location.push_str(&format!("&iss={}", libmcp::auth::urls::encode(&issuer))),
                Some("") => {}
                Some("SLASH") => location.push_str(&format!(
                    "&iss={}",
                    libmcp::auth::urls::encode(&format!("{issuer}/"))
                )),
                Some(other) => {
                    location.push_str(&format!("&iss={}", libmcp::auth::urls::encode(other)))
                }
            }
            Response::builder()
                .status(302)
                .header("location", location)
                .body(Full::new(Bytes::new()))
                .unwrap()
        }
        "/as/token" => {
            let form = query_params(std::str::from_utf8(&body).unwrap()).unwrap();
            st.token_requests.push(form.clone());
            st.token_auth.push(auth.clone());
            match get(&form, "grant_type") {
                Some("authorization_code") => {
                    let verifier = get(&form, "code_verifier").unwrap_or("");
                    let computed = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
                    if Some(computed) != st.challenge {
                        return reply(
                            400,
                            &[],
                            json!({"error": "invalid_grant", "error_description": "PKCE mismatch"}),
                        );
                    }
                    let scope = get(st.authorizations.last().unwrap(), "scope")
                        .unwrap_or("")
                        .to_owned();
                    let doc = issue(&mut st, scope);
                    reply(200, &[], doc)
                }
                Some("refresh_token") => {
                    let rt = get(&form, "refresh_token").unwrap_or("");
                    match st.refresh_tokens.iter().find(|(r, _)| r == rt).cloned() {
                        Some((_, scope)) => {
                            let doc = issue(&mut st, scope);
                            reply(200, &[], doc)
                        }
                        None => reply(400, &[], json!({"error": "invalid_grant"})),
                    }
                }
                _ => reply(400, &[], json!({"error": "unsupported_grant_type"})),
            }
        }
        "/mcp" => {
            st.mcp_auth.push(auth.clone());
            let msg: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let method = msg["method"].as_str().unwrap_or("").to_owned();
            let challenge_401 =
                format!(r#"Bearer error="invalid_token", resource_metadata="{prm_url}""#);
            let token = auth.as_deref().and_then(|a| a.strip_prefix("Bearer "));
            let limit = st.b.token_uses;
            let known = token.and_then(|t| st.tokens.iter_mut().find(|(k, _, _)| k == t));
            let Some((_, scope, uses)) = known else {
                return reply(
                    401,
                    &[("www-authenticate", challenge_401)],
                    json!({"error": "invalid_token"}),
                );
            };
            *uses += 1;
            if limit.is_some_and(|l| *uses > l) {
                return reply(
                    401,
                    &[("www-authenticate", challenge_401)],
                    json!({"error": "invalid_token"}),
                );
            }
            let scope = scope.clone();
            if method == "tools/call"
                && let Some(need) = st.b.call_scope
                && (st.b.always_403 || !scope.split(' ').any(|s| s == need))
            {
                let ch = format!(
                    r#"Bearer error="insufficient_scope", scope="{need}", resource_metadata="{prm_url}""#
                );
                return reply(
                    403,
                    &[("www-authenticate", ch)],
                    json!({"error": "insufficient_scope"}),
                );
            }
            let result = match method.as_str() {
                "server/discover" => {
                    json!({"resultType": "complete", "supportedVersions": ["2026-07-28"],
                    "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "private",
                    "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "mock", "version": "1"}}})
                }
                "tools/list" => {
                    json!({"resultType": "complete", "tools": [{"name": "t", "inputSchema": {"type": "object"}}]})
                }
                _ => json!({"resultType": "complete", "content": []}),
            };
            reply(
                200,
                &[],
                json!({"jsonrpc": "2.0", "id": msg["id"], "result": result}),
            )
        }
        _ => reply(404, &[], json!({"error": "not_found"})),
    }
}

async fn server(b: Behaviour) -> Shared {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let st: Shared = Arc::new(Mutex::new(State {
        base: format!("http://{}", listener.local_addr().unwrap()),
        b,
        ..Default::default()
    }));
    let served = st.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let st = served.clone();
            tokio::spawn(async move {
                let svc = service_fn(move |req| {
                    let st = st.clone();
                    async move { Ok::<_, Infallible>(handle(st, req).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), svc)
                    .await;
            });
        }
    });
    st
}

const REDIRECT: &str = "http://127.0.0.1:9/callback";

async fn connect(st: &Shared) -> Result<(Client, OAuthClient), Error> {
    let url = format!("{}/mcp", st.lock().base);
    let auth = OAuthClient::new(OAuthConfig::new("oauth-test", REDIRECT, AutoRedirect));
    let options = HttpClientOptions {
        auth: Some(auth.clone()),
        ..Default::default()
    };
    let client = Client::builder("oauth-test", "1.0.0")
        .version_preference(VersionPreference::Modern(ProtocolVersion::LATEST))
        .connect_http_with(&url, options)
        .await?;
    Ok((client, auth))
}

#[tokio::test]
async fn authorization_code_flow_on_the_wire() {
    let st = server(Behaviour::default()).await;
    let (client, auth) = connect(&st).await.unwrap();
    client.list_all_tools().await.unwrap();
    client.close().await;
    let s = st.lock();
    let base = s.base.clone();

    let reg = &s.registrations[0];
    assert_eq!(reg["redirect_uris"], json!([REDIRECT]));
    assert_eq!(reg["client_name"], "oauth-test");
    assert_eq!(reg["application_type"], "native");
    assert_eq!(reg["token_endpoint_auth_method"], "none");
    assert_eq!(
        reg["grant_types"],
        json!(["authorization_code", "refresh_token"])
    );

    assert_eq!(s.authorizations.len(), 1);
    let a = &s.authorizations[0];
    let keys: Vec<&str> = a.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "response_type",
            "client_id",
            "redirect_uri",
            "state",
            "code_challenge",
            "code_challenge_method",
            "scope",
            "resource"
        ]
    );
    assert_eq!(get(a, "response_type"), Some("code"));
    assert_eq!(get(a, "client_id"), Some("client-1"));
    assert_eq!(get(a, "redirect_uri"), Some(REDIRECT));
    assert_eq!(get(a, "code_challenge_method"), Some("S256"));
    // No scope in the challenge: PRM scopes_supported; no offline_access (the AS does not list it).
    assert_eq!(get(a, "scope"), Some("read profile"));
    assert_eq!(get(a, "resource"), Some(format!("{base}/mcp").as_str()));

    let t = &s.token_requests[0];
    assert_eq!(get(t, "grant_type"), Some("authorization_code"));
    assert_eq!(get(t, "code"), Some("code-1"));
    assert_eq!(get(t, "redirect_uri"), Some(REDIRECT));
    assert_eq!(get(t, "client_id"), Some("client-1"));
    assert_eq!(get(t, "resource"), Some(format!("{base}/mcp").as_str()));
    assert_eq!(get(t, "code_verifier").map(str::len), Some(43));

    // The first request went without a token, every later one with the issued token.
    assert_eq!(s.mcp_auth[0], None);
    assert!(
        s.mcp_auth[1..]
            .iter()
            .all(|a| a.as_deref() == Some("Bearer tok-1"))
    );
    assert!(s.mcp_auth.len() >= 3, "discover retried, then tools/list");
    assert_eq!(auth.access_token().as_deref(), Some("tok-1"));
}

#[tokio::test]
async fn offline_access_only_when_the_as_lists_it() {
    let st = server(Behaviour {
        as_scopes: Some(vec!["read", "offline_access"]),
        ..Default::default()
    })
    .await;
    let (client, _) = connect(&st).await.unwrap();
    client.close().await;
    assert_eq!(
        get(&st.lock().authorizations[0], "scope"),
        Some("read profile offline_access")
    );
}

#[tokio::test]
async fn step_up_requests_the_union_of_scopes() {
    let st = server(Behaviour {
        call_scope: Some("write"),
        ..Default::default()
    })
    .await;
    let (client, auth) = connect(&st).await.unwrap();
    client.call_tool("t", json!({})).await.unwrap();
    client.close().await;
    let s = st.lock();
    let scopes: Vec<_> = s
        .authorizations
        .iter()
        .map(|a| get(a, "scope").unwrap().to_owned())
        .collect();
    assert_eq!(scopes, ["read profile", "read profile write"]);
    // The registration is reused for the second authorization.
    assert_eq!(s.registrations.len(), 1);
    assert_eq!(auth.access_token().as_deref(), Some("tok-2"));
}

#[tokio::test]
async fn step_up_stops_after_three_flows() {
    let st = server(Behaviour {
        call_scope: Some("admin"),
        always_403: true,
        ..Default::default()
    })
    .await;
    let (client, _) = connect(&st).await.unwrap();
    let flows_before = st.lock().authorizations.len();
    let err = client.call_tool("t", json!({})).await.unwrap_err();
    client.close().await;
    assert!(
        matches!(&err, Error::Authorization(AuthError::InsufficientScope(m)) if m.contains("403") && m.contains("insufficient_scope")),
        "{err:?}"
    );
    assert_eq!(st.lock().authorizations.len() - flows_before, 3);
}

#[tokio::test]
async fn a_rejected_token_is_refreshed_without_a_new_authorization() {
    let st = server(Behaviour {
        token_uses: Some(1),
        ..Default::default()
    })
    .await;
    let (client, auth) = connect(&st).await.unwrap();
    client.list_all_tools().await.unwrap();
    client.close().await;
    let s = st.lock();
    assert_eq!(s.authorizations.len(), 1);
    let grants: Vec<_> = s
        .token_requests
        .iter()
        .map(|t| get(t, "grant_type").unwrap().to_owned())
        .collect();
    assert_eq!(grants, ["authorization_code", "refresh_token"]);
    let refresh = &s.token_requests[1];
    assert_eq!(get(refresh, "refresh_token"), Some("ref-1"));
    assert_eq!(
        get(refresh, "resource"),
        Some(format!("{}/mcp", s.base).as_str())
    );
    assert_eq!(auth.access_token().as_deref(), Some("tok-2"));
}

async fn rejected(b: Behaviour) -> (String, usize, usize) {
    let st = server(b).await;
    let err = match connect(&st).await {
        Ok(_) => panic!("connected despite the bad authorization"),
        Err(e) => e.to_string(),
    };
    let counts = {
        let s = st.lock();
        (s.authorizations.len(), s.token_requests.len())
    };
    // Probing the era (no version preference) does not authorize a second time after a failure.
    let before = counts.0;
    let url = format!("{}/mcp", st.lock().base);
    let options = HttpClientOptions {
        auth: Some(OAuthClient::new(OAuthConfig::new(
            "oauth-test",
            REDIRECT,
            AutoRedirect,
        ))),
        ..Default::default()
    };
    let probed = Client::builder("oauth-test", "1.0.0")
        .connect_http_with(&url, options)
        .await;
    assert!(probed.is_err());
    assert_eq!(st.lock().authorizations.len() - before, before);
    (err, counts.0, counts.1)
}

#[tokio::test]
async fn iss_is_compared_as_a_plain_string_before_the_code_is_redeemed() {
    let (err, auths, tokens) = rejected(Behaviour {
        iss: Some("https://evil.example.com"),
        ..Default::default()
    })
    .await;
    assert_eq!((auths, tokens), (1, 0));
    assert!(err.contains("issuer \"https://evil.example.com\""), "{err}");

    // The advertised parameter is missing.
    let (err, auths, tokens) = rejected(Behaviour {
        iss: Some(""),
        ..Default::default()
    })
    .await;
    assert_eq!((auths, tokens), (1, 0));
    assert!(err.contains("has no iss"), "{err}");

    // A trailing slash is a different issuer.
    let (err, auths, tokens) = rejected(Behaviour {
        iss: Some("SLASH"),
        ..Default::default()
    })
    .await;
    assert_eq!((auths, tokens), (1, 0));
    assert!(err.contains("expected"), "{err}");
}

#[tokio::test]
async fn a_prm_for_another_resource_stops_before_authorization() {
    let (err, auths, _) = rejected(Behaviour {
        prm_resource: Some("https://evil.example.com/mcp".into()),
        ..Default::default()
    })
    .await;
    assert_eq!(auths, 0);
    assert!(err.contains("does not match the server URL"), "{err}");
}

async fn connect_with(st: &Shared, edit: impl FnOnce(&mut OAuthConfig)) -> Client {
    let url = format!("{}/mcp", st.lock().base);
    let mut config = OAuthConfig::new("oauth-test", REDIRECT, AutoRedirect);
    edit(&mut config);
    let options = HttpClientOptions {
        auth: Some(OAuthClient::new(config)),
        ..Default::default()
    };
    Client::builder("oauth-test", "1.0.0")
        .version_preference(VersionPreference::Modern(ProtocolVersion::LATEST))
        .connect_http_with(&url, options)
        .await
        .unwrap()
}

#[tokio::test]
async fn pre_registered_credentials_use_client_secret_basic() {
    let st = server(Behaviour {
        auth_methods: Some(vec!["client_secret_basic", "client_secret_post"]),
        ..Default::default()
    })
    .await;
    let client = connect_with(&st, |c| {
        c.pre_registered = Some(PreRegistered {
            issuer: None,
            credentials: ClientCredentials::confidential("pre id", "s:cret"),
        });
    })
    .await;
    client.close().await;
    let s = st.lock();
    assert!(s.registrations.is_empty());
    assert_eq!(get(&s.authorizations[0], "client_id"), Some("pre id"));
    // RFC 6749 §2.3.1: id and secret form-encoded, then base64.
    let expected = format!("Basic {}", STANDARD.encode("pre%20id:s%3Acret"));
    assert_eq!(s.token_auth[0].as_deref(), Some(expected.as_str()));
    assert_eq!(get(&s.token_requests[0], "client_id"), None);
    assert_eq!(get(&s.token_requests[0], "client_secret"), None);
}

#[tokio::test]
async fn client_id_metadata_document_instead_of_registration() {
    const DOC: &str = "https://client.example/metadata.json";
    let st = server(Behaviour {
        cimd: true,
        ..Default::default()
    })
    .await;
    let client = connect_with(&st, |c| c.client_metadata_url = Some(DOC.into())).await;
    client.close().await;
    {
        let s = st.lock();
        assert!(s.registrations.is_empty());
        assert_eq!(get(&s.authorizations[0], "client_id"), Some(DOC));
        assert_eq!(get(&s.token_requests[0], "client_id"), Some(DOC));
        assert_eq!(s.token_auth[0], None);
    }
    // Without the server's support, or with a URL that is not HTTPS, registration is dynamic.
    let st = server(Behaviour::default()).await;
    connect_with(&st, |c| c.client_metadata_url = Some(DOC.into()))
        .await
        .close()
        .await;
    assert_eq!(st.lock().registrations.len(), 1);
    let st = server(Behaviour {
        cimd: true,
        ..Default::default()
    })
    .await;
    connect_with(&st, |c| {
        c.client_metadata_url = Some("http://client.example/m.json".into())
    })
    .await
    .close()
    .await;
    assert_eq!(st.lock().registrations.len(), 1);
}
