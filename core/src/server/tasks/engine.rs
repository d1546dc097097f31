//! Running requests as tasks: creating the task (stored before the `CreateTaskResult` goes out),
//! routing the handler's answer into the task instead of onto the wire, input rounds inside a task
//! (MRTR: the handler's `inputRequests` surface on `tasks/get` under keys never reused, and answers
//! from `tasks/update` re-invoke it), cooperative cancellation through the request's cancel flag,
//! and status notifications (`notifications/tasks` on listen streams; 2025-11-25
//! `notifications/tasks/status` on the session).

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use serde_json::{Map, Value, json};
use tokio::sync::{Notify, OwnedMutexGuard};

use super::owner_of;
use super::store::{MemoryTaskStore, TaskRecord, TaskStatus, TaskStore, now_ms};
use super::support::RELATED_TASK;
use super::wire;
use crate::error::RpcError;
use crate::jsonrpc;
use crate::outgoing::{OutKind, Outgoing};
use crate::server::answer::{add_server_info, send_answer};
use crate::server::call;
use crate::server::context::{InputRequired, Reply};
use crate::server::mrtr;
use crate::server::state::{
    Completion, Live, LiveState, RequestContext, Responder, Tasks, Waiting,
};

impl Default for Tasks {
    fn default() -> Self {
        Tasks::new(Arc::new(MemoryTaskStore::default()))
    }
}

