//! The 2024-11-05 HTTP+SSE transport (deprecated, off by default): a GET opens the session's one
//! event stream, whose first event names the URL to POST messages to; everything the server sends,
//! responses included, travels on that stream. The session ends when the stream closes.

use std::sync::Arc;

use bytes::Bytes;
use hyper::StatusCode;
use hyper::body::Body;
use hyper::http::request::Parts;

use super::body::{OnClose, SseBody};
use super::dispatch::{BoxError, read_body};
use super::respond::{Resp, plain, rpc_error, sse};
use super::sessions::{HttpSession, Outlet, StandaloneStream, new_session_id};
use super::state::State;
use crate::error::RpcError;
use crate::jsonrpc;
use crate::server::Caller;
use crate::transport::Sink;

impl State {
    /// GET on the SSE path: a new session and its stream.
    pub(crate) fn sse_open(self: &Arc<Self>, caller: Caller) -> Resp {
        self.sse_sessions.expire(self.config.session_idle_timeout);
        let standalone = Arc::new(StandaloneStream::default());
        let (rx, tx) = standalone.open();
        let session = self.server.session(Sink::new(standalone.clone()));
        if let Some(a) = caller.auth {
            session.bind_principal(a);
        }
        let entry = Arc::new(HttpSession::new(
            session,
            Outlet::HttpSse(standalone.clone()),
        ));
        let id = new_session_id();
        if !self
            .sse_sessions
            .insert(&id, entry.clone(), self.config.max_sessions)
        {
            entry.session.close();
            return plain(StatusCode::SERVICE_UNAVAILABLE);
        }
        entry.stream_opened();
        // A mounted endpoint does not know the prefix its host mounted it under, so it names the
        // message path relative to the stream's URL (`/mcp/sse` + `messages` = `/mcp/messages`);
        // clients resolve the endpoint event against the stream's URL.
        let messages = if self.mounted {
            self.config.messages_path.trim_start_matches('/')
        } else {
            &self.config.messages_path
        };
        let endpoint = format!("event: endpoint\ndata: {messages}?sessionId={id}\n\n");
        let state = self.clone();
        let on_close: OnClose = Box::new(move |_| {
            standalone.close(&tx);
            entry.stream_closed();
            state.sse_sessions.remove(&id);
        });
        let body = SseBody::new(None, rx, false, self.config.sse_keepalive, Some(on_close))
            .with_prelude(Bytes::from(endpoint));
        sse(body)
    }

    /// POST on the message path: the message is handled, and whatever it produces goes to the
    /// session's stream; the POST itself gets 202.
    pub(crate) async fn sse_message<B>(
        self: &Arc<Self>,
        parts: &Parts,
        body: B,
        caller: Caller,
    ) -> Resp
    where
        B: Body,
        B::Error: Into<BoxError>,
    {
        let id = parts.uri.query().and_then(|q| {
            q.split('&')
                .find_map(|kv| kv.strip_prefix("sessionId="))
                .map(String::from)
        });
        let found = id.and_then(|id| self.sse_sessions.get(&id));
        let Some((s, Outlet::HttpSse(out))) = found.as_ref().map(|s| (s, &s.outlet)) else {
            let e = RpcError::invalid_request("unknown or missing sessionId");
            return rpc_error(StatusCode::NOT_FOUND, None, &e);
        };
        let bytes = match read_body(body, self.config.max_body_bytes).await {
            Ok(b) => b,
            Err(_) => {
                let e = RpcError::invalid_request("request body too large or unreadable");
                return rpc_error(StatusCode::PAYLOAD_TOO_LARGE, None, &e);
            }
        };
        let message = match jsonrpc::parse_message(&bytes) {
            Ok(m) => m,
            Err(e) => return rpc_error(StatusCode::BAD_REQUEST, e.id.as_ref(), &e.error),
        };
        if let Some(r) = self.authorize_message(caller.auth.as_ref(), &message) {
            return r;
        }
        s.session
            .handle_message_from(message, Sink::new(out.clone()), caller);
        plain(StatusCode::ACCEPTED)
    }
}
