//! The rule, one row per case: (revision, message kind and method, what the engine would send, what goes
//! on the wire or the refusal's message).

use serde_json::{Value, json};

use super::{notification, request, result, text_only_tool_result};
use crate::version::ProtocolVersion;

#[derive(Clone, Copy, Debug)]
enum Kind {
    Result,
    Request,
    Notification,
}

/// Sent as is / sent as `Ok(value)` / refused with a message containing `Err(text)`.
struct Row {
    revision: &'static str,
    kind: Kind,
    method: &'static str,
    input: Value,
    expected: Result<Value, &'static str>,
}

fn row(
    revision: &'static str,
    kind: Kind,
    method: &'static str,
    input: Value,
    expected: Result<Value, &'static str>,
) -> Row {
    Row {
        revision,
        kind,
        method,
        input,
        expected,
    }
}

fn audio() -> Value {
    json!({"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"})
}

fn text(t: &str) -> Value {
    json!({"type": "text", "text": t})
}

fn server_info() -> Value {
    json!({"protocolVersion": "x", "capabilities": {"logging": {}, "completions": {}, "tools": {"listChanged": true}},
           "serverInfo": {"name": "s", "version": "1", "title": "S", "icons": [{"src": "https://x/i.png"}]}})
}

fn multi_select_form() -> Value {
    json!({"message": "Pick", "requestedSchema": {"type": "object", "properties": {
        "many": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}}}})
}

fn titled_multi_select_form() -> Value {
    json!({"message": "Pick", "requestedSchema": {"type": "object", "properties": {
        "many": {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}, "default": ["a"]}}}})
}

