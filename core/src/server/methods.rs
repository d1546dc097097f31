//! The server's methods: routing by era and capability, the engine's own answers (lists, discover,
//! legacy utilities) and the invocation of registered handlers.

use std::sync::Arc;

use parking_lot::Mutex;
use serde_json::{Map, Value, json};

use super::complete::{Completion, Kind, send_engine_error, send_engine_result};
use super::context::{CancelFlag, CtxInner, RequestContext, Responder};
use super::registry::{Handler, paginate};
use super::session::{Served, SessionShared};
use crate::auth::AuthInfo;
use crate::error::RpcError;
use crate::jsonrpc::Request;
use crate::model::logging::LoggingLevel;
use crate::outgoing::Sink;
use crate::version::Era;

/// Methods removed in the modern era (answered -32601 there).
const REMOVED_IN_MODERN: [&str; 5] = [
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// Routes one request that passed era detection and the duplicate-id check.
pub(crate) fn dispatch(
    shared: &Arc<SessionShared>,
    req: Request,
    served: Served,
    cancel: CancelFlag,
    sink: Sink,
    auth: Option<Arc<AuthInfo>>,
) {
    let era = served.version.era();
    let server = &shared.server;
    let offers = server.offers();
    let method = req.method.as_str();
    let gated = match method {
        "tools/list" | "tools/call" => offers.tools,
        "resources/list" | "resources/templates/list" | "resources/read" => offers.resources,
        "resources/subscribe" | "resources/unsubscribe" => offers.resources && era == Era::Legacy,
        "prompts/list" | "prompts/get" => offers.prompts,
        "completion/complete" => offers.completions,
        m if super::skills::METHODS.contains(&m) => offers.skills,
        "server/discover" | "subscriptions/listen" => era == Era::Modern,
        "tasks/get" | "tasks/cancel" => {
            server.offers_tasks() && super::tasks::exist_at(&served.version)
        }
        "tasks/update" => server.offers_tasks() && era == Era::Modern,
        // Removed by the tasks extension (the result is inlined on tasks/get).
        "tasks/result" | "tasks/list" => {
            server.offers_tasks() && served.version == crate::version::ProtocolVersion::V2025_11_25
        }
        "ping" | "logging/setLevel" => era == Era::Legacy,
        _ => false,
    };
    if !gated || (era == Era::Modern && REMOVED_IN_MODERN.contains(&method)) {
        let e = RpcError::method_not_found(method);
        return send_engine_error(&sink, shared, &req.id, &cancel, &e);
    }
    let params = req.params.unwrap_or_else(|| Value::Object(Map::new()));
    let mrtr = if super::mrtr::INPUT_METHODS.contains(&method) && era == Era::Modern {
        match super::mrtr::read_retry(server, method, &params) {
            Ok(x) => x,
            Err(e) => return send_engine_error(&sink, shared, &req.id, &cancel, &e),
        }
    } else {
        super::mrtr::Retry::default()
    };
    let ctx = RequestContext(Arc::new(CtxInner {
        id: req.id,
        method: req.method,
        params,
        version: served.version,
        client_capabilities: served.client_capabilities,
        client_info: served.client_info,
        log_level: served.log_level,
        input_responses: mrtr.responses,
        request_state: mrtr.state,
        template_vars: None,
        cancel,
        sink,
        session: shared.clone(),
        last_progress: Mutex::new(None),
        round: 0,
        auth,
        task_offer: None,
        task_id: std::sync::OnceLock::new(),
    }));
    if ctx.method().starts_with("tasks/") && !super::tasks::client_takes_tasks(&ctx) {
        // A client that did not declare the extension has no task surface (tasks extension,
        // "Required Capabilities").
        let e =
            RpcError::missing_capability(json!({"extensions": { super::tasks::EXTENSION: {} }}));
        return fail(&ctx, &e);
    }
    let result = match ctx.method() {
        "server/discover" => Ok((Kind::Cacheable, discover(shared))),
        "tools/list" => list(shared, &ctx, "tools", |r| {
            let modern = era == Era::Modern;
            r.tools
                .iter()
                .map(|t| listed_tool(&t.definition, modern))
                .collect()
        }),
        "prompts/list" => list(shared, &ctx, "prompts", |r| {
            r.prompts.iter().map(|p| p.definition.clone()).collect()
        }),
        "resources/list" => list(shared, &ctx, "resources", |r| {
            r.resources.iter().map(|p| p.definition.clone()).collect()
        }),
        "resources/templates/list" => list(shared, &ctx, "resourceTemplates", |r| {
            r.templates.iter().map(|p| p.definition.clone()).collect()
        }),
        "ping" => Ok((Kind::Plain, json!({}))),
        "logging/setLevel" => set_level(shared, &ctx),
        "resources/subscribe" | "resources/unsubscribe" => subscribe(shared, &ctx),
        "tools/call" => return call_tool(shared, ctx),
        "prompts/get" => return get_prompt(shared, ctx),
        "resources/read" => return read_resource(shared, ctx),
        "completion/complete" => return complete(shared, ctx),
        "subscriptions/listen" => return super::listen::listen(shared, ctx),
        "tasks/get" | "tasks/update" | "tasks/cancel" | "tasks/result" | "tasks/list" => {
            return super::tasks::handle(ctx);
        }
        m if super::skills::METHODS.contains(&m) => {
            super::skills::handle(shared, &ctx).map(|v| (Kind::Cacheable, v))
        }
        _ => Err(RpcError::method_not_found(ctx.method())),
    };
    match result {
        Ok((kind, v)) => send_engine_result(&ctx, kind, v),
        Err(e) => fail(&ctx, &e),
    }
}

pub(crate) fn fail(ctx: &RequestContext, e: &RpcError) {
    send_engine_error(&ctx.0.sink, &ctx.0.session, &ctx.0.id, &ctx.0.cancel, e);
}

fn discover(shared: &SessionShared) -> Value {
    let server = &shared.server;
    let supported: Vec<&str> = server
        .versions
        .iter()
        .filter(|v| v.era() == Era::Modern)
        .map(|v| v.as_str())
        .collect();
    let mut result =
        json!({ "supportedVersions": supported, "capabilities": server.capabilities(Era::Modern) });
    if let Some(i) = &server.instructions {
        result["instructions"] = json!(i);
    }
    result
}

fn list(
    shared: &SessionShared,
    ctx: &RequestContext,
    key: &str,
    items: impl FnOnce(&super::registry::Registry) -> Vec<Value>,
) -> Result<(Kind, Value), RpcError> {
    let cursor = match ctx.params().get("cursor") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return Err(RpcError::invalid_params("cursor must be a string")),
    };
    let all = items(&shared.server.registry.read());
    let (page, next) = paginate(all.iter(), cursor, shared.server.config.page_size)?;
    let mut result = json!({ key: page });
    if let Some(n) = next {
        result["nextCursor"] = json!(n);
    }
    Ok((Kind::Cacheable, result))
}

