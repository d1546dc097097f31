//! Tasks (the tasks extension at 2026-07-28, the task wire of 2025-11-25) through the C ABI: a tool
//! opts in with `"execution": {"taskSupport": "optional" | "required"}` in its JSON definition and
//! its handler starts the task with `mcp_responder_start_task`; the server config sets how long
//! tasks are kept and how often clients poll; a client calls a tool as a task and follows it with
//! `mcp_client_get_task`, `_cancel_task`, `_task_result` (or `_task_result_async`) and `_list_tasks`.

use std::ffi::{c_char, c_void};

use libmcp::client::TaskCall;
use serde_json::{Value, json};

use crate::client::{mcp_client, run};
use crate::client_async::{mcp_call, mcp_call_cb, start_call};
use crate::config_change::change;
use crate::error::mcp_error;
use crate::handler::{Userdata, mcp_userdata_free_cb};
use crate::request::mcp_request;
use crate::responder::mcp_responder;
use crate::server_config::mcp_server_config;
use crate::status::mcp_status;
use crate::string::{mcp_str, mcp_string};

/// Runs the request as a task, if it may: a `tools/call` of a tool whose definition sets
/// `execution.taskSupport`, from a client that can take a task, not running as one yet. The client
/// is then answered at once with the task, and the answer given later through this responder
/// (`mcp_responder_result`, `_tool_error`, `_error`, `_input_required`) completes the task instead
/// (an input request puts it in `input_required`; the handler is called again, already inside the
/// task, once the client answers). Call it first thing, or after gathering input in MRTR rounds
/// before the task exists. `*started_out` (may be NULL) is set to whether the request now runs as a
/// task; false leaves it to be answered directly, as usual. `MCP_STATUS_ALREADY_USED` after an
/// answer. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_start_task(
    responder: *const mcp_responder,
    started_out: *mut bool,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(responder);
        match r.start_task() {
            Ok(started) => {
                if !started_out.is_null() {
                    unsafe { *started_out = started };
                }
                mcp_status::MCP_STATUS_OK
            }
            Err(status) => status,
        }
    })
}

/// The id of the task the request runs as; empty before `mcp_responder_start_task` started one (and
/// for requests that never run as one). Valid as the other `mcp_request_*` views.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_task_id(request: *const mcp_request) -> mcp_str {
    ffi_boundary!(mcp_str::empty(), {
        match unsafe { request.as_ref() } {
            Some(r) => r.task_id(),
            None => mcp_str::empty(),
        }
    })
}

/// Whether `mcp_responder_start_task` would start a task for this request now. False for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_can_run_as_task(request: *const mcp_request) -> bool {
    ffi_boundary!(false, {
        unsafe { request.as_ref() }.is_some_and(|r| r.ctx.can_run_as_task())
    })
}

/// Sets how long a task is kept after its creation, in milliseconds (`ttlMs`; default one hour);
/// 0 keeps tasks until the server stops (or its task store drops them).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_task_ttl_ms(
    config: *mut mcp_server_config,
    ttl_ms: u64,
) -> mcp_status {
    ffi_boundary!({
        change(&mut try_mut!(config).config, |c| {
            c.task_ttl_ms = (ttl_ms > 0).then_some(ttl_ms)
        })
    })
}

/// Sets how often clients are asked to poll a task, in milliseconds (`pollIntervalMs`; default
/// 500). 0 is `MCP_STATUS_INVALID_ARGUMENT` (the reason goes to the log callback).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_config_set_task_poll_interval_ms(
    config: *mut mcp_server_config,
    interval_ms: u64,
) -> mcp_status {
    ffi_boundary!({
        let config = try_mut!(config);
        change(&mut config.config, |c| {
            c.task_poll_interval_ms = interval_ms
        })
    })
}

/// Calls tool `name` with `arguments` (a JSON object; NULL with length 0 means `{}`) offering to run
/// it as a task; input the server needs before the task exists is answered first by the handlers.
/// The server decides: `*json_out` gets `{"task": Task}` when it made a task (follow it with
/// `mcp_client_task_result` and the others, by its `taskId`), or `{"result": CallToolResult}` when
/// it answered at once. See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_call_tool_as_task(
    client: *const mcp_client,
    name: *const c_char,
    name_len: usize,
    arguments: *const c_char,
    arguments_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let name = try_str!(name, name_len).to_string();
        let args = try_json_or_empty!(arguments, arguments_len);
        run(client, json_out, error_out, |cl| async move {
            Ok(match cl.call_tool_as_task(&name, args).await? {
                TaskCall::Task(t) => json!({ "task": t }),
                TaskCall::Complete(r) => json!({ "result": r }),
            })
        })
    })
}

