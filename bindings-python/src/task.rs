//! Engine work whose outcome goes to Python: a future on the engine runtime that, once done, calls a
//! Python `done(ok, value)` callable (the Python side binds it to `loop.call_soon_threadsafe`, so the
//! awaiting coroutine resumes on its own event loop). The GIL is held only to convert and call.

use std::future::Future;
use std::sync::Arc;

use parking_lot::Mutex;
use pyo3::prelude::*;
use pyo3::{PyClass, PyClassInitializer};
use tokio::task::AbortHandle;

use crate::errors::to_pyerr;

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

/// Runs `fut` on the engine and reports its result through `done`, converted by `convert`.
pub fn spawn_py<T, F, C>(done: Py<PyAny>, fut: F, convert: C) -> PyResult<Task>
where
    T: Send + 'static,
    F: Future<Output = libmcp::Result<T>> + Send + 'static,
    C: FnOnce(Python<'_>, T) -> PyResult<Py<PyAny>> + Send + 'static,
{
    let handle = crate::runtime::spawn(async move {
        let outcome = fut.await;
        Python::attach(|py| {
            let (ok, value) = match outcome
                .map_err(|e| to_pyerr(py, e))
                .and_then(|v| convert(py, v))
            {
                Ok(v) => (true, v),
                Err(e) => (false, e.into_value(py).into_any()),
            };
            // The loop may be closed already (the caller went away); nobody is left to tell.
            let _ = done.call1(py, (ok, value));
        });
    })?;
    Ok(Task {
        abort: Mutex::new(Some(handle.abort_handle())),
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
