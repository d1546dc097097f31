//! Putting an answer on the wire: output-schema checks, era-specific result shaping (`resultType`,
//! `serverInfo`, cache hints), the one-answer claim, and the end of the request's in-flight entry.
//! The bottom of the pipeline: every stage that answers a request (the engine's own answers, a
//! handler's, a task's creation, an input round) ends here, and this calls nothing above it.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::{Map, Value, json};

use super::cancel::CancelFlag;
use super::registry::paginate;
use super::state::{Completion, Kind, RequestContext, SessionShared, ToolEntry};
use crate::error::RpcError;
use crate::jsonrpc::{self, RequestId};
use crate::meta;
use crate::outgoing::{OutKind, Outgoing, Sink};
use crate::shapes::check;
use crate::version::Era;

impl Completion {
    /// Sends a result (shaped for its method and era) or an error. A result that breaks the rules
    /// for its method (a tool result against its `outputSchema`, a legacy revision's shape) is
    /// answered with an internal error instead, logged, and returned, so the handler's host can see
    /// why.
    pub(crate) fn answer(&self, reply: Result<Value, RpcError>) -> Result<(), RpcError> {
        match reply {
            Ok(v) => match self.shape(v) {
                Ok(v) => self.send_result(&v),
                Err(e) => {
                    tracing::warn!(
                        method = self.ctx.method(),
                        "rejected a handler's result and answered {}: {}",
                        e.code,
                        e.message
                    );
                    self.send_error(&e);
                    return Err(e);
                }
            },
            Err(e) => self.send_error(&e),
        }
        Ok(())
    }

    pub(crate) fn shape(&self, result: Value) -> Result<Value, RpcError> {
        let Value::Object(mut obj) = result else {
            return Err(RpcError::internal(
                "a handler returned a result that is not a JSON object",
            ));
        };
        if let Kind::Tool(entry) = &self.kind {
            shape_tool_result(entry, &mut obj)?;
        }
        if matches!(self.kind, Kind::ResourceList) {
            obj = with_registered_resources(&self.ctx, &obj)?;
        }
        let server = &self.ctx.0.session.server;
        let created_task = self.created_task(&obj);
        match self.ctx.era() {
            Era::Modern => {
                obj.entry("resultType").or_insert_with(|| json!("complete"));
                if matches!(
                    self.kind,
                    Kind::Cacheable | Kind::ResourceList | Kind::Owned { cacheable: true }
                ) {
                    obj.entry("ttlMs")
                        .or_insert_with(|| json!(server.config.cache_ttl_ms));
                    obj.entry("cacheScope")
                        .or_insert_with(|| json!(server.config.cache_scope.as_str()));
                }
                add_server_info(&mut obj, &server.info);
            }
            Era::Legacy => {
                // The session's revision decides what the result may hold (crate::shapes).
                let mut v = Value::Object(obj);
                let version = self.ctx.protocol_version();
                match created_task {
                    true => crate::shapes::created_task(version, &mut v)?,
                    false => crate::shapes::result(version, self.ctx.method(), &mut v)?,
                }
                self.check_owned(&v, created_task)?;
                return Ok(v);
            }
        }
        let v = Value::Object(obj);
        self.check_owned(&v, created_task)?;
        Ok(v)
    }

    /// Whether a host that owns `tools/call` answered a call made as a task (`params.task`) with
    /// the task it created (2025-11-25 tasks: a `CreateTaskResult`).
    fn created_task(&self, result: &Map<String, Value>) -> bool {
        matches!(self.kind, Kind::Owned { .. })
            && self.ctx.method() == "tools/call"
            && self.ctx.params().get("task").is_some()
            && result.contains_key("task")
            && check::defines_created_task(self.ctx.protocol_version())
    }

    /// Checks the result of a host's handler of a method the specification defines (`owned`)
    /// against the revision's schema: what breaks it is never sent.
    fn check_owned(&self, result: &Value, created_task: bool) -> Result<(), RpcError> {
        if !matches!(self.kind, Kind::Owned { .. }) {
            return Ok(());
        }
        let method = self.ctx.method();
        check::result(self.ctx.protocol_version(), method, created_task, result).map_err(|why| {
            RpcError::internal(format!(
                "the host's handler of {method} answered a result that does not match {why}"
            ))
        })
    }

    pub(crate) fn send_result(&self, result: &Value) {
        if !self.claim() {
            return;
        }
        let bytes = jsonrpc::encode_result(&self.ctx.0.id, result);
        send_answer(
            &self.ctx,
            Outgoing {
                kind: OutKind::Result,
                bytes,
            },
        );
    }

    pub(crate) fn send_error(&self, error: &RpcError) {
        if !self.claim() {
            return;
        }
        let bytes = jsonrpc::encode_error(Some(&self.ctx.0.id), error);
        send_answer(
            &self.ctx,
            Outgoing {
                kind: OutKind::Error(error.code),
                bytes,
            },
        );
    }

    /// Whether this answer may go out: false once the engine has answered the request itself
    /// (`handler_timeout`, see `deadline`). A task's request was answered when the task started,
    /// so its completions are not held to that.
    fn claim(&self) -> bool {
        self.task.is_some() || self.ctx.0.cancel.claim_answer()
    }
}

