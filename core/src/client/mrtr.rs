//! Multi round-trip requests, client side: read `resultType`, fulfil input requests through the
//! registered handlers, and retry with a new id, the original params, the answers and the server's
//! `requestState` echoed unchanged. Bounded by `max_input_rounds`.

use serde_json::{Map, Value};

use super::connection::CallOptions;
use super::handle::Client;
use crate::error::{Error, Result};
use crate::model::mrtr::INPUT_METHODS;

/// How a result is to be read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ResultKind {
    Complete,
    InputRequired,
    /// A `CreateTaskResult` (only when the call declared the tasks extension).
    Task,
}

/// Reads `resultType`: missing means complete (legacy servers); unknown values are invalid. With
/// `tasks` (the call declared the tasks extension) a `tools/call` may also answer `"task"`.
pub(crate) fn result_kind_as(method: &str, result: &Value, tasks: bool) -> Result<ResultKind> {
    match result.get("resultType") {
        Some(Value::String(s)) if s == "task" && tasks && method == "tools/call" => {
            Ok(ResultKind::Task)
        }
        None | Some(Value::Null) => Ok(ResultKind::Complete),
        Some(Value::String(s)) if s == "complete" => Ok(ResultKind::Complete),
        Some(Value::String(s)) if s == "input_required" => {
            if INPUT_METHODS.contains(&method) {
                Ok(ResultKind::InputRequired)
            } else {
                Err(Error::Protocol(format!(
                    "{method} answered input_required, which only tools/call, prompts/get and resources/read may"
                )))
            }
        }
        Some(other) => Err(Error::Protocol(format!(
            "{method} answered an unknown resultType {other}"
        ))),
    }
}

pub(crate) async fn call_with_input(
    client: &Client,
    method: &str,
    params: Value,
    opts: &CallOptions,
) -> Result<Value> {
    call_with_input_as(client, method, params, opts, false).await
}

/// Like [`call_with_input`]; with `tasks` the requests declare the tasks extension and a
/// `CreateTaskResult` ends the rounds (input gathered before the task exists, SEP-2663).
pub(crate) async fn call_with_input_as(
    client: &Client,
    method: &str,
    params: Value,
    opts: &CallOptions,
    tasks: bool,
) -> Result<Value> {
    let Value::Object(original) = params else {
        return Err(Error::InvalidArgument("params must be an object".into()));
    };
    let max = client.conn.config.max_input_rounds;
    let mut retry: Option<(Map<String, Value>, Option<Value>)> = None;
    for _round in 0..=max {
        let mut p = original.clone();
        if let Some((responses, state)) = &retry {
            p.insert("inputResponses".into(), Value::Object(responses.clone()));
            if let Some(s) = state {
                p.insert("requestState".into(), s.clone());
            }
        }
        let result = client
            .request_as(method, Value::Object(p), opts, tasks)
            .await?;
        if result_kind_as(method, &result, tasks)? != ResultKind::InputRequired {
            return Ok(result);
        }
        let requests = match result.get("inputRequests") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(m)) => m.clone(),
            Some(_) => return Err(Error::Protocol("inputRequests must be an object".into())),
        };
        let state = match result.get("requestState") {
            None | Some(Value::Null) => None,
            Some(s @ Value::String(_)) => Some(s.clone()),
            Some(_) => return Err(Error::Protocol("requestState must be a string".into())),
        };
        if requests.is_empty() && state.is_none() {
            return Err(Error::Protocol(
                "input_required without inputRequests or requestState".into(),
            ));
        }
        retry = Some((fulfil_all(client, requests).await?, state));
    }
    Err(Error::Protocol(format!(
        "{method} still needed input after {max} rounds"
    )))
}

/// Answers every input request concurrently.
pub(crate) async fn fulfil_all(
    client: &Client,
    requests: Map<String, Value>,
) -> Result<Map<String, Value>> {
    let mut tasks = tokio::task::JoinSet::new();
    for (key, req) in requests {
        let conn = client.conn.clone();
        tasks.spawn(async move {
            let method = req
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let params = req
                .get("params")
                .cloned()
                .unwrap_or(Value::Object(Map::new()));
            let answer = conn.fulfil(&method, params).await;
            (key, method, answer)
        });
    }
    let mut out = Map::new();
    while let Some(joined) = tasks.join_next().await {
        let (key, method, answer) =
            joined.map_err(|e| Error::Protocol(format!("input handler failed: {e}")))?;
        match answer {
            Ok(v) => {
                out.insert(key, v);
            }
            Err(e) => {
                return Err(Error::Protocol(format!(
                    "cannot answer the server's {method} request {key:?}: {}",
                    e.message
                )));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn result_types() {
        assert_eq!(
            result_kind_as("tools/list", &json!({}), false).unwrap(),
            ResultKind::Complete
        );
        assert_eq!(
            result_kind_as("tools/call", &json!({"resultType": "complete"}), false).unwrap(),
            ResultKind::Complete
        );
        assert_eq!(
            result_kind_as(
                "tools/call",
                &json!({"resultType": "input_required"}),
                false
            )
            .unwrap(),
            ResultKind::InputRequired
        );
        assert!(
            result_kind_as(
                "tools/list",
                &json!({"resultType": "input_required"}),
                false
            )
            .is_err()
        );
        assert!(result_kind_as("tools/call", &json!({"resultType": "task"}), false).is_err());
        assert_eq!(
            result_kind_as("tools/call", &json!({"resultType": "task"}), true).unwrap(),
            ResultKind::Task
        );
        assert!(result_kind_as("tasks/get", &json!({"resultType": "task"}), true).is_err());
        assert!(result_kind_as("tools/call", &json!({"resultType": 3}), false).is_err());
    }
}