impl Tasks {
    pub(crate) fn new(store: Arc<dyn TaskStore>) -> Self {
        Tasks {
            store,
            live: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn live(&self, id: &str) -> Option<Arc<Live>> {
        self.live.lock().get(id).cloned()
    }

    /// Forgets live tasks whose TTL ran out (their records are gone from the store too).
    fn sweep(&self) {
        let now = now_ms();
        self.live.lock().retain(|_, l| match l.state.try_lock() {
            Ok(st) => !st.record.is_expired(now),
            Err(_) => true,
        });
    }
}

/// An unguessable task id: 128 random bits, hex.
fn new_id() -> String {
    let mut raw = [0u8; 16];
    getrandom::fill(&mut raw).expect("the OS random source failed");
    raw.iter().map(|b| format!("{b:02x}")).collect()
}

/// Turns a completion into one that answers into a new task, if the request may run as one: the
/// task is stored, then the `CreateTaskResult` answers the request. Otherwise `c` comes back as is.
pub(crate) fn start(c: Completion) -> Completion {
    let Some(offer) = c.ctx.0.task_offer.clone() else {
        return c;
    };
    if c.task.is_some() || c.ctx.0.task_id.get().is_some() {
        return c;
    }
    let Ok(rt) = tokio::runtime::Handle::try_current() else {
        tracing::warn!("tasks need a tokio runtime; answering synchronously");
        return c;
    };
    let server = c.ctx.0.session.server.clone();
    server.tasks.sweep();
    let id = new_id();
    let now = now_ms();
    let record = TaskRecord {
        id: id.clone(),
        status: TaskStatus::Working,
        status_message: None,
        method: c.ctx.method().to_string(),
        created_ms: now,
        updated_ms: now,
        ttl_ms: offer.ttl_ms,
        poll_interval_ms: Some(server.config.task_poll_interval_ms),
        input_requests: Map::new(),
        result: None,
        error: None,
        owner: owner_of(&c.ctx),
        legacy: offer.legacy,
    };
    let state = Arc::new(tokio::sync::Mutex::new(LiveState {
        record: record.clone(),
        waiting: None,
        next_key: 0,
    }));
    // Held until the record is stored: no status change can overtake the creation.
    let guard = state
        .clone()
        .try_lock_owned()
        .expect("a new task's state is unlocked");
    let live = Arc::new(Live {
        id: id.clone(),
        cancel: c.ctx.0.cancel.clone(),
        state,
        changed: Notify::new(),
    });
    server.tasks.live.lock().insert(id.clone(), live.clone());
    let _ = c.ctx.0.task_id.set(id.clone());
    let ctx = c.ctx.clone();
    let task_live = live.clone();
    rt.spawn(async move {
        if !ctx.0.cancel.claim_answer() {
            // handler_timeout answered the request before the task was started: the client
            // knows nothing of it, so it is neither stored nor run on.
            tracing::warn!("a task was started after its request timed out; dropped it");
            server.tasks.live.lock().remove(&task_live.id);
            task_live.cancel.cancel();
            drop(guard);
            return;
        }
        let created = server.tasks.store.create(record.clone()).await;
        // The request ends with this answer; its in-flight entry goes first (send_answer), so
        // closing the connection after the answer cannot cancel the task through the request's flag.
        let (kind, bytes) = match created {
            Ok(()) => {
                let mut result = if offer.legacy {
                    let mut o = Map::new();
                    o.insert("task".into(), Value::Object(wire::legacy_task(&record)));
                    o
                } else {
                    wire::create_result(&record)
                };
                if !offer.legacy {
                    add_server_info(&mut result, &server.info);
                }
                (
                    OutKind::Result,
                    jsonrpc::encode_result(&ctx.0.id, &Value::Object(result)),
                )
            }
            Err(e) => {
                tracing::warn!("could not create a task: {e}");
                server.tasks.live.lock().remove(&task_live.id);
                task_live.cancel.cancel();
                let e = RpcError::internal(format!("could not create the task: {e}"));
                (
                    OutKind::Error(e.code),
                    jsonrpc::encode_error(Some(&ctx.0.id), &e),
                )
            }
        };
        send_answer(&ctx, Outgoing { kind, bytes });
        drop(guard);
    });
    Completion {
        task: Some(live),
        ..c
    }
}

/// What a handler's answer does to its task.
enum Outcome {
    Done(Value),
    Failed(RpcError),
    Input(InputRequired),
}

/// Routes a handler's answer into its task. A result the engine rejects fails the task and is
/// returned, as for an answer on the wire.
pub(crate) fn finish(c: Completion, live: Arc<Live>, reply: Reply) -> Result<(), RpcError> {
    let mut rejected = None;
    let outcome = match reply {
        Reply::Result(v) => match c.shape(v) {
            Ok(v) => Outcome::Done(v),
            Err(e) => {
                rejected = Some(e.clone());
                Outcome::Failed(e)
            }
        },
        Reply::Error(e) => Outcome::Failed(e),
        Reply::InputRequired(ir) => match mrtr::check_input(&c.ctx, &ir) {
            Ok(()) => Outcome::Input(ir),
            Err(e) => Outcome::Failed(e),
        },
    };
    let Ok(rt) = tokio::runtime::Handle::try_current() else {
        return Err(RpcError::internal("tasks need a tokio runtime"));
    };
    rt.spawn(apply(c, live, outcome));
    rejected.map_or(Ok(()), Err)
}

/// Ends a task whose legacy input round cannot go on: the task fails with the error (its request
/// was answered with the CreateTaskResult when it started).
fn fail_round(mut c: Completion, e: RpcError) {
    if let Some(live) = c.task.take() {
        // A task's error goes into its record; the result of `finish` only echoes it.
        let _ = finish(c, live, Reply::Error(e));
    } else {
        c.send_error(&e);
    }
}

async fn apply(c: Completion, live: Arc<Live>, outcome: Outcome) {
    let mut st = live.state.clone().lock_owned().await;
    if st.record.status.is_terminal() {
        // Cancelled (or expired) meanwhile: the first terminal status stands.
        return;
    }
    match outcome {
        Outcome::Done(v) => {
            st.record.status = TaskStatus::Completed;
            st.record.result = Some(v);
        }
        Outcome::Failed(e) => {
            st.record.status = TaskStatus::Failed;
            st.record.status_message = Some(e.message.clone());
            st.record.error = Some(serde_json::to_value(&e).unwrap_or(Value::Null));
        }
        Outcome::Input(ir) if st.record.legacy => {
            // 2025-11-25: the engine asks the client with real requests while the task waits.
            st.record.status = TaskStatus::InputRequired;
            commit(&c.ctx, &live, &mut st).await;
            drop(st);
            let c = Completion {
                task: Some(live.clone()),
                ..c
            };
            mrtr::legacy(c, ir, fail_round);
            return;
        }
        Outcome::Input(ir) => {
            let mut keys = HashMap::new();
            let mut requests = Map::new();
            for (key, req) in ir.requests {
                st.next_key += 1;
                let wire_key = format!("{key}-{}", st.next_key);
                keys.insert(wire_key.clone(), key);
                requests.insert(wire_key, req);
            }
            st.record.status = TaskStatus::InputRequired;
            st.record.input_requests = requests;
            let Some(handler) = c.handler.clone() else {
                st.record.status = TaskStatus::Failed;
                let e = RpcError::internal("input_required from a request without a handler");
                st.record.error = Some(serde_json::to_value(&e).unwrap_or(Value::Null));
                return commit(&c.ctx, &live, &mut st).await;
            };
            st.waiting = Some(Waiting {
                ctx: c.ctx.clone(),
                kind: c.kind.clone(),
                handler,
                keys,
                answers: Map::new(),
                state: ir.state,
            });
        }
    }
    commit(&c.ctx, &live, &mut st).await;
}

/// Records a status change: the store, the waiters, and the listeners.
async fn commit(ctx: &RequestContext, live: &Live, st: &mut OwnedMutexGuard<LiveState>) {
    let server = &ctx.0.session.server;
    st.record.updated_ms = now_ms().max(st.record.updated_ms);
    if st.record.status != TaskStatus::InputRequired {
        st.record.input_requests.clear();
        st.waiting = None;
    }
    if let Err(e) = server.tasks.store.put(st.record.clone()).await {
        tracing::warn!(task = %st.record.id, "could not store a task's status: {e}");
    }
    if st.record.status.is_terminal() {
        server.tasks.live.lock().remove(&live.id);
    }
    live.changed.notify_waiters();
    announce(ctx, &st.record);
}

/// Tells listeners about a task's new status: modern listen streams whose filter names the task
/// (`notifications/tasks`, the DetailedTask), or the 2025-11-25 session that created it
/// (`notifications/tasks/status`, the Task).
fn announce(ctx: &RequestContext, record: &TaskRecord) {
    let server = &ctx.0.session.server;
    if record.legacy {
        let params = Value::Object(wire::legacy_task(record));
        let bytes = jsonrpc::encode_notification("notifications/tasks/status", Some(&params));
        ctx.0.session.sink.send(Outgoing {
            kind: OutKind::Notification,
            bytes,
        });
    } else {
        server
            .listeners
            .broadcast_task(record, wire::detailed(record));
    }
}

/// Applies `tasks/update` answers to a live task; when the last outstanding request is answered the
/// handler runs again with all the answers (keyed as it asked) and its state.
pub(crate) async fn update(live: Arc<Live>, responses: Map<String, Value>) {
    let mut st = live.state.clone().lock_owned().await;
    if st.record.status != TaskStatus::InputRequired {
        return;
    }
    let Some(w) = st.waiting.as_mut() else { return };
    let mut changed = false;
    for (k, v) in responses {
        // Stale or unknown keys are ignored.
        if let Some(handler_key) = w.keys.remove(&k) {
            w.answers.insert(handler_key, v);
            changed = true;
        }
    }
    if !changed {
        return;
    }
    let outstanding: Vec<String> = w.keys.keys().cloned().collect();
    let ctx = w.ctx.clone();
    st.record
        .input_requests
        .retain(|k, _| outstanding.contains(k));
    if !outstanding.is_empty() {
        return commit(&ctx, &live, &mut st).await;
    }
    let w = st.waiting.take().expect("checked above");
    st.record.status = TaskStatus::Working;
    commit(&ctx, &live, &mut st).await;
    drop(st);
    let next = mrtr::next_round(&w.ctx, w.answers, w.state);
    let completion = Completion {
        ctx: next.clone(),
        kind: w.kind,
        handler: Some(w.handler.clone()),
        task: Some(live),
    };
    call::invoke(
        &w.handler,
        next,
        Responder {
            completion: Some(completion),
        },
    );
}

/// Cancels a live task: it is `cancelled` at once (unless already terminal) and its handler is told
/// through the request's cancel flag.
pub(crate) async fn cancel(live: Arc<Live>, ctx: &RequestContext) {
    let mut st = live.state.clone().lock_owned().await;
    if !st.record.status.is_terminal() {
        st.record.status = TaskStatus::Cancelled;
        st.record.status_message = Some("cancelled by the client".into());
        let origin = st.waiting.as_ref().map(|w| w.ctx.clone());
        commit(origin.as_ref().unwrap_or(ctx), &live, &mut st).await;
    }
    drop(st);
    live.cancel.cancel();
}

/// The JSON-RPC error of a 2025-11-25 `tasks/result` for a task that did not complete.
pub(crate) fn unfinished_error(record: &TaskRecord) -> RpcError {
    match (&record.status, &record.error) {
        (TaskStatus::Failed, Some(e)) => serde_json::from_value(e.clone())
            .unwrap_or_else(|_| RpcError::internal("the task failed")),
        (status, _) => RpcError::internal(format!("the task ended {}", status.as_str())),
    }
}

/// `_meta` naming the task, for 2025-11-25 messages about it.
pub(crate) fn related_task_meta(id: &str) -> Value {
    json!({ RELATED_TASK: { "taskId": id } })
}
