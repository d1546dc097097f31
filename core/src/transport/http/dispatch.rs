//! One HTTP request: routing between the stateless (2026-07-28) and the session (legacy) wire, and
//! turning what the engine produces into a JSON or SSE response.
//!
//! Dispatch (dual era; 2026-07-28 basic/versioning and basic/transports/streamable-http): a body
//! `_meta` protocol version or a non-legacy `MCP-Protocol-Version` header selects the stateless wire, where `Mcp-Session-Id` is ignored and
//! `initialize` does not exist (-32601, as `server-stateless` expects); otherwise an
//! `Mcp-Session-Id` selects its legacy session (unknown: 404), `initialize` opens a new one, and
//! anything else is refused with 400 (or served as 2025-03-26 when configured). With
//! `legacy_stateless` no session is kept: every legacy request is served on its own.

use std::sync::Arc;

use http_body_util::{BodyExt, Limited};
use hyper::body::Body;
use hyper::header::{ALLOW, CONTENT_LENGTH, HeaderValue};
use hyper::{HeaderMap, Method, Request, StatusCode};

use super::auth;
use super::body::{OnClose, SseBody};
use super::headers::{self, PROTOCOL_VERSION, SESSION_ID};
use super::input::Input;
use super::media::{self, MediaRefusal};
use super::narrowed::{json_only, without_requests};
use super::respond::{Resp, json, plain, rpc_error, sse, without_idless_error};
use super::security::{self, Refusal};
use super::sessions::{HttpSession, Outlet, new_session_id};
use super::shared::{Refused, session_not_found};
use super::state::State;
use super::streams::SessionStreams;
use crate::auth::AuthInfo;
use crate::error::{RpcError, code};
use crate::jsonrpc::{self, Frame, Message, RequestId};
use crate::meta;
use crate::server::Caller;
use crate::server::Session;

/// The error type a request body may fail with.
pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;
use crate::transport::{OutKind, Sink};
use crate::version::{Era, ProtocolVersion};

