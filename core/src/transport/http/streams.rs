//! The resumable streams of one legacy Streamable HTTP session: numbering POST streams, finding
//! a stream again from a `Last-Event-ID`, and replaying it.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use parking_lot::Mutex;
use tokio::sync::mpsc::{self, UnboundedReceiver};

use super::events::{Attached, EventId, EventStream, SseItem};
use super::store::{EventStore, ReplayError};

/// Why a `Last-Event-ID` cannot be resumed; each is a distinct, explained refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ResumeError {
    /// Not an event id this server issues.
    Malformed,
    /// An id issued on another session.
    Foreign,
    /// A stream or event this session never sent.
    Unknown,
    /// Events after it were dropped from the bounded store.
    Evicted,
    /// The shared event store cannot be reached.
    Unavailable,
}

impl ResumeError {
    pub(crate) fn message(self) -> &'static str {
        match self {
            ResumeError::Malformed => "Last-Event-ID is not an event id issued by this server",
            ResumeError::Foreign => "Last-Event-ID belongs to another session",
            ResumeError::Unknown => "Last-Event-ID names no event sent on this session",
            ResumeError::Evicted => {
                "the events after Last-Event-ID are no longer stored: the stream cannot be resumed"
            }
            ResumeError::Unavailable => {
                "the shared event store is unavailable: retry the resumption later"
            }
        }
    }
}

impl From<ReplayError> for ResumeError {
    fn from(e: ReplayError) -> Self {
        match e {
            ReplayError::Evicted => ResumeError::Evicted,
            ReplayError::Unknown => ResumeError::Unknown,
            ReplayError::Unavailable => ResumeError::Unavailable,
        }
    }
}

/// A resumed stream: the body to send, and the stream to detach it from when it closes (none for
/// a finished POST stream, which is replayed from the store alone).
pub(crate) struct Resumed {
    pub(crate) attached: Attached,
    pub(crate) stream: Option<Arc<EventStream>>,
    /// Whether it is the standalone stream (which does not end on a response).
    pub(crate) standalone: bool,
}

/// A session's streams.
pub(crate) struct SessionStreams {
    /// The session id, which keys the session's log in the store.
    id: Arc<str>,
    /// Random per session; the first part of every event id.
    tag: Arc<str>,
    store: Arc<dyn EventStore>,
    /// The number of this instance's standalone stream (0 where the session was created, a random
    /// multiple of 2^32 where it was rehydrated); its POST streams count on from there.
    base: u64,
    /// The standalone stream: connection-level messages, delivered on GET.
    pub(crate) standalone: Arc<EventStream>,
    next: AtomicU64,
    /// POST streams still waiting for their response.
    open: Mutex<HashMap<u64, Arc<EventStream>>>,
    /// The session ended ([`end`](Self::end)); read and written only under the `open` lock, so
    /// that a POST stream opened as the session ends is either ended by `end` or born ended.
    ended: AtomicBool,
}

impl SessionStreams {
    pub(crate) fn new(id: &str, store: Arc<dyn EventStore>) -> SessionStreams {
        let mut raw = [0u8; 4];
        getrandom::fill(&mut raw).expect("the OS random source failed");
        let tag: String = raw.iter().map(|b| format!("{b:02x}")).collect();
        SessionStreams::with_base(id, store, &tag, 0)
    }

    /// The streams of a session rehydrated from its stored record: the same `tag`, and stream
    /// numbers from a random multiple of 2^32 so they differ from those of other instances.
    pub(crate) fn restore(id: &str, store: Arc<dyn EventStore>, tag: &str) -> SessionStreams {
        let mut raw = [0u8; 4];
        getrandom::fill(&mut raw).expect("the OS random source failed");
        // Below 2^20 so that request ids numbered from the base stay exact in JSON (2^52).
        let high = u64::from((u32::from_le_bytes(raw) >> 12).max(1));
        SessionStreams::with_base(id, store, tag, high << 32)
    }

    fn with_base(id: &str, store: Arc<dyn EventStore>, tag: &str, base: u64) -> SessionStreams {
        let id: Arc<str> = Arc::from(id);
        let tag: Arc<str> = Arc::from(tag);
        SessionStreams {
            standalone: EventStream::standalone(store.clone(), id.clone(), tag.clone(), base),
            id,
            tag,
            store,
            base,
            next: AtomicU64::new(base + 1),
            open: Mutex::new(HashMap::new()),
            ended: AtomicBool::new(false),
        }
    }

    /// The session id.
    pub(crate) fn session_id(&self) -> &str {
        &self.id
    }

    /// The first id of the server-to-client requests sent from here: 1 where the session was
    /// created, the stream base (a random multiple of 2^32, below 2^52) where it was rehydrated.
    pub(crate) fn first_request_id(&self) -> i64 {
        i64::try_from(self.base).unwrap_or(1).max(1)
    }

    /// The session's part of its event ids.
    pub(crate) fn tag(&self) -> &str {
        &self.tag
    }

    /// A new POST stream with its first body; `closable` when its client is primed to resume.
    pub(crate) fn open_post(
        &self,
        closable: bool,
    ) -> (Arc<EventStream>, UnboundedReceiver<SseItem>) {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let (s, rx) = EventStream::post(
            self.store.clone(),
            self.id.clone(),
            self.tag.clone(),
            n,
            closable,
        );
        let mut open = self.open.lock();
        if self.ended.load(Ordering::Relaxed) {
            // A POST racing the DELETE of its own session: its stream must not record, or it
            // would create the session's log again after `end` removed it.
            s.end_session();
            return (s, rx);
        }
        open.retain(|_, s| !s.done());
        open.insert(n, s.clone());
        (s, rx)
    }

