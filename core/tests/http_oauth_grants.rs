//! The grants that need no user, on real sockets: libmcp's HTTP server as the resource server (its
//! verifier accepts what the authorization server issued and still honours) and a small
//! authorization server written here, which records every token request. Checked: the exact client
//! credentials request (form body and Basic header) against an authorization server with no
//! authorization endpoint and no PKCE, a new token obtained with the grant when the current one
//! stops working (expiry), and DPoP proofs at the token endpoint with the `use_dpop_nonce` retry.

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use libmcp::auth::client::{OAuthClient, OAuthConfig};
use libmcp::auth::{AuthInfo, ResourceServerConfig, TokenRejection};
use libmcp::client::http::HttpClientOptions;
use libmcp::client::{Client, VersionPreference};
use libmcp::server::{Reply, Server};
use libmcp::transport::http::{HttpServerConfig, HttpServerHandle, serve_http};
use libmcp::{Error, ProtocolVersion};
use parking_lot::Mutex;
use serde_json::{Value, json};

/// One token request as the authorization server saw it.
#[derive(Clone, Debug)]
struct Seen {
    authorization: Option<String>,
    dpop: Option<String>,
    body: String,
}

#[derive(Default)]
struct As {
    issuer: String,
    /// Tokens the resource server accepts.
    valid: HashSet<String>,
    issued: usize,
    seen: Vec<Seen>,
    /// Answer the first token request with `use_dpop_nonce`.
    want_nonce: bool,
    /// Issue DPoP-bound tokens: token → the JWK thumbprint of the proof's key.
    bind: Option<std::collections::HashMap<String, String>>,
}

/// The RFC 7638 thumbprint of the P-256 key in a proof's header.
fn thumbprint(proof: &str) -> String {
    use sha2::Digest;
    let (header, _) = claims(proof);
    let jwk = &header["jwk"];
    let canonical = json!({"crv": jwk["crv"], "kty": jwk["kty"], "x": jwk["x"], "y": jwk["y"]});
    URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(canonical.to_string()))
}

type Shared = Arc<Mutex<As>>;

fn json_reply(status: u16, extra: &[(&str, &str)], body: &Value) -> Response<Full<Bytes>> {
    let mut r = Response::builder()
        .status(status)
        .header("content-type", "application/json");
    for (k, v) in extra {
        r = r.header(*k, *v);
    }
    r.body(Full::new(Bytes::from(body.to_string()))).unwrap()
}

async fn token_endpoint(st: Shared, req: Request<Incoming>) -> Response<Full<Bytes>> {
    let header = |n: &str| req.headers().get(n).map(|v| v.to_str().unwrap().to_owned());
    let (authorization, dpop) = (header("authorization"), header("dpop"));
    let body = req.into_body().collect().await.unwrap().to_bytes();
    let body = String::from_utf8(body.to_vec()).unwrap();
    let mut s = st.lock();
    s.seen.push(Seen {
        authorization,
        dpop: dpop.clone(),
        body,
    });
    if s.want_nonce && s.seen.len() == 1 {
        let e = json!({"error": "use_dpop_nonce", "error_description": "nonce needed"});
        return json_reply(400, &[("dpop-nonce", "n-1")], &e);
    }
    s.issued += 1;
    let token = format!("cc-{}", s.issued);
    s.valid.insert(token.clone());
    let mut token_type = "Bearer";
    if let (Some(bound), Some(proof)) = (s.bind.as_mut(), dpop.as_deref()) {
        bound.insert(token.clone(), thumbprint(proof));
        token_type = "DPoP";
    }
    json_reply(
        200,
        &[],
        &json!({"access_token": token, "token_type": token_type, "expires_in": 60}),
    )
}

