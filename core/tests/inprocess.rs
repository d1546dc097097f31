//! Client and server wired together in one process over in-memory pipes: both eras, every feature.

mod support;

use libmcp::client::{Client, VersionPreference};
use libmcp::server::{InputRequired, Reply, Server};
use libmcp::{Era, Error, ProtocolVersion};
use serde_json::json;

fn server() -> Server {
    Server::builder("test-server", "1.0.0")
        .tool(
            json!({"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}),
            |_ctx, args| Reply::text(args["text"].as_str().unwrap_or_default()),
        )
        .tool(json!({"name": "ask", "inputSchema": {"type": "object"}}), |ctx, _| {
            match ctx.input_response("name").and_then(|r| r.get("content")).and_then(|c| c.get("name")) {
                Some(n) => Reply::text(format!("Hello, {}! state={}", n.as_str().unwrap_or("?"), ctx.request_state().unwrap_or("-"))),
                None => InputRequired::new()
                    .elicit("name", "What is your name?", json!({"type": "object", "properties": {"name": {"type": "string"}}}))
                    .with_state("s1")
                    .into(),
            }
        })
        .build()
        .unwrap()
}

async fn connect(pref: VersionPreference) -> Client {
    support::inprocess::connect(server(), "test-client", pref).await
}

#[tokio::test]
async fn both_eras_list_call_and_mrtr() {
    for (pref, era) in [
        (VersionPreference::Auto, Era::Modern),
        (
            VersionPreference::Legacy(ProtocolVersion::V2025_11_25),
            Era::Legacy,
        ),
        (
            VersionPreference::Legacy(ProtocolVersion::V2024_11_05),
            Era::Legacy,
        ),
    ] {
        let client = connect(pref.clone()).await;
        assert_eq!(client.era(), era, "{pref:?}");
        let tools = client.list_all_tools().await.unwrap();
        assert_eq!(tools.len(), 2);
        let r = client
            .call_tool("echo", json!({"text": "hi"}))
            .await
            .unwrap();
        assert_eq!(r.first_text(), Some("hi"));
        let r = client.call_tool("ask", json!({})).await;
        if client.server().version == ProtocolVersion::V2024_11_05 {
            // Elicitation arrived in 2025-06-18: the engine refuses rather than send it.
            let Err(libmcp::Error::Rpc(e)) = r else {
                panic!("elicitation on 2024-11-05: {r:?}")
            };
            assert_eq!(e.code, -32603);
            assert_eq!(
                e.message,
                "Internal error: input request \"name\": the request elicitation/create cannot be \
                 expressed in protocol revision 2024-11-05: the revision has no such request"
            );
        } else {
            let r = r.unwrap();
            assert_eq!(r.first_text(), Some("Hello, Ada! state=s1"), "{pref:?}");
        }
        let r = client.call_tool("echo", json!({})).await.unwrap();
        assert!(r.is_error());
        client.close().await;
    }
}

#[tokio::test]
async fn runtime_registration_is_checked_and_served() {
    use libmcp::server::sync_handler;
    let s = server();
    assert!(
        s.add_tool(
            json!({"name": "bad name!"}),
            sync_handler(|_| Reply::text("x"))
        )
        .is_err()
    );
    assert!(
        s.add_tool(
            json!({"name": "t", "inputSchema": {"type": "string"}}),
            sync_handler(|_| Reply::text("x"))
        )
        .is_err()
    );
    s.add_tool(
        json!({"name": "late", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}),
        sync_handler(|ctx| Reply::text(ctx.arguments()["n"].to_string())),
    )
    .unwrap();
    s.add_resource(
        json!({"uri": "mem://x", "name": "x"}),
        sync_handler(|ctx| {
            Reply::Result(json!({"contents": [{"uri": ctx.uri().unwrap(), "text": "x"}]}))
        }),
    )
    .unwrap();
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_io);
    tokio::spawn(async move { libmcp::transport::stdio::serve(s, sr, sw).await });
    let (cr, cw) = tokio::io::split(client_io);
    let client = Client::builder("c", "1").connect_io(cr, cw).await.unwrap();
    assert_eq!(
        client
            .call_tool("late", json!({"n": 5}))
            .await
            .unwrap()
            .first_text(),
        Some("5")
    );
    assert!(
        client
            .call_tool("late", json!({"n": "five"}))
            .await
            .unwrap()
            .is_error()
    );
    assert_eq!(
        client.read_resource("mem://x").await.unwrap().contents[0].as_text(),
        Some("x")
    );
    client.close().await;
}

#[tokio::test]
async fn runtime_templates_and_completion_are_served_and_removed() {
    use libmcp::server::sync_handler;
    let s = server();
    assert!(
        s.add_resource_template(
            json!({"uriTemplate": "mem://{", "name": "bad"}),
            sync_handler(|_| Reply::text("x"))
        )
        .is_err()
    );
    s.add_resource_template(
        json!({"uriTemplate": "mem://item/{id}", "name": "item"}),
        sync_handler(|ctx| {
            let id = ctx.template_vars().unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string();
            Reply::Result(json!({"contents": [{"uri": ctx.uri().unwrap(), "text": id}]}))
        }),
    )
    .unwrap();
    s.set_completion_handler(Some(sync_handler(|_| {
        Reply::Result(json!({"completion": {"values": ["a", "b"]}}))
    })))
    .unwrap();
    assert!(s.capabilities().get("completions").is_some());
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_io);
    let served = s.clone();
    tokio::spawn(async move { libmcp::transport::stdio::serve(served, sr, sw).await });
    let (cr, cw) = tokio::io::split(client_io);
    let client = Client::builder("c", "1").connect_io(cr, cw).await.unwrap();
    let read = client.read_resource_raw("mem://item/42").await.unwrap();
    assert_eq!(read["contents"][0]["text"], "42");
    let done = client
        .complete_raw(
            json!({"type": "ref/resource", "uri": "mem://item/{id}"}),
            "id",
            "",
            None,
        )
        .await
        .unwrap();
    assert_eq!(done["completion"]["values"], json!(["a", "b"]));
    assert!(s.remove_resource_template("mem://item/{id}"));
    assert!(!s.remove_resource_template("mem://item/{id}"));
    s.set_completion_handler(None).unwrap();
    assert!(s.capabilities().get("completions").is_none());
    assert!(client.read_resource_raw("mem://item/42").await.is_err());
    client.close().await;
}

