//! The server's task options (`new Server(info, {tasks})`) and a task store kept by JS: the core's
//! `TaskStore` seam (`libmcp::server::tasks`) over one JS function that runs `create`, `put`, `get`
//! and `list` on the store object `lib/server.js` was given, with task records as JSON text.

use std::sync::Arc;

use libmcp::server::ServerConfig;
use libmcp::server::tasks::{MemoryTaskStore, TaskFuture, TaskRecord, TaskStore, TaskStoreError};
use napi::Status;
use napi::bindgen_prelude::{Function, Promise};
use napi::threadsafe_function::ThreadsafeFunction;
use serde_json::{Map, Value, json};

use crate::error::invalid;

/// Called with `{op, record?, id?}` as JSON text; resolves to `{ok: value}` or `{error: message}`
/// as JSON text.
type StoreFn = ThreadsafeFunction<String, Promise<String>, String, Status, false, true>;

/// A `TaskStore` whose records live wherever the JS store object keeps them.
struct JsTaskStore {
    f: Arc<StoreFn>,
}

impl JsTaskStore {
    async fn run(&self, request: Value) -> Result<Value, TaskStoreError> {
        let failed = |e: napi::Error| TaskStoreError::Backend(format!("the JS task store: {e}"));
        let promise = self
            .f
            .call_async_catch(request.to_string())
            .await
            .map_err(failed)?;
        let text = promise.await.map_err(failed)?;
        let mut answer: Value = serde_json::from_str(&text)
            .map_err(|e| TaskStoreError::Backend(format!("the JS task store answered {e}")))?;
        match answer.get_mut("ok") {
            Some(v) => Ok(v.take()),
            None => Err(TaskStoreError::Backend(
                answer["error"]
                    .as_str()
                    .unwrap_or("the JS task store failed")
                    .to_owned(),
            )),
        }
    }

    async fn write(&self, op: &str, record: TaskRecord) -> Result<(), TaskStoreError> {
        let record =
            serde_json::to_value(&record).map_err(|e| TaskStoreError::Corrupt(e.to_string()))?;
        self.run(json!({"op": op, "record": record}))
            .await
            .map(drop)
    }
}

/// A record the JS store gave back.
fn record_of(v: Value) -> Result<TaskRecord, TaskStoreError> {
    serde_json::from_value(v)
        .map_err(|e| TaskStoreError::Corrupt(format!("a task record from the JS store: {e}")))
}

impl TaskStore for JsTaskStore {
    fn create(&self, record: TaskRecord) -> TaskFuture<'_, Result<(), TaskStoreError>> {
        Box::pin(self.write("create", record))
    }

    fn put(&self, record: TaskRecord) -> TaskFuture<'_, Result<(), TaskStoreError>> {
        Box::pin(self.write("put", record))
    }

    fn get<'a>(
        &'a self,
        id: &'a str,
    ) -> TaskFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        Box::pin(async move {
            match self.run(json!({"op": "get", "id": id})).await? {
                Value::Null => Ok(None),
                v => {
                    // The store may hold records past their TTL; they are not served.
                    let r = record_of(v)?;
                    Ok((!r.is_expired(now_ms())).then_some(r))
                }
            }
        })
    }

    fn list(&self) -> TaskFuture<'_, Result<Vec<TaskRecord>, TaskStoreError>> {
        Box::pin(async move {
            let Value::Array(items) = self.run(json!({"op": "list"})).await? else {
                return Err(TaskStoreError::Corrupt(
                    "the JS task store's list is not an array".into(),
                ));
            };
            let now = now_ms();
            let mut records = items
                .into_iter()
                .map(record_of)
                .collect::<Result<Vec<_>, _>>()?;
            records.retain(|r| !r.is_expired(now));
            records.sort_by_key(|r| r.created_ms);
            Ok(records)
        })
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A non-negative whole number of `tasks`.
fn count(o: &Map<String, Value>, k: &str) -> napi::Result<Option<u64>> {
    match o.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| invalid(format!("tasks.{k} must be a non-negative integer"))),
    }
}

/// Applies the task options (`{ttlMs?, pollIntervalMs?, maxTasks?}`, JSON object) to `config`
/// and gives the store: the JS one when `store` is given, else an in-memory one holding at most
/// `maxTasks` tasks (default: the core's).
pub(crate) fn apply(
    options: Option<&Value>,
    store: Option<Function<String, Promise<String>>>,
    config: &mut ServerConfig,
) -> napi::Result<Option<Arc<dyn TaskStore>>> {
    let empty = Map::new();
    let o = match options {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(o)) => o,
        Some(_) => return Err(invalid("tasks options must be an object")),
    };
    if let Some(ms) = count(o, "ttlMs")? {
        config.task_ttl_ms = Some(ms);
    }
    if let Some(ms) = count(o, "pollIntervalMs")? {
        config.task_poll_interval_ms = ms;
    }
    let max = count(o, "maxTasks")?;
    match (store, max) {
        (Some(_), Some(_)) => Err(invalid(
            "tasks.maxTasks is for the in-memory store, not tasks.store",
        )),
        (Some(f), None) => {
            let f = f
                .build_threadsafe_function::<String>()
                .weak::<true>()
                .callee_handled::<false>()
                .build()?;
            Ok(Some(Arc::new(JsTaskStore { f: Arc::new(f) })))
        }
        (None, Some(n)) => Ok(Some(Arc::new(MemoryTaskStore::new(
            usize::try_from(n).unwrap_or(usize::MAX),
        )))),
        (None, None) => Ok(None),
    }
}