async fn route(st: Shared, req: Request<Incoming>) -> Response<Full<Bytes>> {
    if req.uri().path() == "/token" {
        return token_endpoint(st, req).await;
    }
    if req
        .uri()
        .path()
        .starts_with("/.well-known/oauth-authorization-server")
    {
        let issuer = st.lock().issuer.clone();
        // No authorization endpoint and no PKCE: a machine-to-machine authorization server.
        let metadata = json!({
            "issuer": issuer,
            "token_endpoint": format!("{issuer}/token"),
            "grant_types_supported": ["client_credentials"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic"],
        });
        return json_reply(200, &[], &metadata);
    }
    json_reply(404, &[], &json!({"error": "not_found"}))
}

/// The authorization server, on its own port.
async fn authorization_server(want_nonce: bool) -> Shared {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let st = Arc::new(Mutex::new(As {
        issuer: format!("http://{}", listener.local_addr().unwrap()),
        want_nonce,
        ..As::default()
    }));
    tokio::spawn(accept_all(listener, st.clone()));
    st
}

async fn accept_all(listener: tokio::net::TcpListener, st: Shared) {
    while let Ok((stream, _)) = listener.accept().await {
        tokio::spawn(serve_one(TokioIo::new(stream), st.clone()));
    }
}

async fn serve_one(io: TokioIo<tokio::net::TcpStream>, st: Shared) {
    let svc = hyper::service::service_fn(|req| route_infallible(st.clone(), req));
    let _ = hyper::server::conn::http1::Builder::new()
        .serve_connection(io, svc)
        .await;
}

async fn route_infallible(
    st: Shared,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    Ok(route(st, req).await)
}

/// libmcp's HTTP server protected by the authorization server `st`.
async fn resource_server(st: &Shared) -> (HttpServerHandle, String) {
    // The resource URL must be known before the server binds: take a free port first.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let tokens = st.clone();
    let audience = url.clone();
    let verify = move |token: String| {
        let s = tokens.lock();
        let ok = s.valid.contains(&token);
        let mut info = AuthInfo::new()
            .client_id("svc")
            .audience([audience.clone()]);
        if let Some(jkt) = s.bind.as_ref().and_then(|b| b.get(&token)) {
            info = info.claim("cnf", json!({ "jkt": jkt }));
        }
        async move {
            if ok {
                Ok(info)
            } else {
                Err(TokenRejection::Invalid("unknown or expired token".into()))
            }
        }
    };
    let issuer = st.lock().issuer.clone();
    let dpop = st.lock().bind.is_some();
    let auth = ResourceServerConfig::builder(url.clone(), verify)
        .authorization_server(issuer)
        .dpop(dpop)
        .build()
        .unwrap();
    let server = Server::builder("grants-test", "1.0.0")
        .tool(
            json!({"name": "ping", "inputSchema": {"type": "object"}}),
            |_, _| Reply::text("pong"),
        )
        .build()
        .unwrap();
    let config = HttpServerConfig {
        auth: Some(Arc::new(auth)),
        ..HttpServerConfig::with_bind(format!("127.0.0.1:{port}").parse().unwrap())
    };
    (serve_http(server, config).await.unwrap(), url)
}

async fn connect(url: &str, config: OAuthConfig) -> Result<Client, Error> {
    let options = HttpClientOptions {
        auth: Some(OAuthClient::new(config)),
        ..Default::default()
    };
    Client::builder("grants-test", "1.0.0")
        .version_preference(VersionPreference::Modern(ProtocolVersion::LATEST))
        .connect_http_with(url, options)
        .await
}

fn form_encode(s: &str) -> String {
    s.replace(':', "%3A").replace('/', "%2F")
}

#[tokio::test]
async fn client_credentials_on_the_wire_and_a_new_token_on_expiry() {
    let st = authorization_server(false).await;
    let (_server, url) = resource_server(&st).await;
    let client = connect(&url, OAuthConfig::client_credentials("svc", "s3cret"))
        .await
        .unwrap();
    client.call_tool("ping", json!({})).await.unwrap();
    let first = st.lock().seen.clone();
    assert_eq!(first.len(), 1, "one token request: {first:?}");
    assert_eq!(
        first[0].body,
        format!(
            "grant_type=client_credentials&resource={}",
            form_encode(&url)
        )
    );
    assert_eq!(
        first[0].authorization.as_deref(),
        Some(format!("Basic {}", STANDARD.encode("svc:s3cret")).as_str())
    );
    assert!(first[0].dpop.is_none());

    // The token expires: the resource server stops accepting it, and the next request gets a new
    // one by the same grant, without the application seeing a failure.
    st.lock().valid.clear();
    client.call_tool("ping", json!({})).await.unwrap();
    let s = st.lock();
    assert_eq!(s.seen.len(), 2);
    assert_eq!(s.seen[1].body, s.seen[0].body);
    assert_eq!(s.valid.iter().collect::<Vec<_>>(), vec!["cc-2"]);
}

fn claims(jwt: &str) -> (Value, Value) {
    let part = |i: usize| -> Value {
        let raw = URL_SAFE_NO_PAD
            .decode(jwt.split('.').nth(i).unwrap())
            .unwrap();
        serde_json::from_slice(&raw).unwrap()
    };
    (part(0), part(1))
}

#[tokio::test]
async fn dpop_proofs_at_the_token_endpoint_with_the_nonce_retry() {
    let st = authorization_server(true).await;
    let (_server, url) = resource_server(&st).await;
    let config = OAuthConfig::client_credentials("svc", "s3cret").with_dpop(true);
    let client = connect(&url, config).await.unwrap();
    // The server issued a Bearer token (it may decline to bind): the client uses it as one.
    client.call_tool("ping", json!({})).await.unwrap();
    let s = st.lock();
    assert_eq!(s.seen.len(), 2, "refused for a nonce, then retried once");
    let token_url = format!("{}/token", s.issuer);
    let (h1, c1) = claims(s.seen[0].dpop.as_deref().expect("a proof"));
    let (h2, c2) = claims(s.seen[1].dpop.as_deref().expect("a proof"));
    assert_eq!(h1["typ"], "dpop+jwt");
    assert_eq!(h1["alg"], "ES256");
    assert_eq!(h1["jwk"]["kty"], "EC");
    assert!(h1["jwk"].get("d").is_none());
    assert_eq!(h2["jwk"], h1["jwk"], "one key for the client");
    for c in [&c1, &c2] {
        assert_eq!(c["htm"], "POST");
        assert_eq!(c["htu"], token_url);
        assert!(
            c.get("ath").is_none(),
            "no access token at the token endpoint"
        );
    }
    assert!(c1.get("nonce").is_none());
    assert_eq!(c2["nonce"], "n-1");
    assert_ne!(c1["jti"], c2["jti"]);
    assert_eq!(s.seen[1].body, s.seen[0].body);
}

#[tokio::test]
async fn a_dpop_bound_token_is_accepted_with_a_proof_per_request() {
    let st = authorization_server(false).await;
    st.lock().bind = Some(Default::default());
    let (_server, url) = resource_server(&st).await;
    let config = OAuthConfig::client_credentials("svc", "s3cret").with_dpop(true);
    let client = connect(&url, config).await.unwrap();
    // Every request carries a fresh proof the resource server checks (method, URL, ath, jti) and
    // whose key is the one the token is bound to.
    for _ in 0..3 {
        client.call_tool("ping", json!({})).await.unwrap();
    }
    let s = st.lock();
    assert_eq!(s.issued, 1, "one token, accepted on every request");
    assert_eq!(s.bind.as_ref().unwrap().len(), 1);
}

#[tokio::test]
async fn a_dpop_bound_token_without_its_proof_is_refused() {
    // The checks the HTTP server runs on each request: a bound token presented as a bearer token,
    // or with no proof, or with a proof that does not parse, is refused before anything is served.
    let bound = |_t: String| async {
        Ok::<_, TokenRejection>(AuthInfo::new().claim("cnf", json!({"jkt": "k"})))
    };
    let rs = ResourceServerConfig::builder("http://127.0.0.1:9/mcp", bound)
        .authorization_server("http://as.example")
        .check_audience(false)
        .dpop(true)
        .build()
        .unwrap();
    let refused = async |authorization: &str, proof: Option<&str>| {
        let e = rs
            .authenticate_request(Some(authorization), proof, "POST")
            .await
            .unwrap_err();
        format!("{e:?}")
    };
    assert!(refused("Bearer stolen", None).await.contains("DPoP-bound"));
    assert!(refused("DPoP stolen", None).await.contains("proof header"));
    assert!(
        refused("DPoP stolen", Some("x.y.z"))
            .await
            .contains("DPoP proof")
    );
    // Without DPoP on, the DPoP scheme is not accepted at all.
    let plain = ResourceServerConfig::builder("http://127.0.0.1:9/mcp", bound)
        .authorization_server("http://as.example")
        .build()
        .unwrap();
    let e = plain
        .authenticate_request(Some("DPoP t"), Some("x.y.z"), "POST")
        .await
        .unwrap_err();
    assert!(format!("{e:?}").contains("Bearer scheme"));
}