/// `tasks/get`: the task's current state (a Task object; at 2026-07-28 with its `result` or `error`
/// once terminal and its `inputRequests` while `input_required`) goes to `*json_out`. An unknown or
/// expired id is `MCP_STATUS_RPC_ERROR` (-32602). See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_get_task(
    client: *const mcp_client,
    task_id: *const c_char,
    task_id_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let id = try_str!(task_id, task_id_len).to_string();
        run(client, json_out, error_out, |cl| async move {
            let task = cl.get_task(&id).await?;
            Ok(serde_json::to_value(task).unwrap_or(Value::Null))
        })
    })
}

/// `tasks/cancel`. Cancellation is cooperative: the task is `cancelled` unless it had ended already
/// (the handler sees `mcp_responder_on_cancel`). `*error_out` (may be NULL) as for the other calls.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_cancel_task(
    client: *const mcp_client,
    task_id: *const c_char,
    task_id_len: usize,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let id = try_str!(task_id, task_id_len).to_string();
        let mut out: *mut mcp_string = std::ptr::null_mut();
        let status = run(client, &mut out, error_out, |cl| async move {
            cl.cancel_task(&id).await.map(|()| Value::Null)
        });
        if !out.is_null() {
            crate::string::mcp_string_free(out);
        }
        status
    })
}

/// Follows a task to its end and writes the tool's CallToolResult to `*json_out`: polls at the
/// server's interval, answering the task's input requests with the handlers (2026-07-28), or waits
/// on `tasks/result` (2025-11-25). A failed task is `MCP_STATUS_RPC_ERROR` with its error; a
/// cancelled one `MCP_STATUS_CANCELLED` (2026-07-28) or `MCP_STATUS_RPC_ERROR`. Blocks until the
/// task ends (see `mcp_client_task_result_async`). See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_task_result(
    client: *const mcp_client,
    task_id: *const c_char,
    task_id_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let id = try_str!(task_id, task_id_len).to_string();
        run(client, json_out, error_out, |cl| result_of(cl, id))
    })
}

async fn result_of(cl: libmcp::client::Client, id: String) -> libmcp::Result<Value> {
    let task = cl.get_task(&id).await?;
    let result = cl.wait_task(&task).await?;
    Ok(serde_json::to_value(result).unwrap_or(Value::Null))
}

/// Like `mcp_client_task_result`, but returns at once: the outcome goes to `cb(userdata, ...)`
/// exactly once, on a runtime thread (see `mcp_call_cb`). When `call_out` is not NULL a handle is
/// written there: `mcp_call_cancel` stops waiting (the task itself goes on; cancel it with
/// `mcp_client_cancel_task`); free it with `mcp_call_free`. The library owns `userdata` from this
/// call on and calls `userdata_free(userdata)` (may be NULL) exactly once: after `cb` has returned,
/// or at once when this returns an error status (then no callback runs and nothing is written).
/// Any thread, also from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_task_result_async(
    client: *const mcp_client,
    task_id: *const c_char,
    task_id_len: usize,
    cb: mcp_call_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
    call_out: *mut *mut mcp_call,
) -> mcp_status {
    let userdata = Userdata::new(userdata, userdata_free);
    ffi_boundary!({
        let c = try_ref!(client);
        let id = try_str!(task_id, task_id_len).to_string();
        let Some(cb) = cb else {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        };
        start_call(c, 0, None, cb, userdata, call_out, |cl, _opts| {
            result_of(cl, id)
        });
        mcp_status::MCP_STATUS_OK
    })
}

/// One page of `tasks/list` (2025-11-25; the 2026-07-28 extension has none): `{"tasks": [...],
/// "nextCursor"?}` goes to `*json_out`. `cursor` (NULL with length 0 for the first page) is the
/// previous page's `nextCursor`. See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_list_tasks(
    client: *const mcp_client,
    cursor: *const c_char,
    cursor_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let params = if cursor.is_null() && cursor_len == 0 {
            json!({})
        } else {
            json!({ "cursor": try_str!(cursor, cursor_len) })
        };
        run(client, json_out, error_out, |cl| async move {
            cl.call("tasks/list", params, &crate::client::options(0))
                .await
        })
    })
}
