//! The typed Rust API end to end over in-memory pipes: typed tools (sync and async) with derived
//! input and output schemas, typed client results, and clear errors for results that do not parse.

use std::time::Duration;

use libmcp::client::{Client, VersionPreference};
use libmcp::model::{ContentBlock, Tool};
use libmcp::server::{Json, Server, ToolDef};
use libmcp::{Error, ProtocolVersion};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    /// First addend.
    a: i64,
    /// Second addend.
    b: i64,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum {
    /// The sum of both addends.
    sum: i64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Wait {
    /// Milliseconds to wait.
    ms: u64,
}

fn server() -> Server {
    Server::builder("typed", "1.0.0")
        .typed_tool(
            Tool::new("add").description("Adds two integers"),
            |_ctx, a: AddArgs| Json(Sum { sum: a.a + a.b }),
        )
        .typed_tool_async("wait", |_ctx, w: Wait| async move {
            tokio::time::sleep(Duration::from_millis(w.ms)).await;
            if w.ms > 100 {
                Err(format!("{} ms is too long", w.ms))
            } else {
                Ok(format!("waited {} ms", w.ms))
            }
        })
        .tool(
            Tool::new("model_def").description("from the typed model"),
            |_ctx, _| libmcp::model::CallToolResult::structured(json!({"ok": true})),
        )
        .build()
        .unwrap()
}

async fn connect(server: Server, pref: VersionPreference) -> Client {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_io);
    tokio::spawn(async move { libmcp::transport::stdio::serve(server, sr, sw).await });
    let (cr, cw) = tokio::io::split(client_io);
    Client::builder("c", "1")
        .version_preference(pref)
        .connect_io(cr, cw)
        .await
        .unwrap()
}

#[tokio::test]
async fn derived_schemas_are_listed_exactly() {
    let client = connect(server(), VersionPreference::Auto).await;
    let tools = client.list_all_tools().await.unwrap();
    let add = serde_json::to_value(&tools[0]).unwrap();
    assert_eq!(
        add,
        json!({
            "name": "add",
            "description": "Adds two integers",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "format": "int64", "description": "First addend."},
                    "b": {"type": "integer", "format": "int64", "description": "Second addend."}
                },
                "required": ["a", "b"]
            },
            "outputSchema": {
                "type": "object",
                "properties": {
                    "sum": {"type": "integer", "format": "int64",
                            "description": "The sum of both addends."}
                },
                "required": ["sum"]
            }
        })
    );
    assert_eq!(tools[1].name, "wait");
    assert_eq!(
        tools[1].input_schema,
        json!({"type": "object", "properties": {"ms": {"type": "integer", "format": "uint64",
               "minimum": 0, "description": "Milliseconds to wait."}}, "required": ["ms"]})
    );
    assert_eq!(tools[1].output_schema, None);
    assert_eq!(
        tools[2].description.as_deref(),
        Some("from the typed model")
    );
    client.close().await;
}

