//! Tools called as tasks, client side: the call declares the tasks extension (2026-07-28) or sends
//! `params.task` (2025-11-25); input the server needs before the task exists is answered in MRTR
//! rounds first. A task is then polled at the server's `pollIntervalMs`, and sooner when a
//! subscription to its status changes (a listen stream naming it, or the 2025-11-25 session's
//! notifications) says it changed; its `inputRequests` are answered with the registered input
//! handlers through `tasks/update` (at 2025-11-25 the server asks with real requests, which the same
//! handlers answer, and `tasks/result` waits for the end).

use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::connection::CallOptions;
use super::handle::Client;
use super::mrtr::{ResultKind, call_with_input_as, fulfil_all, result_kind_as};
use super::subscription::{Subscription, SubscriptionFilter};
use super::typed::{parse_result, to_arguments};
use crate::error::{Error, Result};
use crate::model::{CallToolResult, Task, TaskStatus};
use crate::version::Era;

/// How long to wait between polls when the server names no interval.
const DEFAULT_POLL: Duration = Duration::from_millis(500);

/// The shortest wait for the acknowledgement of a status subscription (the poll interval when
/// longer, at most the request timeout).
const ACK_WAIT_MIN: Duration = Duration::from_secs(1);

/// The server's `pollIntervalMs` for this task, or [`DEFAULT_POLL`].
fn poll_interval(task: &Task) -> Duration {
    task.poll_interval_ms
        .map_or(DEFAULT_POLL, |ms| Duration::from_millis(ms.max(1)))
}

/// Waits until the task may have changed: its next status notification or, whichever comes first
/// (and always without a subscription), the server's poll interval. A subscription that ends is
/// dropped and polling goes on.
async fn wait_for_change(pushed: &mut Option<Subscription>, task: &Task) {
    let interval = poll_interval(task);
    let Some(sub) = pushed.as_mut() else {
        return tokio::time::sleep(interval).await;
    };
    tokio::select! {
        note = sub.next() => if note.is_none() {
            *pushed = None;
        },
        () = tokio::time::sleep(interval) => {}
    }
}

/// What calling a tool as a task gave: the server decides, call by call.
#[derive(Clone, Debug, PartialEq)]
pub enum TaskCall {
    /// The server answered at once.
    Complete(CallToolResult),
    /// The server created a task; follow it with [`Client::wait_task`].
    Task(Task),
}

impl Client {
    /// Calls a tool offering to run it as a task. Input needed before the task exists is answered
    /// first (MRTR rounds).
    pub async fn call_tool_as_task(
        &self,
        name: &str,
        arguments: impl Serialize,
    ) -> Result<TaskCall> {
        let arguments = to_arguments("tool arguments", arguments)?;
        let mut params = json!({"name": name, "arguments": arguments});
        if self.era() == Era::Legacy {
            // 2025-11-25: the request asks for a task; the server picks the TTL.
            params["task"] = json!({});
        }
        let opts = CallOptions::default();
        let raw = call_with_input_as(self, "tools/call", params, &opts, true).await?;
        let task = match (result_kind_as("tools/call", &raw, true)?, raw.get("task")) {
            (ResultKind::Task, _) => Some(raw.clone()),
            // 2025-11-25: `CreateTaskResult {task}`.
            (_, Some(t @ Value::Object(_))) => Some(t.clone()),
            _ => None,
        };
        match task {
            Some(t) => Ok(TaskCall::Task(parse_result("tools/call", t)?)),
            None => Ok(TaskCall::Complete(parse_result("tools/call", raw)?)),
        }
    }

    /// Calls a tool as a task (when the server makes one) and waits for its result.
    pub async fn call_tool_task(
        &self,
        name: &str,
        arguments: impl Serialize,
    ) -> Result<CallToolResult> {
        match self.call_tool_as_task(name, arguments).await? {
            TaskCall::Complete(r) => Ok(r),
            TaskCall::Task(t) => self.wait_task(&t).await,
        }
    }

    /// `tasks/get`: the task's current state.
    pub async fn get_task(&self, task_id: &str) -> Result<Task> {
        let raw = self.task_request("tasks/get", task_id, None).await?;
        parse_result("tasks/get", raw)
    }

    /// `tasks/cancel`. Cancellation is cooperative: the task may still end otherwise.
    pub async fn cancel_task(&self, task_id: &str) -> Result<()> {
        self.task_request("tasks/cancel", task_id, None)
            .await
            .map(|_| ())
    }

    /// Follows a task to its end and returns its result: reads it again at the server's interval,
    /// or as soon as a status notification says it changed (a `subscriptions/listen` stream naming
    /// the task, opened for the wait when the server takes one), answering its input requests on
    /// the way (modern), or waits on `tasks/result` (2025-11-25). A failed
    /// task is its JSON-RPC error ([`Error::Rpc`]); a cancelled one is [`Error::Cancelled`].
    pub async fn wait_task(&self, task: &Task) -> Result<CallToolResult> {
        self.follow(task, None).await
    }

