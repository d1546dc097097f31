//! The event log behind resumable SSE streams of legacy sessions (2025-11-25 resumability,
//! `Last-Event-ID`), as a pluggable [`EventStore`] with a bounded in-memory default.

use std::collections::{HashMap, VecDeque};
use std::fmt;

use bytes::Bytes;
use parking_lot::Mutex;

use super::session_store::StoreFuture;
use crate::transport::OutKind;

/// One recorded SSE event: the `seq`-th message on stream `stream` of a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredEvent {
    /// The stream's number within its session (0 is the standalone GET stream).
    pub stream: u64,
    /// Position within the stream, from 1 (0 names the start of the stream: the priming event).
    pub seq: u64,
    /// What the message is (a response ends a POST stream).
    pub kind: OutKind,
    /// The serialised JSON-RPC message.
    pub data: Bytes,
}

/// Why a replay was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// Events following the given one were dropped to keep within the store's bounds.
    Evicted,
    /// The store never recorded the given event on that stream.
    Unknown,
    /// A shared store could not be reached (the resumption gets 503; the client may retry).
    Unavailable,
}

/// Where the events of resumable streams are kept, keyed by session id (`Mcp-Session-Id`).
///
/// Every SSE event the server sends on a legacy session's streams (the POST response streams and
/// the standalone GET stream) is appended here before it is written to the socket, so a client
/// whose stream dropped, or that the handler told to poll (SEP-1699), can reconnect with
/// `Last-Event-ID` and receive exactly the events it missed. Implementations must be cheap and
/// must not block: they run on every event sent, under that stream's lock.
///
/// # What a shared store does and does not give a multi-instance deployment
///
/// Shared together with a [`SessionStore`](super::SessionStore), it lets a client resume on any
/// instance: the instance that receives the `Last-Event-ID` replays, from this store, the events
/// already recorded after it (by whichever instance sent them), and the stream ends there.
/// Messages the original instance sends later on a stream still open there reach only that
/// instance's clients, so a resumption meant to follow a stream live must reach the instance
/// that runs it (**sticky routing by `Mcp-Session-Id`**). Instances number their streams apart
/// (see the event-id format), so they never record the same stream. A shared implementation must
/// hold, per session and stream, the ordered events with their sequence numbers and which of
/// them were dropped, and must answer [`replay_shared`](Self::replay_shared) consistently with
/// [`append`](Self::append) calls made by any instance ([`replay`](Self::replay) is only asked
/// about streams this instance runs). The Redis store (`libmcp::store::redis`, feature `redis`)
/// is one.
pub trait EventStore: Send + Sync + fmt::Debug {
    /// Records `event` of session `session`. Calls for one stream come in `seq` order.
    fn append(&self, session: &str, event: StoredEvent);

    /// The events of `stream` in `session` that follow `after` (a `seq`; 0 for the whole
    /// stream), in order. [`ReplayError::Evicted`] when any of them was dropped,
    /// [`ReplayError::Unknown`] when `after` is past the last recorded event of the stream.
    fn replay(
        &self,
        session: &str,
        stream: u64,
        after: u64,
    ) -> Result<Vec<StoredEvent>, ReplayError>;

    /// [`replay`](Self::replay) of a stream this instance may not have sent: the resumption of a
    /// stream that another instance ran, or that ended here. A shared store answers it from the
    /// shared log (and may wait for it); the default answers from [`replay`](Self::replay).
    fn replay_shared<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        after: u64,
    ) -> StoreFuture<'a, Result<Vec<StoredEvent>, ReplayError>> {
        let r = self.replay(session, stream, after);
        Box::pin(async move { r })
    }

    /// Forgets everything of `session` (it ended or expired).
    fn remove_session(&self, session: &str);
}

/// The default store: in memory, bounded per session by a number of events and a number of data
/// bytes; when a new event exceeds either, the session's oldest events are dropped first. A
/// session's log is removed when the session ends or expires.
pub struct MemoryEventStore {
    max_events: usize,
    max_bytes: usize,
    sessions: Mutex<HashMap<String, SessionLog>>,
}

