//! The `#[tool]` attribute end to end over in-memory pipes: the definitions it derives (name,
//! description from the doc comment, parameter schemas, annotations, output schema) listed exactly,
//! and calls of sync and async tools with and without a context, optional arguments, tool errors and
//! arguments that do not fit.

use libmcp::client::{Client, VersionPreference};
use libmcp::model::ContentBlock;
use libmcp::server::{Json, RequestContext, Server};
use libmcp::{Era, tool};
use serde_json::{Value, json};

/// Adds two integers.
///
/// Both must fit in 64 bits.
#[tool(read_only, idempotent)]
fn add(#[arg(description = "The first term")] a: i64, b: i64) -> String {
    (a + b).to_string()
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Greeting {
    text: String,
    era: String,
}

/// Greets someone.
#[tool(
    name = "say_hello",
    title = "Say hello",
    description = "Greets by name"
)]
fn greet(ctx: &RequestContext, name: String, #[serde(default)] shout: bool) -> Json<Greeting> {
    let text = format!("Hello, {name}!");
    Json(Greeting {
        text: if shout { text.to_uppercase() } else { text },
        era: format!("{:?}", ctx.era()),
    })
}

/// Waits, then reports; refuses long waits with a tool error.
#[tool]
async fn wait(ctx: RequestContext, ms: u64, label: Option<String>) -> Result<String, String> {
    if ms > 100 {
        return Err(format!("{ms} ms is too long"));
    }
    tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
    let _ = ctx.era();
    Ok(format!(
        "{} after {ms} ms",
        label.as_deref().unwrap_or("done")
    ))
}

/// No arguments at all.
#[tool(destructive, open_world)]
async fn ping_home() -> String {
    "home".to_owned()
}

fn server() -> Server {
    Server::builder("macro", "1.0.0")
        .register(add())
        .register(greet())
        .register(wait())
        .register(ping_home())
        .build()
        .unwrap()
}

async fn connect(pref: VersionPreference) -> Client {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_io);
    let server = server();
    tokio::spawn(async move { libmcp::transport::stdio::serve(server, sr, sw).await });
    let (cr, cw) = tokio::io::split(client_io);
    Client::builder("c", "1")
        .version_preference(pref)
        .connect_io(cr, cw)
        .await
        .unwrap()
}

fn text(result: &libmcp::model::CallToolResult) -> &str {
    match &result.content[0] {
        ContentBlock::Text(t) => &t.text,
        other => panic!("not text: {other:?}"),
    }
}

#[tokio::test]
async fn definitions_are_derived_from_the_functions() {
    let client = connect(VersionPreference::Auto).await;
    let tools: Vec<Value> = client
        .list_all_tools()
        .await
        .unwrap()
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    assert_eq!(
        tools,
        vec![
            json!({
                "name": "add",
                "description": "Adds two integers.\n\nBoth must fit in 64 bits.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "a": {"type": "integer", "format": "int64", "description": "The first term"},
                        "b": {"type": "integer", "format": "int64"}
                    },
                    "required": ["a", "b"]
                },
                "annotations": {"readOnlyHint": true, "idempotentHint": true}
            }),
            json!({
                "name": "say_hello",
                "title": "Say hello",
                "description": "Greets by name",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "shout": {"type": "boolean", "default": false}
                    },
                    "required": ["name"]
                },
                "outputSchema": {
                    "type": "object",
                    "properties": {"text": {"type": "string"}, "era": {"type": "string"}},
                    "required": ["text", "era"]
                }
            }),
            json!({
                "name": "wait",
                "description": "Waits, then reports; refuses long waits with a tool error.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "ms": {"type": "integer", "format": "uint64", "minimum": 0},
                        "label": {"type": ["string", "null"]}
                    },
                    "required": ["ms"]
                }
            }),
            json!({
                "name": "ping_home",
                "description": "No arguments at all.",
                "inputSchema": {"type": "object"},
                "annotations": {"destructiveHint": true, "openWorldHint": true}
            }),
        ]
    );
}

#[tokio::test]
async fn calls_reach_the_functions_in_both_eras() {
    for (pref, era) in [
        (VersionPreference::Auto, "Modern"),
        (
            VersionPreference::Legacy(libmcp::ProtocolVersion::V2025_11_25),
            "Legacy",
        ),
    ] {
        let client = connect(pref).await;
        assert_eq!(client.era() == Era::Modern, era == "Modern");

        let sum = client
            .call_tool("add", json!({"a": 2, "b": 40}))
            .await
            .unwrap();
        assert_eq!(text(&sum), "42");

        let hello = client
            .call_tool("say_hello", json!({"name": "Ada", "shout": true}))
            .await
            .unwrap();
        assert_eq!(
            hello.structured_content,
            Some(json!({"text": "HELLO, ADA!", "era": era}))
        );
        let quiet = client
            .call_tool("say_hello", json!({"name": "Ada"}))
            .await
            .unwrap();
        assert_eq!(quiet.structured_content.unwrap()["text"], "Hello, Ada!");

        let waited = client.call_tool("wait", json!({"ms": 5})).await.unwrap();
        assert_eq!(text(&waited), "done after 5 ms");
        let labelled = client
            .call_tool("wait", json!({"ms": 1, "label": "ready"}))
            .await
            .unwrap();
        assert_eq!(text(&labelled), "ready after 1 ms");

        let refused = client.call_tool("wait", json!({"ms": 500})).await.unwrap();
        assert!(refused.is_error());
        assert_eq!(text(&refused), "500 ms is too long");

        assert_eq!(
            text(&client.call_tool("ping_home", json!({})).await.unwrap()),
            "home"
        );
        client.close().await;
    }
}

#[tokio::test]
async fn arguments_outside_the_schema_are_tool_errors_the_model_reads() {
    // The derived inputSchema is enforced before the function runs; the failure is a tool result
    // with isError (SEP-1303), so the model can correct its call.
    let client = connect(VersionPreference::Auto).await;
    for (bad, why) in [
        (
            json!({"a": "two", "b": 1}),
            "/a: \"two\" is not of type \"integer\"",
        ),
        (json!({"b": 1}), "(root): \"a\" is a required property"),
    ] {
        let result = client.call_tool("add", bad).await.unwrap();
        assert!(result.is_error());
        assert_eq!(text(&result), format!("Input validation error: {why}"));
    }
}
