//! The names a host's request handler may have ([`Server::set_method_handler`](super::Server::set_method_handler)):
//! a request method the specification does not define, answered by the host instead of -32601
//! (method not found), or one of the feature methods the specification defines that a host may
//! own (`owned`). Every other method the specification defines stays the engine's (a
//! registration of one is refused).

use super::owned;
use crate::error::Error;

/// The request methods of every revision of the specification and of the extensions the engine
/// serves (both directions: a server given `sampling/createMessage` is still answered -32601 by
/// the engine, never by a host's handler).
const SPEC_METHODS: [&str; 26] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "resources/directory/read",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "server/discover",
    "subscriptions/listen",
    "tasks/get",
    "tasks/result",
    "tasks/list",
    "tasks/cancel",
    "tasks/update",
    "skills/list",
    "skills/get",
    "sampling/createMessage",
    "elicitation/create",
    "roots/list",
];

/// Checks that `method` may be given a host's handler: not empty, not a method the specification
/// defines, not in the `notifications/` namespace (the specification's notifications), and not
/// starting with `rpc.` (reserved by JSON-RPC 2.0, "Request object").
pub(crate) fn check_name(method: &str) -> Result<(), Error> {
    let refuse = |why: &str| {
        Err(Error::InvalidArgument(format!(
            "method {method:?} cannot have a handler of its own: {why}"
        )))
    };
    if method.is_empty() {
        return refuse("the name is empty");
    }
    if SPEC_METHODS.contains(&method) && owned::family(method).is_none() {
        return refuse(
            "the specification defines it, and the engine answers it itself (a host may answer \
             the tools, resources, prompts, completion and tasks methods)",
        );
    }
    if method.starts_with("notifications/") {
        return refuse("notifications/ names the specification's notifications");
    }
    if method.starts_with("rpc.") {
        return refuse("JSON-RPC 2.0 reserves names that begin with rpc.");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_specifications_methods_are_refused_with_the_reason() {
        for m in [
            "ping",
            "initialize",
            "tasks/update",
            "skills/get",
            "sampling/createMessage",
        ] {
            let e = check_name(m).unwrap_err().to_string();
            assert!(e.contains("the specification defines it"), "{m}: {e}");
            assert!(e.contains(m), "{e}");
        }
        let e = check_name("notifications/custom").unwrap_err().to_string();
        assert!(e.contains("notifications/ names"), "{e}");
        let e = check_name("rpc.discover").unwrap_err().to_string();
        assert!(e.contains("JSON-RPC 2.0 reserves"), "{e}");
        assert!(check_name("").unwrap_err().to_string().contains("empty"));
        for m in [
            "acme/search",
            "tools/search",
            "x",
            "tools/call",
            "tasks/get",
        ] {
            assert!(check_name(m).is_ok(), "{m}");
        }
    }
}