impl MemoryEventStore {
    /// A store keeping at most `max_events` events and `max_bytes` bytes of messages per session
    /// (each at least 1; an event larger than `max_bytes` is kept alone).
    pub fn new(max_events: usize, max_bytes: usize) -> MemoryEventStore {
        MemoryEventStore {
            max_events: max_events.max(1),
            max_bytes: max_bytes.max(1),
            sessions: Mutex::new(HashMap::new()),
        }
    }

    /// Number of events currently kept for `session`.
    pub fn len(&self, session: &str) -> usize {
        self.sessions
            .lock()
            .get(session)
            .map_or(0, |l| l.events.len())
    }

    /// Bytes of message data currently kept for `session`.
    pub fn bytes(&self, session: &str) -> usize {
        self.sessions.lock().get(session).map_or(0, |l| l.bytes)
    }

    /// Number of sessions with a log.
    pub fn sessions(&self) -> usize {
        self.sessions.lock().len()
    }
}

impl fmt::Debug for MemoryEventStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryEventStore")
            .field("max_events", &self.max_events)
            .field("max_bytes", &self.max_bytes)
            .field("sessions", &self.sessions())
            .finish()
    }
}

impl Default for MemoryEventStore {
    /// 1024 events and 8 MiB per session.
    fn default() -> Self {
        MemoryEventStore::new(1024, 8 * 1024 * 1024)
    }
}

/// What is known of one stream of a session.
#[derive(Default)]
struct StreamMark {
    /// The last `seq` recorded.
    last: u64,
    /// The highest `seq` dropped (0: none).
    evicted_through: u64,
    /// How many of its events are still kept.
    kept: usize,
}

#[derive(Default)]
struct SessionLog {
    events: VecDeque<StoredEvent>,
    bytes: usize,
    streams: HashMap<u64, StreamMark>,
    /// Streams up to this number whose marks were forgotten had all their events dropped.
    forgotten_through: Option<u64>,
}

impl SessionLog {
    fn evict_oldest(&mut self) {
        let Some(old) = self.events.pop_front() else {
            return;
        };
        self.bytes -= old.data.len();
        if let Some(m) = self.streams.get_mut(&old.stream) {
            m.evicted_through = old.seq;
            m.kept -= 1;
        }
    }

    /// Keeps the marks of streams without events from growing without bound.
    fn forget_empty_streams(&mut self, max: usize) {
        while self.streams.len() > max {
            let oldest_empty = self
                .streams
                .iter()
                .filter(|(_, m)| m.kept == 0)
                .map(|(n, _)| *n)
                .min();
            let Some(n) = oldest_empty else { return };
            self.streams.remove(&n);
            self.forgotten_through = Some(self.forgotten_through.map_or(n, |f| f.max(n)));
        }
    }
}

impl EventStore for MemoryEventStore {
    fn append(&self, session: &str, event: StoredEvent) {
        let mut sessions = self.sessions.lock();
        let log = sessions.entry(session.to_owned()).or_default();
        let mark = log.streams.entry(event.stream).or_default();
        mark.last = event.seq;
        mark.kept += 1;
        log.bytes += event.data.len();
        log.events.push_back(event);
        while log.events.len() > self.max_events
            || (log.bytes > self.max_bytes && log.events.len() > 1)
        {
            log.evict_oldest();
        }
        log.forget_empty_streams(self.max_events);
    }

    fn replay(
        &self,
        session: &str,
        stream: u64,
        after: u64,
    ) -> Result<Vec<StoredEvent>, ReplayError> {
        let sessions = self.sessions.lock();
        let log = sessions.get(session);
        let Some(mark) = log.and_then(|l| l.streams.get(&stream)) else {
            // Nothing recorded (yet) on this stream, or it was forgotten after eviction.
            let forgotten = log
                .and_then(|l| l.forgotten_through)
                .is_some_and(|f| stream <= f);
            return match (forgotten, after) {
                (true, _) => Err(ReplayError::Evicted),
                (false, 0) => Ok(Vec::new()),
                (false, _) => Err(ReplayError::Unknown),
            };
        };
        if after > mark.last {
            return Err(ReplayError::Unknown);
        }
        if after < mark.evicted_through {
            return Err(ReplayError::Evicted);
        }
        let log = log.expect("a mark implies a log");
        Ok(log
            .events
            .iter()
            .filter(|e| e.stream == stream && e.seq > after)
            .cloned()
            .collect())
    }

