//! Multi round-trip requests, server side. One handler serves both eras:
//! - modern: the handler's [`InputRequired`] becomes an `InputRequiredResult` with a sealed
//!   `requestState`; the client's retry is verified and handed back through the context;
//! - legacy: the engine sends the real server-to-client requests (`elicitation/create`,
//!   `sampling/createMessage`, `roots/list`), waits for the answers and re-invokes the handler with them.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::answer::add_server_info;
use super::call;
use super::context::{InputRequired, client_has_capability};
use super::state::{Completion, CtxInner, RequestContext, Responder, ServerInner};
use super::tasks::RELATED_TASK;
use crate::error::RpcError;
use crate::model::mrtr::INPUT_METHODS;
use crate::request_state::{StateBinding, StateError, StateSealer, params_digest};
use crate::version::Era;

/// What a (modern) retry carries: the answers and the verified state.
#[derive(Default)]
pub(crate) struct Retry {
    pub(crate) responses: Option<Map<String, Value>>,
    pub(crate) state: Option<String>,
}

/// Reads `inputResponses` and a verified `requestState` from a (modern) retry.
pub(crate) fn read_retry(
    server: &ServerInner,
    method: &str,
    params: &Value,
) -> Result<Retry, RpcError> {
    let responses = match params.get("inputResponses") {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => {
            if let Some((k, _)) = m.iter().find(|(_, v)| !v.is_object()) {
                return Err(RpcError::invalid_params(format!(
                    "inputResponses.{k} must be a result object"
                )));
            }
            Some(m.clone())
        }
        Some(_) => return Err(RpcError::invalid_params("inputResponses must be an object")),
    };
    let state = match params.get("requestState") {
        None | Some(Value::Null) => None,
        Some(Value::String(token)) => {
            let limit = server.config.max_request_state_bytes;
            if token.len() > StateSealer::sealed_len(limit) {
                return Err(RpcError::invalid_params(format!(
                    "requestState rejected: longer than a sealed state of {limit} bytes (the server's max_request_state_bytes)"
                )));
            }
            let binding = StateBinding {
                method,
                params_digest: params_digest(params),
                principal: None,
            };
            let plain = server.sealer.open(&binding, token).map_err(|e| match e {
                // Not the client's fault: the shared keys are out of reach for now.
                StateError::KeysUnavailable => RpcError::internal(e.to_string()),
                e => RpcError::invalid_params(format!("requestState rejected: {e}")),
            })?;
            Some(
                String::from_utf8(plain)
                    .map_err(|_| RpcError::invalid_params("requestState rejected: not UTF-8"))?,
            )
        }
        Some(_) => return Err(RpcError::invalid_params("requestState must be a string")),
    };
    Ok(Retry { responses, state })
}

/// The capability an input request needs, as a path and as the `requiredCapabilities` object.
fn required_capability(req: &Value) -> Result<(Vec<&'static str>, Value), RpcError> {
    let method = req.get("method").and_then(Value::as_str).unwrap_or("");
    let params = req.get("params");
    match method {
        "elicitation/create" => {
            let url = params.and_then(|p| p.get("mode")).and_then(Value::as_str) == Some("url");
            Ok(if url {
                (
                    vec!["elicitation", "url"],
                    json!({"elicitation": {"url": {}}}),
                )
            } else {
                (
                    vec!["elicitation", "form"],
                    json!({"elicitation": {"form": {}}}),
                )
            })
        }
        "sampling/createMessage" => {
            let p = params.cloned().unwrap_or(Value::Null);
            if p.get("tools").is_some() || p.get("toolChoice").is_some() {
                Ok((
                    vec!["sampling", "tools"],
                    json!({"sampling": {"tools": {}}}),
                ))
            } else if matches!(
                p.get("includeContext").and_then(Value::as_str),
                Some("thisServer" | "allServers")
            ) {
                Ok((
                    vec!["sampling", "context"],
                    json!({"sampling": {"context": {}}}),
                ))
            } else {
                Ok((vec!["sampling"], json!({"sampling": {}})))
            }
        }
        "roots/list" => Ok((vec!["roots"], json!({"roots": {}}))),
        other => Err(RpcError::internal(format!(
            "a handler asked for input with unsupported method {other:?} (allowed: elicitation/create, sampling/createMessage, roots/list)"
        ))),
    }
}

