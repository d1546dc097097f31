//! Request methods the specification defines that a host may answer with its own handler
//! ([`Server::set_method_handler`](super::Server::set_method_handler),
//! [`ServerBuilder::method_handler`](super::ServerBuilder::method_handler)), as the official SDKs'
//! low-level servers let a host answer `tools/call` or `tasks/get` itself.
//!
//! A host may own the feature methods: `tools/list`, `tools/call`, `resources/list`,
//! `resources/templates/list`, `resources/read`, `prompts/list`, `prompts/get`,
//! `completion/complete`, `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`. The engine
//! keeps the rest: the lifecycle and the legacy utilities (`initialize`, `ping`,
//! `logging/setLevel`, `notifications/*`), `server/discover`, `subscriptions/listen` and
//! `resources/subscribe`/`unsubscribe` (the engine routes the notifications those promise),
//! `tasks/update` (input rounds of a task), the skills extension (`skills/*`,
//! `resources/directory/read`, served from registered skills) and the client's methods
//! (`sampling/createMessage`, `elicitation/create`, `roots/list`).
//!
//! For an owned method the engine still applies the era rules (a method the request's revision
//! lacks is -32601: `tasks/result` and `tasks/list` exist in 2025-11-25 only, `tasks/get` and
//! `tasks/cancel` in 2025-11-25 and, with the tasks extension, 2026-07-28), checks the request
//! against the revision's schema before the handler runs (-32602 naming the path) and the
//! handler's result against it before it is sent (-32603 naming the path, logged through
//! `tracing`; `shapes::check`). The capability of an owned method is the host's to declare
//! ([`Server::declare_capabilities`](super::Server::declare_capabilities)), and owning a method
//! needs it declared. Owning a method while the engine has items it would answer that method for
//! (a tool registered and `tools/call` owned) is refused, whichever comes second.

use serde_json::{Map, Value};

use super::state::{Kind, Registry};
use super::tasks::{self, TaskSupport};
use crate::model::tasks::EXTENSION as TASKS;
use crate::version::ProtocolVersion;

/// The methods a host may own, with the engine's items each conflicts with.
const OWNABLE: [(&str, Family); 12] = [
    ("tools/list", Family::Tools),
    ("tools/call", Family::Tools),
    ("resources/list", Family::Resources),
    ("resources/templates/list", Family::Resources),
    ("resources/read", Family::Resources),
    ("prompts/list", Family::Prompts),
    ("prompts/get", Family::Prompts),
    ("completion/complete", Family::Completion),
    ("tasks/get", Family::Tasks),
    ("tasks/result", Family::Tasks),
    ("tasks/list", Family::Tasks),
    ("tasks/cancel", Family::Tasks),
];

/// The engine's items an owned method conflicts with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Family {
    /// Registered tools.
    Tools,
    /// Registered resources, templates, skills and the resource lister.
    Resources,
    /// Registered prompts.
    Prompts,
    /// The completion handler.
    Completion,
    /// Tools that may run as tasks (the engine's tasks).
    Tasks,
}

impl Family {
    /// The capability (key of the capabilities object) the family's methods need declared.
    fn capability(self) -> &'static str {
        match self {
            Family::Tools => "tools",
            Family::Resources => "resources",
            Family::Prompts => "prompts",
            Family::Completion => "completions",
            Family::Tasks => "tasks",
        }
    }
}

/// The family of `method`, if a host may own it.
pub(crate) fn family(method: &str) -> Option<Family> {
    OWNABLE.iter().find(|(m, _)| *m == method).map(|(_, f)| *f)
}

/// Refuses owning `method` unless `declared` has its capability (the tasks methods: `tasks`, or
/// the tasks extension under `extensions`), as the specification ties each method to one.
pub(crate) fn check_capability(declared: &Map<String, Value>, method: &str) -> Result<(), String> {
    let Some(f) = family(method) else {
        return Ok(());
    };
    let key = f.capability();
    let has = declared.contains_key(key)
        || (f == Family::Tasks
            && declared
                .get("extensions")
                .is_some_and(|e| e.get(TASKS).is_some()));
    match has {
        true => Ok(()),
        false => Err(format!(
            "answering {method} needs the {key} capability declared first (declare_capabilities)"
        )),
    }
}

