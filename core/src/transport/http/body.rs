//! Response bodies: a whole JSON (or empty) body, or a server-sent-events stream fed by the engine.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use hyper::body::{Body, Frame, SizeHint};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::{Interval, MissedTickBehavior};

use super::events::SseItem;
use crate::transport::Outgoing;

/// The body of every response this server sends.
pub(crate) enum HttpBody {
    /// A complete body (possibly empty).
    Full(Option<Bytes>),
    /// An event stream.
    Sse(Box<SseBody>),
}

impl HttpBody {
    pub(crate) fn empty() -> HttpBody {
        HttpBody::Full(None)
    }

    pub(crate) fn bytes(b: impl Into<Bytes>) -> HttpBody {
        HttpBody::Full(Some(b.into()))
    }
}

impl Body for HttpBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            HttpBody::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            HttpBody::Sse(s) => s.poll_next(cx).map(|o| o.map(|b| Ok(Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, HttpBody::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            HttpBody::Full(Some(b)) => SizeHint::with_exact(b.len() as u64),
            HttpBody::Full(None) => SizeHint::with_exact(0),
            HttpBody::Sse(_) => SizeHint::default(),
        }
    }
}

/// Runs once when a stream ends, whether it finished or the client went away. Told whether the
/// stream delivered its final response.
pub(crate) type OnClose = Box<dyn FnOnce(bool) + Send>;

/// Where an SSE body's messages come from.
pub(crate) enum Feed {
    /// Engine messages without event ids (stateless requests, HTTP+SSE).
    Plain(UnboundedReceiver<Outgoing>),
    /// Messages of a resumable stream, each with its event id.
    Events(UnboundedReceiver<SseItem>),
}

/// An SSE stream of engine messages: each message is one `message` event (with an `id:` on
/// resumable streams). A request stream ends after the response; any stream ends when its sender
/// is dropped. Idle streams carry keep-alive comments, which also reveal a departed client.
pub(crate) struct SseBody {
    prelude: Option<Bytes>,
    queued: VecDeque<SseItem>,
    feed: Feed,
    ends_on_response: bool,
    done: bool,
    keepalive: Interval,
    on_close: Option<OnClose>,
}

impl SseBody {
    pub(crate) fn new(
        first: Option<Outgoing>,
        rx: UnboundedReceiver<Outgoing>,
        ends_on_response: bool,
        keepalive: Duration,
        on_close: Option<OnClose>,
    ) -> SseBody {
        let queued = first.map(|m| SseItem {
            id: None,
            kind: m.kind,
            data: Bytes::from(m.bytes),
        });
        SseBody::with_feed(
            queued.into_iter().collect(),
            Feed::Plain(rx),
            ends_on_response,
            keepalive,
            on_close,
        )
    }

    /// A resumable stream's body: `queued` first (already numbered), then `rx`.
    pub(crate) fn events(
        queued: Vec<SseItem>,
        rx: UnboundedReceiver<SseItem>,
        ends_on_response: bool,
        keepalive: Duration,
        on_close: Option<OnClose>,
    ) -> SseBody {
        SseBody::with_feed(
            queued.into(),
            Feed::Events(rx),
            ends_on_response,
            keepalive,
            on_close,
        )
    }

    fn with_feed(
        queued: VecDeque<SseItem>,
        feed: Feed,
        ends_on_response: bool,
        keepalive: Duration,
        on_close: Option<OnClose>,
    ) -> SseBody {
        let mut keepalive =
            tokio::time::interval_at(tokio::time::Instant::now() + keepalive, keepalive);
        keepalive.set_missed_tick_behavior(MissedTickBehavior::Delay);
        SseBody {
            prelude: None,
            queued,
            feed,
            ends_on_response,
            done: false,
            keepalive,
            on_close,
        }
    }

    /// Raw SSE text sent before any message (the `endpoint` event of HTTP+SSE, the priming event
    /// and `retry:` of resumable streams).
    pub(crate) fn with_prelude(mut self, prelude: Bytes) -> SseBody {
        self.prelude = Some(prelude);
        self
    }

    fn poll_feed(&mut self, cx: &mut Context<'_>) -> Poll<Option<SseItem>> {
        match &mut self.feed {
            Feed::Plain(rx) => rx.poll_recv(cx).map(|o| {
                o.map(|m| SseItem {
                    id: None,
                    kind: m.kind,
                    data: Bytes::from(m.bytes),
                })
            }),
            Feed::Events(rx) => rx.poll_recv(cx),
        }
    }

    fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<Option<Bytes>> {
        if self.done {
            return Poll::Ready(None);
        }
        if let Some(p) = self.prelude.take() {
            return Poll::Ready(Some(p));
        }
        let msg = match self.queued.pop_front() {
            Some(m) => Some(m),
            None => match self.poll_feed(cx) {
                Poll::Ready(m) => m,
                Poll::Pending => {
                    if self.keepalive.poll_tick(cx).is_ready() {
                        return Poll::Ready(Some(Bytes::from_static(b": keep-alive\n\n")));
                    }
                    return Poll::Pending;
                }
            },
        };
        let Some(msg) = msg else {
            self.finish(false);
            return Poll::Ready(None);
        };
        if self.ends_on_response && msg.is_response() {
            self.finish(true);
        }
        self.keepalive.reset();
        Poll::Ready(Some(event(msg.id.as_deref(), &msg.data)))
    }

    fn finish(&mut self, answered: bool) {
        self.done = true;
        if let Some(f) = self.on_close.take() {
            f(answered);
        }
    }
}

impl Drop for SseBody {
    fn drop(&mut self) {
        if let Some(f) = self.on_close.take() {
            f(false);
        }
    }
}

/// One SSE `message` event carrying a JSON-RPC message (serialised JSON has no raw newlines),
/// with its event id when it has one.
pub(crate) fn event(id: Option<&str>, json: &[u8]) -> Bytes {
    let mut b = Vec::with_capacity(json.len() + 32 + id.map_or(0, str::len));
    if let Some(id) = id {
        b.extend_from_slice(b"id: ");
        b.extend_from_slice(id.as_bytes());
        b.push(b'\n');
    }
    b.extend_from_slice(b"event: message\ndata: ");
    b.extend_from_slice(json);
    b.extend_from_slice(b"\n\n");
    Bytes::from(b)
}

/// The opening of a resumable stream: a priming event (`id` and empty data) when `prime_id` is
/// given, so the client can resume from the very start, and the `retry:` reconnection delay.
pub(crate) fn priming(prime_id: Option<&str>, retry: Duration) -> Bytes {
    let ms = retry.as_millis();
    Bytes::from(match prime_id {
        Some(id) => format!("id: {id}\nretry: {ms}\ndata:\n\n"),
        None => format!("retry: {ms}\n\n"),
    })
}