/// Sends the answer to request `id` and ends it. Its in-flight entry goes first: a peer that reads
/// the answer and sends its next request at once must not find this one still counted against
/// `max_in_flight` (or still cancellable). `answering` covers the gap until the answer is in the
/// sink, for whoever waits for the session to drain ([`Session::inflight`], the stdio transport at
/// end of input).
///
/// [`Session::inflight`]: super::Session::inflight
pub(crate) fn answer_request(
    session: &SessionShared,
    sink: &Sink,
    id: &RequestId,
    flag: &CancelFlag,
    msg: Outgoing,
) {
    session.answering.fetch_add(1, Ordering::SeqCst);
    end_inflight(session, id, flag);
    sink.send(msg);
    session.answering.fetch_sub(1, Ordering::SeqCst);
}

/// [`answer_request`] for the request of `ctx`.
pub(crate) fn send_answer(ctx: &RequestContext, msg: Outgoing) {
    let c = &ctx.0;
    answer_request(&c.session, &c.sink, &c.id, &c.cancel, msg);
}

/// Removes an in-flight entry, unless the id was reused by a newer request since.
pub(crate) fn end_inflight(session: &SessionShared, id: &RequestId, flag: &CancelFlag) {
    let mut inflight = session.inflight.lock();
    if inflight.get(id).is_some_and(|f| Arc::ptr_eq(&f.0, &flag.0)) {
        inflight.remove(id);
    }
}

/// Adds `_meta["io.modelcontextprotocol/serverInfo"]` to a modern result.
pub(crate) fn add_server_info(obj: &mut Map<String, Value>, info: &Value) {
    let meta = obj
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(m) = meta {
        m.entry(meta::SERVER_INFO).or_insert_with(|| info.clone());
    }
}

/// Checks a tool result against the tool's output schema and fills in what the spec asks for:
/// `content` always present, and structured output mirrored as a text block when none was given.
fn shape_tool_result(entry: &ToolEntry, obj: &mut Map<String, Value>) -> Result<(), RpcError> {
    let is_error = obj.get("isError").and_then(Value::as_bool).unwrap_or(false);
    let name = entry
        .definition
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("?");
    if !is_error && let Some(validate) = &entry.output {
        match obj.get("structuredContent") {
            None => {
                return Err(RpcError::internal(format!(
                    "tool {name} declares an outputSchema but returned no structuredContent"
                )));
            }
            Some(sc) => validate(sc).map_err(|e| {
                RpcError::internal(format!(
                    "tool {name} returned structuredContent that violates its outputSchema: {e}"
                ))
            })?,
        }
    }
    let needs_text = matches!(obj.get("content"), None | Some(Value::Null));
    if needs_text {
        let content = match obj.get("structuredContent") {
            Some(sc) => vec![json!({"type": "text", "text": sc.to_string()})],
            None => vec![],
        };
        obj.insert("content".into(), Value::Array(content));
    } else if !obj.get("content").is_some_and(Value::is_array) {
        return Err(RpcError::internal(format!(
            "tool {name} returned a content field that is not an array"
        )));
    }
    Ok(())
}

/// A result sent by the engine itself (lists, discover, empty results), shaped for the era.
pub(crate) fn send_engine_result(ctx: &RequestContext, kind: Kind, result: Value) {
    if ctx.is_cancelled() {
        return;
    }
    let c = Completion {
        ctx: ctx.clone(),
        kind,
        handler: None,
        task: None,
    };
    // The engine's own results are well formed; a rejection is logged by `answer`.
    let _ = c.answer(Ok(result));
}

/// An error for a request that never reached a handler.
pub(crate) fn send_engine_error(
    sink: &Sink,
    session: &SessionShared,
    id: &RequestId,
    flag: &CancelFlag,
    e: &RpcError,
) {
    let msg = Outgoing {
        kind: OutKind::Error(e.code),
        bytes: jsonrpc::encode_error(Some(id), e),
    };
    answer_request(session, sink, id, flag, msg);
}

/// [`send_engine_error`] for the request of `ctx`.
pub(crate) fn fail(ctx: &RequestContext, e: &RpcError) {
    send_engine_error(&ctx.0.sink, &ctx.0.session, &ctx.0.id, &ctx.0.cancel, e);
}

/// The page of `resources/list` the request's cursor names, of the registered resources followed by
/// the entries of the host's lister (its result `host`: `{resources: [...]}`).
fn with_registered_resources(
    ctx: &RequestContext,
    host: &Map<String, Value>,
) -> Result<Map<String, Value>, RpcError> {
    let Some(Value::Array(listed)) = host.get("resources") else {
        return Err(RpcError::internal(
            "the resource lister's result has no resources array",
        ));
    };
    let named = |r: &Value| {
        r.get("uri").is_some_and(Value::is_string) && r.get("name").is_some_and(Value::is_string)
    };
    if let Some(i) = listed.iter().position(|r| !named(r)) {
        return Err(RpcError::internal(format!(
            "resource {i} of the resource lister's result needs a string uri and name"
        )));
    }
    let server = &ctx.0.session.server;
    let registry = server.registry.read();
    let all: Vec<&Value> = registry
        .resources
        .iter()
        .map(|r| &r.definition)
        .chain(listed)
        .collect();
    let cursor = ctx.params().get("cursor").and_then(Value::as_str);
    let (page, next) = paginate(all.iter(), cursor, server.config.page_size)?;
    let mut result = Map::new();
    result.insert("resources".into(), json!(page));
    if let Some(n) = next {
        result.insert("nextCursor".into(), json!(n));
    }
    Ok(result)
}