/// The engine's item that owning `method` conflicts with, described, if there is one.
pub(crate) fn engine_item(reg: &Registry, method: &str) -> Option<String> {
    let name = |d: &Value, key: &str| d.get(key).and_then(Value::as_str).unwrap_or("?").to_owned();
    match family(method)? {
        Family::Tools => reg
            .tools
            .iter()
            .next()
            .map(|t| format!("tool {:?}", name(&t.definition, "name"))),
        Family::Resources => {
            if let Some(r) = reg.resources.iter().next() {
                return Some(format!("resource {:?}", name(&r.definition, "uri")));
            }
            if let Some(t) = reg.templates.iter().next() {
                return Some(format!(
                    "resource template {:?}",
                    name(&t.definition, "uriTemplate")
                ));
            }
            reg.resource_lister
                .as_ref()
                .map(|_| "a resource lister".to_owned())
        }
        Family::Prompts => reg
            .prompts
            .iter()
            .next()
            .map(|p| format!("prompt {:?}", name(&p.definition, "name"))),
        Family::Completion => reg
            .completion
            .as_ref()
            .map(|_| "a completion handler".to_owned()),
        Family::Tasks => reg
            .tools
            .iter()
            .find(|t| t.task_support != TaskSupport::Forbidden)
            .map(|t| {
                format!(
                    "tool {:?}, which may run as a task",
                    name(&t.definition, "name")
                )
            }),
    }
}

/// The method of `family` the host owns, if any.
pub(crate) fn owner(reg: &Registry, family: Family) -> Option<&'static str> {
    OWNABLE
        .iter()
        .find(|(m, f)| *f == family && reg.methods.contains_key(*m))
        .map(|(m, _)| *m)
}

/// The refusal of a registration of `item` while the host owns a method of `family`.
pub(crate) fn refuse_item(reg: &Registry, family: Family, item: &str) -> Result<(), String> {
    match owner(reg, family) {
        Some(method) => Err(conflict(method, item)),
        None => Ok(()),
    }
}

/// Why owning `method` and registering `item` together is refused (naming both).
pub(crate) fn conflict(method: &str, item: &str) -> String {
    format!(
        "{method} is answered by the host's own handler, and {item} is registered, which the \
         engine would answer {method} for: register one or the other"
    )
}

/// Whether the owned `method` exists at `version` (the era rules the engine's own answers follow).
pub(crate) fn exists_at(method: &str, version: &ProtocolVersion) -> bool {
    match method {
        "tasks/get" | "tasks/cancel" => tasks::exist_at(version),
        "tasks/result" | "tasks/list" => *version == ProtocolVersion::V2025_11_25,
        _ => true,
    }
}

/// How the answer of the owned `method` is shaped: lists and reads carry the cache hints of
/// 2026-07-28, as the engine's own do.
pub(crate) fn kind(method: &str) -> Kind {
    let cacheable = matches!(
        method,
        "tools/list"
            | "resources/list"
            | "resources/templates/list"
            | "resources/read"
            | "prompts/list"
    );
    Kind::Owned { cacheable }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ownable_methods_and_their_capabilities() {
        assert_eq!(family("tools/call"), Some(Family::Tools));
        assert_eq!(family("tasks/result"), Some(Family::Tasks));
        for m in [
            "initialize",
            "ping",
            "server/discover",
            "tasks/update",
            "skills/list",
        ] {
            assert_eq!(family(m), None, "{m}");
        }
        let declared: Map<String, Value> =
            serde_json::from_value(serde_json::json!({"tools": {}})).unwrap();
        assert_eq!(check_capability(&declared, "tools/call"), Ok(()));
        let e = check_capability(&declared, "tasks/get").unwrap_err();
        assert_eq!(
            e,
            "answering tasks/get needs the tasks capability declared first (declare_capabilities)"
        );
        assert!(exists_at("tasks/result", &ProtocolVersion::V2025_11_25));
        assert!(!exists_at("tasks/result", &ProtocolVersion::V2026_07_28));
        assert!(!exists_at("tasks/get", &ProtocolVersion::V2025_06_18));
    }
}
