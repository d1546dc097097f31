//! What the rest of the server needs to know of tasks before any task exists: whether a tool
//! supports them, that a request may run as one, and the `_meta` key of 2025-11-25 task messages.

use serde_json::Value;

/// The `_meta` key tying 2025-11-25 messages to their task.
pub const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// That a request may run as a task, decided before its handler runs.
#[derive(Clone, Debug)]
pub(crate) struct TaskOffer {
    /// The TTL the task gets.
    pub(crate) ttl_ms: Option<u64>,
    /// Created by a 2025-11-25 `params.task`.
    pub(crate) legacy: bool,
}

/// Whether a tool runs as a task (`Tool.execution.taskSupport`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TaskSupport {
    /// Never (the default).
    #[default]
    Forbidden,
    /// When the client can take a task; otherwise synchronously.
    Optional,
    /// Only as a task.
    Required,
}

impl TaskSupport {
    /// Reads `execution.taskSupport` of a Tool definition; anything but the three names is an error.
    pub fn of_definition(definition: &Value) -> Result<TaskSupport, String> {
        match definition.get("execution").map(|e| e.get("taskSupport")) {
            None | Some(None) => Ok(TaskSupport::Forbidden),
            Some(Some(v)) => match v.as_str() {
                Some("forbidden") => Ok(TaskSupport::Forbidden),
                Some("optional") => Ok(TaskSupport::Optional),
                Some("required") => Ok(TaskSupport::Required),
                _ => Err(format!(
                    "execution.taskSupport must be \"forbidden\", \"optional\" or \"required\", got {v}"
                )),
            },
        }
    }
}
