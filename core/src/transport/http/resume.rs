//! Resumable exchanges on legacy Streamable HTTP sessions: POST streams whose events carry ids,
//! open with a priming event and `retry:`, may be closed early by the handler (SEP-1699 polling),
//! and GET with `Last-Event-ID` to resume any of the session's streams.

use std::sync::Arc;

use bytes::Bytes;
use hyper::{HeaderMap, StatusCode};
use tokio::sync::mpsc::{self, UnboundedReceiver};

use super::body::{OnClose, SseBody, priming};
use super::events::{Attached, Decision, EventStream, PostWriter, SseItem};
use super::input::Input;
use super::respond::{Resp, json, plain, rpc_error, sse};
use super::sessions::HttpSession;
use super::shared::Refused;
use super::state::State;
use super::streams::{ResumeError, Resumed};
use crate::error::RpcError;
use crate::server::Caller;
use crate::transport::Sink;
use crate::version::ProtocolVersion;

/// The request header naming the last event a reconnecting client received.
const LAST_EVENT_ID: &str = "last-event-id";

/// Whether the session's clients expect priming events (an id with empty data, 2025-11-25 on);
/// earlier clients may try to parse the empty data as a message.
fn primes(s: &HttpSession) -> bool {
    s.session
        .legacy_version()
        .is_some_and(|v| v >= ProtocolVersion::V2025_11_25)
}

impl State {
    /// A message or batch on a legacy session: 202 without requests, JSON when the response comes
    /// first, otherwise a resumable SSE stream.
    pub(crate) async fn resumable_exchange(
        &self,
        s: Arc<HttpSession>,
        input: Input,
        caller: Caller,
    ) -> Resp {
        let Some(streams) = s.streams() else {
            return plain(StatusCode::INTERNAL_SERVER_ERROR);
        };
        if !input.has_requests() {
            input.feed(&s.session, Sink::channel().0, caller);
            return plain(StatusCode::ACCEPTED);
        }
        let primes = primes(&s);
        let id = input.request_id();
        let (stream, mut rx) = streams.open_post(primes);
        input.feed(
            &s.session,
            Sink::new(Arc::new(PostWriter(stream.clone()))),
            caller,
        );
        let first = rx.recv().await;
        let items = match stream.decide(first.as_ref(), &mut rx) {
            Decision::Failed => {
                streams.forget(&stream);
                if streams.ended() {
                    // The session was deleted while the request was on its way.
                    return Refused::session_not_found().answer(id.as_ref());
                }
                return plain(StatusCode::INTERNAL_SERVER_ERROR);
            }
            Decision::Json => {
                streams.forget(&stream);
                let first = first.expect("a JSON decision has its response");
                return json(StatusCode::OK, first.data.to_vec());
            }
            Decision::Closed => {
                // Priming only: the client resumes from the start of the stream.
                drop(rx);
                let (_, rx) = mpsc::unbounded_channel();
                return self.post_body(&s, &stream, primes, Vec::new(), rx);
            }
            Decision::Stream(items) => items,
        };
        self.post_body(&s, &stream, primes, items, rx)
    }

    /// The SSE response of a POST stream: priming first (for clients that expect it), then
    /// `items`, then live messages until the response.
    fn post_body(
        &self,
        s: &Arc<HttpSession>,
        stream: &Arc<EventStream>,
        primes: bool,
        items: Vec<SseItem>,
        rx: UnboundedReceiver<SseItem>,
    ) -> Resp {
        s.stream_opened();
        let (s, stream2) = (s.clone(), stream.clone());
        let on_close: OnClose = Box::new(move |_| {
            // The POST's body is the stream's first attachment (generation 0).
            stream2.detach(0);
            s.stream_closed();
        });
        let body = SseBody::events(items, rx, true, self.config.sse_keepalive, Some(on_close));
        sse(if primes {
            body.with_prelude(priming(Some(&stream.event_id(0)), self.config.sse_retry))
        } else {
            body
        })
    }

    /// GET on a legacy session: without `Last-Event-ID` a fresh standalone stream (primed with
    /// the id of its latest event, so resuming skips what was sent before); with one, the
    /// resumption of the stream it names.
    pub(crate) async fn get_stream(&self, s: Arc<HttpSession>, headers: &HeaderMap) -> Resp {
        let Some(streams) = s.streams() else {
            return plain(StatusCode::INTERNAL_SERVER_ERROR);
        };
        let primes = primes(&s);
        let Some(last) = headers.get(LAST_EVENT_ID) else {
            let attached = match streams.standalone.attach(None) {
                Ok(a) => a,
                Err(_) => return plain(StatusCode::INTERNAL_SERVER_ERROR),
            };
            let prelude = primes.then(|| priming(Some(&attached.last_id), self.config.sse_retry));
            let stream = streams.standalone.clone();
            return self.resumed_body(s, Some(stream), attached, true, prelude);
        };
        let resumed = match last.to_str() {
            Ok(v) => streams.resume(v).await,
            Err(_) => Err(ResumeError::Malformed),
        };
        let Resumed {
            attached,
            stream,
            standalone,
        } = match resumed {
            Ok(r) => r,
            Err(e) => {
                let status = match e {
                    ResumeError::Evicted => StatusCode::GONE,
                    ResumeError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
                    _ => StatusCode::BAD_REQUEST,
                };
                return rpc_error(status, None, &RpcError::invalid_request(e.message()));
            }
        };
        let prelude = primes.then(|| priming(None, self.config.sse_retry));
        self.resumed_body(s, stream, attached, standalone, prelude)
    }

    fn resumed_body(
        &self,
        s: Arc<HttpSession>,
        stream: Option<Arc<EventStream>>,
        attached: Attached,
        standalone: bool,
        prelude: Option<Bytes>,
    ) -> Resp {
        s.stream_opened();
        let generation = attached.generation;
        let on_close: OnClose = Box::new(move |_| {
            if let Some(stream) = stream {
                stream.detach(generation);
            }
            s.stream_closed();
        });
        let body = SseBody::events(
            attached.replay,
            attached.rx,
            !standalone,
            self.config.sse_keepalive,
            Some(on_close),
        );
        sse(match prelude {
            Some(p) => body.with_prelude(p),
            None => body,
        })
    }
}
