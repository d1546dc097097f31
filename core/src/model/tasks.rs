//! The tasks extension's task object (`io.modelcontextprotocol/tasks`, 2026-07-28), as the client
//! reads it from `CreateTaskResult`, `tasks/get` and `notifications/tasks`; the 2025-11-25 `Task`
//! (`ttl`, `pollInterval`) reads into the same type.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::RpcError;

/// The identifier of the tasks extension.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// The status of a task. The last three are terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Running.
    Working,
    /// Waiting for the client to answer `inputRequests`.
    InputRequired,
    /// Finished with a result (which may be a tool error, `isError: true`).
    Completed,
    /// Finished with a JSON-RPC error.
    Failed,
    /// Cancelled by `tasks/cancel`.
    Cancelled,
}

impl TaskStatus {
    /// The wire name (`working`, `input_required`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    /// Whether nothing can change the task any more.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

/// A task: its status and, as the status calls for, what it asks (`inputRequests`), its result or
/// its error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    /// The task id.
    pub task_id: String,
    /// The current status.
    pub status: TaskStatus,
    /// A human-readable note on the status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// Creation time (ISO 8601).
    pub created_at: String,
    /// Time of the last status change (ISO 8601).
    pub last_updated_at: String,
    /// How long the server keeps the task after creation; `None` when it did not say.
    #[serde(default, alias = "ttl")]
    pub ttl_ms: Option<u64>,
    /// How often the server asks to be polled.
    #[serde(
        default,
        alias = "pollInterval",
        skip_serializing_if = "Option::is_none"
    )]
    pub poll_interval_ms: Option<u64>,
    /// The outstanding input requests while `input_required`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<Map<String, Value>>,
    /// The result of a completed task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// The error of a failed task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<RpcError>,
}
