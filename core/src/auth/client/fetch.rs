//! Every HTTP request the OAuth client makes goes through [`send`]: metadata GETs, registration,
//! token requests, and the authorization request of [`AutoRedirect`]. Redirects are never followed.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::HeaderMap;
use hyper::{Method, Request};
use serde_json::Value;

use super::{AuthError, AuthorizationHandler, HandlerFuture};
pub(crate) use crate::net::Http;
use crate::net::{self, TrustRoots};

/// How long one OAuth HTTP exchange may take.
const TIMEOUT: Duration = Duration::from_secs(30);
/// The largest metadata or token document accepted.
const MAX_BODY: usize = 1 << 20;

/// A client with the default connector: plain TCP, and with the `tls` feature rustls against the
/// Mozilla roots for `https://` authorization servers.
pub(crate) fn default_client() -> Http {
    let connector = net::connector::build(TrustRoots::default())
        .expect("the default connector has no user input that could be invalid");
    net::client(connector)
}

/// A complete HTTP answer.
pub(crate) struct Reply {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Reply {
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The body as a JSON object, or a description of what it is instead.
    pub fn json(&self, what: &str) -> Result<Value, String> {
        match serde_json::from_slice::<Value>(&self.body) {
            Ok(v) if v.is_object() => Ok(v),
            Ok(_) => Err(format!("{what} is not a JSON object")),
            Err(e) => Err(format!("{what} is not JSON: {e}")),
        }
    }

    /// `error` and `error_description` of an OAuth error body, or the status and a body excerpt.
    pub fn oauth_error(&self) -> String {
        let parsed: Option<Value> = serde_json::from_slice(&self.body).ok();
        match parsed.as_ref().and_then(|v| v["error"].as_str()) {
            Some(err) => match parsed
                .as_ref()
                .and_then(|v| v["error_description"].as_str())
            {
                Some(d) => format!("HTTP {}: {err}: {d}", self.status),
                None => format!("HTTP {}: {err}", self.status),
            },
            None => {
                let text = String::from_utf8_lossy(&self.body);
                let text: String = text.trim().chars().take(200).collect();
                if text.is_empty() {
                    format!("HTTP {}", self.status)
                } else {
                    format!("HTTP {}: {text}", self.status)
                }
            }
        }
    }
}

/// Sends one request. `form` bodies go as `application/x-www-form-urlencoded`, `json` as JSON.
pub(crate) async fn send(
    http: &Http,
    method: Method,
    url: &str,
    headers: &[(&str, String)],
    body: Option<(&'static str, Vec<u8>)>,
) -> Result<Reply, AuthError> {
    let tls = cfg!(feature = "tls") && url.starts_with("https://");
    if !url.starts_with("http://") && !tls {
        return Err(AuthError::Http(format!(
            "{url}: only http:// URLs (and https:// with the `tls` cargo feature) are supported"
        )));
    }
    let mut b = Request::builder().method(method).uri(url);
    for (k, v) in headers {
        b = b.header(*k, v.as_str());
    }
    let payload = match body {
        Some((ctype, bytes)) => {
            b = b.header("content-type", ctype);
            Bytes::from(bytes)
        }
        None => Bytes::new(),
    };
    let req = b
        .body(Full::new(payload))
        .map_err(|e| AuthError::Http(format!("{url}: cannot build the request: {e}")))?;
    let exchange = async {
        let resp = http
            .request(req)
            .await
            .map_err(|e| AuthError::Http(format!("{url}: {e}")))?;
        let status = resp.status().as_u16();
        let (parts, body) = resp.into_parts();
        let body = http_body_util::Limited::new(body, MAX_BODY)
            .collect()
            .await
            .map_err(|e| AuthError::Http(format!("{url}: reading the response failed: {e}")))?
            .to_bytes();
        Ok(Reply {
            status,
            headers: parts.headers,
            body,
        })
    };
    tokio::time::timeout(TIMEOUT, exchange)
        .await
        .map_err(|_| AuthError::Http(format!("{url}: no answer within {TIMEOUT:?}")))?
}

/// An [`AuthorizationHandler`] for authorization servers that answer the authorization request with
/// an immediate redirect (pre-consented clients, test servers such as the conformance suite's):
/// it GETs the authorization URL without following the redirect and returns its `Location`.
#[derive(Clone, Debug, Default)]
pub struct AutoRedirect;

impl AuthorizationHandler for AutoRedirect {
    fn authorize(&self, authorization_url: String) -> HandlerFuture {
        Box::pin(async move {
            let http = default_client();
            let reply = send(&http, Method::GET, &authorization_url, &[], None).await?;
            if !(300..400).contains(&reply.status) {
                return Err(AuthError::Authorization(format!(
                    "the authorization endpoint answered {} instead of redirecting",
                    reply.oauth_error()
                )));
            }
            reply
                .headers
                .get(hyper::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
                .ok_or_else(|| {
                    AuthError::Authorization(
                        "the authorization endpoint redirected without a Location header".into(),
                    )
                })
        })
    }
}