#[test]
fn build_reports_every_bad_definition_and_each_duplicate_name() {
    use libmcp::error::{DefinitionError, DefinitionKind};
    let text = |_: &_, _: &_| Reply::text("x");
    let read = |_: &_| Reply::Result(json!({"contents": []}));
    let err = Server::builder("s", "1")
        .tool(json!({"name": "t"}), text)
        .tool(json!({"name": "t"}), text)
        .tool(json!({"name": "bad name!"}), text)
        .prompt(json!({"name": "p"}), text)
        .prompt(json!({"name": "p"}), text)
        .resource(json!({"uri": "mem://a", "name": "a"}), read)
        .resource(json!({"uri": "mem://a", "name": "b"}), read)
        .resource_template(json!({"uriTemplate": "mem://{x}", "name": "x"}), read)
        .resource_template(json!({"uriTemplate": "mem://{x}", "name": "y"}), read)
        .build()
        .err()
        .unwrap();
    let Error::InvalidDefinitions(list) = &err else {
        panic!("{err:?}")
    };
    let dup = |kind, name: &str| DefinitionError::new(kind, name, "registered more than once");
    assert_eq!(list.len(), 5, "{list:?}");
    assert_eq!(list[0], dup(DefinitionKind::Tool, "t"));
    assert_eq!(
        (list[1].kind, list[1].name.as_deref()),
        (DefinitionKind::Tool, Some("bad name!"))
    );
    assert_eq!(list[2], dup(DefinitionKind::Prompt, "p"));
    assert_eq!(list[3], dup(DefinitionKind::Resource, "mem://a"));
    assert_eq!(list[4], dup(DefinitionKind::ResourceTemplate, "mem://{x}"));
    let message = err.to_string();
    assert!(
        message.starts_with(
            "invalid definition: tool \"t\": registered more than once; tool \"bad name!\": "
        ),
        "{message}"
    );
    assert_eq!(
        message.matches("invalid").count(),
        1 + list[1].reason.matches("invalid").count()
    );
}