impl State {
    /// Answers one HTTP request, whatever its body type: the listener's and a mounted endpoint's
    /// requests alike come here.
    pub(crate) async fn handle<B>(self: Arc<Self>, mut req: Request<B>) -> Resp
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        if let Some(r) = self.well_known(&req) {
            return r;
        }
        let Some(route) = self.route_of(req.uri().path()) else {
            return plain(StatusCode::NOT_FOUND);
        };
        if let Err(refusal) = security::check(&self.config, req.headers()) {
            let status = match refusal {
                Refusal::Host(_) => StatusCode::MISDIRECTED_REQUEST,
                Refusal::Origin(_) => StatusCode::FORBIDDEN,
            };
            tracing::debug!(target: "libmcp::http", "refused: {}", refusal.message());
            return rpc_error(status, None, &RpcError::invalid_request(refusal.message()));
        }
        if let Err(r) = self.authenticate(&mut req).await {
            return r;
        }
        let (parts, body) = req.into_parts();
        let parts = Arc::new(parts);
        let caller = Caller {
            auth: auth::of(&parts.extensions),
            http: Some(parts.clone()),
        };
        match (route, &parts.method) {
            (Route::SseStream, &Method::GET) => self.sse_open(caller),
            (Route::SseMessages, &Method::POST) => self.sse_message(&parts, body, caller).await,
            (Route::SseStream | Route::SseMessages, _) => plain(StatusCode::METHOD_NOT_ALLOWED),
            (Route::Endpoint, &Method::POST) => self.post(&parts.headers, body, caller).await,
            (Route::Endpoint, &Method::GET) if self.keeps_sessions() => {
                self.get(&parts.headers, caller.auth).await
            }
            (Route::Endpoint, &Method::DELETE) if self.keeps_sessions() => {
                self.delete(&parts.headers, caller.auth).await
            }
            (Route::Endpoint, _) => {
                let mut r = plain(StatusCode::METHOD_NOT_ALLOWED);
                let allow = if self.keeps_sessions() {
                    "GET, POST, DELETE"
                } else {
                    "POST"
                };
                r.headers_mut()
                    .insert(ALLOW, HeaderValue::from_static(allow));
                r
            }
        }
    }

    /// Which of the server's paths `path` is. A listener serves exactly the configured paths; a
    /// mounted endpoint serves whatever path its host routes to it (the host strips or keeps its
    /// mount prefix as it likes), the HTTP+SSE paths recognised by their ending.
    fn route_of(&self, path: &str) -> Option<Route> {
        let c = &self.config;
        let is = |p: &str| {
            if self.mounted {
                path.ends_with(p)
            } else {
                path == p
            }
        };
        if c.http_sse && is(&c.sse_path) {
            Some(Route::SseStream)
        } else if c.http_sse && is(&c.messages_path) {
            Some(Route::SseMessages)
        } else if self.mounted || path == c.path {
            Some(Route::Endpoint)
        } else {
            None
        }
    }

    async fn post<B>(self: Arc<Self>, headers: &HeaderMap, body: B, caller: Caller) -> Resp
    where
        B: Body,
        B::Error: Into<BoxError>,
    {
        let too_large = || {
            rpc_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                None,
                &RpcError::invalid_request(format!(
                    "request body exceeds the limit of {} bytes",
                    self.config.max_body_bytes
                )),
            )
        };
        match media::check_post(headers) {
            Ok(()) => {}
            Err(MediaRefusal::ContentType(why)) => {
                let e = RpcError::invalid_request(why);
                return rpc_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, None, &e);
            }
            Err(MediaRefusal::Accept(why)) => {
                return rpc_error(
                    StatusCode::NOT_ACCEPTABLE,
                    None,
                    &RpcError::invalid_request(why),
                );
            }
        }
        let declared = headers
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        if declared.is_some_and(|n| n > self.config.max_body_bytes) {
            return too_large();
        }
        let bytes = match read_body(body, self.config.max_body_bytes).await {
            Ok(b) => b,
            Err(Unread::TooLarge) => return too_large(),
            Err(Unread::Broken) => return plain(StatusCode::BAD_REQUEST),
        };
        let frame = match jsonrpc::parse_frame(&bytes) {
            Ok(f) => f,
            Err(e) => return rpc_error(StatusCode::BAD_REQUEST, e.id.as_ref(), &e.error),
        };
        if let Some(r) = self.authorize_frame(caller.auth.as_ref(), &frame) {
            return r;
        }
        let header_version = match headers::text(headers, PROTOCOL_VERSION) {
            Ok(v) => v.map(ProtocolVersion::new),
            Err(e) => return rpc_error(StatusCode::BAD_REQUEST, None, &e),
        };
        let message = match frame {
            Frame::Single(m) => m,
            Frame::Batch(items) => {
                return self
                    .batch_post(items, headers, header_version, caller)
                    .await;
            }
        };
        let session_id = headers.get(SESSION_ID);

        let params = match &message {
            Message::Request(r) => r.params.as_ref(),
            Message::Notification(n) => n.params.as_ref(),
            _ => None,
        };
        let legacy_header = header_version
            .as_ref()
            .is_some_and(|v| v.is_known() && v.era() == Era::Legacy);
        let modern =
            meta::modern_version(params).is_some() || (header_version.is_some() && !legacy_header);
        if modern {
            return self.modern_post(message, headers, caller).await;
        }
        if self.config.legacy_stateless {
            return self.sessionless_post(message, header_version, caller).await;
        }
        if self.config.legacy_sessions
            && let Some(id) = session_id
        {
            let Ok(id) = id.to_str() else {
                return match &message {
                    Message::Request(req) => Refused::session_not_found().answer(Some(&req.id)),
                    _ => without_idless_error(session_not_found(), headers),
                };
            };
            return match self.session_for(id, caller.auth.as_ref()).await {
                Ok(s) => self.legacy_post(s, message, caller).await,
                // The refusal answers the request it refused; a refused notification or response
                // has no id to answer, so its error follows the GET/DELETE rule.
                Err(r) => match &message {
                    Message::Request(req) => r.answer(Some(&req.id)),
                    _ => without_idless_error(r.answer(None), headers),
                },
            };
        }
        let is_initialize = matches!(&message, Message::Request(r) if r.method == "initialize");
        if is_initialize && self.config.legacy_sessions {
            return self.initialize(message, caller).await;
        }
        if self.config.assume_2025_03_26 && header_version.is_none() {
            let session = self
                .server
                .session_assuming(Sink::discard(), ProtocolVersion::V2025_03_26);
            return self
                .exchange(&session, Input::One(message), Era::Legacy, caller)
                .await;
        }
        let e = RpcError::invalid_params(if self.config.legacy_sessions {
            "no Mcp-Session-Id: send initialize first, or put the protocol version in params._meta"
        } else {
            "params._meta must carry io.modelcontextprotocol/protocolVersion"
        });
        rpc_error(StatusCode::BAD_REQUEST, message_id(&message), &e)
    }

    /// A stateless request: a fresh session per POST.
    async fn modern_post(&self, message: Message, headers: &HeaderMap, caller: Caller) -> Resp {
        if let Message::Request(r) = &message {
            // The version header must mirror `_meta` first; then the version and `_meta` shape,
            // which are the engine's to report; the other headers are checked against a body
            // that passed those.
            let version = meta::modern_version(r.params.as_ref());
            if let Some(v) = version
                && let Err(e) = headers::check_version(headers, v)
            {
                return rpc_error(StatusCode::BAD_REQUEST, Some(&r.id), &e);
            }
            // The era rule decides whether the body would be served (admit, the one place it
            // lives); only then are the other headers held against it.
            let sound = crate::server::modern_era(&self.server.inner, r.params.as_ref())
                .is_some_and(|served| served.is_ok());
            if sound && let Err(e) = headers::check(&self.server, headers, r) {
                return rpc_error(StatusCode::BAD_REQUEST, Some(&r.id), &e);
            }
        }
        if !matches!(message, Message::Request(_) | Message::Notification(_)) {
            let e = RpcError::invalid_request("only requests and notifications may be POSTed");
            return rpc_error(StatusCode::BAD_REQUEST, None, &e);
        }
        let session = self.server.stateless_session(Sink::discard());
        self.exchange(&session, Input::One(message), Era::Modern, caller)
            .await
    }

    /// Whether legacy sessions are kept (`initialize` opens one; GET and DELETE address one).
    pub(crate) fn keeps_sessions(&self) -> bool {
        self.config.legacy_sessions && !self.config.legacy_stateless
    }

    /// A legacy request without sessions (`legacy_stateless`): `initialize` is answered on a
    /// connection that is then dropped (no `Mcp-Session-Id`), anything else is served on its own
    /// as the revision of its `MCP-Protocol-Version` header (a known legacy one, or none here:
    /// anything else took the stateless 2026-07-28 path), 2025-03-26 without one.
    async fn sessionless_post(
        &self,
        message: Message,
        header_version: Option<ProtocolVersion>,
        caller: Caller,
    ) -> Resp {
        let session = if matches!(&message, Message::Request(r) if r.method == "initialize") {
            self.server.session(Sink::discard())
        } else {
            let version = header_version.unwrap_or(ProtocolVersion::V2025_03_26);
            self.server.session_assuming(Sink::discard(), version)
        };
        self.exchange(&session, Input::One(message), Era::Legacy, caller)
            .await
    }

    /// `initialize` without a session: a new legacy session, kept only if the handshake succeeds.
    async fn initialize(&self, message: Message, caller: Caller) -> Resp {
        self.expire_idle().await;
        if self.sessions.len() >= self.config.max_sessions {
            let e = RpcError::internal("too many sessions");
            return rpc_error(StatusCode::SERVICE_UNAVAILABLE, message_id(&message), &e);
        }
        let id = new_session_id();
        let streams = SessionStreams::new(&id, self.config.event_store.clone());
        let session = self.server.session(Sink::new(streams.standalone.clone()));
        if let Some(a) = &caller.auth {
            session.bind_principal(a.clone());
        }
        let auth = caller.auth.clone();
        let (sink, mut rx) = Sink::channel();
        session.handle_message_from(message, sink, caller);
        let Some(answer) = rx.recv().await else {
            return plain(StatusCode::INTERNAL_SERVER_ERROR);
        };
        if answer.kind != OutKind::Result {
            session.close();
            streams.end(true);
            return json(StatusCode::BAD_REQUEST, answer.bytes);
        }
        let entry = Arc::new(HttpSession::new(session.clone(), Outlet::Streams(streams)));
        if !self
            .sessions
            .insert(&id, entry.clone(), self.config.max_sessions)
        {
            session.close();
            if let Some(s) = entry.streams() {
                s.end(true);
            }
            let e = RpcError::internal("too many sessions");
            return rpc_error(StatusCode::SERVICE_UNAVAILABLE, None, &e);
        }
        if let Err(r) = self.record_new(&id, &entry, auth.as_ref()).await {
            self.sessions.remove(&id);
            return r;
        }
        let mut r = json(StatusCode::OK, answer.bytes);
        r.headers_mut().insert(
            SESSION_ID,
            HeaderValue::from_str(&id).expect("hex is a valid header"),
        );
        r
    }

    /// A message on a legacy session (its `MCP-Protocol-Version`, if any, names a legacy revision:
    /// anything else was routed to the stateless wire).
    async fn legacy_post(&self, s: Arc<HttpSession>, message: Message, caller: Caller) -> Resp {
        if matches!(&message, Message::Request(r) if r.method == "initialize") {
            let e = RpcError::invalid_request("the session is already initialized");
            return rpc_error(StatusCode::BAD_REQUEST, message_id(&message), &e);
        }
        if let Some(relay) = &self.config.relay
            && let Some(bytes) = foreign_answer(&s, &message)
            && let Some(streams) = s.streams()
        {
            // An answer to a request another instance sent: that one waits for it.
            relay.forward(streams.session_id(), bytes);
            self.persist(&s).await;
            return plain(StatusCode::ACCEPTED);
        }
        let r = self
            .session_exchange(s.clone(), Input::One(message), caller)
            .await;
        self.persist(&s).await;
        r
    }

    /// Hands a message or batch to a legacy session: answered on a resumable event stream, or
    /// with `json_response` as one JSON body (no stream to keep or resume).
    pub(crate) async fn session_exchange(
        &self,
        s: Arc<HttpSession>,
        input: Input,
        caller: Caller,
    ) -> Resp {
        if self.config.json_response {
            return self.exchange(&s.session, input, Era::Legacy, caller).await;
        }
        self.resumable_exchange(s, input, caller).await
    }

    /// Takes an answer another instance forwarded: the session's request waiting for it, if it
    /// runs here, gets it; anything else is not for this instance.
    pub(crate) fn deliver_forwarded(&self, id: &str, bytes: &[u8]) {
        let Some(s) = self.sessions.get(id) else {
            return;
        };
        let Ok(message) = crate::jsonrpc::parse_message(bytes) else {
            return;
        };
        if foreign_answer(&s, &message).is_none() && answer_id(&message).is_some() {
            s.session
                .handle_message(message, crate::transport::Sink::channel().0);
        }
    }

    /// Hands a message or batch to the engine and answers without resumability (stateless
    /// requests, and every request with `json_response`): 202 for notifications and responses,
    /// JSON when the response comes first (always, with `json_response`), an SSE stream otherwise.
    pub(crate) async fn exchange(
        &self,
        session: &Session,
        input: Input,
        era: Era,
        caller: Caller,
    ) -> Resp {
        if !input.has_requests() {
            input.feed(session, Sink::channel().0, caller);
            return plain(StatusCode::ACCEPTED);
        }
        // Only a single request can be cancelled; a batch runs to its end.
        let id = input.request_id();
        let (sink, mut rx) = Sink::channel();
        let sink = if self.config.json_response {
            json_only(sink)
        } else if era == Era::Legacy && self.config.legacy_stateless {
            without_requests(sink)
        } else {
            sink
        };
        input.feed(session, sink, caller);
        // Dropped with this future when the client leaves before the first message: that cancels.
        let mut guard = CancelOnDrop(id.clone().map(|id| (session.clone(), id, era)));
        let Some(first) = rx.recv().await else {
            guard.0 = None;
            return plain(StatusCode::INTERNAL_SERVER_ERROR);
        };
        guard.0 = None;
        if let OutKind::Result | OutKind::Error(_) = first.kind {
            let status = match (first.kind, era) {
                (OutKind::Error(code), Era::Modern) => modern_status(code),
                _ => StatusCode::OK,
            };
            return json(status, first.bytes);
        }
        let session = session.clone();
        let on_close: OnClose = Box::new(move |answered| {
            if let Some(id) = id.filter(|_| !answered && era == Era::Modern) {
                // Closing a 2026-07-28 response stream cancels its request.
                session.cancel(&id);
            }
        });
        let body = SseBody::new(
            Some(first),
            rx,
            true,
            self.config.sse_keepalive,
            Some(on_close),
        );
        sse(body)
    }

    /// GET: the legacy session's standalone stream, or with `Last-Event-ID` the resumption of
    /// any of its streams.
    async fn get(&self, headers: &HeaderMap, auth: Option<Arc<AuthInfo>>) -> Resp {
        let s = match headers.get(SESSION_ID).map(|v| v.to_str()) {
            None => return missing_session(),
            Some(Ok(id)) => match self.session_for(id, auth.as_ref()).await {
                Ok(s) => s,
                Err(r) => return without_idless_error(r.answer(None), headers),
            },
            Some(Err(_)) => return without_idless_error(session_not_found(), headers),
        };
        self.get_stream(s, headers).await
    }

    /// DELETE: ends the legacy session, on every instance sharing the session store.
    async fn delete(&self, headers: &HeaderMap, auth: Option<Arc<AuthInfo>>) -> Resp {
        let r = match headers.get(SESSION_ID).map(|v| v.to_str()) {
            None => missing_session(),
            Some(Ok(id)) => self.delete_session(id, auth.as_ref()).await,
            Some(Err(_)) => session_not_found(),
        };
        without_idless_error(r, headers)
    }
}

