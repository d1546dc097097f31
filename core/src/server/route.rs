//! The route stage: a request that was admitted (era decided, `_meta` read, limits checked) is
//! gated by era and capability, gets its [`RequestContext`], and goes to whoever answers its
//! method: the engine itself (lists, discover, the legacy utilities, here), the skills extension
//! (`skills`), listen streams (`listen`), the task methods (`tasks`), or a registered handler
//! (`invoke`), the host's own among them for a method it owns (`owned`).

use std::sync::Arc;

use parking_lot::Mutex;
use serde_json::{Map, Value, json};

use super::answer::{fail, send_engine_error, send_engine_result};
use super::caller::Caller;
use super::cancel::CancelFlag;
use super::invoke;
use super::listen;
use super::mrtr;
use super::owned;
use super::registry::{Handler, Registry, checked_cursor, paginate};
use super::skills;
use super::state::{CtxInner, Kind, RequestContext, SessionShared};
use super::tasks;
use crate::error::RpcError;
use crate::jsonrpc::Request;
use crate::model::logging::LoggingLevel;
use crate::model::mrtr::INPUT_METHODS;
use crate::outgoing::Sink;
use crate::shapes::check;
use crate::version::{Era, ProtocolVersion};

/// Which era a request is served under, and with what client facts.
pub(crate) struct Served {
    pub(crate) version: ProtocolVersion,
    pub(crate) client_capabilities: Value,
    pub(crate) client_info: Option<Value>,
    pub(crate) log_level: Option<LoggingLevel>,
}

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
    caller: Caller,
) {
    let era = served.version.era();
    let server = &shared.server;
    let method = req.method.as_str();
    if owned::family(method).is_some() {
        let handler = server.registry.read().methods.get(method).cloned();
        if let Some(handler) = handler {
            return dispatch_owned(shared, req, served, cancel, sink, caller, handler);
        }
    }
    let offers = server.offers();
    let gated = match method {
        "tools/list" | "tools/call" => offers.tools,
        "resources/list" | "resources/templates/list" | "resources/read" => offers.resources,
        "resources/subscribe" | "resources/unsubscribe" => offers.resources && era == Era::Legacy,
        "prompts/list" | "prompts/get" => offers.prompts,
        "completion/complete" => offers.completions,
        m if skills::METHODS.contains(&m) => offers.skills,
        "server/discover" | "subscriptions/listen" => era == Era::Modern,
        "tasks/get" | "tasks/cancel" => server.offers_tasks() && tasks::exist_at(&served.version),
        "tasks/update" => server.offers_tasks() && era == Era::Modern,
        // Removed by the tasks extension (the result is inlined on tasks/get).
        "tasks/result" | "tasks/list" => {
            server.offers_tasks() && served.version == ProtocolVersion::V2025_11_25
        }
        "ping" | "logging/setLevel" => era == Era::Legacy,
        _ => false,
    };
    // A method the engine does not serve may have a host's handler (`custom_methods`); only
    // such requests look for one here (a feature method a host may own looked above, one read of
    // the registry's lock).
    let mut custom = None;
    if !gated || (era == Era::Modern && REMOVED_IN_MODERN.contains(&method)) {
        custom = server.registry.read().methods.get(method).cloned();
        if custom.is_none() {
            let e = RpcError::method_not_found(method);
            return send_engine_error(&sink, shared, &req.id, &cancel, &e);
        }
    }
    let Some(ctx) = context(shared, req, served, cancel, sink, caller) else {
        return;
    };
    if let Some(handler) = custom {
        return invoke::custom_method(handler, ctx);
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
        "resources/list" => {
            let lister = server.registry.read().resource_lister.clone();
            if let Some(lister) = lister {
                // A cursor the engine never made is refused before the host is asked.
                if let Err(e) = cursor_of(&ctx).and_then(checked_cursor) {
                    return fail(&ctx, &e);
                }
                return invoke::list_resources(lister, ctx);
            }
            list(shared, &ctx, "resources", |r| {
                r.resources.iter().map(|p| p.definition.clone()).collect()
            })
        }
        "resources/templates/list" => list(shared, &ctx, "resourceTemplates", |r| {
            r.templates.iter().map(|p| p.definition.clone()).collect()
        }),
        "ping" => Ok((Kind::Plain, json!({}))),
        "logging/setLevel" => set_level(shared, &ctx),
        "resources/subscribe" | "resources/unsubscribe" => subscribe(shared, &ctx),
        "tools/call" => return invoke::call_tool(shared, ctx),
        "prompts/get" => return invoke::get_prompt(shared, ctx),
        "resources/read" => return invoke::read_resource(shared, ctx),
        "completion/complete" => return invoke::complete(shared, ctx),
        "subscriptions/listen" => return listen::listen(shared, ctx),
        "tasks/get" | "tasks/update" | "tasks/cancel" | "tasks/result" | "tasks/list" => {
            return tasks::handle(ctx);
        }
        m if skills::METHODS.contains(&m) => {
            skills::handle(shared, &ctx).map(|v| (Kind::Cacheable, v))
        }
        _ => Err(RpcError::method_not_found(ctx.method())),
    };
    match result {
        Ok((kind, v)) => send_engine_result(&ctx, kind, v),
        Err(e) => fail(&ctx, &e),
    }
}

