//! The `tasks/*` methods. Modern (the tasks extension): `tasks/get` (the DetailedTask),
//! `tasks/update` (answers to `inputRequests`) and `tasks/cancel`, each acknowledged with
//! `resultType: "complete"`. 2025-11-25: `tasks/get` and `tasks/cancel` (the Task), `tasks/result`
//! (waits for the end, then the original result), `tasks/list`. An unknown or expired id, or one
//! created by another principal, gets -32602 on every method.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::engine;
use super::owner_of;
use super::store::TaskRecord;
use super::wire;
use crate::error::RpcError;
use crate::server::answer::{fail, send_engine_result};
use crate::server::registry::paginate;
use crate::server::state::{Kind, Live, RequestContext};
use crate::version::Era;

/// Answers one `tasks/*` request (already gated by era and capability).
pub(crate) fn handle(ctx: RequestContext) {
    let Ok(rt) = tokio::runtime::Handle::try_current() else {
        let e = RpcError::internal("tasks need a tokio runtime");
        return fail(&ctx, &e);
    };
    rt.spawn(async move {
        let out = match (ctx.era(), ctx.method()) {
            (Era::Modern, "tasks/get") => {
                get(&ctx).await.map(|r| Value::Object(wire::detailed(&r)))
            }
            (Era::Modern, "tasks/update") => update(&ctx).await,
            (Era::Modern, "tasks/cancel") => cancel(&ctx).await.map(|_| json!({})),
            (Era::Legacy, "tasks/get") => get(&ctx).await.map(legacy_task),
            (Era::Legacy, "tasks/cancel") => cancel(&ctx).await.map(legacy_task),
            (Era::Legacy, "tasks/result") => result(&ctx).await,
            (Era::Legacy, "tasks/list") => list(&ctx).await,
            (_, m) => Err(RpcError::method_not_found(m)),
        };
        match out {
            Ok(v) => send_engine_result(&ctx, Kind::Plain, v),
            Err(e) => fail(&ctx, &e),
        }
    });
}

fn legacy_task(r: TaskRecord) -> Value {
    Value::Object(wire::legacy_task(&r))
}

fn task_id(ctx: &RequestContext) -> Result<&str, RpcError> {
    ctx.params()
        .get("taskId")
        .and_then(Value::as_str)
        .ok_or_else(|| RpcError::invalid_params("taskId must be a string"))
}

/// The task a request names, if it exists, has not expired and belongs to the request's principal
/// (authorization is checked on every task call; a task of another principal reads as unknown).
async fn load(ctx: &RequestContext) -> Result<TaskRecord, RpcError> {
    let id = task_id(ctx)?;
    let store = &ctx.0.session.server.tasks.store;
    let record = store
        .get(id)
        .await
        .map_err(|e| RpcError::internal(format!("the task store failed: {e}")))?;
    match record {
        Some(r) if r.owner.is_none() || r.owner == owner_of(ctx) => Ok(r),
        _ => Err(RpcError::invalid_params(format!(
            "unknown or expired taskId {id:?}"
        ))),
    }
}

async fn get(ctx: &RequestContext) -> Result<TaskRecord, RpcError> {
    load(ctx).await
}

async fn update(ctx: &RequestContext) -> Result<Value, RpcError> {
    let responses = match ctx.params().get("inputResponses") {
        Some(Value::Object(m)) => {
            if let Some((k, _)) = m.iter().find(|(_, v)| !v.is_object()) {
                return Err(RpcError::invalid_params(format!(
                    "inputResponses.{k} must be a result object"
                )));
            }
            m.clone()
        }
        Some(_) => return Err(RpcError::invalid_params("inputResponses must be an object")),
        None => return Err(RpcError::invalid_params("inputResponses is required")),
    };
    let record = load(ctx).await?;
    if let Some(live) = ctx.0.session.server.tasks.live(&record.id) {
        engine::update(live, responses).await;
    }
    Ok(json!({}))
}

async fn cancel(ctx: &RequestContext) -> Result<TaskRecord, RpcError> {
    let mut record = load(ctx).await?;
    let server = &ctx.0.session.server;
    if let Some(live) = server.tasks.live(&record.id) {
        engine::cancel(live, ctx).await;
    } else if !record.status.is_terminal() {
        // Run by another instance (or by one that stopped): the record alone says cancelled.
        record.status = super::TaskStatus::Cancelled;
        record.updated_ms = super::store::now_ms();
        record.input_requests.clear();
        server
            .tasks
            .store
            .put(record.clone())
            .await
            .map_err(|e| RpcError::internal(format!("the task store failed: {e}")))?;
    }
    load(ctx).await
}

/// 2025-11-25 `tasks/result`: waits until the task is terminal, then answers what the original
/// request would have (its result, with the related-task `_meta`, or its error).
async fn result(ctx: &RequestContext) -> Result<Value, RpcError> {
    loop {
        let record = load(ctx).await?;
        if record.status.is_terminal() {
            return match (&record.status, record.result) {
                (super::TaskStatus::Completed, Some(Value::Object(mut r))) => {
                    let meta = r
                        .entry("_meta")
                        .or_insert_with(|| Value::Object(Map::new()));
                    if let (Value::Object(m), Value::Object(add)) =
                        (meta, engine::related_task_meta(&record.id))
                    {
                        m.extend(add);
                    }
                    Ok(Value::Object(r))
                }
                _ => Err(engine::unfinished_error(&TaskRecord {
                    result: None,
                    ..record
                })),
            };
        }
        let live = ctx.0.session.server.tasks.live(&record.id);
        let cancel = ctx.cancel_flag().clone();
        tokio::select! {
            _ = wait_change(live) => {}
            _ = cancel.cancelled() => return Err(RpcError::internal("tasks/result was cancelled")),
        }
    }
}

/// Waits for a change of a task run here, or a poll interval for one run by another instance;
/// bounded, so a change between the caller's read and this wait is seen on its next read.
async fn wait_change(live: Option<Arc<Live>>) {
    let poll = Duration::from_millis(250);
    match live {
        Some(l) => {
            let _ = tokio::time::timeout(poll, l.changed.notified()).await;
        }
        None => tokio::time::sleep(poll).await,
    }
}

/// 2025-11-25 `tasks/list`: the principal's tasks, paginated like the other lists.
async fn list(ctx: &RequestContext) -> Result<Value, RpcError> {
    let cursor = match ctx.params().get("cursor") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return Err(RpcError::invalid_params("cursor must be a string")),
    };
    let server = &ctx.0.session.server;
    let owner = owner_of(ctx);
    let all: Vec<Value> = server
        .tasks
        .store
        .list()
        .await
        .map_err(|e| RpcError::internal(format!("the task store failed: {e}")))?
        .into_iter()
        .filter(|r| r.owner.is_none() || r.owner == owner)
        .map(legacy_task)
        .collect();
    let (page, next) = paginate(all.iter(), cursor, server.config.page_size)?;
    let mut out = json!({ "tasks": page });
    if let Some(n) = next {
        out["nextCursor"] = json!(n);
    }
    Ok(out)
}
