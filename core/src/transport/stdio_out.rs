//! The stdio server's output: one buffer shared by the serving task and every thread that answers.
//!
//! When stdout is a non-blocking pipe (see [`super::stdio_pipes::nonblocking_stdout`]) and nothing is
//! waiting to be written, a message is written at once by the thread that sends it, so an answer
//! given on another thread (a tokio worker, a host's thread) costs one `write` and no wake-up of the
//! serving task. Otherwise messages are queued, newline-terminated ([`OutQueue`]: small ones copied
//! together, large ones in their own buffers), and the serving task is woken to write them; it
//! takes everything queued at once. Order is kept: a thread writes directly only
//! while the queue is empty and the serving task holds no unwritten bytes, under one lock.
//!
//! [`batched`] holds the direct writes of one thread back for the length of a closure, so that a
//! host answering many requests in one go (the Node binding, once per event-loop turn) writes
//! them with one `write`.

use std::cell::RefCell;
use std::io;
use std::sync::Arc;

use parking_lot::Mutex;
use tokio::sync::Notify;

use super::stdio_queue::{MAX_SLICES, OutQueue};
use super::{Outbound, Outgoing};

/// Bytes the serving task has taken from the queue and writes.
pub(super) type OutBuf = OutQueue;

/// A pipe written without blocking, shared by the serving task and the threads that write
/// directly.
#[cfg(target_os = "linux")]
pub(super) type DirectPipe = Arc<tokio::net::unix::pipe::Sender>;

/// Elsewhere stdout is never written directly (no value of this type exists).
#[cfg(not(target_os = "linux"))]
pub(super) enum DirectPipe {}

struct State {
    /// Messages not yet taken by the serving task, each newline-terminated.
    queued: OutQueue,
    /// The serving task holds bytes it has not finished writing: everyone else queues.
    busy: bool,
    /// The connection is over (served to the end, or a write failed): nothing more is accepted.
    closed: bool,
    /// A direct write's failure, for the serving task to report.
    error: Option<io::Error>,
    /// What made output fail, once it has.
    failed: Option<io::ErrorKind>,
    /// Bytes the serving task held unwritten when it last took the queue.
    held: usize,
}

/// The output of one stdio connection. The serving task owns the writer; [`StdioSink`] hands
/// messages in from anywhere.
pub(super) struct StdioOut {
    state: Mutex<State>,
    /// Wakes the serving task: bytes were queued, or a direct write failed.
    wake: Notify,
    direct: Option<DirectPipe>,
}

impl StdioOut {
    pub(super) fn new(direct: Option<DirectPipe>) -> Arc<StdioOut> {
        Arc::new(StdioOut {
            state: Mutex::new(State {
                queued: OutQueue::default(),
                busy: false,
                closed: false,
                error: None,
                failed: None,
                held: 0,
            }),
            wake: Notify::new(),
            direct,
        })
    }

    /// Resolves when something was queued for the serving task (or a direct write failed) since it
    /// last looked.
    pub(super) async fn woken(&self) {
        self.wake.notified().await
    }

    /// Moves what is queued behind the serving task's unwritten bytes (no bytes are copied); while
    /// it holds any, other threads queue instead of writing. Returns a direct write's failure, if
    /// one happened.
    pub(super) fn take(&self, out: &mut OutBuf) -> Option<io::Error> {
        let mut st = self.state.lock();
        out.append(&mut st.queued);
        st.busy = !out.is_empty();
        st.held = out.len();
        st.error.take()
    }

    /// Bytes not written yet: queued, and held by the serving task when it last took the queue.
    pub(super) fn unwritten(&self) -> usize {
        let st = self.state.lock();
        st.queued.len() + st.held
    }

    /// Whether nothing more is accepted ([`close`](Self::close)d, or output failed).
    pub(super) fn is_closed(&self) -> bool {
        self.state.lock().closed
    }

    /// Why output failed, if it has.
    pub(super) fn failure(&self) -> Option<io::Error> {
        let kind = self.state.lock().failed?;
        Some(io::Error::new(
            kind,
            format!("writing to stdout failed: {kind}"),
        ))
    }

    /// The serving task's own write failed: nothing more is accepted.
    pub(super) fn fail_with(&self, kind: io::ErrorKind) {
        let mut st = self.state.lock();
        st.closed = true;
        st.failed = Some(kind);
    }

    /// Accepts nothing more: later messages are dropped (their senders see `false`). The serving
    /// task is woken to write what is queued.
    pub(super) fn close(&self) {
        self.state.lock().closed = true;
        self.wake.notify_one();
    }

