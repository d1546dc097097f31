//! The JSON shapes of tasks on both wires: the tasks extension's flat `CreateTaskResult` and
//! `DetailedTask` (`ttlMs`, `pollIntervalMs`, inlined `result` / `error` / `inputRequests`), and the
//! 2025-11-25 `Task` object (`ttl`, `pollInterval`) nested under `task` in its `CreateTaskResult`.

use serde_json::{Map, Value, json};

use super::store::{TaskRecord, TaskStatus};

/// An instant in milliseconds since the Unix epoch as ISO 8601 UTC (`2026-07-28T12:00:00.000Z`).
pub(crate) fn iso8601(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (the proleptic Gregorian calendar, era-based).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

/// The fields of a task object, under the names of the wire in use for the TTL and poll interval.
fn task_fields(r: &TaskRecord, ttl_key: &str, poll_key: &str) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("taskId".into(), json!(r.id));
    o.insert("status".into(), json!(r.status.as_str()));
    if let Some(m) = &r.status_message {
        o.insert("statusMessage".into(), json!(m));
    }
    o.insert("createdAt".into(), json!(iso8601(r.created_ms)));
    o.insert("lastUpdatedAt".into(), json!(iso8601(r.updated_ms)));
    o.insert(ttl_key.into(), json!(r.ttl_ms));
    if let Some(p) = r.poll_interval_ms {
        o.insert(poll_key.into(), json!(p));
    }
    o
}

/// The fields every modern task object carries (the extension's `Task`).
fn modern_task(r: &TaskRecord) -> Map<String, Value> {
    task_fields(r, "ttlMs", "pollIntervalMs")
}

/// The modern `CreateTaskResult`: the task's fields at the top level, `resultType: "task"`.
pub(crate) fn create_result(r: &TaskRecord) -> Map<String, Value> {
    let mut o = modern_task(r);
    o.insert("resultType".into(), json!("task"));
    o
}

/// The modern `DetailedTask` (the result of `tasks/get` and the params of `notifications/tasks`):
/// what the status calls for inlined.
pub(crate) fn detailed(r: &TaskRecord) -> Map<String, Value> {
    let mut o = modern_task(r);
    match r.status {
        TaskStatus::InputRequired => {
            o.insert(
                "inputRequests".into(),
                Value::Object(r.input_requests.clone()),
            );
        }
        TaskStatus::Completed => {
            o.insert(
                "result".into(),
                r.result.clone().unwrap_or_else(|| json!({})),
            );
        }
        TaskStatus::Failed => {
            let error = r.error.clone().unwrap_or_else(
                || json!({"code": crate::error::code::INTERNAL_ERROR, "message": "the task failed"}),
            );
            o.insert("error".into(), error);
        }
        TaskStatus::Working | TaskStatus::Cancelled => {}
    }
    o
}

/// The 2025-11-25 `Task` object.
pub(crate) fn legacy_task(r: &TaskRecord) -> Map<String, Value> {
    task_fields(r, "ttl", "pollInterval")
}

#[cfg(test)]
mod tests {
    use super::iso8601;

    #[test]
    fn iso8601_formats_utc_with_milliseconds() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(iso8601(1_785_240_000_000), "2026-07-28T12:00:00.000Z");
        assert_eq!(iso8601(4_102_444_799_999), "2099-12-31T23:59:59.999Z");
    }
}