/// Routes a request for a method the specification defines and the host owns (`owned`): the era
/// rules, then the request checked against the revision's schema, then the host's handler.
fn dispatch_owned(
    shared: &Arc<SessionShared>,
    req: Request,
    served: Served,
    cancel: CancelFlag,
    sink: Sink,
    caller: Caller,
    handler: Handler,
) {
    let method = req.method.as_str();
    if !owned::exists_at(method, &served.version) {
        let e = RpcError::method_not_found(method);
        return send_engine_error(&sink, shared, &req.id, &cancel, &e);
    }
    let id = serde_json::to_value(&req.id).unwrap_or(Value::Null);
    if let Err(why) = check::request(&served.version, &id, method, req.params.as_ref()) {
        let e = RpcError::invalid_params(format!("the {method} request does not match {why}"));
        return send_engine_error(&sink, shared, &req.id, &cancel, &e);
    }
    let kind = owned::kind(method);
    if let Some(ctx) = context(shared, req, served, cancel, sink, caller) {
        invoke::owned_method(handler, ctx, kind);
    }
}

/// The context of a request that is served: its params (`{}` when it has none) and, for the
/// methods that take input rounds on 2026-07-28, the round's answers and state. `None` when the
/// request was answered already (an invalid retry, a tasks method without the client's
/// capability).
fn context(
    shared: &Arc<SessionShared>,
    req: Request,
    served: Served,
    cancel: CancelFlag,
    sink: Sink,
    caller: Caller,
) -> Option<RequestContext> {
    let server = &shared.server;
    let method = req.method.as_str();
    let params = req.params.unwrap_or_else(|| Value::Object(Map::new()));
    let mrtr = if INPUT_METHODS.contains(&method) && served.version.era() == Era::Modern {
        match mrtr::read_retry(server, method, &params) {
            Ok(x) => x,
            Err(e) => {
                send_engine_error(&sink, shared, &req.id, &cancel, &e);
                return None;
            }
        }
    } else {
        mrtr::Retry::default()
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
        caller,
        task_offer: None,
        task_id: std::sync::OnceLock::new(),
    }));
    if ctx.method().starts_with("tasks/") && !tasks::client_takes_tasks(&ctx) {
        // A client that did not declare the extension has no task surface (tasks extension,
        // "Required Capabilities").
        let e = RpcError::missing_capability(json!({"extensions": { tasks::EXTENSION: {} }}));
        fail(&ctx, &e);
        return None;
    }
    Some(ctx)
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
    items: impl FnOnce(&Registry) -> Vec<Value>,
) -> Result<(Kind, Value), RpcError> {
    let cursor = cursor_of(ctx)?;
    let all = items(&shared.server.registry.read());
    let (page, next) = paginate(all.iter(), cursor, shared.server.config.page_size)?;
    let mut result = json!({ key: page });
    if let Some(n) = next {
        result["nextCursor"] = json!(n);
    }
    Ok((Kind::Cacheable, result))
}

/// The `cursor` of a list request, if it has one.
fn cursor_of(ctx: &RequestContext) -> Result<Option<&str>, RpcError> {
    match ctx.params().get("cursor") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(RpcError::invalid_params("cursor must be a string")),
    }
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
