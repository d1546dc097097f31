//! [`LocalCopyEventStore`]: an [`EventStore`] over a log shared by several instances
//! ([`SharedEventLog`]) that also keeps a bounded local copy of the events it records.
//!
//! The two halves answer different questions. [`EventStore::replay`] is asked about streams this
//! instance is still sending, synchronously and under the stream's lock (`events.rs`: so that
//! nothing sent meanwhile is lost between the replay and the live body), which a store reached
//! over the network or through another runtime cannot answer in that call: the local copy (a
//! [`MemoryEventStore`]) does. [`EventStore::replay_shared`] is asked about streams that ended
//! here or that another instance sent (`streams.rs`), and only the shared log has those.

use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use super::session_store::StoreFuture;
use super::store::{EventStore, MemoryEventStore, ReplayError, StoredEvent};

/// The shared half of a [`LocalCopyEventStore`]: the event log every instance appends to and
/// replays from, with the meaning [`EventStore`] gives its methods.
pub trait SharedEventLog: Send + Sync + fmt::Debug {
    /// Records `event` of session `session`. Calls for one stream come in `seq` order. Must not
    /// block (it runs under the stream's lock): queue the write, and report a failure through
    /// `tracing`, as nobody waits for it.
    fn append(&self, session: &str, event: &StoredEvent);

    /// The events of `stream` in `session` that follow `after`, as
    /// [`EventStore::replay_shared`] answers them (whichever instance recorded them).
    fn replay<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        after: u64,
    ) -> StoreFuture<'a, Result<Vec<StoredEvent>, ReplayError>>;

    /// Forgets everything of `session` (it ended or expired). Must not block, as `append`.
    fn remove_session(&self, session: &str);
}

/// An [`EventStore`] that records every event both in a [`SharedEventLog`] and in a local
/// [`MemoryEventStore`] (bounded per session), replays the streams this instance still sends
/// from the local copy and every other stream from the shared log.
///
/// A session that ends on another instance is never removed here; with
/// [`forget_idle_after`](Self::forget_idle_after) the local copies of sessions that got no event
/// for that long are dropped (the shared log keeps them for other instances to replay).
pub struct LocalCopyEventStore<S> {
    shared: S,
    local: MemoryEventStore,
    idle: Option<IdleSweep>,
}

/// When each session in the local copy last got an event, and when the copy was last swept.
struct IdleSweep {
    after: Duration,
    touched: Mutex<(HashMap<String, Instant>, Instant)>,
}

impl<S: SharedEventLog> LocalCopyEventStore<S> {
    /// A store over `shared` with `local` as its local copy (empty, with the bounds it was made
    /// with).
    pub fn new(shared: S, local: MemoryEventStore) -> Self {
        LocalCopyEventStore {
            shared,
            local,
            idle: None,
        }
    }

    /// Drops the local copy of a session that got no event for `idle`; the copies are looked
    /// over on an append, at most every eighth of `idle`.
    pub fn forget_idle_after(mut self, idle: Duration) -> Self {
        self.idle = Some(IdleSweep {
            after: idle,
            touched: Mutex::new((HashMap::new(), Instant::now())),
        });
        self
    }

    /// The shared log.
    pub fn shared(&self) -> &S {
        &self.shared
    }

    /// The local copy.
    pub fn local(&self) -> &MemoryEventStore {
        &self.local
    }

    /// Notes that `session` got an event, and now and then drops the local copies left idle.
    fn touch(&self, session: &str) {
        let Some(idle) = &self.idle else { return };
        let now = Instant::now();
        let mut t = idle.touched.lock();
        t.0.insert(session.to_owned(), now);
        if now.duration_since(t.1) < idle.after / 8 {
            return;
        }
        t.1 = now;
        let local = &self.local;
        t.0.retain(|s, at| {
            let keep = now.duration_since(*at) <= idle.after;
            if !keep {
                local.remove_session(s);
            }
            keep
        });
    }
}

