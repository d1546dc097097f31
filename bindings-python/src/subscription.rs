//! `Subscription`: change notifications from the server, behind the engine's one API for both eras
//! (a `subscriptions/listen` stream, or legacy session notifications plus `resources/subscribe`).

use std::sync::Arc;

use libmcp::client::{Subscription as CoreSubscription, SubscriptionFilter};
use libmcp::server::CancelFlag;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{Value, json};
use tokio::sync::Mutex;

use crate::convert::{from_py, to_py};
use crate::task::{Task, spawn_py};

/// An open subscription.
#[pyclass(module = "libmcp._native", frozen)]
pub struct Subscription {
    inner: Arc<Mutex<Option<CoreSubscription>>>,
    acknowledged: Value,
    /// Set by `close`, so that a pending `next` (which holds the lock) ends at once.
    closed: CancelFlag,
}

/// The filter from a dict of SubscriptionFilter fields (`toolsListChanged`, `resourceSubscriptions`, ...).
pub fn filter(obj: &Bound<'_, PyAny>) -> PyResult<SubscriptionFilter> {
    serde_json::from_value(from_py(obj)?)
        .map_err(|e| PyValueError::new_err(format!("invalid subscription filter: {e}")))
}

/// Wraps an opened subscription for Python.
pub fn wrap(py: Python<'_>, sub: CoreSubscription) -> PyResult<Py<PyAny>> {
    let acknowledged = sub.acknowledged().clone();
    Ok(Py::new(
        py,
        Subscription {
            inner: Arc::new(Mutex::new(Some(sub))),
            acknowledged,
            closed: CancelFlag::default(),
        },
    )?
    .into_any())
}

#[pymethods]
impl Subscription {
    /// What the server agreed to deliver.
    #[getter]
    fn acknowledged(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(to_py(py, &self.acknowledged)?.unbind())
    }

    /// The next notification as `{"method", "params"}`, or None once the subscription ended.
    fn next(&self, done: Py<PyAny>) -> PyResult<Task> {
        let inner = self.inner.clone();
        let closed = self.closed.clone();
        spawn_py(
            done,
            async move {
                let mut guard = inner.lock().await;
                let next = match guard.as_mut() {
                    Some(sub) => tokio::select! {
                        n = sub.next() => n,
                        _ = closed.cancelled() => None,
                    },
                    None => None,
                };
                Ok(next.map(|n| json!({"method": n.method, "params": n.params})))
            },
            |py, v: Option<Value>| match v {
                Some(v) => Ok(to_py(py, &v)?.unbind()),
                None => Ok(py.None()),
            },
        )
    }

    /// Ends the subscription (a pending `next` then returns None).
    fn close(&self, done: Py<PyAny>) -> PyResult<Task> {
        let inner = self.inner.clone();
        self.closed.cancel();
        spawn_py(
            done,
            async move {
                inner.lock().await.take();
                Ok(())
            },
            |py, ()| Ok(py.None()),
        )
    }
}

/// The task a task status notification carries (`libmcp::client::task_of`) as a dict, or None for
/// any other notification; params that are not a task raise ProtocolViolation.
#[pyfunction]
pub fn task_of(py: Python<'_>, method: String, params: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let params = from_py(params)?;
    let note = libmcp::jsonrpc::Notification {
        method,
        params: (!params.is_null()).then_some(params),
    };
    match libmcp::client::task_of(&note) {
        None => Ok(py.None()),
        Some(Err(e)) => Err(crate::errors::to_pyerr(py, e)),
        Some(Ok(task)) => {
            let json =
                serde_json::to_value(&task).map_err(|e| PyValueError::new_err(e.to_string()))?;
            Ok(to_py(py, &json)?.unbind())
        }
    }
}