/// A tool as listed: 2026-07-28 has no `execution` on Tool (task support is negotiated per request
/// through the tasks extension), so it is left out there.
fn listed_tool(definition: &Value, modern: bool) -> Value {
    let mut d = definition.clone();
    if modern && let Some(obj) = d.as_object_mut() {
        obj.remove("execution");
    }
    d
}

fn set_level(shared: &SessionShared, ctx: &RequestContext) -> Result<(Kind, Value), RpcError> {
    let level: LoggingLevel = ctx
        .params()
        .get("level")
        .cloned()
        .and_then(|l| serde_json::from_value(l).ok())
        .ok_or_else(|| RpcError::invalid_params("level must be one of debug, info, notice, warning, error, critical, alert, emergency"))?;
    if let Some(l) = shared.legacy_write().as_mut() {
        l.log_level = Some(level);
    }
    Ok((Kind::Plain, json!({})))
}

fn subscribe(shared: &SessionShared, ctx: &RequestContext) -> Result<(Kind, Value), RpcError> {
    let uri = ctx
        .uri()
        .ok_or_else(|| RpcError::invalid_params("uri must be a string"))?
        .to_string();
    let mut legacy = shared.legacy_write();
    let Some(l) = legacy.as_mut() else {
        return Err(RpcError::invalid_request(
            "resources/subscribe needs an initialized session",
        ));
    };
    if ctx.method() == "resources/subscribe" {
        l.subscriptions.insert(uri);
    } else {
        l.subscriptions.remove(&uri);
    }
    Ok((Kind::Plain, json!({})))
}

