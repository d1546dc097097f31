//! The typed client API against the everything-server, in both eras: every list, read, prompt and
//! completion comes back as the `model` types with exactly the values the server defines.

use libmcp::ProtocolVersion;
use libmcp::client::{Client, VersionPreference};
use libmcp::model::{
    CompletionReference, ContentBlock, PromptMessage, Resource, ResourceContents, Role,
};
use libmcp_examples::everything::build_server;
use serde_json::json;

async fn connect(pref: VersionPreference) -> Client {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server_io);
    tokio::spawn(async move { libmcp::transport::stdio::serve(build_server(), sr, sw).await });
    let (cr, cw) = tokio::io::split(client_io);
    Client::builder("test", "1.0.0")
        .version_preference(pref)
        .connect_io(cr, cw)
        .await
        .unwrap()
}

fn eras() -> [VersionPreference; 2] {
    [
        VersionPreference::Legacy(ProtocolVersion::V2025_11_25),
        VersionPreference::Modern(ProtocolVersion::V2026_07_28),
    ]
}

#[tokio::test]
async fn typed_results_have_the_everything_servers_values() {
    for pref in eras() {
        let client = connect(pref.clone()).await;
        let info = client.server().implementation().unwrap().unwrap();
        assert_eq!(info.name, "libmcp-everything-server", "{pref:?}");
        assert_eq!(info.title.as_deref(), Some("libmcp everything server"));
        assert!(
            client
                .server()
                .server_capabilities()
                .unwrap()
                .tools
                .is_some()
        );

        let tools = client.list_all_tools().await.unwrap();
        let simple = tools.iter().find(|t| t.name == "test_simple_text").unwrap();
        assert_eq!(
            simple.description.as_deref(),
            Some("Returns a simple text response")
        );
        let text = client.call_tool("test_simple_text", ()).await.unwrap();
        assert_eq!(
            text.content,
            [ContentBlock::text(
                "This is a simple text response for testing."
            )],
            "{pref:?}"
        );

        let resources = client.list_all_resources().await.unwrap();
        assert_eq!(
            resources[0],
            Resource::new("test://static-text", "static-text")
                .title("Static text")
                .description("A static text resource")
                .mime_type("text/plain")
        );
        let read = client.read_resource("test://static-text").await.unwrap();
        assert_eq!(
            read.contents,
            [ResourceContents::text(
                "test://static-text",
                Some("text/plain".into()),
                "This is the content of the static text resource."
            )]
        );
        let templates = client.list_all_resource_templates().await.unwrap();
        assert_eq!(templates[0].uri_template, "test://template/{id}/data");
        let data = client
            .read_resource("test://template/42/data")
            .await
            .unwrap();
        assert_eq!(
            data.contents[0].as_text(),
            Some(r#"{"data":"Data for ID: 42","id":"42","templateTest":true}"#)
        );

        let prompts = client.list_all_prompts().await.unwrap();
        let with_args = prompts
            .iter()
            .find(|p| p.name == "test_prompt_with_arguments")
            .unwrap();
        assert_eq!(with_args.arguments.as_ref().unwrap().len(), 2);
        let got = client
            .get_prompt(
                "test_prompt_with_arguments",
                json!({"arg1": "a", "arg2": "b"}),
            )
            .await
            .unwrap();
        assert_eq!(
            got.messages,
            [PromptMessage::text(
                Role::User,
                "Prompt with arguments: arg1='a', arg2='b'"
            )]
        );
        let image = client
            .get_prompt("test_prompt_with_image", ())
            .await
            .unwrap();
        assert!(matches!(image.messages[0].content, ContentBlock::Image(_)));

        let done = client
            .complete(
                CompletionReference::prompt("test_prompt_with_arguments"),
                "arg1",
                "hel",
                None,
            )
            .await
            .unwrap();
        assert_eq!(done.completion.values, ["hello", "help"]);
        assert_eq!(done.completion.total, Some(2));
        assert_eq!(done.completion.has_more, Some(false));
        client.close().await;
    }
}