fn rows() -> Vec<Row> {
    use Kind::*;
    let resource = json!({"uri": "test://a", "name": "a", "title": "A", "mimeType": "text/plain",
                          "icons": [{"src": "https://x/i.png"}], "_meta": {"k": 1}});
    vec![
        // Audio arrived in 2025-03-26: before, it becomes a text note; from then on it passes.
        row(
            "2024-11-05",
            Result,
            "tools/call",
            json!({"content": [audio()], "isError": false}),
            Ok(
                json!({"content": [text("[audio content omitted: protocol revision 2024-11-05 cannot carry it; mimeType audio/wav]")], "isError": false}),
            ),
        ),
        row(
            "2025-03-26",
            Result,
            "tools/call",
            json!({"content": [audio()]}),
            Ok(json!({"content": [audio()]})),
        ),
        // structuredContent arrived in 2025-06-18; resource_link too.
        row(
            "2025-03-26",
            Result,
            "tools/call",
            json!({"content": [{"type": "resource_link", "uri": "test://r", "name": "r"}], "structuredContent": {"a": 1}}),
            Ok(
                json!({"content": [text("[resource_link content omitted: protocol revision 2025-03-26 cannot carry it; name r; uri test://r]")]}),
            ),
        ),
        row(
            "2025-06-18",
            Result,
            "tools/call",
            json!({"content": [], "structuredContent": {"a": {"deep": 1}}}),
            Ok(json!({"content": [], "structuredContent": {"a": {"deep": 1}}})),
        ),
        // title/icons on resources: 2025-06-18 and 2025-11-25; _meta always kept.
        row(
            "2024-11-05",
            Result,
            "resources/list",
            json!({"resources": [resource.clone()]}),
            Ok(
                json!({"resources": [{"uri": "test://a", "name": "a", "mimeType": "text/plain", "_meta": {"k": 1}}]}),
            ),
        ),
        row(
            "2025-06-18",
            Result,
            "resources/list",
            json!({"resources": [resource.clone()]}),
            Ok(
                json!({"resources": [{"uri": "test://a", "name": "a", "title": "A", "mimeType": "text/plain", "_meta": {"k": 1}}]}),
            ),
        ),
        row(
            "2025-11-25",
            Result,
            "resources/list",
            json!({"resources": [resource.clone()]}),
            Ok(json!({"resources": [resource]})),
        ),
        // Engine fields of the modern era never reach a legacy client.
        row(
            "2025-11-25",
            Result,
            "resources/read",
            json!({"contents": [{"uri": "u", "blob": "AA=="}], "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}),
            Ok(json!({"contents": [{"uri": "u", "blob": "AA=="}]})),
        ),
        // initialize: completions capability is 2025-03-26, title 2025-06-18, icons 2025-11-25.
        row(
            "2024-11-05",
            Result,
            "initialize",
            server_info(),
            Ok(
                json!({"protocolVersion": "x", "capabilities": {"logging": {}, "tools": {"listChanged": true}}, "serverInfo": {"name": "s", "version": "1"}}),
            ),
        ),
        row(
            "2025-06-18",
            Result,
            "initialize",
            server_info(),
            Ok(
                json!({"protocolVersion": "x", "capabilities": {"logging": {}, "completions": {}, "tools": {"listChanged": true}}, "serverInfo": {"name": "s", "version": "1", "title": "S"}}),
            ),
        ),
        // A tool's input schema is a JSON Schema document: its keywords pass in every revision.
        row(
            "2024-11-05",
            Result,
            "tools/list",
            json!({"tools": [{"name": "t", "title": "T", "inputSchema": {"type": "object", "$defs": {}, "additionalProperties": false}, "annotations": {"readOnlyHint": true}}]}),
            Ok(
                json!({"tools": [{"name": "t", "inputSchema": {"type": "object", "$defs": {}, "additionalProperties": false}}]}),
            ),
        ),
        // Prompt messages: audio in 2024-11-05 becomes a note, keeping its annotations.
        row(
            "2024-11-05",
            Result,
            "prompts/get",
            json!({"messages": [{"role": "user", "content": {"type": "audio", "data": "", "mimeType": "audio/wav", "annotations": {"priority": 1}}}]}),
            Ok(
                json!({"messages": [{"role": "user", "content": {"type": "text", "annotations": {"priority": 1},
                "text": "[audio content omitted: protocol revision 2024-11-05 cannot carry it; mimeType audio/wav]"}}]}),
            ),
        ),
        // Elicitation: no such request before 2025-06-18.
        row(
            "2025-03-26",
            Request,
            "elicitation/create",
            multi_select_form(),
            Err(
                "the request elicitation/create cannot be expressed in protocol revision 2025-03-26: the revision has no such request",
            ),
        ),
        // Multi-select (2025-11-25) has no form in 2025-06-18.
        row(
            "2025-06-18",
            Request,
            "elicitation/create",
            multi_select_form(),
            Err(
                "the request elicitation/create cannot be expressed in protocol revision 2025-06-18: requestedSchema.properties.many: type \"array\" matches none of the forms this revision defines here (StringSchema, NumberSchema, BooleanSchema, EnumSchema)",
            ),
        ),
        row(
            "2025-11-25",
            Request,
            "elicitation/create",
            multi_select_form(),
            Ok(multi_select_form()),
        ),
        // Titled and untitled multi-select differ only in `items`: the one the value fits is kept.
        row(
            "2025-11-25",
            Request,
            "elicitation/create",
            titled_multi_select_form(),
            Ok(titled_multi_select_form()),
        ),
        // A legacy titled enum (enum + enumNames) is still defined in 2025-11-25: kept whole, not fitted
        // to the untitled member listed before it (conformance scenario elicitation-sep1330-enums).
        row(
            "2025-11-25",
            Request,
            "elicitation/create",
            json!({"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {
                "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]}}}}),
            Ok(
                json!({"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {
                "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]}}}}),
            ),
        ),
        // Titled options become enum + enumNames; mode and default (2025-11-25) are dropped.
        row(
            "2025-06-18",
            Request,
            "elicitation/create",
            json!({"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {
                "pick": {"type": "string", "oneOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}], "default": "a"},
                "name": {"type": "string", "default": "x"}}}}),
            Ok(
                json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
                "pick": {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]},
                "name": {"type": "string"}}}}),
            ),
        ),
        // URL elicitation keeps nothing 2025-06-18 requires.
        row(
            "2025-06-18",
            Request,
            "elicitation/create",
            json!({"mode": "url", "message": "m", "url": "https://x", "elicitationId": "e"}),
            Err(
                "2025-06-18: without elicitationId, mode, url (which this revision does not define) it lacks the required \"requestedSchema\"",
            ),
        ),
        // Sampling with tools is refused before 2025-11-25; audio in a sampling message is a note in 2024-11-05.
        row(
            "2025-06-18",
            Request,
            "sampling/createMessage",
            json!({"messages": [], "maxTokens": 5, "tools": []}),
            Err(
                "the request sampling/createMessage cannot be expressed in protocol revision 2025-06-18: tools: the revision does not define it",
            ),
        ),
        row(
            "2024-11-05",
            Request,
            "sampling/createMessage",
            json!({"messages": [{"role": "user", "content": audio()}], "maxTokens": 5}),
            Ok(
                json!({"messages": [{"role": "user", "content": text("[audio content omitted: protocol revision 2024-11-05 cannot carry it; mimeType audio/wav]")}], "maxTokens": 5}),
            ),
        ),
        // Notifications: progress message is 2025-03-26; elicitation/complete is 2025-11-25.
        row(
            "2024-11-05",
            Notification,
            "notifications/progress",
            json!({"progressToken": 1, "progress": 0, "total": 1, "message": "m"}),
            Ok(json!({"progressToken": 1, "progress": 0, "total": 1})),
        ),
        row(
            "2025-03-26",
            Notification,
            "notifications/progress",
            json!({"progressToken": 1, "progress": 0, "message": "m"}),
            Ok(json!({"progressToken": 1, "progress": 0, "message": "m"})),
        ),
        row(
            "2025-06-18",
            Notification,
            "notifications/elicitation/complete",
            json!({"elicitationId": "e"}),
            Err(
                "the notification notifications/elicitation/complete cannot be expressed in protocol revision 2025-06-18: the revision has no such notification",
            ),
        ),
        // The modern era is untouched.
        row(
            "2026-07-28",
            Result,
            "tools/call",
            json!({"content": [audio()], "resultType": "complete", "extra": 1}),
            Ok(json!({"content": [audio()], "resultType": "complete", "extra": 1})),
        ),
    ]
}

