//! Resumable SSE streams of a legacy session: event ids, and the [`EventStream`] that numbers,
//! records and delivers one stream's messages.
//!
//! An event id is `<tag>.<stream>-<seq>`: `tag` is random per session (so an id from another
//! session is recognised as foreign), `stream` numbers the session's streams (0 is the standalone
//! GET stream, POST streams count from 1; an instance that rehydrated the session from a shared
//! session store numbers its own streams from a random multiple of 2^32, its standalone stream
//! first, so ids issued by different instances never collide in a shared event store), `seq` counts a stream's messages from 1; `seq` 0 is
//! the priming event that opens a stream.

use std::sync::Arc;

use bytes::Bytes;
use parking_lot::Mutex;
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};

use super::store::{EventStore, ReplayError, StoredEvent};
use crate::transport::{OutKind, Outbound, Outgoing};

/// A parsed `Last-Event-ID`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EventId {
    pub(crate) tag: String,
    pub(crate) stream: u64,
    pub(crate) seq: u64,
}

impl EventId {
    pub(crate) fn format(tag: &str, stream: u64, seq: u64) -> String {
        format!("{tag}.{stream}-{seq}")
    }

    /// Parses `<tag>.<stream>-<seq>`; `None` when it has another shape.
    pub(crate) fn parse(s: &str) -> Option<EventId> {
        let (tag, rest) = s.split_once('.')?;
        let (stream, seq) = rest.split_once('-')?;
        let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
        if tag.is_empty() || !digits(stream) || !digits(seq) {
            return None;
        }
        Some(EventId {
            tag: tag.to_owned(),
            stream: stream.parse().ok()?,
            seq: seq.parse().ok()?,
        })
    }
}

/// One message on its way into an SSE body, with its event id once it has one.
#[derive(Clone, Debug)]
pub(crate) struct SseItem {
    pub(crate) id: Option<String>,
    pub(crate) kind: OutKind,
    pub(crate) data: Bytes,
}

impl SseItem {
    pub(crate) fn is_response(&self) -> bool {
        matches!(self.kind, OutKind::Result | OutKind::Error(_))
    }
}

/// How a POST exchange should answer, decided once its first message is in.
pub(crate) enum Decision {
    /// The response came first: a plain JSON body, nothing recorded.
    Json,
    /// An SSE stream starting with these (now numbered and recorded) messages, then live.
    Stream(Vec<SseItem>),
    /// The handler closed the stream before anything was delivered: priming only; everything
    /// is recorded for the client to resume.
    Closed,
    /// The engine dropped the request without a word (a bug): 500.
    Failed,
}

/// A body attached to a stream by [`EventStream::attach`].
pub(crate) struct Attached {
    /// The recorded events it missed, in order.
    pub(crate) replay: Vec<SseItem>,
    /// What comes next.
    pub(crate) rx: UnboundedReceiver<SseItem>,
    /// For [`EventStream::detach`].
    pub(crate) generation: u64,
    /// The id of the stream's last event so far (`seq` 0 when none): a fresh body's priming id.
    pub(crate) last_id: String,
}

/// A resumable stream. As the engine's [`Outbound`] for one POST request (or for the session's
/// connection-level messages, stream 0), it records every message in the [`EventStore`] and
/// forwards it to the SSE body attached to the stream, if any; a reconnect with `Last-Event-ID`
/// attaches a new body after replaying what followed that id. Appending and forwarding happen under
/// one lock, and so do replaying and attaching, so a resumed client sees every event exactly once
/// and in order.
///
/// A POST stream starts undecided: until the first message shows whether the answer is plain JSON,
/// messages are forwarded unnumbered and kept aside, and only numbered and recorded once the
/// exchange picks SSE (or the handler closes the stream).
pub(crate) struct EventStream {
    store: Arc<dyn EventStore>,
    session: Arc<str>,
    tag: Arc<str>,
    number: u64,
    /// Whether the handler may close it early ([`Outbound::close_stream`]): only where the client
    /// got a priming event to resume from.
    closable: bool,
    state: Mutex<StreamState>,
}

