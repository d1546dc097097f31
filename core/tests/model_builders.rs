//! The model's constructors produce messages the 2026-07-28 schema accepts, and its discriminated
//! decoders reject what they should.

mod support;

use libmcp::model::elicitation::{ElicitationSchema, NumberSchema, NumberType, StringSchema};
use libmcp::model::*;
use serde_json::{Value, json};
use support::wire::assert_valid;

const REV: &str = "2026-07-28";

fn to(v: &impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap()
}

#[test]
fn tool_results_from_constructors_are_valid() {
    let ok = to(&CallToolResult::text("hi"));
    assert_eq!(
        ok,
        json!({"resultType":"complete","content":[{"type":"text","text":"hi"}]})
    );
    assert_valid(REV, "CallToolResult", &ok);
    let err = to(&CallToolResult::error("bad date"));
    assert_eq!(err["isError"], json!(true));
    assert_valid(REV, "CallToolResult", &err);
    let structured = CallToolResult::structured(json!([1, 2]));
    assert_eq!(structured.content[0].as_text(), Some("[1,2]"));
    assert_valid(REV, "CallToolResult", &to(&structured));
}

#[test]
fn tools_and_lists_from_constructors_are_valid() {
    let tool = Tool::new("get_time")
        .input_schema(json!({"type":"object","additionalProperties":false}))
        .description("Returns the time")
        .annotations(ToolAnnotations {
            title: Some("Clock".into()),
            read_only_hint: Some(true),
            ..Default::default()
        });
    assert_eq!(tool.display_name(), "Clock");
    assert_valid(REV, "Tool", &to(&tool));
    let mut list = ListToolsResult::new(vec![tool]);
    list.ttl_ms = Some(0);
    list.cache_scope = Some(CacheScope::Public);
    assert_valid(REV, "ListToolsResult", &to(&list));
}

#[test]
fn definition_builders_write_exact_json() {
    let tool = Tool::new("add")
        .title("Add")
        .output_schema(json!({"type": "object"}));
    assert_eq!(
        to(&tool),
        json!({"name": "add", "title": "Add", "inputSchema": {"type": "object"},
               "outputSchema": {"type": "object"}})
    );
    assert_valid(REV, "Tool", &to(&tool));
    let resource = Resource::new("file:///a.txt", "a")
        .title("A")
        .description("The letter a")
        .mime_type("text/plain")
        .size(1);
    assert_eq!(
        to(&resource),
        json!({"uri": "file:///a.txt", "name": "a", "title": "A", "description": "The letter a",
               "mimeType": "text/plain", "size": 1})
    );
    assert_valid(REV, "Resource", &to(&resource));
    let template = ResourceTemplate::new("file:///{path}", "files").mime_type("text/plain");
    assert_eq!(
        to(&template),
        json!({"uriTemplate": "file:///{path}", "name": "files", "mimeType": "text/plain"})
    );
    assert_valid(REV, "ResourceTemplate", &to(&template));
    let prompt = Prompt::new("greet")
        .description("Greets someone")
        .argument(PromptArgument::new("who", true).description("Whom to greet"));
    assert_eq!(
        to(&prompt),
        json!({"name": "greet", "description": "Greets someone",
               "arguments": [{"name": "who", "description": "Whom to greet", "required": true}]})
    );
    assert_valid(REV, "Prompt", &to(&prompt));
}

#[test]
fn discover_and_capabilities_from_constructors_are_valid() {
    let caps = ServerCapabilities::default()
        .with_tools(true)
        .with_resources(true, false)
        .with_extension("io.modelcontextprotocol/tasks", JsonObject::new());
    let d = DiscoverResult::new(vec!["2026-07-28".into()], caps, 60_000, CacheScope::Private);
    let v = to(&d);
    assert_eq!(v["capabilities"]["resources"], json!({"subscribe": true}));
    assert_valid(REV, "DiscoverResult", &v);
}