    fn remove_session(&self, session: &str) {
        self.sessions.lock().remove(session);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(stream: u64, seq: u64, data: &str) -> StoredEvent {
        StoredEvent {
            stream,
            seq,
            kind: OutKind::Notification,
            data: Bytes::copy_from_slice(data.as_bytes()),
        }
    }

    fn seqs(r: Result<Vec<StoredEvent>, ReplayError>) -> Result<Vec<(u64, u64)>, ReplayError> {
        r.map(|v| v.iter().map(|e| (e.stream, e.seq)).collect())
    }

    #[test]
    fn replays_one_stream_after_an_event() {
        let s = MemoryEventStore::new(10, 1000);
        s.append("a", ev(1, 1, "x"));
        s.append("a", ev(2, 1, "y"));
        s.append("a", ev(1, 2, "z"));
        s.append("b", ev(1, 1, "other session"));
        assert_eq!(seqs(s.replay("a", 1, 0)), Ok(vec![(1, 1), (1, 2)]));
        assert_eq!(seqs(s.replay("a", 1, 1)), Ok(vec![(1, 2)]));
        assert_eq!(seqs(s.replay("a", 1, 2)), Ok(vec![]));
        assert_eq!(seqs(s.replay("a", 1, 3)), Err(ReplayError::Unknown));
        assert_eq!(seqs(s.replay("a", 7, 0)), Ok(vec![]));
        assert_eq!(seqs(s.replay("a", 7, 1)), Err(ReplayError::Unknown));
        assert_eq!(seqs(s.replay("nobody", 1, 0)), Ok(vec![]));
    }

    #[test]
    fn oldest_events_go_first_when_a_bound_is_hit() {
        let s = MemoryEventStore::new(3, 1000);
        for seq in 1..=5 {
            s.append("a", ev(1, seq, "x"));
        }
        assert_eq!(s.len("a"), 3);
        assert_eq!(seqs(s.replay("a", 1, 2)), Ok(vec![(1, 3), (1, 4), (1, 5)]));
        assert_eq!(seqs(s.replay("a", 1, 1)), Err(ReplayError::Evicted));
        assert_eq!(seqs(s.replay("a", 1, 0)), Err(ReplayError::Evicted));

        let s = MemoryEventStore::new(100, 10);
        s.append("a", ev(1, 1, "12345"));
        s.append("a", ev(1, 2, "12345"));
        s.append("a", ev(1, 3, "1"));
        assert_eq!((s.len("a"), s.bytes("a")), (2, 6));
        assert_eq!(seqs(s.replay("a", 1, 0)), Err(ReplayError::Evicted));
        // One event larger than the byte bound is still kept, alone.
        s.append("a", ev(1, 4, "0123456789abc"));
        assert_eq!(seqs(s.replay("a", 1, 3)), Ok(vec![(1, 4)]));
        assert_eq!(s.len("a"), 1);
    }

    #[test]
    fn streams_whose_events_were_all_dropped_stay_known_as_evicted() {
        let s = MemoryEventStore::new(2, 1000);
        for stream in 1..=6 {
            s.append("a", ev(stream, 1, "x"));
        }
        assert_eq!(seqs(s.replay("a", 1, 0)), Err(ReplayError::Evicted));
        assert_eq!(seqs(s.replay("a", 3, 1)), Err(ReplayError::Evicted));
        assert_eq!(seqs(s.replay("a", 6, 0)), Ok(vec![(6, 1)]));
    }

    #[test]
    fn removing_a_session_drops_its_log() {
        let s = MemoryEventStore::default();
        s.append("a", ev(1, 1, "x"));
        assert_eq!(s.sessions(), 1);
        s.remove_session("a");
        assert_eq!((s.sessions(), s.len("a")), (0, 0));
    }
}
