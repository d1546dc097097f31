//! Old revisions get old shapes: what the engine sends on a legacy session is fitted to the official
//! schema of the revision negotiated there, so a handler writes today's shapes and never has to know.
//!
//! The rule, applied to every result, server-to-client request and notification of a legacy session
//! (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25), with that revision's schema as the only table
//! (embedded from `tests/spec/<revision>/schema.json`):
//!
//! 1. **Drop** every property that the revision's schema does not define for that object: walked from
//!    the message's definition (`<X>Result` of the request answered, the `params` of the request or
//!    notification) through `properties`, `items`, `additionalProperties` and `$ref`. `_meta` is always
//!    kept; objects the schema leaves open (`additionalProperties: true`, or no declared properties,
//!    like capabilities, `structuredContent`, `experimental`) keep everything; a tool's `inputSchema`
//!    and `outputSchema` are JSON Schema documents and pass unchanged.
//! 2. In a union (`anyOf`/`oneOf`) the member is the one whose `type` tag matches and whose required
//!    properties are present, the most specific if several are. A **content block** that matches no
//!    member where content is allowed (`audio` before 2025-03-26, `resource_link` before 2025-06-18,
//!    `tool_use`/`tool_result` in sampling before 2025-11-25) **becomes a text block** that names the
//!    kind, its URI and media type: the reader learns that something was there instead of nothing.
//! 3. **Convert** what has an older spelling: an elicitation field with titled options
//!    (`oneOf: [{const, title}]`, 2025-11-25) becomes `enum` + `enumNames` for 2025-06-18.
//! 4. **Refuse** what has no form in the revision: a server-to-client request or a result whose value
//!    matches no member of a union (a multi-select elicitation field for 2025-06-18), that loses a
//!    property the revision requires once the undefined ones are dropped (URL elicitation for
//!    2025-06-18), that needs a parameter which would change what the client is asked to do (sampling
//!    with `tools`/`toolChoice` before 2025-11-25), or whose method the revision does not have
//!    (`elicitation/create` before 2025-06-18). The request the handler serves then fails with
//!    -32603 (internal error: the client's request was valid, the server cannot answer it in the
//!    client's revision) and a message that names the revision and the path; a notification the
//!    revision cannot carry is not sent.
//!
//! Sessions of the 2026-07-28 era skip all of this: the engine's own shapes are that revision's.

pub(crate) mod check;
mod spec;
#[cfg(test)]
mod tests;
mod union;
mod valid;
mod walk;

use serde_json::Value;

use crate::error::RpcError;
use crate::version::{Era, ProtocolVersion};
use walk::{Refusal, Walker};

/// Server-to-client request parameters that change what the client is asked to do: a revision without
/// them gets no request rather than a different one.
const REFUSED_IF_DROPPED: [(&str, &str); 2] = [
    ("sampling/createMessage", "tools"),
    ("sampling/createMessage", "toolChoice"),
];

/// A message that cannot be expressed in the revision of the session it is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unexpressible {
    what: String,
    revision: String,
    refusal: Refusal,
}

impl std::fmt::Display for Unexpressible {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} cannot be expressed in protocol revision {}",
            self.what, self.revision
        )?;
        match self.refusal.path() {
            p if p.is_empty() => write!(f, ": {}", self.refusal.reason),
            p => write!(f, ": {p}: {}", self.refusal.reason),
        }
    }
}

impl From<Unexpressible> for RpcError {
    fn from(u: Unexpressible) -> RpcError {
        RpcError::internal(u)
    }
}

/// What a shaping step works with: the revision's walker, or nothing to do (modern era, or a
/// revision without an embedded schema).
fn walker(version: &ProtocolVersion) -> Option<Walker> {
    if version.era() == Era::Modern {
        return None;
    }
    spec::spec(version.as_str()).map(|spec| Walker { spec })
}

fn refuse(what: String, version: &ProtocolVersion, refusal: Refusal) -> Unexpressible {
    Unexpressible {
        what,
        revision: version.as_str().to_owned(),
        refusal,
    }
}

/// Fits the result of the client request `method` to `version`.
pub(crate) fn result(
    version: &ProtocolVersion,
    method: &str,
    result: &mut Value,
) -> Result<(), Unexpressible> {
    let Some(w) = walker(version) else {
        return Ok(());
    };
    if method == "tools/call" && text_only_tool_result(result) {
        return Ok(());
    }
    let Some(schema) = w.spec.result_schema(method) else {
        return Ok(());
    };
    w.fit(schema, result)
        .map_err(|r| refuse(format!("the result of {method}"), version, r))
}

/// Fits the result of a `tools/call` that created a task (2025-11-25: `CreateTaskResult`) to
/// `version`.
pub(crate) fn created_task(
    version: &ProtocolVersion,
    result: &mut Value,
) -> Result<(), Unexpressible> {
    let Some(w) = walker(version) else {
        return Ok(());
    };
    let Some(schema) = w.spec.def("CreateTaskResult") else {
        return Ok(());
    };
    w.fit(schema, result)
        .map_err(|r| refuse("the task created by tools/call".to_owned(), version, r))
}

/// Whether a `tools/call` result is text blocks only: `content` an array of `{"type": "text",
/// "text": "..."}` objects with no other property, beside it at most `isError` (a boolean) and
/// `_meta`. Every legacy revision (2024-11-05 onwards: `CallToolResult`, `TextContent`) defines
/// exactly that form, so the walk would leave it as it is; the commonest result skips it.
fn text_only_tool_result(result: &Value) -> bool {
    let Some(map) = result.as_object() else {
        return false;
    };
    let text_block = |b: &Value| {
        b.as_object().is_some_and(|b| {
            b.len() == 2
                && b.get("type").and_then(Value::as_str) == Some("text")
                && b.get("text").is_some_and(Value::is_string)
        })
    };
    map.iter().all(|(k, v)| match k.as_str() {
        "content" => v.as_array().is_some_and(|c| c.iter().all(text_block)),
        "isError" => v.is_boolean(),
        "_meta" => v.is_object(),
        _ => false,
    }) && map.contains_key("content")
}

