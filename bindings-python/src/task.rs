//! Engine work whose outcome goes to Python: a future on the engine runtime that, once done, calls a
//! Python `done(ok, value)` callable (the Python side binds it to `loop.call_soon_threadsafe`, so the
//! awaiting coroutine resumes on its own event loop). The GIL is held only to convert and call.

use std::future::Future;
use std::sync::Arc;

use parking_lot::Mutex;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::{PyClass, PyClassInitializer, intern};
use tokio::task::AbortHandle;

use crate::errors::to_pyerr;
use crate::loop_queue::{self, LoopQueue};

/// A running engine operation; `abort()` drops it (a request in flight is then cancelled).
#[pyclass(module = "libmcp._native", frozen)]
pub struct Task {
    abort: Mutex<Option<AbortHandle>>,
}

#[pymethods]
impl Task {
    /// Stops the operation if it is still running.
    fn abort(&self) {
        if let Some(a) = self.abort.lock().take() {
            a.abort();
        }
    }
}

/// An engine outcome as `done`'s arguments: `(true, value)` converted by `convert`, or `(false,
/// exception)` when the engine or the conversion failed.
fn converted<T>(
    py: Python<'_>,
    outcome: libmcp::Result<T>,
    convert: impl FnOnce(Python<'_>, T) -> PyResult<Py<PyAny>>,
) -> (bool, Py<PyAny>) {
    match outcome
        .map_err(|e| to_pyerr(py, e))
        .and_then(|v| convert(py, v))
    {
        Ok(v) => (true, v),
        Err(e) => (false, e.into_value(py).into_any()),
    }
}

/// Converts an engine value to Python (on a thread that holds the GIL).
pub trait Convert<T>: FnOnce(Python<'_>, T) -> PyResult<Py<PyAny>> + Send + 'static {}

impl<T, C: FnOnce(Python<'_>, T) -> PyResult<Py<PyAny>> + Send + 'static> Convert<T> for C {}

/// Runs `fut` on the engine, then `then` with its outcome on the same engine thread.
fn spawn_then<T, F>(fut: F, then: impl FnOnce(libmcp::Result<T>) + Send + 'static) -> PyResult<Task>
where
    T: Send + 'static,
    F: Future<Output = libmcp::Result<T>> + Send + 'static,
{
    let handle = crate::runtime::spawn(async move { then(fut.await) })?;
    Ok(Task {
        abort: Mutex::new(Some(handle.abort_handle())),
    })
}

/// Runs `fut` on the engine and reports its result through `done`, converted by `convert`.
pub fn spawn_py<T: Send + 'static>(
    done: Py<PyAny>,
    fut: impl Future<Output = libmcp::Result<T>> + Send + 'static,
    convert: impl Convert<T>,
) -> PyResult<Task> {
    spawn_then(fut, move |outcome| {
        Python::attach(|py| {
            let (ok, value) = converted(py, outcome, convert);
            // The loop may be closed already (the caller went away); nobody is left to tell.
            let _ = done.call1(py, (ok, value));
        });
    })
}

/// `libmcp._bridge.settle(future, ok, value)`: completes an asyncio future unless it is done.
static SETTLE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// Completes the asyncio future `target` with `outcome`: directly when this thread is draining
/// a loop queue (the future's loop, see [`spawn_to_future`]), else through its loop's
/// `call_soon_threadsafe` (a closed loop has nobody left to tell).
fn complete(py: Python<'_>, target: &Py<PyAny>, (ok, value): (bool, Py<PyAny>)) {
    let settled = SETTLE
        .import(py, "libmcp._bridge", "settle")
        .and_then(|settle| {
            if loop_queue::draining() {
                settle.call1((target, ok, value))
            } else {
                target
                    .bind(py)
                    .call_method0(intern!(py, "get_loop"))?
                    .call_method1(
                        intern!(py, "call_soon_threadsafe"),
                        (settle, target, ok, value),
                    )
            }
        });
    if let Err(e) = settled {
        tracing::debug!("an engine result found no event loop to complete on: {e}");
    }
}

/// Runs `fut` on the engine and completes the asyncio future `target` with its result, converted
/// by `convert`. With a `queue` (a [`LoopQueue`] drained on `target`'s loop) the conversion and
/// the completion run on that loop, several per wake-up, and no engine thread waits for the GIL
/// (which the loop holds most of the time when it is busy); without one, or once it is closed,
/// from the engine thread as [`spawn_py`] does.
pub fn spawn_to_future<T: Send + 'static>(
    queue: Option<Py<LoopQueue>>,
    target: Py<PyAny>,
    fut: impl Future<Output = libmcp::Result<T>> + Send + 'static,
    convert: impl Convert<T>,
) -> PyResult<Task> {
    spawn_then(fut, move |outcome| {
        let job: crate::executor::Job =
            Box::new(move |py| complete(py, &target, converted(py, outcome, convert)));
        let job = match &queue {
            Some(q) => match q.get().push(job) {
                Ok(()) => return,
                Err(job) => job,
            },
            None => job,
        };
        Python::attach(job);
    })
}

/// Calls `invoke(arg, reply)` on a blocking engine thread (the Python callable may block there, for
/// I/O or a user's answer) and waits for it to return. `Err` says why it raised or did not run.
pub async fn call_blocking<R>(invoke: Arc<Py<PyAny>>, arg: String, reply: R) -> Result<(), String>
where
    R: PyClass<Frozen = pyo3::pyclass::boolean_struct::True>
        + Into<PyClassInitializer<R>>
        + Send
        + 'static,
{
    let called = tokio::task::spawn_blocking(move || {
        Python::attach(|py| -> PyResult<()> {
            invoke.call1(py, (arg, Py::new(py, reply)?))?;
            Ok(())
        })
    })
    .await;
    match called {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!("failed: {e}")),
        Err(e) => Err(format!("did not run: {e}")),
    }
}