/// The paths a request may address.
#[derive(Clone, Copy)]
enum Route {
    /// The Streamable HTTP endpoint.
    Endpoint,
    /// The 2024-11-05 HTTP+SSE event stream.
    SseStream,
    /// The 2024-11-05 HTTP+SSE message path.
    SseMessages,
}

/// Why a request body could not be read.
pub(crate) enum Unread {
    /// Longer than the limit.
    TooLarge,
    /// The body failed (the client went away, or sent a malformed chunked encoding).
    Broken,
}

/// Reads a request body of at most `max` bytes.
pub(crate) async fn read_body<B>(body: B, max: usize) -> Result<bytes::Bytes, Unread>
where
    B: Body,
    B::Error: Into<BoxError>,
{
    match Limited::new(body, max).collect().await {
        Ok(b) => Ok(b.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(Unread::TooLarge),
        Err(_) => Err(Unread::Broken),
    }
}

/// Cancels a request whose HTTP exchange was abandoned before any answer (2026-07-28 only).
struct CancelOnDrop(Option<(Session, RequestId, Era)>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some((session, id, Era::Modern)) = self.0.take() {
            session.cancel(&id);
        }
    }
}

/// The HTTP status of a 2026-07-28 JSON-RPC error (2026-07-28 basic/transports/streamable-http, "Error status codes"); other errors travel with 200.
fn modern_status(code: i32) -> StatusCode {
    match code {
        code::METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        code::INVALID_PARAMS
        | code::INVALID_REQUEST
        | code::PARSE_ERROR
        | code::HEADER_MISMATCH
        | code::MISSING_REQUIRED_CLIENT_CAPABILITY
        | code::UNSUPPORTED_PROTOCOL_VERSION => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

fn message_id(m: &Message) -> Option<&RequestId> {
    match m {
        Message::Request(r) => Some(&r.id),
        _ => None,
    }
}

fn missing_session() -> Resp {
    rpc_error(
        StatusCode::BAD_REQUEST,
        None,
        &RpcError::invalid_request("the Mcp-Session-Id header is required"),
    )
}

/// The id a response or error answers.
fn answer_id(m: &Message) -> Option<&crate::jsonrpc::RequestId> {
    match m {
        Message::Response(r) => Some(&r.id),
        Message::Error(e) => e.id.as_ref(),
        _ => None,
    }
}

/// A response or error no request of this instance waits for, re-encoded for the relay.
fn foreign_answer(s: &HttpSession, m: &Message) -> Option<Vec<u8>> {
    let id = answer_id(m)?;
    if s.session.awaits_answer(id) {
        return None;
    }
    Some(match m {
        Message::Response(r) => crate::jsonrpc::encode_result(id, &r.result),
        Message::Error(e) => crate::jsonrpc::encode_error(Some(id), &e.error),
        _ => return None,
    })
}