/// Fits the params of the server-to-client request `method` to `version`, or refuses the request.
pub(crate) fn request(
    version: &ProtocolVersion,
    method: &str,
    params: Option<&mut Value>,
) -> Result<(), Unexpressible> {
    let Some(w) = walker(version) else {
        return Ok(());
    };
    let what = || format!("the request {method}");
    let Some(schema) = w.spec.request_params(method) else {
        let r = Refusal::new("the revision has no such request");
        return Err(refuse(what(), version, r));
    };
    let Some(params) = params else {
        return Ok(());
    };
    for (m, key) in REFUSED_IF_DROPPED {
        if m == method && params.get(key).is_some() && !defines(&w, schema, key) {
            let r = Refusal::new("the revision does not define it").at(key);
            return Err(refuse(what(), version, r));
        }
    }
    if method == "elicitation/create" && w.spec.def("TitledSingleSelectEnumSchema").is_none() {
        titled_options_to_enum_names(params);
    }
    w.fit(schema, params)
        .map_err(|r| refuse(what(), version, r))
}

/// Fits the params of the server notification `method` to `version`; `Err` when the revision cannot
/// carry it at all (the caller does not send it).
pub(crate) fn notification(
    version: &ProtocolVersion,
    method: &str,
    params: &mut Value,
) -> Result<(), Unexpressible> {
    let Some(w) = walker(version) else {
        return Ok(());
    };
    let what = || format!("the notification {method}");
    let Some(schema) = w.spec.notification_params(method) else {
        let r = Refusal::new("the revision has no such notification");
        return Err(refuse(what(), version, r));
    };
    w.fit(schema, params)
        .map_err(|r| refuse(what(), version, r))
}

/// Why a notification a handler addresses to its session (`server::session_notifier`) is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SessionRefusal {
    /// The revision defines no server notification of that method.
    Unknown,
    /// The params do not fit the revision's schema: what is wrong, and where.
    Invalid(String),
}

/// Fits the params of the server notification `method`, which a handler sends on its own, to
/// `version` (as [`notification`] does) and then checks them against the revision's schema
/// (`valid`): unlike the engine's own notifications, which are only ever fitted, these come from
/// outside the engine, so a value the schema does not allow is refused rather than sent.
pub(crate) fn session_notification(
    version: &ProtocolVersion,
    method: &str,
    params: Option<&mut Value>,
) -> Result<(), SessionRefusal> {
    let Some(w) = walker(version) else {
        return Ok(());
    };
    let Some(def) = w.spec.notification(method) else {
        return Err(SessionRefusal::Unknown);
    };
    let invalid = |r: Refusal| {
        SessionRefusal::Invalid(
            refuse(format!("the notification {method}"), version, r).to_string(),
        )
    };
    let schema = def.pointer("/properties/params");
    let Some(params) = params else {
        let required = def
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|k| k == "params"));
        return match required {
            true => Err(invalid(Refusal::new(
                "it has required params, and none were given",
            ))),
            false => Ok(()),
        };
    };
    if !params.is_object() {
        return Err(invalid(
            Refusal::new("params must be an object").at("params"),
        ));
    }
    let Some(schema) = schema else {
        return Ok(());
    };
    w.fit(schema, params).map_err(|r| invalid(r.at("params")))?;
    valid::check(w.spec, schema, params).map_err(|r| invalid(r.at("params")))
}

/// Whether the (object or union of objects) `schema` defines property `key`.
fn defines(w: &Walker, schema: &'static Value, key: &str) -> bool {
    let node = w.spec.resolve(schema);
    if node
        .pointer("/properties")
        .and_then(|p| p.get(key))
        .is_some()
    {
        return true;
    }
    let members = node.get("anyOf").or_else(|| node.get("oneOf"));
    members
        .and_then(Value::as_array)
        .is_some_and(|ms| ms.iter().any(|m| defines(w, m, key)))
}

/// Rewrites each single-select field with titled options (`oneOf: [{const, title}]`) as `enum` plus
/// `enumNames`, the spelling of revisions before 2025-11-25 (`EnumSchema` of 2025-06-18).
fn titled_options_to_enum_names(params: &mut Value) {
    let fields = params
        .pointer_mut("/requestedSchema/properties")
        .and_then(Value::as_object_mut);
    for field in fields.into_iter().flat_map(|f| f.values_mut()) {
        let Some(field) = field.as_object_mut() else {
            continue;
        };
        if field.get("type").and_then(Value::as_str) != Some("string") {
            continue;
        }
        let Some(options) = field.get("oneOf").and_then(Value::as_array) else {
            continue;
        };
        let values: Vec<Value> = options
            .iter()
            .filter_map(|o| o.get("const").cloned())
            .collect();
        let names: Vec<Value> = options
            .iter()
            .map(|o| o.get("title").cloned().or_else(|| o.get("const").cloned()))
            .collect::<Option<_>>()
            .unwrap_or_default();
        if values.len() != options.len() || names.len() != options.len() {
            continue;
        }
        field.remove("oneOf");
        field.insert("enum".into(), Value::Array(values));
        field.insert("enumNames".into(), Value::Array(names));
    }
}
