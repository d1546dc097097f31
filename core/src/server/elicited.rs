//! [`RequestContext::elicitation_answer`]: the client's answer to a form elicitation, checked
//! against the `requestedSchema` it answers, handed to the handler that asked.
//!
//! The check surfaces to the handler, as an error it can return or handle, in every era, as the
//! official SDKs' `elicitInput` (TypeScript, -32602) and `ctx.elicit` (Python) raise it into the
//! handler that awaits them; their high-level servers turn it, uncaught, into a tool error. The
//! engine does not refuse an answer by itself: on 2026-07-28 it keeps nothing between rounds
//! (`mrtr`), so the schema of a retry's `inputResponses` is only known to the handler, which asks
//! again with the same schema each round; on legacy sessions and in tasks the answers reach the
//! handler the same way (`mrtr::next_round`), and are checked the same way.
//!
//! An answer is an `ElicitResult` (2025-06-18 and later, `client/elicitation`):
//! `{action: "accept" | "decline" | "cancel", content?}`. An `accept` is checked: its `content`
//! (an object; absent reads as `{}`, so an accept without content passes only a schema that
//! requires nothing, where the TypeScript SDK checks only content that is there) must validate
//! against the `requestedSchema`. A `decline` or `cancel` carries nothing to check. Any other
//! shape is malformed. Both are -32602 (invalid params), as 2026-07-28 asks of a malformed
//! `inputResponses` value.

use serde_json::{Map, Value};

use super::context::RequestContext;
use crate::error::RpcError;
use crate::schema::SchemaCache;

impl RequestContext {
    /// The client's answer (an `ElicitResult`) to the form elicitation this handler asked under
    /// `key` with `requested_schema`, checked against it (the rules are in the module
    /// `server::elicited`'s source): `Ok(None)` when there is no answer (yet),
    /// -32602 when the answer is malformed or accepts content that does not match, -32603 when
    /// `requested_schema` does not compile.
    ///
    /// The same in both eras and in tasks: `ctx.input_response(key)` is the answer unchecked.
    pub fn elicitation_answer(
        &self,
        key: &str,
        requested_schema: &Value,
    ) -> Result<Option<&Value>, RpcError> {
        let Some(answer) = self.input_response(key) else {
            return Ok(None);
        };
        check_answer(
            &self.0.session.server.schemas,
            key,
            requested_schema,
            answer,
        )?;
        Ok(Some(answer))
    }
}

/// Checks one `ElicitResult`, the answer under `key`, against the `requestedSchema` it answers.
fn check_answer(
    cache: &SchemaCache,
    key: &str,
    schema: &Value,
    answer: &Value,
) -> Result<(), RpcError> {
    let invalid = |why: String| {
        RpcError::invalid_params(format!("the answer to the form elicitation {key:?} {why}"))
    };
    let content = match answer.get("action").and_then(Value::as_str) {
        Some("decline" | "cancel") => return Ok(()),
        Some("accept") => answer.get("content"),
        Some(other) => {
            return Err(invalid(format!(
                "has action {other:?}; it must be \"accept\", \"decline\" or \"cancel\""
            )));
        }
        None => {
            return Err(invalid(
                "has no string action; it must be \"accept\", \"decline\" or \"cancel\"".into(),
            ));
        }
    };
    let empty = Value::Object(Map::new());
    let content = match content {
        None | Some(Value::Null) => &empty,
        Some(c @ Value::Object(_)) => c,
        Some(other) => {
            return Err(invalid(format!(
                "accepts with content that is not an object: {other}"
            )));
        }
    };
    // A schema the handler sent was checked on the way out (`mrtr::check_input`): one that does
    // not compile here is not the one it asked with, the server's fault.
    let compiled = cache.compile(schema).map_err(|e| {
        RpcError::internal(format!(
            "the requestedSchema of the form elicitation {key:?} does not compile: {e}"
        ))
    })?;
    compiled.validate(content).map_err(|e| {
        invalid(format!(
            "does not match the requestedSchema: {}",
            e.to_string().replace('\n', "; ")
        ))
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::error::code::{INTERNAL_ERROR, INVALID_PARAMS};

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "age": {"type": "integer", "minimum": 0},
                "color": {"type": "string", "enum": ["red", "green"]}
            },
            "required": ["name"]
        })
    }

    fn check(answer: Value) -> Result<(), RpcError> {
        check_answer(&SchemaCache::default(), "k", &schema(), &answer)
    }

    fn message(answer: Value) -> String {
        let e = check(answer).expect_err("an error");
        assert_eq!(e.code, INVALID_PARAMS);
        e.message
    }

    #[test]
    fn answers_that_match_pass() {
        assert_eq!(
            check(json!({"action": "accept", "content": {"name": "x"}})),
            Ok(())
        );
        assert_eq!(
            check(json!({"action": "accept", "content": {"name": "x", "age": 3, "color": "red"}})),
            Ok(())
        );
        // Declining or cancelling carries nothing to check, whatever else it holds.
        assert_eq!(check(json!({"action": "decline"})), Ok(()));
        assert_eq!(check(json!({"action": "cancel", "content": 7})), Ok(()));
    }

    #[test]
    fn accepted_content_that_does_not_match_is_invalid_params() {
        let m = message(json!({"action": "accept", "content": {"name": "x", "age": -1}}));
        assert!(
            m.starts_with(
                "Invalid params: the answer to the form elicitation \"k\" does not match the requestedSchema: /age: "
            ),
            "{m}"
        );
        let m = message(json!({"action": "accept", "content": {"name": "x", "color": "blue"}}));
        assert!(m.contains("/color"), "{m}");
        // A missing required field, also when the content is absent altogether.
        let m = message(json!({"action": "accept", "content": {"age": 1}}));
        assert!(m.contains("\"name\" is a required property"), "{m}");
        let m = message(json!({"action": "accept"}));
        assert!(m.contains("\"name\" is a required property"), "{m}");
    }

    #[test]
    fn an_accept_without_content_passes_a_schema_that_requires_nothing() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "string"}}});
        for answer in [
            json!({"action": "accept"}),
            json!({"action": "accept", "content": null}),
        ] {
            assert_eq!(
                check_answer(&SchemaCache::default(), "k", &schema, &answer),
                Ok(())
            );
        }
    }

    #[test]
    fn malformed_answers_are_named() {
        let m = message(json!({"action": "ok"}));
        assert!(
            m.ends_with("has action \"ok\"; it must be \"accept\", \"decline\" or \"cancel\""),
            "{m}"
        );
        let m = message(json!({"content": {"name": "x"}}));
        assert!(m.contains("has no string action"), "{m}");
        let m = message(json!({"action": "accept", "content": ["x"]}));
        assert!(
            m.ends_with("accepts with content that is not an object: [\"x\"]"),
            "{m}"
        );
    }

    #[test]
    fn a_schema_that_does_not_compile_is_the_servers_fault() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "no such type"}}});
        let answer = json!({"action": "accept", "content": {"n": "x"}});
        let e = check_answer(&SchemaCache::default(), "k", &schema, &answer).expect_err("an error");
        assert_eq!(e.code, INTERNAL_ERROR, "{e:?}");
        assert!(e.message.contains("does not compile"), "{e:?}");
    }
}
