//! Authorization on the HTTP transport (`HttpServerConfig::auth`): the RFC 9728 metadata document
//! at the well-known paths, a verified bearer token on every request to the MCP endpoint (and the
//! HTTP+SSE paths), RFC 6750 challenges on failure, per-tool scopes, and legacy sessions that stay
//! with the principal that opened them.

use std::sync::Arc;

use bytes::Bytes;
use hyper::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_EXPOSE_HEADERS, ALLOW, AUTHORIZATION, CONTENT_TYPE, HeaderValue,
    WWW_AUTHENTICATE,
};
use hyper::http::Extensions;
use hyper::{Method, Request, Response, StatusCode};

use super::body::HttpBody;
use super::headers::SESSION_ID;
use super::respond::{Resp, plain, rpc_error};
use super::state::State;
use crate::auth::prm::WELL_KNOWN_PREFIX;
use crate::auth::{AuthInfo, Challenge, ChallengeKind, ResourceServerConfig};
use crate::error::RpcError;
use crate::jsonrpc::{Frame, Message};

/// The verified token of a request, kept in its extensions for the dispatch code.
#[derive(Clone)]
struct Authenticated(Arc<AuthInfo>);

/// The verified token of a request that passed [`State::authenticate`], if any.
pub(crate) fn of(extensions: &Extensions) -> Option<Arc<AuthInfo>> {
    extensions.get::<Authenticated>().map(|a| a.0.clone())
}