impl<S: fmt::Debug> fmt::Debug for LocalCopyEventStore<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalCopyEventStore")
            .field("shared", &self.shared)
            .field("local", &self.local)
            .field("idle", &self.idle.as_ref().map(|i| i.after))
            .finish()
    }
}

impl<S: SharedEventLog> EventStore for LocalCopyEventStore<S> {
    fn append(&self, session: &str, event: StoredEvent) {
        self.shared.append(session, &event);
        self.local.append(session, event);
        self.touch(session);
    }

    fn replay(
        &self,
        session: &str,
        stream: u64,
        after: u64,
    ) -> Result<Vec<StoredEvent>, ReplayError> {
        self.local.replay(session, stream, after)
    }

    fn replay_shared<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        after: u64,
    ) -> StoreFuture<'a, Result<Vec<StoredEvent>, ReplayError>> {
        self.shared.replay(session, stream, after)
    }

    fn remove_session(&self, session: &str) {
        self.shared.remove_session(session);
        self.local.remove_session(session);
        if let Some(idle) = &self.idle {
            idle.touched.lock().0.remove(session);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use bytes::Bytes;

    use super::*;
    use crate::transport::OutKind;

    /// A log shared by the instances of a test: a memory store behind an `Arc`, that can be made
    /// unreachable (its replays then fail and its writes are lost, as a store that is down).
    #[derive(Debug, Clone, Default)]
    struct Shared {
        log: Arc<MemoryEventStore>,
        down: Arc<AtomicBool>,
    }

    impl SharedEventLog for Shared {
        fn append(&self, session: &str, event: &StoredEvent) {
            if !self.down.load(Ordering::Relaxed) {
                self.log.append(session, event.clone());
            }
        }

        fn replay<'a>(
            &'a self,
            session: &'a str,
            stream: u64,
            after: u64,
        ) -> StoreFuture<'a, Result<Vec<StoredEvent>, ReplayError>> {
            let r = if self.down.load(Ordering::Relaxed) {
                Err(ReplayError::Unavailable)
            } else {
                self.log.replay(session, stream, after)
            };
            Box::pin(async move { r })
        }

        fn remove_session(&self, session: &str) {
            self.log.remove_session(session);
        }
    }

    fn ev(stream: u64, seq: u64, kind: OutKind) -> StoredEvent {
        StoredEvent {
            stream,
            seq,
            kind,
            data: Bytes::from(format!("{{\"n\":{seq}}}")),
        }
    }

    fn seqs(r: Result<Vec<StoredEvent>, ReplayError>) -> Result<Vec<u64>, ReplayError> {
        r.map(|v| v.iter().map(|e| e.seq).collect())
    }

    fn now<T>(f: StoreFuture<'_, T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime")
            .block_on(f)
    }

    #[test]
    fn open_streams_replay_from_the_local_copy_alone() {
        let shared = Shared::default();
        let a = LocalCopyEventStore::new(shared.clone(), MemoryEventStore::new(10, 1000));
        a.append("s", ev(1, 1, OutKind::Notification));
        a.append("s", ev(1, 2, OutKind::Notification));
        // Even with the shared log out of reach, and even with its copy gone.
        shared.down.store(true, Ordering::Relaxed);
        shared.log.remove_session("s");
        assert_eq!(seqs(a.replay("s", 1, 1)), Ok(vec![2]));
        assert_eq!(seqs(a.replay("s", 1, 3)), Err(ReplayError::Unknown));
    }

    #[test]
    fn streams_of_other_instances_and_ended_ones_replay_from_the_shared_log() {
        let shared = Shared::default();
        let a = LocalCopyEventStore::new(shared.clone(), MemoryEventStore::new(10, 1000));
        let b = LocalCopyEventStore::new(shared.clone(), MemoryEventStore::new(10, 1000));
        a.append("s", ev(1, 1, OutKind::Notification));
        a.append("s", ev(1, 2, OutKind::Result));
        // B never sent stream 1: its local copy knows nothing of it, the shared log does.
        assert_eq!(seqs(b.replay("s", 1, 1)), Err(ReplayError::Unknown));
        assert_eq!(seqs(now(b.replay_shared("s", 1, 1))), Ok(vec![2]));
        assert_eq!(seqs(now(a.replay_shared("s", 1, 0))), Ok(vec![1, 2]));
        // What B sends is A's to replay the same way.
        b.append("s", ev(2, 1, OutKind::Notification));
        assert_eq!(seqs(now(a.replay_shared("s", 2, 0))), Ok(vec![1]));
    }

    #[test]
    fn the_local_copy_is_bounded_and_the_shared_log_is_not_cut_with_it() {
        let shared = Shared::default();
        let a = LocalCopyEventStore::new(shared.clone(), MemoryEventStore::new(2, 1000));
        for seq in 1..=4 {
            a.append("s", ev(1, seq, OutKind::Notification));
        }
        assert_eq!(a.local().len("s"), 2);
        assert_eq!(seqs(a.replay("s", 1, 2)), Ok(vec![3, 4]));
        assert_eq!(seqs(a.replay("s", 1, 1)), Err(ReplayError::Evicted));
        assert_eq!(seqs(now(a.replay_shared("s", 1, 1))), Ok(vec![2, 3, 4]));
        assert_eq!(shared.log.len("s"), 4);
    }

    #[test]
    fn a_failing_shared_log_fails_shared_replays_only() {
        let shared = Shared::default();
        let a = LocalCopyEventStore::new(shared.clone(), MemoryEventStore::new(10, 1000));
        shared.down.store(true, Ordering::Relaxed);
        a.append("s", ev(1, 1, OutKind::Result));
        assert_eq!(
            seqs(now(a.replay_shared("s", 1, 0))),
            Err(ReplayError::Unavailable)
        );
        assert_eq!(seqs(a.replay("s", 1, 0)), Ok(vec![1]));
        // Back up, it answers for what reached it: nothing of the event appended while down.
        shared.down.store(false, Ordering::Relaxed);
        assert_eq!(seqs(now(a.replay_shared("s", 1, 0))), Ok(vec![]));
    }

    #[test]
    fn removing_a_session_drops_both_copies() {
        let shared = Shared::default();
        let a = LocalCopyEventStore::new(shared.clone(), MemoryEventStore::new(10, 1000));
        a.append("s", ev(1, 1, OutKind::Notification));
        a.append("t", ev(1, 1, OutKind::Notification));
        a.remove_session("s");
        assert_eq!((a.local().len("s"), shared.log.len("s")), (0, 0));
        assert_eq!((a.local().len("t"), shared.log.len("t")), (1, 1));
    }

    #[test]
    fn local_copies_of_idle_sessions_are_dropped_on_a_later_append() {
        let shared = Shared::default();
        let idle = Duration::from_millis(40);
        let a = LocalCopyEventStore::new(shared.clone(), MemoryEventStore::new(10, 1000))
            .forget_idle_after(idle);
        a.append("ended elsewhere", ev(1, 1, OutKind::Notification));
        a.append("busy", ev(1, 1, OutKind::Notification));
        std::thread::sleep(idle + idle / 2);
        a.append("busy", ev(1, 2, OutKind::Notification));
        assert_eq!(a.local().len("ended elsewhere"), 0);
        assert_eq!(a.local().len("busy"), 2);
        // The shared log keeps it for the instance where it lives.
        assert_eq!(shared.log.len("ended elsewhere"), 1);
        // Without the sweep nothing is dropped.
        let b = LocalCopyEventStore::new(shared.clone(), MemoryEventStore::new(10, 1000));
        b.append("quiet", ev(1, 1, OutKind::Notification));
        std::thread::sleep(idle + idle / 2);
        b.append("busy", ev(1, 3, OutKind::Notification));
        assert_eq!(b.local().len("quiet"), 1);
    }
}
