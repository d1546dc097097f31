//! Legacy (2025-03-26 .. 2025-11-25) sessions: the table keyed by `Mcp-Session-Id` (or by the
//! `sessionId` of the 2024-11-05 HTTP+SSE transport), where each session's server messages go, and
//! idle expiry. These are the live sessions of this process; the record other instances may
//! rehydrate a session from is in the [`SessionStore`](super::SessionStore).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};

use super::session_store::SessionRecord;
use super::streams::SessionStreams;
use crate::server::Session;
use crate::transport::{Outbound, Outgoing};

/// Where a 2024-11-05 HTTP+SSE session's messages go: its one event stream, if still open.
#[derive(Default)]
pub(crate) struct StandaloneStream {
    current: Mutex<Option<UnboundedSender<Outgoing>>>,
}

impl StandaloneStream {
    /// Opens a new standalone stream, ending the previous one.
    pub(crate) fn open(&self) -> (UnboundedReceiver<Outgoing>, UnboundedSender<Outgoing>) {
        let (tx, rx) = mpsc::unbounded_channel();
        *self.current.lock() = Some(tx.clone());
        (rx, tx)
    }

    /// Forgets `tx` if it is still the current stream.
    pub(crate) fn close(&self, tx: &UnboundedSender<Outgoing>) {
        let mut cur = self.current.lock();
        if cur.as_ref().is_some_and(|c| c.same_channel(tx)) {
            *cur = None;
        }
    }
}

impl Outbound for StandaloneStream {
    fn send(&self, msg: Outgoing) -> bool {
        if let Some(tx) = self.current.lock().as_ref() {
            let _ = tx.send(msg);
        }
        // The session stays usable without a listener.
        true
    }
}

/// Where a session's server messages travel.
pub(crate) enum Outlet {
    /// The 2024-11-05 HTTP+SSE event stream.
    HttpSse(Arc<StandaloneStream>),
    /// Streamable HTTP: resumable POST streams and the standalone GET stream.
    Streams(SessionStreams),
}

/// One legacy session.
pub(crate) struct HttpSession {
    pub(crate) session: Session,
    pub(crate) outlet: Outlet,
    last_used: Mutex<Instant>,
    /// Open response streams (POST SSE and GET); a session with one is never idle.
    open_streams: AtomicUsize,
    /// The record as this instance last wrote or read it in the session store (Streamable HTTP).
    pub(crate) stored: Mutex<Option<SessionRecord>>,
    /// `Session::legacy_changes` + 1 when `stored` was last found to hold the session's state
    /// (0: not known), so that a request which changed nothing skips rebuilding the record.
    pub(crate) persisted: AtomicU64,
}

impl HttpSession {
    pub(crate) fn new(session: Session, outlet: Outlet) -> HttpSession {
        HttpSession {
            session,
            outlet,
            last_used: Mutex::new(Instant::now()),
            open_streams: AtomicUsize::new(0),
            stored: Mutex::new(None),
            persisted: AtomicU64::new(0),
        }
    }

    pub(crate) fn touch(&self) {
        *self.last_used.lock() = Instant::now();
    }

    pub(crate) fn stream_opened(&self) {
        self.open_streams.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn stream_closed(&self) {
        self.open_streams.fetch_sub(1, Ordering::Relaxed);
        self.touch();
    }

    /// The Streamable HTTP streams (`None` for an HTTP+SSE session).
    pub(crate) fn streams(&self) -> Option<&SessionStreams> {
        match &self.outlet {
            Outlet::Streams(s) => Some(s),
            Outlet::HttpSse(_) => None,
        }
    }

    /// Ends the session here, and with `drop_log` drops its event log.
    fn end(&self, drop_log: bool) {
        self.session.close();
        if let Some(s) = self.streams() {
            s.end(drop_log);
        }
    }

    /// Whether a request is in flight or a stream is open.
    pub(crate) fn busy(&self) -> bool {
        self.idle_for().is_none()
    }

    fn idle_for(&self) -> Option<Duration> {
        let busy = self.open_streams.load(Ordering::Relaxed) > 0 || self.session.inflight() > 0;
        (!busy).then(|| self.last_used.lock().elapsed())
    }
}

/// The live legacy sessions.
#[derive(Default)]
pub(crate) struct Sessions {
    map: Mutex<HashMap<String, Arc<HttpSession>>>,
}

impl Sessions {
    pub(crate) fn get(&self, id: &str) -> Option<Arc<HttpSession>> {
        let s = self.map.lock().get(id).cloned();
        if let Some(s) = &s {
            s.touch();
        }
        s
    }