#[test]
fn each_revision_gets_its_own_shapes() {
    for (i, r) in rows().into_iter().enumerate() {
        let version = ProtocolVersion::new(r.revision);
        let mut value = r.input.clone();
        let outcome = match r.kind {
            Kind::Result => result(&version, r.method, &mut value),
            Kind::Request => request(&version, r.method, Some(&mut value)),
            Kind::Notification => notification(&version, r.method, &mut value),
        };
        let label = format!("row {i}: {} {:?} {}", r.revision, r.kind, r.method);
        match (outcome, r.expected) {
            (Ok(()), Ok(expected)) => assert_eq!(value, expected, "{label}"),
            (Err(e), Err(text)) => {
                let message = e.to_string();
                assert!(message.contains(text), "{label}: {message}");
            }
            (got, expected) => {
                panic!("{label}: got {got:?} (value {value}), expected {expected:?}")
            }
        }
    }
}

#[test]
fn every_embedded_schema_parses_with_its_method_tables() {
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let spec = super::spec::spec(revision).expect("embedded");
        // At run time a definition that does not parse would be `null`: every one must parse to
        // an object here.
        let mut names = 0;
        for name in spec.def_names() {
            let text = super::spec::def_text(spec, name);
            let parsed: serde_json::Value =
                serde_json::from_str(text).unwrap_or_else(|e| panic!("{revision} {name}: {e}"));
            assert!(parsed.is_object(), "{revision} {name}");
            assert_eq!(spec.def(name), Some(&parsed), "{revision} {name}");
            names += 1;
        }
        assert!(names > 40, "{revision}: {names} definitions");
        assert!(spec.def("NoSuchDefinition").is_none());
        // Each method table row is found by its method and names a definition.
        let rows = spec.method_rows();
        assert!(rows.len() > 20, "{revision}: {} method rows", rows.len());
        for (table, method, def) in rows {
            assert!(
                spec.def(def).is_some(),
                "{revision} {table} {method} -> {def}"
            );
            let found = match table {
                "results" => spec.result_schema(method),
                "requests" => spec
                    .def(def)
                    .filter(|_| spec.request_params(method).is_some()),
                _ => spec
                    .def(def)
                    .filter(|_| spec.notification_params(method).is_some()),
            };
            assert_eq!(found, spec.def(def), "{revision} {table} {method}");
        }
        assert!(spec.result_schema("tools/call").is_some(), "{revision}");
        assert!(spec.result_schema("ping").is_some(), "{revision}");
        assert!(
            spec.request_params("sampling/createMessage").is_some(),
            "{revision}"
        );
        assert!(
            spec.notification_params("notifications/message").is_some(),
            "{revision}"
        );
    }
    // Embedded for `check`, but no walk fits a modern message to it.
    let modern = super::spec::spec("2026-07-28").expect("embedded");
    assert_eq!(
        modern.client_request_def("tools/call"),
        Some("CallToolRequest")
    );
    assert_eq!(modern.result_def("tools/list"), Some("ListToolsResult"));
    assert!(super::walker(&crate::version::ProtocolVersion::V2026_07_28).is_none());
}

#[test]
fn refusals_become_internal_errors_naming_the_path() {
    let mut v = multi_select_form();
    let e = request(
        &ProtocolVersion::V2025_06_18,
        "elicitation/create",
        Some(&mut v),
    )
    .unwrap_err();
    let rpc: crate::error::RpcError = e.into();
    assert_eq!(rpc.code, -32603);
    assert!(rpc.message.starts_with("Internal error: the request elicitation/create cannot be expressed in protocol revision 2025-06-18: requestedSchema.properties.many"), "{}", rpc.message);
}

/// The shortcut for text-only tool results agrees with the walk: what it lets through the walk would
/// leave unchanged in every legacy revision, and what it does not is still walked.
#[test]
fn text_only_tool_results_are_what_the_walk_leaves_unchanged() {
    let plain = [
        json!({"content": []}),
        json!({"content": [text("a"), text("b")]}),
        json!({"content": [text("no")], "isError": true}),
        json!({"content": [text("a")], "_meta": {"k": 1}}),
    ];
    let not_plain = [
        json!({"content": [text("a")], "structuredContent": {"n": 1}}),
        json!({"content": [{"type": "text", "text": "a", "annotations": {"priority": 1}}]}),
        json!({"content": [audio()]}),
        json!({"content": [{"type": "text", "text": 1}]}),
        json!({"content": "a"}),
        json!({"isError": false}),
        json!({"content": [text("a")], "resultType": "complete"}),
    ];
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let version = ProtocolVersion::new(revision);
        for v in &plain {
            assert!(text_only_tool_result(v), "{v}");
            let walker = super::walker(&version).expect("legacy");
            let schema = walker.spec.result_schema("tools/call").expect("tools/call");
            let mut walked = v.clone();
            walker.fit(schema, &mut walked).expect("fits");
            assert_eq!(&walked, v, "{revision}: the walk changes {v}");
        }
        for v in &not_plain {
            assert!(!text_only_tool_result(v), "{v}");
        }
    }
}