impl State {
    /// Serves the protected resource metadata when `req` asks for it: at the path RFC 9728 derives
    /// from the resource, at the root well-known path, and suffixed with the endpoint path. CORS is
    /// open, as the document is public and browser clients read it cross-origin.
    pub(crate) fn well_known<B>(&self, req: &Request<B>) -> Option<Resp> {
        let cfg = self.config.auth.as_deref()?;
        let path = req.uri().path();
        let suffixed = path
            .strip_prefix(WELL_KNOWN_PREFIX)
            .is_some_and(|rest| rest.is_empty() || rest == self.config.path);
        if !suffixed && path != cfg.metadata_path() {
            return None;
        }
        let mut r = match *req.method() {
            Method::GET | Method::HEAD => metadata_response(cfg),
            Method::OPTIONS => {
                let mut r = plain(StatusCode::NO_CONTENT);
                let h = r.headers_mut();
                h.insert(
                    ACCESS_CONTROL_ALLOW_METHODS,
                    HeaderValue::from_static("GET, HEAD, OPTIONS"),
                );
                h.insert(
                    ACCESS_CONTROL_ALLOW_HEADERS,
                    HeaderValue::from_static("mcp-protocol-version"),
                );
                r
            }
            _ => {
                let mut r = plain(StatusCode::METHOD_NOT_ALLOWED);
                r.headers_mut()
                    .insert(ALLOW, HeaderValue::from_static("GET, HEAD, OPTIONS"));
                r
            }
        };
        r.headers_mut()
            .insert(ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
        Some(r)
    }

    /// Requires a valid bearer token on a request to the MCP endpoint or the HTTP+SSE paths (the
    /// caller has routed it there). On success the [`AuthInfo`] rides in the request's extensions;
    /// a session id naming a session of another principal is answered like an unknown one (404).
    pub(crate) async fn authenticate<B>(&self, req: &mut Request<B>) -> Result<(), Resp> {
        let Some(cfg) = self.config.auth.as_deref() else {
            return Ok(());
        };
        let mut values = req.headers().get_all(AUTHORIZATION).iter();
        let header = match (values.next(), values.next()) {
            (None, _) => None,
            (Some(v), None) => match v.to_str() {
                Ok(v) => Some(v),
                Err(_) => {
                    return Err(bad_request(
                        cfg,
                        "the Authorization header is not visible ASCII",
                    ));
                }
            },
            (Some(_), Some(_)) => {
                return Err(bad_request(cfg, "more than one Authorization header"));
            }
        };
        let proof = {
            let mut proofs = req.headers().get_all("dpop").iter();
            match (proofs.next(), proofs.next()) {
                (Some(v), None) => v.to_str().ok(),
                _ => None,
            }
        };
        let method = req.method().as_str();
        let info = match cfg.authenticate_request(header, proof, method).await {
            Ok(info) => Arc::new(info),
            Err(c) => return Err(challenge_response(cfg, &c)),
        };
        let session = if req.uri().path() == self.config.path {
            let id = req.headers().get(SESSION_ID).and_then(|v| v.to_str().ok());
            id.and_then(|id| self.sessions.get(id))
        } else {
            let id = req
                .uri()
                .query()
                .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("sessionId=")));
            id.and_then(|id| self.sse_sessions.get(id))
        };
        if session.is_some_and(|s| !s.session.admits(&info)) {
            let e = RpcError::invalid_request(
                "unknown Mcp-Session-Id for this principal: initialize a new session",
            );
            return Err(rpc_error(StatusCode::NOT_FOUND, None, &e));
        }
        req.extensions_mut().insert(Authenticated(info));
        Ok(())
    }

    /// Checks what a POST body needs beyond the request-wide scopes: a `tools/call` of a tool with
    /// its own scopes gets 403 `insufficient_scope` naming them, for step-up authorization (in a
    /// batch, the first such refusal answers the whole POST). `Some` is the refusal to send.
    pub(crate) fn authorize_frame(
        &self,
        auth: Option<&Arc<AuthInfo>>,
        frame: &Frame,
    ) -> Option<Resp> {
        match frame {
            Frame::Single(m) => self.authorize_message(auth, m),
            Frame::Batch(items) => items
                .iter()
                .flatten()
                .find_map(|m| self.authorize_message(auth, m)),
        }
    }

    /// The same check for one message.
    pub(crate) fn authorize_message(
        &self,
        auth: Option<&Arc<AuthInfo>>,
        message: &Message,
    ) -> Option<Resp> {
        let (Some(cfg), Some(info)) = (self.config.auth.as_deref(), auth) else {
            return None;
        };
        let Message::Request(r) = message else {
            return None;
        };
        if r.method != "tools/call" {
            return None;
        }
        let name = r
            .params
            .as_ref()
            .and_then(|p| p.get("name"))
            .and_then(|n| n.as_str());
        match name.map(|n| cfg.authorize_tool(info, n)) {
            Some(Err(c)) => Some(challenge_response(cfg, &c)),
            _ => None,
        }
    }
}

fn metadata_response(cfg: &ResourceServerConfig) -> Resp {
    let bytes = serde_json::to_vec(cfg.metadata()).expect("metadata serializes");
    let mut r = Response::new(HttpBody::bytes(Bytes::from(bytes)));
    r.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    r
}

fn bad_request(cfg: &ResourceServerConfig, why: &str) -> Resp {
    let c = Challenge {
        kind: ChallengeKind::InvalidRequest,
        description: why.into(),
        scope: cfg.required_scopes().to_vec(),
    };
    challenge_response(cfg, &c)
}

/// A refusal: its status, the `WWW-Authenticate` challenge and the OAuth-style JSON body.
fn challenge_response(cfg: &ResourceServerConfig, c: &Challenge) -> Resp {
    let body = serde_json::to_vec(&c.body()).expect("a JSON value serializes");
    let mut r = Response::new(HttpBody::bytes(Bytes::from(body)));
    *r.status_mut() = StatusCode::from_u16(c.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    if let Some(v) = c
        .www_authenticate(cfg.metadata_url())
        .and_then(|v| HeaderValue::from_str(&v).ok())
    {
        h.insert(WWW_AUTHENTICATE, v);
        h.insert(
            ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static("WWW-Authenticate"),
        );
    }
    r
}
