//! `mcp_runtime`: the tokio runtime that serves and connects, and the rules for the threads it starts.

use std::cell::Cell;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::{Condvar, Mutex};

use crate::error::mcp_error;
use crate::status::mcp_status;

/// A multi-threaded runtime. Servers being served and clients keep it alive: freeing the handle while
/// they live is allowed; its threads stop when the last of them is freed.
pub struct mcp_runtime {
    pub(crate) rt: Arc<Runtime>,
}

/// How long the last reference waits for the runtime's blocking threads when it goes. A thread still
/// stuck in a read the library cannot interrupt (stdin that is neither a pipe nor at EOF) is left to
/// end on its own instead of holding the host's shutdown.
const SHUTDOWN_BOUND: Duration = Duration::from_secs(1);

/// The tokio runtime, shut down with [`SHUTDOWN_BOUND`] when the last reference drops.
pub(crate) struct Runtime(Option<tokio::runtime::Runtime>);

impl std::ops::Deref for Runtime {
    type Target = tokio::runtime::Runtime;

    fn deref(&self) -> &tokio::runtime::Runtime {
        self.0.as_ref().expect("present until dropped")
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        if let Some(rt) = self.0.take() {
            rt.shutdown_timeout(SHUTDOWN_BOUND);
        }
    }
}

thread_local! {
    /// Whether this thread is one of a libmcp runtime's (set when the thread starts).
    static RUNTIME_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Runs on every thread a runtime starts, workers and blocking threads alike, before anything else.
fn on_thread_start() {
    RUNTIME_THREAD.with(|t| t.set(true));
    // A write to a pipe whose reader has gone raises SIGPIPE on the writing thread, and a C host
    // keeps the default action (terminate). Blocked here, the write fails with EPIPE instead and the
    // transport reports it. Sockets need nothing: std and mio send with MSG_NOSIGNAL. Children
    // spawned from these threads start with an empty mask (std resets it before exec).
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
}

/// The error of a blocking call made on one of the library's own threads, or `None` on any other
/// thread. Blocking there would stop the very thread that has to deliver the answer (a callback runs
/// on the reader of its connection), so the call would only end at its timeout.
pub(crate) fn wrong_thread(what: &str) -> Option<mcp_error> {
    RUNTIME_THREAD.with(Cell::get).then(|| {
        mcp_error::new(
            mcp_status::MCP_STATUS_WRONG_THREAD,
            format!(
                "{what} blocks, and it was called on a libmcp runtime thread (from a callback); \
                 call it from a thread of your own"
            ),
        )
    })
}

/// Runs `f`, a callback on one of the runtime's blocking-pool threads, allowed to make blocking
/// calls: nothing on that thread waits for the connection, so blocking there cannot deadlock.
pub(crate) fn may_block<T>(f: impl FnOnce() -> T) -> T {
    let was = RUNTIME_THREAD.with(|t| t.replace(false));
    let out = f();
    RUNTIME_THREAD.with(|t| t.set(was));
    out
}

/// Runs `fut` on the runtime and blocks the calling thread until it finishes. Fails with
/// `MCP_STATUS_WRONG_THREAD` on the runtime's own threads (see [`wrong_thread`]) and with
/// `MCP_STATUS_IO` when the runtime stops first.
pub(crate) fn block_on<F>(
    rt: &tokio::runtime::Runtime,
    what: &str,
    fut: F,
) -> Result<F::Output, mcp_error>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    if let Some(e) = wrong_thread(what) {
        return Err(e);
    }
    let slot = Arc::new(Slot {
        state: Mutex::new((None, false)),
        ready: Condvar::new(),
    });
    let filler = Filler(slot.clone());
    rt.spawn(async move {
        let value = fut.await;
        filler.0.state.lock().0 = Some(value);
    });
    let mut state = slot.state.lock();
    while state.0.is_none() && !state.1 {
        slot.ready.wait(&mut state);
    }
    state
        .0
        .take()
        .ok_or_else(|| mcp_error::new(mcp_status::MCP_STATUS_IO, "the runtime stopped"))
}

/// Where a [`block_on`] task leaves its output: the value, and whether the task is gone. Not
/// `std::sync::mpsc`: its receiver gives the C thread a `std::thread::Thread` handle that lives in a
/// thread-local until the thread exits, reachable only through a pointer into its allocation, which
/// valgrind reports as "possibly lost" for the host's main thread.
struct Slot<T> {
    state: Mutex<(Option<T>, bool)>,
    ready: Condvar,
}

/// Owned by the task: wakes the waiter when dropped, after the value was stored or without one
/// (the runtime stopped and dropped the task).
struct Filler<T>(Arc<Slot<T>>);

impl<T> Drop for Filler<T> {
    fn drop(&mut self) {
        self.0.state.lock().1 = true;
        self.0.ready.notify_all();
    }
}

/// Creates a runtime with `worker_threads` threads (0 picks the number of CPUs) and writes it to
/// `*runtime_out`. Fails with `MCP_STATUS_IO` when threads cannot be started. Free it with
/// `mcp_runtime_free`. Any thread.
///
/// Every thread the runtime starts blocks SIGPIPE, so a peer that closes its end of a pipe makes the
/// write fail (the transport reports it) instead of terminating the process; the host's own threads
/// and signal dispositions are left as they are. Blocking functions (`mcp_client_call_tool`,
/// `mcp_serve_wait`, ...) called on these threads, that is from a callback, fail at once with
/// `MCP_STATUS_WRONG_THREAD`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_runtime_new(
    worker_threads: u32,
    runtime_out: *mut *mut mcp_runtime,
) -> mcp_status {
    ffi_boundary!({
        try_out!(runtime_out);
        let mut b = tokio::runtime::Builder::new_multi_thread();
        b.enable_all()
            .thread_name("mcp-runtime")
            .on_thread_start(on_thread_start);
        if worker_threads > 0 {
            b.worker_threads(worker_threads as usize);
        }
        match b.build() {
            Ok(rt) => {
                let handle = Box::new(mcp_runtime {
                    rt: Arc::new(Runtime(Some(rt))),
                });
                unsafe { *runtime_out = Box::into_raw(handle) };
                mcp_status::MCP_STATUS_OK
            }
            Err(_) => mcp_status::MCP_STATUS_IO,
        }
    })
}

/// Releases the caller's reference to the runtime. NULL is ignored. Must not be called from a
/// callback the library runs (those run on the runtime's threads). When this is the last reference,
/// the call blocks until the runtime's threads have stopped, at most about a second beyond the
/// tasks' own shutdown: a thread stuck in a read that cannot be interrupted is abandoned rather than
/// waited for (stdin is read without blocking when it is a pipe, so `mcp_serve_stop` is enough).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_runtime_free(runtime: *mut mcp_runtime) {
    ffi_boundary!((), {
        if !runtime.is_null() {
            drop(unsafe { Box::from_raw(runtime) });
        }
    })
}