    /// Whether the session ended ([`end`](Self::end)).
    pub(crate) fn ended(&self) -> bool {
        let _open = self.open.lock();
        self.ended.load(Ordering::Relaxed)
    }

    /// Forgets a POST stream that needs no resuming (answered with plain JSON).
    pub(crate) fn forget(&self, stream: &EventStream) {
        self.open.lock().retain(|_, s| !std::ptr::eq(&**s, stream));
    }

    /// Finds the stream `last_event_id` belongs to, replays what followed it and attaches a new
    /// body for the rest.
    pub(crate) async fn resume(&self, last_event_id: &str) -> Result<Resumed, ResumeError> {
        let id = EventId::parse(last_event_id).ok_or(ResumeError::Malformed)?;
        if id.tag != *self.tag {
            return Err(ResumeError::Foreign);
        }
        let ours = id.stream >> 32 == self.base >> 32;
        if ours && id.stream >= self.next.load(Ordering::Relaxed) {
            return Err(ResumeError::Unknown);
        }
        if id.stream == self.base {
            let attached = self.standalone.attach(Some(id.seq))?;
            return Ok(Resumed {
                attached,
                stream: Some(self.standalone.clone()),
                standalone: true,
            });
        }
        let open = self.open.lock().get(&id.stream).cloned();
        if let Some(s) = open {
            let attached = s.attach(Some(id.seq))?;
            return Ok(Resumed {
                attached,
                stream: Some(s),
                standalone: false,
            });
        }
        // Answered, or a stream of another instance (shared stores): everything there is to
        // send here is in the store.
        let replay = self
            .store
            .replay_shared(&self.id, id.stream, id.seq)
            .await?
            .into_iter()
            .map(|e| SseItem {
                id: Some(EventId::format(&self.tag, e.stream, e.seq)),
                kind: e.kind,
                data: e.data,
            })
            .collect();
        let (_, rx) = mpsc::unbounded_channel();
        Ok(Resumed {
            attached: Attached {
                replay,
                rx,
                generation: 0,
                last_id: last_event_id.to_owned(),
            },
            stream: None,
            standalone: false,
        })
    }

    /// Ends the standalone stream and the open POST streams, forgets the latter, and with
    /// `drop_log` drops the session's log. The streams stop recording first: a message sent to
    /// the session as it ends (a change `ServerInner::announce` sends from its snapshot of the
    /// sessions, taken just before, or a request still running) would otherwise create the log
    /// again after its removal, and nothing would ever remove it.
    pub(crate) fn end(&self, drop_log: bool) {
        let open: Vec<Arc<EventStream>> = {
            let mut open = self.open.lock();
            self.ended.store(true, Ordering::Relaxed);
            open.drain().map(|(_, s)| s).collect()
        };
        self.standalone.end_session();
        for s in open {
            s.end_session();
        }
        if drop_log {
            self.store.remove_session(&self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::http::events::PostWriter;
    use crate::transport::http::store::MemoryEventStore;
    use crate::transport::{OutKind, Outbound, Outgoing};

    fn note() -> Outgoing {
        Outgoing {
            kind: OutKind::Notification,
            bytes: br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#.to_vec(),
        }
    }

    /// A message reaching a session after it ended (a change announced from a snapshot of the
    /// sessions taken before the DELETE) must not create its event log again: nothing would
    /// remove it, and such logs piled up under the `http legacy churn` lane of
    /// benches/src/soak/load.rs.
    #[test]
    fn an_ended_session_records_nothing_more() {
        let store = Arc::new(MemoryEventStore::default());
        let streams = SessionStreams::new("s1", store.clone());
        assert!(streams.standalone.send(note()));
        let (post, _rx) = streams.open_post(true);
        let writer = PostWriter(post);
        assert!(writer.send(note()));
        assert_eq!(store.sessions(), 1);

        streams.end(true);
        assert_eq!(store.sessions(), 0);
        let late_standalone = streams.standalone.send(note());
        let late_post = writer.send(note());
        // What the handler sent before its stream was decided is not recorded late either.
        writer.close_stream();
        assert_eq!(
            store.sessions(),
            0,
            "a late message recreated the session's log"
        );
        assert!(
            !late_standalone && !late_post,
            "ended streams take nothing more"
        );
    }

    /// A POST of a session that ends as it arrives (the DELETE wins the race to the session's
    /// streams) gets a stream that records nothing, so the removed log stays removed.
    #[test]
    fn a_post_stream_opened_after_the_end_records_nothing() {
        let store = Arc::new(MemoryEventStore::default());
        let streams = SessionStreams::new("s1", store.clone());
        assert!(streams.standalone.send(note()));
        streams.end(true);
        assert_eq!(store.sessions(), 0);

        let (post, _rx) = streams.open_post(true);
        let writer = PostWriter(post.clone());
        assert!(!writer.send(note()), "an ended stream takes nothing");
        assert!(post.done());
        assert_eq!(
            store.sessions(),
            0,
            "a late POST recreated the session's log"
        );
        assert!(streams.open.lock().is_empty());
    }
}