#[tokio::test]
async fn typed_results_in_both_eras() {
    for pref in [
        VersionPreference::Auto,
        VersionPreference::Legacy(ProtocolVersion::V2025_11_25),
    ] {
        let client = connect(server(), pref.clone()).await;
        let r = client
            .call_tool("add", json!({"a": 2, "b": 40}))
            .await
            .unwrap();
        assert_eq!(r.structured_content, Some(json!({"sum": 42})), "{pref:?}");
        assert_eq!(r.content, [ContentBlock::text(r#"{"sum":42}"#)]);
        assert!(!r.is_error());
        // Arguments the input schema refuses are a tool error the model can read.
        let bad = client.call_tool("add", json!({"a": "x"})).await.unwrap();
        assert!(bad.is_error());
        let r = client.call_tool("model_def", ()).await.unwrap();
        assert_eq!(r.structured_content, Some(json!({"ok": true})));
        client.close().await;
    }
}

#[tokio::test]
async fn async_typed_tools_answer_and_fail_as_tool_errors() {
    let client = connect(server(), VersionPreference::Auto).await;
    let (short, long) = tokio::join!(
        client.call_tool("wait", json!({"ms": 5})),
        client.call_tool("wait", json!({"ms": 150})),
    );
    let short = short.unwrap();
    assert_eq!(short.first_text(), Some("waited 5 ms"));
    assert!(!short.is_error());
    let long = long.unwrap();
    assert_eq!(long.first_text(), Some("150 ms is too long"));
    assert!(long.is_error());
    client.close().await;
}

#[test]
fn an_output_type_that_is_not_an_object_is_refused_at_build() {
    let Err(err) = Server::builder("s", "1")
        .typed_tool("count", |_ctx, _: Wait| Json(3_i64))
        .build()
    else {
        panic!("a tool with a non-object output schema was accepted");
    };
    let msg = err.to_string();
    assert!(
        msg.contains("tool count: the output type's schema is not an object schema"),
        "{msg}"
    );
}

#[tokio::test]
async fn tool_defs_register_at_runtime() {
    let server = server();
    let def = ToolDef::sync_fn("double", |_ctx, a: AddArgs| Json(Sum { sum: 2 * a.a }));
    assert_eq!(
        def.definition().output_schema.as_ref().unwrap()["required"],
        json!(["sum"])
    );
    server.register(def).unwrap();
    let client = connect(server, VersionPreference::Auto).await;
    let r = client
        .call_tool("double", json!({"a": 4, "b": 0}))
        .await
        .unwrap();
    assert_eq!(r.structured_content, Some(json!({"sum": 8})));
    client.close().await;
}

/// A legacy server that answers the handshake correctly and then sends results the model cannot
/// read: a tool without `inputSchema`, a CallToolResult whose `content` is a string.
async fn malformed_server(io: tokio::io::DuplexStream) {
    let (r, mut w) = tokio::io::split(io);
    let mut lines = BufReader::new(r).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let msg: Value = serde_json::from_str(&line).unwrap();
        let Some(id) = msg.get("id").cloned() else {
            continue;
        };
        let result = match msg["method"].as_str().unwrap_or_default() {
            "initialize" => json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                                   "serverInfo": {"name": "bad", "version": "1"}}),
            "tools/list" => json!({"tools": [{"name": "x"}]}),
            "tools/call" => json!({"content": "oops"}),
            _ => json!({}),
        };
        let reply = json!({"jsonrpc": "2.0", "id": id, "result": result});
        w.write_all(format!("{reply}\n").as_bytes()).await.unwrap();
    }
}

#[tokio::test]
async fn malformed_results_are_protocol_errors_and_raw_paths_still_pass_them() {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(malformed_server(server_io));
    let (cr, cw) = tokio::io::split(client_io);
    let client = Client::builder("c", "1")
        .version_preference(VersionPreference::Legacy(ProtocolVersion::V2025_11_25))
        .connect_io(cr, cw)
        .await
        .unwrap();
    let info = client.server().implementation().unwrap().unwrap();
    assert_eq!((info.name.as_str(), info.version.as_str()), ("bad", "1"));
    match client.list_all_tools().await {
        Err(Error::Protocol(m)) => assert_eq!(
            m,
            "tools/list: the result does not parse: missing field `inputSchema`"
        ),
        other => panic!("expected a protocol error, got {other:?}"),
    }
    match client.call_tool("x", ()).await {
        Err(Error::Protocol(m)) => assert!(
            m.starts_with("tools/call: the result does not parse: invalid type: string \"oops\""),
            "{m}"
        ),
        other => panic!("expected a protocol error, got {other:?}"),
    }
    assert_eq!(
        client.list_all_raw("tools/list").await.unwrap(),
        [json!({"name": "x"})]
    );
    assert_eq!(
        client.call_tool_raw("x", json!({})).await.unwrap(),
        json!({"content": "oops"})
    );
    client.close().await;
}