/// Calls a handler, turning a panic into an internal error for that one request.
pub(crate) fn invoke(handler: &Handler, ctx: RequestContext, responder: Responder) {
    let outcome =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(ctx, responder)));
    if outcome.is_err() {
        // The responder was dropped during unwinding, which already answered with an internal error.
        tracing::error!("a handler panicked; the request was answered with an internal error");
    }
}

fn run(handler: Handler, ctx: RequestContext, kind: Kind) {
    if let Some(limit) = ctx.0.session.server.config.handler_timeout {
        super::deadline::arm(&ctx, limit);
    }
    let completion = Completion {
        ctx: ctx.clone(),
        kind,
        handler: Some(handler.clone()),
        task: None,
    };
    invoke(
        &handler,
        ctx,
        Responder {
            completion: Some(completion),
        },
    );
}

fn call_tool(shared: &SessionShared, ctx: RequestContext) {
    let Some(name) = ctx.name() else {
        return fail(&ctx, &RpcError::invalid_params("name must be a string"));
    };
    let entry = shared.server.registry.read().tools.get(name).cloned();
    let Some(entry) = entry else {
        return fail(
            &ctx,
            &RpcError::invalid_params(format!("Unknown tool: {name}")),
        );
    };
    let args = ctx.arguments();
    if !args.is_object() {
        return fail(
            &ctx,
            &RpcError::invalid_params("arguments must be an object"),
        );
    }
    if let Some(validate) = &entry.input
        && let Err(e) = validate(args)
    {
        // Invalid arguments are a tool error the model can read and correct, not a protocol error.
        let c = Completion {
            ctx: ctx.clone(),
            kind: Kind::Tool(entry.clone()),
            handler: None,
            task: None,
        };
        // A tool error always passes the result checks.
        let _ = c.finish(super::context::Reply::tool_error(format!(
            "Input validation error: {e}"
        )));
        return;
    }
    let offer =
        match super::tasks::offer(&ctx, entry.task_support, shared.server.config.task_ttl_ms) {
            Ok(o) => o,
            Err(e) => return fail(&ctx, &e),
        };
    let ctx = match offer {
        None => ctx,
        Some(o) => with_task_offer(ctx, o),
    };
    let handler = entry.handler.clone();
    run(handler, ctx, Kind::Tool(entry));
}

fn get_prompt(shared: &SessionShared, ctx: RequestContext) {
    let Some(name) = ctx.name() else {
        return fail(&ctx, &RpcError::invalid_params("name must be a string"));
    };
    let entry = shared.server.registry.read().prompts.get(name).cloned();
    let Some(entry) = entry else {
        return fail(
            &ctx,
            &RpcError::invalid_params(format!("Unknown prompt: {name}")),
        );
    };
    let args = ctx.arguments();
    let Some(args) = args.as_object() else {
        return fail(
            &ctx,
            &RpcError::invalid_params("arguments must be an object of strings"),
        );
    };
    if let Some((k, _)) = args.iter().find(|(_, v)| !v.is_string()) {
        return fail(
            &ctx,
            &RpcError::invalid_params(format!("argument {k} must be a string")),
        );
    }
    let declared = entry.definition.get("arguments").and_then(Value::as_array);
    for arg in declared.into_iter().flatten() {
        let required = arg
            .get("required")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let arg_name = arg.get("name").and_then(Value::as_str).unwrap_or_default();
        if required && !args.contains_key(arg_name) {
            return fail(
                &ctx,
                &RpcError::invalid_params(format!(
                    "missing required argument {arg_name} of prompt {name}"
                )),
            );
        }
    }
    run(entry.handler.clone(), ctx, Kind::Plain);
}