struct StreamState {
    /// The attached body's channel, with the generation it was attached as.
    live: Option<(u64, UnboundedSender<SseItem>)>,
    generation: u64,
    /// Messages sent before the exchange decided (undecided POST streams only).
    pending: Option<Vec<SseItem>>,
    last_seq: u64,
    closed_by_server: bool,
    answered: bool,
    /// The engine dropped its last [`PostWriter`]: nothing more will be sent (a cancelled legacy
    /// request ends without a response).
    finished: bool,
    /// The session ended ([`EventStream::end_session`]): nothing more is recorded.
    session_ended: bool,
}

impl EventStream {
    /// A POST stream, undecided, with its first body attached.
    pub(crate) fn post(
        store: Arc<dyn EventStore>,
        session: Arc<str>,
        tag: Arc<str>,
        number: u64,
        closable: bool,
    ) -> (Arc<EventStream>, UnboundedReceiver<SseItem>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut s = EventStream::new(store, session, tag, number, Some((0, tx)), Some(Vec::new()));
        if let Some(s) = Arc::get_mut(&mut s) {
            s.closable = closable;
        }
        (s, rx)
    }

    /// The standalone stream (number 0), recording from the start, with no body attached.
    pub(crate) fn standalone(
        store: Arc<dyn EventStore>,
        session: Arc<str>,
        tag: Arc<str>,
        number: u64,
    ) -> Arc<EventStream> {
        EventStream::new(store, session, tag, number, None, None)
    }

    fn new(
        store: Arc<dyn EventStore>,
        session: Arc<str>,
        tag: Arc<str>,
        number: u64,
        live: Option<(u64, UnboundedSender<SseItem>)>,
        pending: Option<Vec<SseItem>>,
    ) -> Arc<EventStream> {
        Arc::new(EventStream {
            store,
            session,
            tag,
            number,
            closable: false,
            state: Mutex::new(StreamState {
                live,
                generation: 0,
                pending,
                last_seq: 0,
                closed_by_server: false,
                answered: false,
                finished: false,
                session_ended: false,
            }),
        })
    }

    /// The id of this stream's `seq`-th event.
    pub(crate) fn event_id(&self, seq: u64) -> String {
        EventId::format(&self.tag, self.number, seq)
    }

    /// Whether nothing more can be sent on the stream: answered, or its request ended unanswered.
    pub(crate) fn done(&self) -> bool {
        let st = self.state.lock();
        st.answered || st.finished
    }

    /// The request ended: ends the attached body (after what it was sent) and attaches no more.
    fn finish(&self) {
        let mut st = self.state.lock();
        st.finished = true;
        st.live = None;
    }

    /// The session ended ([`SessionStreams::end`]): as [`finish`](Self::finish), and nothing more
    /// is recorded, since the session's log is removed next (under this lock, so no append of this
    /// stream can come after the removal).
    ///
    /// [`SessionStreams::end`]: super::streams::SessionStreams::end
    pub(crate) fn end_session(&self) {
        let mut st = self.state.lock();
        st.session_ended = true;
        st.finished = true;
        st.live = None;
    }

    /// Numbers and records one message (the lock is held by the caller).
    fn record(&self, st: &mut StreamState, kind: OutKind, data: Bytes) -> SseItem {
        st.last_seq += 1;
        // Once the session ended its log may be gone: an append would create it again, and
        // nothing would ever remove it.
        if !st.session_ended {
            self.store.append(
                &self.session,
                StoredEvent {
                    stream: self.number,
                    seq: st.last_seq,
                    kind,
                    data: data.clone(),
                },
            );
        }
        SseItem {
            id: Some(self.event_id(st.last_seq)),
            kind,
            data,
        }
    }

    /// Records the messages kept aside while undecided; returns them numbered.
    fn commit_pending(&self, st: &mut StreamState) -> Vec<SseItem> {
        let pending = st.pending.take().unwrap_or_default();
        pending
            .into_iter()
            .map(|i| self.record(st, i.kind, i.data))
            .collect()
    }