#[test]
fn mrtr_shapes_from_constructors_are_valid() {
    let schema = ElicitationSchema::default()
        .field(
            "name",
            PrimitiveSchemaDefinition::String(StringSchema::default()),
            true,
        )
        .field(
            "age",
            PrimitiveSchemaDefinition::Number(NumberSchema {
                kind: NumberType::Integer,
                title: None,
                description: None,
                minimum: Some(0.0),
                maximum: None,
                default: None,
            }),
            false,
        );
    let mut requests = InputRequests::new();
    requests.insert(
        "who".into(),
        InputRequest::Elicitation {
            params: ElicitRequestParams::form("Who are you?", schema),
        },
    );
    requests.insert("roots".into(), InputRequest::ListRoots { params: None });
    let r = to(&InputRequiredResult::new(requests).with_state("opaque"));
    // Integral numbers are written without a fraction, and form fields keep their order.
    assert_eq!(
        r["inputRequests"]["who"]["params"]["requestedSchema"]["properties"]["age"]["minimum"],
        json!(0)
    );
    let order: Vec<&String> = r["inputRequests"]["who"]["params"]["requestedSchema"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(order.len(), 2);
    assert_valid(REV, "InputRequiredResult", &r);
    let decoded: Outcome<CallToolResult> = serde_json::from_value(r).unwrap();
    assert!(matches!(decoded, Outcome::InputRequired(_)));
}

#[test]
fn ordered_form_properties_keep_document_order() {
    // From text: a `Value` built by `json!` would already have sorted the keys.
    let text =
        r#"{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"boolean"}}}"#;
    let s: ElicitationSchema = serde_json::from_str(text).unwrap();
    let names: Vec<&str> = s.properties.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["zeta", "alpha"]);
    assert!(
        serde_json::to_string(&s)
            .unwrap()
            .contains(r#""properties":{"zeta""#)
    );
}

#[test]
fn outcome_and_result_type_handle_legacy_and_extension_values() {
    // A legacy server sends no resultType: that is a complete result.
    let legacy: Outcome<CallToolResult> =
        serde_json::from_value(json!({"content":[{"type":"text","text":"x"}]})).unwrap();
    assert!(legacy.complete().is_some_and(|r| r.result_type.is_none()));
    // An extension's resultType is kept verbatim.
    let task = json!({"resultType":"task","taskId":"t1"});
    let ext: Outcome<CallToolResult> = serde_json::from_value(task.clone()).unwrap();
    assert_eq!(serde_json::to_value(&ext).unwrap(), task);
    let rt: ResultType = serde_json::from_value(json!("task")).unwrap();
    assert_eq!(rt, ResultType::Other("task".into()));
}

#[test]
fn discriminated_decoders_reject_unknown_tags() {
    assert!(serde_json::from_value::<ContentBlock>(json!({"type":"video","data":""})).is_err());
    assert!(serde_json::from_value::<ContentBlock>(json!({"text":"no tag"})).is_err());
    assert!(
        serde_json::from_value::<ElicitRequestParams>(json!({"mode":"telepathy","message":"m"}))
            .is_err()
    );
    assert!(serde_json::from_value::<PrimitiveSchemaDefinition>(json!({"type":"object"})).is_err());
    assert!(serde_json::from_value::<InputResponse>(json!({"unknown":true})).is_err());
}

#[test]
fn capabilities_keep_unmodelled_entries() {
    let legacy =
        json!({"roots":{"listChanged":true},"tasks":{"list":{}},"vendor.example/x":{"a":1}});
    let caps: ClientCapabilities = serde_json::from_value(legacy.clone()).unwrap();
    assert!(caps.extra.contains_key("tasks"));
    assert_eq!(serde_json::to_value(&caps).unwrap(), legacy);
}

#[test]
fn self_tagged_structs_write_their_tag() {
    assert_eq!(to(&TextContent::new("t"))["type"], json!("text"));
    assert_eq!(
        to(&ResourceLink::new("file:///a", "a"))["type"],
        json!("resource_link")
    );
    // The struct's own decoder does not check the tag (see content.rs); the enum's does.
    assert!(serde_json::from_value::<ContentBlock>(json!({"type":"image","text":"x"})).is_err());
}