fn read_resource(shared: &SessionShared, ctx: RequestContext) {
    let Some(uri) = ctx.uri().map(str::to_string) else {
        return fail(&ctx, &RpcError::invalid_params("uri must be a string"));
    };
    let (handler, vars) = {
        let reg = shared.server.registry.read();
        if let Some(r) = reg.resources.get(&uri) {
            (Some(r.handler.clone()), None)
        } else {
            reg.templates
                .iter()
                .find_map(|t| (t.matcher)(&uri).map(|vars| (Some(t.handler.clone()), Some(vars))))
                .unwrap_or((None, None))
        }
    };
    let Some(handler) = handler else {
        let legacy = ctx.protocol_version().legacy_not_found_code();
        return fail(&ctx, &RpcError::resource_not_found(&uri, legacy));
    };
    let ctx = match vars {
        None => ctx,
        Some(vars) => with_template_vars(ctx, vars),
    };
    run(handler, ctx, Kind::Cacheable);
}

fn with_template_vars(ctx: RequestContext, vars: Map<String, Value>) -> RequestContext {
    amend(ctx, |inner| inner.template_vars = Some(vars))
}

fn with_task_offer(ctx: RequestContext, offer: super::tasks::TaskOffer) -> RequestContext {
    amend(ctx, |inner| inner.task_offer = Some(offer))
}

/// Changes a context that was just built (and so is not shared yet).
fn amend(ctx: RequestContext, change: impl FnOnce(&mut CtxInner)) -> RequestContext {
    match Arc::try_unwrap(ctx.0) {
        Ok(mut inner) => {
            change(&mut inner);
            RequestContext(Arc::new(inner))
        }
        Err(shared) => {
            // Not reachable in practice (the context was just built); keep the request alive regardless.
            RequestContext(shared)
        }
    }
}

fn complete(shared: &SessionShared, ctx: RequestContext) {
    let handler = shared.server.registry.read().completion.clone();
    let Some(handler) = handler else {
        return fail(&ctx, &RpcError::method_not_found("completion/complete"));
    };
    let p = ctx.params();
    let reference = p.get("ref");
    let ok_ref = match reference
        .and_then(|r| r.get("type"))
        .and_then(Value::as_str)
    {
        Some("ref/prompt") => {
            let name = reference
                .and_then(|r| r.get("name"))
                .and_then(Value::as_str);
            match name {
                Some(n) if shared.server.registry.read().prompts.get(n).is_some() => Ok(()),
                Some(n) => Err(RpcError::invalid_params(format!("Unknown prompt: {n}"))),
                None => Err(RpcError::invalid_params("ref.name must be a string")),
            }
        }
        Some("ref/resource") => {
            match reference.and_then(|r| r.get("uri")).and_then(Value::as_str) {
                Some(_) => Ok(()),
                None => Err(RpcError::invalid_params("ref.uri must be a string")),
            }
        }
        _ => Err(RpcError::invalid_params(
            "ref.type must be ref/prompt or ref/resource",
        )),
    };
    if let Err(e) = ok_ref {
        return fail(&ctx, &e);
    }
    let arg = p.get("argument");
    if arg
        .and_then(|a| a.get("name"))
        .and_then(Value::as_str)
        .is_none()
        || arg
            .and_then(|a| a.get("value"))
            .and_then(Value::as_str)
            .is_none()
    {
        return fail(
            &ctx,
            &RpcError::invalid_params("argument must be {name: string, value: string}"),
        );
    }
    run(handler, ctx, Kind::Plain);
}