    /// Adds a session under `id` (from [`new_session_id`]) unless `max` sessions are alive.
    pub(crate) fn insert(&self, id: &str, s: Arc<HttpSession>, max: usize) -> bool {
        let mut map = self.map.lock();
        if map.len() >= max {
            return false;
        }
        map.insert(id.to_owned(), s);
        true
    }

    /// Adds a rehydrated session under `id`, or returns the one another request added first;
    /// `None` when `max` sessions are alive.
    pub(crate) fn adopt(
        &self,
        id: &str,
        s: Arc<HttpSession>,
        max: usize,
    ) -> Option<Arc<HttpSession>> {
        let mut map = self.map.lock();
        if let Some(existing) = map.get(id) {
            let existing = existing.clone();
            drop(map);
            s.session.close();
            return Some(existing);
        }
        if map.len() >= max {
            return None;
        }
        map.insert(id.to_owned(), s.clone());
        Some(s)
    }

    /// Ends a session (dropping its event log); `false` if there was none.
    pub(crate) fn remove(&self, id: &str) -> bool {
        let s = self.map.lock().remove(id);
        match s {
            Some(s) => {
                s.end(true);
                true
            }
            None => false,
        }
    }

    /// The sessions with a request in flight or a stream open.
    pub(crate) fn busy(&self) -> Vec<Arc<HttpSession>> {
        let map = self.map.lock();
        map.values().filter(|s| s.busy()).cloned().collect()
    }

    /// Ends here the sessions idle for longer than `idle`, keeping their event logs (another
    /// instance may still serve them); returns their ids.
    pub(crate) fn expire_local(&self, idle: Duration) -> Vec<String> {
        let expired: Vec<(String, Arc<HttpSession>)> = {
            let mut map = self.map.lock();
            let ids: Vec<String> = map
                .iter()
                .filter(|(_, s)| s.idle_for().is_some_and(|d| d > idle))
                .map(|(id, _)| id.clone())
                .collect();
            ids.into_iter()
                .filter_map(|id| map.remove(&id).map(|s| (id, s)))
                .collect()
        };
        expired
            .into_iter()
            .map(|(id, s)| {
                s.end(false);
                id
            })
            .collect()
    }

    /// Ends the sessions idle for longer than `idle`; returns how many.
    pub(crate) fn expire(&self, idle: Duration) -> usize {
        let expired: Vec<Arc<HttpSession>> = {
            let mut map = self.map.lock();
            let ids: Vec<String> = map
                .iter()
                .filter(|(_, s)| s.idle_for().is_some_and(|d| d > idle))
                .map(|(id, _)| id.clone())
                .collect();
            ids.iter().filter_map(|id| map.remove(id)).collect()
        };
        for s in &expired {
            s.end(true);
        }
        expired.len()
    }

    /// Ends every session here; with `drop_logs` also their event logs.
    pub(crate) fn clear(&self, drop_logs: bool) {
        let all: Vec<Arc<HttpSession>> = self.map.lock().drain().map(|(_, s)| s).collect();
        for s in all {
            s.end(drop_logs);
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.map.lock().len()
    }
}

/// 256 random bits as 64 lowercase hex digits (visible ASCII, as the spec requires).
pub(crate) fn new_session_id() -> String {
    let mut raw = [0u8; 32];
    getrandom::fill(&mut raw).expect("the OS random source failed");
    raw.iter().map(|b| format!("{b:02x}")).collect()
}
