//! `LoopQueue`: calls of `async def` handlers, run on the thread of the event loop that serves.
//!
//! An async handler only has to start a coroutine on the serving loop. Starting it from a worker
//! thread (`asyncio.run_coroutine_threadsafe`) costs a wake-up of the loop per call and makes the
//! worker and the loop take the GIL in turn. Instead the engine queues the call here, without the
//! GIL, and writes one byte to a socket the loop watches (`loop.add_reader(queue.fileno(),
//! queue.drain)`) when the queue was empty; the loop's `drain` runs every queued call in one go.
//! Once closed (serving ended), calls go to the Python workers instead (`executor.rs`).
//!
//! The mounted endpoint (`endpoint.rs`) queues the results of its engine operations here too, so
//! that they complete their awaiting futures on the loop without an engine thread taking the GIL.

use std::cell::Cell;
use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::sync::Arc;

use parking_lot::Mutex;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

use crate::executor::{self, Job};

thread_local! {
    /// Set while `drain` runs queued calls: this thread is then the queue's event loop.
    static DRAINING: Cell<bool> = const { Cell::new(false) };
}

/// Marks the thread as draining until dropped (a panicking call included).
struct Draining(bool);

impl Draining {
    fn enter() -> Self {
        Draining(DRAINING.with(|d| d.replace(true)))
    }
}

impl Drop for Draining {
    fn drop(&mut self) {
        DRAINING.with(|d| d.set(self.0));
    }
}

/// Whether the calling thread is running a queue's calls on its event loop (`drain`).
pub fn draining() -> bool {
    DRAINING.with(Cell::get)
}

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    /// A byte is on its way to the loop for the calls queued; no need for another.
    signalled: bool,
    closed: bool,
}

/// Calls for the serving event loop: created by `Server.serve_async`, drained on its loop.
#[pyclass(module = "libmcp._native", frozen)]
pub struct LoopQueue {
    state: Mutex<State>,
    tx: UnixStream,
    rx: UnixStream,
}

impl LoopQueue {
    /// Queues `job` for the loop, or hands it back when the queue is closed.
    pub(crate) fn push(&self, job: Job) -> Result<(), Job> {
        let mut st = self.state.lock();
        if st.closed {
            return Err(job);
        }
        st.queue.push_back(job);
        if !st.signalled {
            st.signalled = true;
            // A full socket buffer already holds a byte the loop has not read: it will drain.
            if let Err(e) = (&self.tx).write(&[1]) {
                if e.kind() != ErrorKind::WouldBlock {
                    tracing::warn!("cannot wake the event loop for an async handler: {e}");
                }
            }
        }
        Ok(())
    }
}

#[pymethods]
impl LoopQueue {
    #[new]
    fn new() -> PyResult<Self> {
        let (tx, rx) = UnixStream::pair().map_err(|e| {
            PyOSError::new_err(format!("cannot create the loop's wake-up socket: {e}"))
        })?;
        for s in [&tx, &rx] {
            s.set_nonblocking(true).map_err(|e| {
                PyOSError::new_err(format!("cannot make the wake-up socket non-blocking: {e}"))
            })?;
        }
        Ok(LoopQueue {
            state: Mutex::new(State::default()),
            tx,
            rx,
        })
    }

    /// The descriptor the loop watches for reading.
    fn fileno(&self) -> i32 {
        self.rx.as_raw_fd()
    }

    /// Runs every queued call (on the loop's thread, the GIL held); returns how many ran.
    fn drain(&self, py: Python<'_>) -> usize {
        let mut buf = [0u8; 64];
        while matches!((&self.rx).read(&mut buf), Ok(n) if n > 0) {}
        let jobs = {
            let mut st = self.state.lock();
            st.signalled = false;
            std::mem::take(&mut st.queue)
        };
        let n = jobs.len();
        let _draining = Draining::enter();
        for job in jobs {
            job(py);
        }
        n
    }

    /// Stops queueing: calls still queued and later ones go to the Python workers.
    fn close(&self) {
        let jobs = {
            let mut st = self.state.lock();
            st.closed = true;
            std::mem::take(&mut st.queue)
        };
        for job in jobs {
            executor::run(job);
        }
    }
}

/// Where a server's `async def` handlers are queued while it is served on an event loop.
#[derive(Clone, Default)]
pub struct LoopSlot(Arc<Mutex<Option<Py<LoopQueue>>>>);

impl LoopSlot {
    pub fn set(&self, queue: Option<Py<LoopQueue>>) {
        *self.0.lock() = queue;
    }

    /// Runs `job` on the serving loop when there is one, else on the Python workers.
    pub fn run(&self, job: Job) {
        let job = match self.0.lock().as_ref() {
            Some(queue) => match queue.get().push(job) {
                Ok(()) => return,
                Err(job) => job,
            },
            None => job,
        };
        executor::run(job);
    }
}