    fn send(self: &Arc<Self>, msg: Outgoing) -> bool {
        let mut st = self.state.lock();
        if st.closed {
            return false;
        }
        let held = hold(self);
        if !held && !st.busy && st.queued.is_empty() {
            if let Some(pipe) = &self.direct {
                let parts = [io::IoSlice::new(&msg.bytes), io::IoSlice::new(b"\n")];
                let total = msg.bytes.len() + 1;
                let written = match write_vectored(pipe, &parts) {
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => 0,
                    Err(e) => return self.fail(&mut st, e),
                };
                if written < total {
                    // The pipe is full: the serving task writes the rest when it can.
                    let mut rest = msg.bytes;
                    rest.push(b'\n');
                    rest.drain(..written);
                    st.queued.push_raw(rest);
                    self.wake.notify_one();
                }
                return true;
            }
        }
        let was_empty = st.queued.is_empty();
        st.queued.push_message(msg.bytes);
        // A busy serving task takes the queue on its next turn without being woken.
        if was_empty && !held && !st.busy {
            self.wake.notify_one();
        }
        true
    }

    /// Writes what a [`batched`] closure queued, directly when the serving task is idle.
    fn release(&self) {
        let mut st = self.state.lock();
        if st.closed || st.queued.is_empty() || st.busy {
            // A busy serving task takes the queue when it has written what it holds.
            return;
        }
        if let Some(pipe) = &self.direct {
            let written = {
                let mut slices = [io::IoSlice::new(&[]); MAX_SLICES];
                let n = st.queued.slices(&mut slices);
                write_vectored(pipe, &slices[..n])
            };
            match written {
                Ok(n) => {
                    st.queued.advance(n);
                    if st.queued.is_empty() {
                        return;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => {
                    self.fail(&mut st, e);
                    return;
                }
            }
        }
        self.wake.notify_one();
    }

    fn fail(&self, st: &mut State, e: io::Error) -> bool {
        st.failed = Some(e.kind());
        st.error = Some(e);
        st.closed = true;
        self.wake.notify_one();
        false
    }
}

#[cfg(target_os = "linux")]
fn write_vectored(pipe: &DirectPipe, parts: &[io::IoSlice<'_>]) -> io::Result<usize> {
    pipe.try_write_vectored(parts)
}

#[cfg(not(target_os = "linux"))]
fn write_vectored(pipe: &DirectPipe, _: &[io::IoSlice<'_>]) -> io::Result<usize> {
    match *pipe {}
}

/// The engine's handle on a [`StdioOut`].
pub(super) struct StdioSink(pub(super) Arc<StdioOut>);

impl Outbound for StdioSink {
    fn send(&self, msg: Outgoing) -> bool {
        self.0.send(msg)
    }
}

thread_local! {
    /// While [`batched`] runs on this thread: the outputs it queued messages for.
    static HELD: RefCell<Option<Vec<Arc<StdioOut>>>> = const { RefCell::new(None) };
}

/// Whether this thread is inside [`batched`]; if so, `out` is written when it ends.
fn hold(out: &Arc<StdioOut>) -> bool {
    HELD.with_borrow_mut(|held| match held {
        Some(list) => {
            if !list.iter().any(|o| Arc::ptr_eq(o, out)) {
                list.push(out.clone());
            }
            true
        }
        None => false,
    })
}

/// Runs `f`, holding back what it sends to stdio connections on this thread until it returns (or
/// unwinds), then writing each connection's share with one `write`. A host that answers many
/// requests in one go wraps the answering in this, so that they cost one system call and no
/// wake-up of the serving task. Nested calls write when the outermost returns.
pub fn batched<R>(f: impl FnOnce() -> R) -> R {
    struct Release;
    impl Drop for Release {
        fn drop(&mut self) {
            for out in HELD.with_borrow_mut(Option::take).unwrap_or_default() {
                out.release();
            }
        }
    }
    let outer = HELD.with_borrow_mut(|held| {
        if held.is_some() {
            false
        } else {
            *held = Some(Vec::new());
            true
        }
    });
    let _release = outer.then_some(Release);
    f()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outgoing::OutKind;

    /// A writer that never quite catches up holds about what it has not written: written chunks
    /// are freed, queued ones move without a copy.
    #[test]
    fn a_slow_writer_holds_about_what_it_has_not_written() {
        let out = StdioOut::new(None);
        let sink = StdioSink(out.clone());
        let mut buf = OutBuf::default();
        for i in 0..1000 {
            let len = if i % 3 == 0 { 40_000 } else { 1023 };
            assert!(sink.send(Outgoing {
                kind: OutKind::Notification,
                bytes: vec![b'x'; len],
            }));
            assert!(out.take(&mut buf).is_none());
            assert_eq!(out.unwritten(), buf.len());
            // Writes three quarters of what is pending, never all of it.
            buf.advance(buf.len() * 3 / 4);
            assert!(
                buf.held() <= buf.len() + 40_001,
                "{} bytes held for {} unwritten",
                buf.held(),
                buf.len()
            );
        }
    }
}