/// Checks what a handler asks of the client before it goes out: a form elicitation's schema must be
/// the flat subset the spec allows, a URL elicitation needs a URL, sampling needs messages and maxTokens.
fn check_request_params(req: &Value) -> Result<(), String> {
    let params = req.get("params");
    let text = |k: &str| params.and_then(|p| p.get(k)).and_then(Value::as_str);
    match req.get("method").and_then(Value::as_str) {
        Some("elicitation/create") => {
            text("message").ok_or("elicitation needs a message")?;
            if text("mode") == Some("url") {
                let url = text("url").ok_or("URL elicitation needs a url")?;
                if !(url.starts_with("https://") || url.starts_with("http://")) {
                    return Err(format!("URL elicitation needs an http(s) URL, got {url:?}"));
                }
                Ok(())
            } else {
                let schema = params
                    .and_then(|p| p.get("requestedSchema"))
                    .ok_or("form elicitation needs a requestedSchema")?;
                crate::schema::check_elicitation_schema(schema)
                    .map_err(|e| format!("requestedSchema: {e}"))
            }
        }
        Some("sampling/createMessage") => {
            params
                .and_then(|p| p.get("messages"))
                .filter(|m| m.is_array())
                .ok_or("sampling needs a messages array")?;
            params
                .and_then(|p| p.get("maxTokens"))
                .filter(|m| m.is_u64())
                .ok_or("sampling needs maxTokens")?;
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Handles a handler's request for input (of a request not running as a task: a task's input goes
/// through `tasks`, which calls [`check_input`] and [`legacy`] itself).
pub(crate) fn input_required(c: Completion, ir: InputRequired) {
    if let Err(e) = check_input(&c.ctx, &ir) {
        return c.send_error(&e);
    }
    match c.ctx.era() {
        Era::Modern => modern(c, ir),
        Era::Legacy => legacy(c, ir, |c, e| c.send_error(&e)),
    }
}

/// Checks a handler's request for input: the method may ask, each request is well formed, and the
/// client declared the capability each one needs. On 2026-07-28 only `tools/call`, `prompts/get`
/// and `resources/read` may answer `input_required`; on a legacy session the handler of any
/// request may ask (its questions are real server-to-client requests, which the legacy revisions
/// allow while the server serves any request: a host's own `tasks/result` among them).
pub(crate) fn check_input(ctx: &RequestContext, ir: &InputRequired) -> Result<(), RpcError> {
    let method = ctx.method();
    if ctx.era() == Era::Modern && !INPUT_METHODS.contains(&method) {
        return Err(RpcError::internal(format!(
            "{method} cannot ask the client for input"
        )));
    }
    if ir.requests.is_empty() && ir.state.is_none() {
        return Err(RpcError::internal(
            "input_required needs input requests or a request state",
        ));
    }
    for (key, req) in &ir.requests {
        check_request(ctx, key, req)?;
    }
    Ok(())
}

/// Checks one request for input (`{method, params}`, asked under `key`): well formed, and the
/// client declared the capability it needs.
pub(crate) fn check_request(ctx: &RequestContext, key: &str, req: &Value) -> Result<(), RpcError> {
    if let Err(e) = check_request_params(req) {
        return Err(RpcError::internal(format!("input request {key:?}: {e}")));
    }
    let (path, required) = required_capability(req)?;
    if !client_has_capability(ctx.client_capabilities(), &path) {
        return Err(match ctx.era() {
            Era::Modern => RpcError::missing_capability(required),
            // The legacy revisions define no error of their own for this: the client's request
            // cannot be served with the capabilities it declared at initialize, which is invalid
            // params (-32602), with the capability it lacks in `data` as 2026-07-28 words it.
            Era::Legacy => RpcError::new(
                crate::error::code::INVALID_PARAMS,
                format!(
                    "Invalid params: this request needs the client capability {}, which this session's client did not declare (a client declares its capabilities at initialize; a server serving legacy requests without sessions keeps none)",
                    path.join(".")
                ),
            )
            .with_data(json!({ "requiredCapabilities": required })),
        });
    }
    Ok(())
}

fn modern(c: Completion, ir: InputRequired) {
    let server = &c.ctx.0.session.server;
    let mut obj = Map::new();
    obj.insert("resultType".into(), json!("input_required"));
    if !ir.requests.is_empty() {
        obj.insert("inputRequests".into(), Value::Object(ir.requests));
    }
    if let Some(state) = ir.state {
        let limit = server.config.max_request_state_bytes;
        if state.len() > limit {
            return c.send_error(&RpcError::internal(format!(
                "the handler's requestState is {} bytes, more than max_request_state_bytes ({limit})",
                state.len()
            )));
        }
        if !server.sealer.is_ready() {
            return c.send_error(&RpcError::internal(StateError::KeysUnavailable.to_string()));
        }
        let binding = StateBinding {
            method: c.ctx.method(),
            params_digest: params_digest(c.ctx.params()),
            principal: None,
        };
        let token = server
            .sealer
            .seal(&binding, state.as_bytes(), server.config.state_ttl);
        obj.insert("requestState".into(), json!(token));
    }
    add_server_info(&mut obj, &server.info);
    c.send_result(&Value::Object(obj));
}

/// Runs legacy input rounds: the engine sends the handler's input requests to the client as real
/// requests, then invokes the handler again with the answers. A round that cannot go on ends
/// through `fail`, given by the caller: an error answer for a plain request, a failed task for a
/// request run as a task (answered with its CreateTaskResult when it started).
pub(crate) fn legacy(c: Completion, ir: InputRequired, fail: fn(Completion, RpcError)) {
    let server = c.ctx.0.session.server.clone();
    let round = c.ctx.round() + 1;
    if round > server.config.max_input_rounds {
        return fail(
            c,
            RpcError::internal(format!(
                "the handler asked for input more than {} times",
                server.config.max_input_rounds
            )),
        );
    }
    let Some(handler) = c.handler.clone() else {
        return fail(
            c,
            RpcError::internal("input_required from a request without a handler"),
        );
    };
    let Ok(rt) = tokio::runtime::Handle::try_current() else {
        return fail(
            c,
            RpcError::internal("legacy input rounds need a tokio runtime"),
        );
    };
    // Each request in the shape of the session's revision, or none at all (crate::shapes).
    let mut requests = Vec::with_capacity(ir.requests.len());
    for (key, req) in ir.requests {
        match legacy_request(&c.ctx, &key, &req) {
            Ok((method, params)) => requests.push((key, method, params)),
            Err(e) => return fail(c, e),
        }
    }
    rt.spawn(async move {
        let ctx = c.ctx.clone();
        let session = ctx.0.session.clone();
        let mut tasks = tokio::task::JoinSet::new();
        for (key, method, params) in requests {
            let session = session.clone();
            let sink = input_sink(&ctx);
            tasks.spawn(async move {
                let answer = session
                    .request_client(&sink, &method, params.as_ref())
                    .await;
                (key, method, answer)
            });
        }
        let mut responses = Map::new();
        let cancelled = ctx.cancel_flag().clone();
        loop {
            let next = tokio::select! {
                n = tasks.join_next() => n,
                _ = cancelled.cancelled() => return,
            };
            let Some(joined) = next else { break };
            match joined {
                Ok((key, _, Ok(v))) => {
                    responses.insert(key, v);
                }
                Ok((_, method, Err(e))) => {
                    return fail(
                        c,
                        RpcError::internal(format!("the client failed {method}: {}", e.message)),
                    );
                }
                Err(e) => {
                    return fail(c, RpcError::internal(format!("input task failed: {e}")));
                }
            }
        }
        let next_ctx = next_round(&ctx, responses, ir.state);
        let completion = Completion {
            ctx: next_ctx.clone(),
            kind: c.kind.clone(),
            handler: Some(handler.clone()),
            task: c.task.clone(),
        };
        call::invoke(
            &handler,
            next_ctx,
            Responder {
                completion: Some(completion),
            },
        );
    });
}

/// The method and params of the real request a legacy session's client is sent for the request
/// for input `req` asked under `key`: naming the task the request runs as, if any, and fitted to
/// the session's revision (or refused: crate::shapes).
pub(crate) fn legacy_request(
    ctx: &RequestContext,
    key: &str,
    req: &Value,
) -> Result<(String, Option<Value>), RpcError> {
    let method = req
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let mut params = req.get("params").cloned();
    if let Some(task) = ctx.task_id() {
        // A request made for a task names it (2025-11-25 tasks, "Associating Task-Related
        // Messages").
        let p = params.get_or_insert_with(|| json!({}));
        if let Some(obj) = p.as_object_mut() {
            let meta = obj.entry("_meta").or_insert_with(|| json!({}));
            if let Some(m) = meta.as_object_mut() {
                m.insert(RELATED_TASK.into(), json!({ "taskId": task }));
            }
        }
    }
    crate::shapes::request(ctx.protocol_version(), &method, params.as_mut())
        .map_err(|e| RpcError::internal(format!("input request {key:?}: {e}")))?;
    Ok((method, params))
}

/// Where a legacy request's requests for input go: a task's outlive the response stream of the
/// call that created it, so they go on the session's own channel (the standalone stream on
/// HTTP); any other request's go on its own stream.
pub(crate) fn input_sink(ctx: &RequestContext) -> crate::outgoing::Sink {
    if ctx.task_id().is_some() {
        ctx.0.session.sink.clone()
    } else {
        ctx.0.sink.clone()
    }
}

/// The context of the next input round of a request: the same request, with the answers gathered
/// (keyed as the handler asked) and the handler's state.
pub(crate) fn next_round(
    ctx: &RequestContext,
    responses: Map<String, Value>,
    state: Option<String>,
) -> RequestContext {
    let inner = &ctx.0;
    let task_id = std::sync::OnceLock::new();
    if let Some(id) = inner.task_id.get() {
        let _ = task_id.set(id.clone());
    }
    RequestContext(Arc::new(CtxInner {
        id: inner.id.clone(),
        method: inner.method.clone(),
        params: inner.params.clone(),
        version: inner.version.clone(),
        client_capabilities: inner.client_capabilities.clone(),
        client_info: inner.client_info.clone(),
        log_level: inner.log_level,
        input_responses: Some(responses),
        request_state: state,
        template_vars: inner.template_vars.clone(),
        cancel: inner.cancel.clone(),
        sink: inner.sink.clone(),
        session: inner.session.clone(),
        last_progress: parking_lot::Mutex::new(*inner.last_progress.lock()),
        round: inner.round + 1,
        caller: inner.caller.clone(),
        task_offer: inner.task_offer.clone(),
        task_id,
    }))
}