    /// [`wait_task`](Self::wait_task), calling `on_status` with the task as given and then whenever
    /// a poll shows a new status or status message, until it ends. At 2025-11-25 the task is then
    /// polled with `tasks/get` (at the interval, or sooner on the session's
    /// `notifications/tasks/status`) until it ends (the server's own requests for input are answered
    /// meanwhile by the input handlers) before `tasks/result` fetches its outcome.
    pub async fn follow_task(
        &self,
        task: &Task,
        mut on_status: impl FnMut(&Task) + Send,
    ) -> Result<CallToolResult> {
        self.follow(task, Some(&mut on_status)).await
    }

    async fn follow(
        &self,
        task: &Task,
        mut on_status: Option<&mut (dyn FnMut(&Task) + Send)>,
    ) -> Result<CallToolResult> {
        let mut current = task.clone();
        if let Some(f) = on_status.as_mut() {
            f(&current);
        }
        if self.era() == Era::Legacy {
            if on_status.is_some() {
                let mut pushed = self.status_pushes(&current).await;
                while !current.status.is_terminal() {
                    wait_for_change(&mut pushed, &current).await;
                    current = self.next_state(&current, &mut on_status).await?;
                }
            }
            let raw = self
                .task_request("tasks/result", &current.task_id, None)
                .await?;
            return parse_result("tasks/result", raw);
        }
        let max = self.conn.config.max_input_rounds;
        let mut rounds = 0;
        let mut pushed = self.status_pushes(&current).await;
        loop {
            match current.status {
                TaskStatus::Completed => {
                    let result = current.result.take().ok_or_else(|| {
                        Error::Protocol("a completed task carries no result".into())
                    })?;
                    return parse_result("tasks/get", result);
                }
                TaskStatus::Failed => {
                    return Err(match current.error.take() {
                        Some(e) => Error::Rpc(e),
                        None => Error::Protocol("a failed task carries no error".into()),
                    });
                }
                TaskStatus::Cancelled => return Err(Error::Cancelled),
                TaskStatus::InputRequired => {
                    rounds += 1;
                    if rounds > max {
                        return Err(Error::Protocol(format!(
                            "task {} still needed input after {max} rounds",
                            current.task_id
                        )));
                    }
                    let requests = current.input_requests.take().unwrap_or_default();
                    let answers = fulfil_all(self, requests).await?;
                    self.task_request("tasks/update", &current.task_id, Some(answers))
                        .await?;
                }
                TaskStatus::Working => wait_for_change(&mut pushed, &current).await,
            }
            current = self.next_state(&current, &mut on_status).await?;
        }
    }

    /// A subscription to the task's status changes (a listen stream naming it, or the 2025-11-25
    /// session's notifications), when the task is still running and the server takes one; `None`
    /// leaves the follower to poll alone.
    async fn status_pushes(&self, task: &Task) -> Option<Subscription> {
        if task.status.is_terminal() {
            return None;
        }
        let filter = SubscriptionFilter {
            task_ids: Some(vec![task.task_id.clone()]),
            ..Default::default()
        };
        // A server that never acknowledges must not hold the follower up: it then polls.
        let ack_wait = poll_interval(task)
            .max(ACK_WAIT_MIN)
            .min(self.conn.config.request_timeout);
        match super::subscription::open_within(self, filter, ack_wait).await {
            Ok(sub) if sub.acknowledged()["taskIds"] == json!([task.task_id]) => Some(sub),
            Ok(_) => None,
            Err(e) => {
                tracing::debug!(task = %task.task_id, "polling the task: no status subscription: {e}");
                None
            }
        }
    }

    /// `tasks/get`, reported to `on_status` when the status or its message changed.
    async fn next_state(
        &self,
        current: &Task,
        on_status: &mut Option<&mut (dyn FnMut(&Task) + Send)>,
    ) -> Result<Task> {
        let next = self.get_task(&current.task_id).await?;
        if (next.status, &next.status_message) != (current.status, &current.status_message) {
            if let Some(f) = on_status.as_mut() {
                f(&next);
            }
        }
        Ok(next)
    }

    async fn task_request(
        &self,
        method: &str,
        task_id: &str,
        responses: Option<Map<String, Value>>,
    ) -> Result<Value> {
        let mut params = json!({ "taskId": task_id });
        if let Some(r) = responses {
            params["inputResponses"] = Value::Object(r);
        }
        let raw = self
            .request_as(method, params, &CallOptions::default(), true)
            .await?;
        match result_kind_as(method, &raw, true)? {
            ResultKind::Complete => Ok(raw),
            _ => Err(Error::Protocol(format!(
                "{method} answered resultType {}",
                raw["resultType"]
            ))),
        }
    }
}
