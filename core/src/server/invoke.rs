//! The invoke stage: `tools/call`, `prompts/get`, `resources/read` and `completion/complete` find
//! their handler, check the request against what it declared (tool input schema, prompt
//! arguments, completion reference), decide whether a tool call may run as a task, arm the
//! handler's deadline, and call it with a [`Responder`] whose answer goes to `complete`.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::answer::fail;
use super::call;
use super::complete;
use super::context::Reply;
use super::deadline;
use super::state::{Completion, CtxInner, Handler, Kind, RequestContext, Responder, SessionShared};
use super::tasks::{self, TaskOffer};
use crate::error::RpcError;

fn run(handler: Handler, ctx: RequestContext, kind: Kind) {
    if let Some(limit) = ctx.0.session.server.config.handler_timeout {
        deadline::arm(&ctx, limit);
    }
    let completion = Completion {
        ctx: ctx.clone(),
        kind,
        handler: Some(handler.clone()),
        task: None,
    };
    call::invoke(
        &handler,
        ctx,
        Responder {
            completion: Some(completion),
        },
    );
}

/// Calls the host's handler of a method the specification does not define (`custom_methods`).
pub(crate) fn custom_method(handler: Handler, ctx: RequestContext) {
    run(handler, ctx, Kind::Plain);
}

/// Calls the host's handler of a method the specification defines and the host owns (`owned`);
/// its answer is checked as `kind` says (`answer`).
pub(crate) fn owned_method(handler: Handler, ctx: RequestContext, kind: Kind) {
    run(handler, ctx, kind);
}

/// Calls the host's resource lister for `resources/list` (its entries follow the registered
/// resources: `answer`).
pub(crate) fn list_resources(handler: Handler, ctx: RequestContext) {
    run(handler, ctx, Kind::ResourceList);
}

pub(crate) fn call_tool(shared: &SessionShared, ctx: RequestContext) {
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
        let _ = complete::finish(c, Reply::tool_error(format!("Input validation error: {e}")));
        return;
    }
    let offer = match tasks::offer(&ctx, entry.task_support, shared.server.config.task_ttl_ms) {
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

pub(crate) fn get_prompt(shared: &SessionShared, ctx: RequestContext) {
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

pub(crate) fn read_resource(shared: &SessionShared, ctx: RequestContext) {
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

fn with_task_offer(ctx: RequestContext, offer: TaskOffer) -> RequestContext {
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

pub(crate) fn complete(shared: &SessionShared, ctx: RequestContext) {
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
