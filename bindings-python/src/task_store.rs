//! A [`TaskStore`] kept by a Python object: `create(record)`, `put(record)`, `get(task_id)` and
//! `list()`, called on a blocking engine thread with the GIL held. Records cross as dicts of the
//! record's JSON ([`TaskRecord`] with camelCase keys); an exception is a backend failure.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use libmcp::server::tasks::{TaskFuture, TaskRecord, TaskStore, TaskStoreError};
use pyo3::prelude::*;
use serde_json::Value;

use crate::convert::{from_py, to_py};

/// The Python object behind the engine's task store.
pub struct PyTaskStore {
    obj: Arc<Py<PyAny>>,
}

impl PyTaskStore {
    pub fn new(obj: Py<PyAny>) -> Self {
        PyTaskStore { obj: Arc::new(obj) }
    }

    /// Calls `method(arg)` on the store from a blocking thread and converts what it returns.
    fn call<T: Send + 'static>(
        &self,
        method: &'static str,
        arg: Value,
        convert: fn(Value) -> Result<T, TaskStoreError>,
    ) -> TaskFuture<'_, Result<T, TaskStoreError>> {
        let obj = self.obj.clone();
        Box::pin(async move {
            let joined = tokio::task::spawn_blocking(move || {
                Python::attach(|py| -> Result<Value, TaskStoreError> {
                    let backend = |e: PyErr| TaskStoreError::Backend(format!("{method}: {e}"));
                    let out = if arg.is_null() {
                        obj.call_method0(py, method)
                    } else {
                        let a = to_py(py, &arg).map_err(backend)?;
                        obj.call_method1(py, method, (a,))
                    }
                    .map_err(backend)?;
                    from_py(out.bind(py)).map_err(backend)
                })
            })
            .await;
            match joined {
                Ok(v) => convert(v?),
                Err(e) => Err(TaskStoreError::Backend(format!("{method}: {e}"))),
            }
        })
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn record(v: Value) -> Result<TaskRecord, TaskStoreError> {
    serde_json::from_value(v).map_err(|e| TaskStoreError::Corrupt(e.to_string()))
}

fn nothing(_: Value) -> Result<(), TaskStoreError> {
    Ok(())
}

/// `get` answers a record dict or None; one whose TTL ran out reads as None whatever the store kept.
fn maybe_record(v: Value) -> Result<Option<TaskRecord>, TaskStoreError> {
    match v {
        Value::Null => Ok(None),
        v => Ok(Some(record(v)?).filter(|r| !r.is_expired(now_ms()))),
    }
}

/// `list` answers a list of record dicts; expired ones are left out, the rest sorted oldest first.
fn records(v: Value) -> Result<Vec<TaskRecord>, TaskStoreError> {
    let Value::Array(items) = v else {
        return Err(TaskStoreError::Corrupt(
            "list() must return a list of task records".into(),
        ));
    };
    let now = now_ms();
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let r = record(item)?;
        if !r.is_expired(now) {
            out.push(r);
        }
    }
    out.sort_by_key(|r| r.created_ms);
    Ok(out)
}

fn as_value(r: &TaskRecord) -> Value {
    serde_json::to_value(r).unwrap_or(Value::Null)
}

impl TaskStore for PyTaskStore {
    fn create(&self, record: TaskRecord) -> TaskFuture<'_, Result<(), TaskStoreError>> {
        self.call("create", as_value(&record), nothing)
    }

    fn put(&self, record: TaskRecord) -> TaskFuture<'_, Result<(), TaskStoreError>> {
        self.call("put", as_value(&record), nothing)
    }

    fn get<'a>(
        &'a self,
        id: &'a str,
    ) -> TaskFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        self.call("get", Value::String(id.to_owned()), maybe_record)
    }

    fn list(&self) -> TaskFuture<'_, Result<Vec<TaskRecord>, TaskStoreError>> {
        self.call("list", Value::Null, records)
    }
}
