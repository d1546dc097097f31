//! The one process-wide tokio runtime of the package.
//!
//! It is owned here (not by a helper crate) so that it can be shut down from an `atexit` hook with the
//! GIL released, before the interpreter finalizes: engine threads that still ran during finalization
//! could touch a dying interpreter. A child after `fork` has none of the parent's threads, so it gets a
//! fresh runtime (the parent's is forgotten, not dropped: dropping would wait for threads that do not
//! exist in the child).

use std::future::Future;
use std::time::Duration;

use parking_lot::Mutex;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use tokio::runtime::{Handle, Runtime};

enum State {
    Idle,
    Running { pid: u32, rt: Runtime },
    Stopped,
}

static STATE: Mutex<State> = Mutex::new(State::Idle);

fn build() -> PyResult<Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("libmcp-engine")
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the engine runtime: {e}")))
}

/// A handle to the runtime, started on first use (and again in a forked child).
pub fn handle() -> PyResult<Handle> {
    let pid = std::process::id();
    let mut state = STATE.lock();
    match &*state {
        State::Running { pid: p, rt } if *p == pid => return Ok(rt.handle().clone()),
        State::Stopped => {
            return Err(PyRuntimeError::new_err(
                "the libmcp engine has shut down (the interpreter is exiting)",
            ));
        }
        _ => {}
    }
    let rt = build()?;
    let handle = rt.handle().clone();
    if let State::Running { rt: old, .. } =
        std::mem::replace(&mut *state, State::Running { pid, rt })
    {
        // Inherited through fork: its threads are the parent's.
        std::mem::forget(old);
    }
    Ok(handle)
}

/// Spawns `fut` on the runtime.
pub fn spawn<F>(fut: F) -> PyResult<tokio::task::JoinHandle<F::Output>>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    Ok(handle()?.spawn(fut))
}

/// Stops the Python handler workers and the runtime: called from `atexit`. Queued handler calls and
/// tasks still running are dropped; threads get a second to finish what they are doing, without the
/// GIL (they may be waiting for it).
#[pyfunction]
pub fn shutdown(py: Python<'_>) {
    py.detach(|| crate::executor::stop(Duration::from_secs(1)));
    let old = std::mem::replace(&mut *STATE.lock(), State::Stopped);
    if let State::Running { pid, rt } = old {
        if pid == std::process::id() {
            py.detach(|| rt.shutdown_timeout(Duration::from_secs(1)));
        } else {
            std::mem::forget(rt);
        }
    }
    // Nothing is delivered to Python once the interpreter finalizes.
    crate::log::stop();
}
