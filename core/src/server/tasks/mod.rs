//! Tasks: requests that answer with a task handle and finish later (the tasks extension
//! `io.modelcontextprotocol/tasks` for 2026-07-28, and the task wire of 2025-11-25).
//!
//! A tool opts in with `execution.taskSupport` in its definition (`optional` or `required`;
//! `forbidden`, the default, never runs as a task). A call runs as a task when the client can take
//! one: a modern request whose client capabilities declare the extension, or a 2025-11-25 request
//! with `params.task`. A `required` tool called by any other client is refused before its handler
//! runs (modern: -32021 naming the extension; 2025-11-25: -32601, as that revision says).
//!
//! Handlers registered with closures ([`ServerBuilder::tool`](crate::server::ServerBuilder::tool),
//! `tool_async`) start the task before they run. A raw handler decides itself, with
//! [`Responder::start_task`](crate::server::Responder::start_task): it may first gather input
//! synchronously (MRTR rounds before the task exists, as the extension recommends) and start the
//! task on the last round.
//!
//! Task state is kept in a [`TaskStore`] (in memory by default, [`MemoryTaskStore`]); the handler of
//! a running task lives in the instance that runs it.

mod engine;
mod methods;
mod store;
mod support;
mod wire;

use serde_json::Value;

pub(crate) use engine::{finish, start};
pub(crate) use methods::handle;
pub use store::{
    MemoryTaskStore, TaskFuture, TaskOwner, TaskRecord, TaskStatus, TaskStore, TaskStoreError,
};

pub(crate) use support::TaskOffer;
pub use support::{RELATED_TASK, TaskSupport};

use crate::error::RpcError;
use crate::server::state::RequestContext;
use crate::version::{Era, ProtocolVersion};

pub use crate::model::tasks::EXTENSION;

/// The principal of a request, as a task owner.
pub(crate) fn owner_of(ctx: &RequestContext) -> Option<TaskOwner> {
    ctx.auth().map(|a| TaskOwner {
        subject: a.subject.clone(),
        client_id: a.client_id.clone(),
    })
}

/// Whether tasks exist at this revision (the extension, or the 2025-11-25 task wire).
pub(crate) fn exist_at(version: &ProtocolVersion) -> bool {
    version.era() == Era::Modern || *version == ProtocolVersion::V2025_11_25
}

/// Whether the client of a request can take tasks.
pub(crate) fn client_takes_tasks(ctx: &RequestContext) -> bool {
    match ctx.era() {
        Era::Modern => ctx.has_client_capability(&["extensions", EXTENSION]),
        Era::Legacy => exist_at(ctx.protocol_version()),
    }
}

/// Decides, before the handler runs, whether a `tools/call` of a tool with `support` may run as a
/// task: `Ok(None)` synchronously, an error when the tool needs a task the client cannot take.
pub(crate) fn offer(
    ctx: &RequestContext,
    support: TaskSupport,
    default_ttl_ms: Option<u64>,
) -> Result<Option<TaskOffer>, RpcError> {
    if support == TaskSupport::Forbidden || !exist_at(ctx.protocol_version()) {
        return Ok(None);
    }
    let offered = match ctx.era() {
        Era::Modern => client_takes_tasks(ctx).then_some(TaskOffer {
            ttl_ms: default_ttl_ms,
            legacy: false,
        }),
        // 2025-11-25: the request asks with `task: {ttl?}`; a `task` param is ignored at 2026-07-28.
        Era::Legacy => match ctx.params().get("task") {
            None | Some(Value::Null) => None,
            Some(Value::Object(t)) => {
                let ttl_ms = match t.get("ttl") {
                    None | Some(Value::Null) => default_ttl_ms,
                    Some(v) => Some(v.as_u64().ok_or_else(|| {
                        RpcError::invalid_params("task.ttl must be a non-negative integer")
                    })?),
                };
                // The server may shorten a requested TTL, never lengthen it past its own limit.
                let ttl_ms = match (ttl_ms, default_ttl_ms) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                Some(TaskOffer {
                    ttl_ms,
                    legacy: true,
                })
            }
            Some(_) => return Err(RpcError::invalid_params("task must be an object")),
        },
    };
    match (offered, support) {
        (Some(o), _) => Ok(Some(o)),
        (None, TaskSupport::Required) => Err(match ctx.era() {
            Era::Modern => {
                RpcError::missing_capability(serde_json::json!({"extensions": { EXTENSION: {} }}))
            }
            Era::Legacy => RpcError::new(
                crate::error::code::METHOD_NOT_FOUND,
                "this tool can only run as a task: call it with params.task",
            ),
        }),
        (None, _) => Ok(None),
    }
}