    /// Decides how the exchange answers once it has received its first message (`first`, the
    /// head of what is kept aside) or found the body's channel closed (`None`). For a stream,
    /// `rx` is drained of the unnumbered copies, which the returned numbered messages replace.
    pub(crate) fn decide(
        &self,
        first: Option<&SseItem>,
        rx: &mut UnboundedReceiver<SseItem>,
    ) -> Decision {
        let mut st = self.state.lock();
        if st.closed_by_server {
            return Decision::Closed;
        }
        let Some(first) = first else {
            return Decision::Failed;
        };
        if first.is_response() {
            st.pending = None;
            st.live = None;
            return Decision::Json;
        }
        let items = self.commit_pending(&mut st);
        // Everything in the channel so far was sent while undecided, under this lock.
        while rx.try_recv().is_ok() {}
        Decision::Stream(items)
    }

    /// Replays what followed `after` and attaches a new body for what comes next, atomically
    /// (ending the body attached before, if any). For a fresh standalone GET, `after` is `None`:
    /// nothing is replayed, and the returned id is the one to prime the new body with.
    pub(crate) fn attach(&self, after: Option<u64>) -> Result<Attached, ReplayError> {
        let mut st = self.state.lock();
        let replay = match after {
            None => Vec::new(),
            Some(a) if a > st.last_seq => return Err(ReplayError::Unknown),
            Some(a) if a == st.last_seq => Vec::new(),
            Some(a) => self
                .store
                .replay(&self.session, self.number, a)?
                .into_iter()
                .map(|e| SseItem {
                    id: Some(self.event_id(e.seq)),
                    kind: e.kind,
                    data: e.data,
                })
                .collect(),
        };
        let (tx, rx) = mpsc::unbounded_channel();
        st.generation += 1;
        // After the response nothing more will come: the body ends after the replay.
        st.live = (!st.answered && !st.finished).then(|| (st.generation, tx));
        Ok(Attached {
            replay,
            rx,
            generation: st.generation,
            last_id: self.event_id(st.last_seq),
        })
    }

    /// Forgets the body attached as `generation` if it is still the attached one.
    pub(crate) fn detach(&self, generation: u64) {
        let mut st = self.state.lock();
        if st.live.as_ref().is_some_and(|(g, _)| *g == generation) {
            st.live = None;
        }
    }
}

/// The engine's handle on a POST stream. Once the engine drops its last copy (the request ended,
/// answered or not) the stream is [done](EventStream::done): the session stops keeping it for
/// resumption (what it sent stays replayable from the event store) and its body ends, instead of
/// both living as long as the session when a cancelled request never answers.
pub(crate) struct PostWriter(pub(crate) Arc<EventStream>);

impl Outbound for PostWriter {
    fn send(&self, msg: Outgoing) -> bool {
        self.0.send(msg)
    }

    fn close_stream(&self) -> bool {
        self.0.close_stream()
    }
}

impl Drop for PostWriter {
    fn drop(&mut self) {
        self.0.finish();
    }
}

impl Outbound for EventStream {
    fn send(&self, msg: Outgoing) -> bool {
        let mut st = self.state.lock();
        if st.session_ended {
            // Nothing more is delivered or recorded (see `end_session`).
            return false;
        }
        let data = Bytes::from(msg.bytes);
        let recording = st.pending.is_none();
        let item = if recording {
            self.record(&mut st, msg.kind, data)
        } else {
            let item = SseItem {
                id: None,
                kind: msg.kind,
                data,
            };
            if let Some(p) = st.pending.as_mut() {
                p.push(item.clone());
            }
            item
        };
        if item.is_response() {
            st.answered = true;
        }
        let delivered = st
            .live
            .as_ref()
            .is_some_and(|(_, tx)| tx.send(item).is_ok());
        if !delivered {
            st.live = None;
            if st.pending.is_some() {
                // The exchange was abandoned before it decided: record from here on, so nothing
                // piles up unbounded and the log stays complete.
                let _ = self.commit_pending(&mut st);
                return true;
            }
        }
        // Recorded messages wait for the client to resume.
        delivered || recording
    }

    fn close_stream(&self) -> bool {
        if !self.closable {
            return false;
        }
        let mut st = self.state.lock();
        if st.pending.is_some() {
            // Undecided: what was kept aside becomes the start of the recorded stream.
            let _ = self.commit_pending(&mut st);
        }
        st.closed_by_server = true;
        st.live = None;
        true
    }
}
