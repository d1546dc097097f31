//! Resources, the resource template, the prompts (except the MRTR one) and completion.

use libmcp::RpcError;
use libmcp::server::{Reply, ServerBuilder};
use serde_json::{Value, json};

use super::PNG_BASE64;

/// The text of `test://static-text`.
pub const STATIC_TEXT: &str = "This is the content of the static text resource.";

/// Values offered for `arg1` of `test_prompt_with_arguments`.
const ARG1_VALUES: [&str; 4] = ["hello", "help", "world", "paris"];

fn text_contents(uri: &str, mime: &str, text: &str) -> Value {
    json!({"contents": [{"uri": uri, "mimeType": mime, "text": text}]})
}

fn user_text(text: &str) -> Value {
    json!({"role": "user", "content": {"type": "text", "text": text}})
}

pub(super) fn register(b: ServerBuilder) -> ServerBuilder {
    let b = b
        .resource(
            json!({"uri": "test://static-text", "name": "static-text", "title": "Static text",
                "description": "A static text resource", "mimeType": "text/plain"}),
            |_ctx| text_contents("test://static-text", "text/plain", STATIC_TEXT),
        )
        .resource(
            json!({"uri": "test://static-binary", "name": "static-binary", "title": "Static binary",
                "description": "A static binary resource (a 1x1 PNG)", "mimeType": "image/png"}),
            |_ctx| {
                json!({"contents": [{"uri": "test://static-binary", "mimeType": "image/png", "blob": PNG_BASE64}]})
            },
        )
        .resource(
            json!({"uri": "test://watched-resource", "name": "watched-resource", "title": "Watched resource",
                "description": "A resource to subscribe to", "mimeType": "text/plain"}),
            |_ctx| {
                text_contents(
                    "test://watched-resource",
                    "text/plain",
                    "This is the content of the watched resource.",
                )
            },
        )
        .resource_template(
            json!({"uriTemplate": "test://template/{id}/data", "name": "template-data", "title": "Template data",
                "description": "Data for an id", "mimeType": "application/json"}),
            |ctx| {
                let uri = ctx.uri().unwrap_or_default();
                let id = ctx
                    .template_vars()
                    .and_then(|v| v.get("id"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let data = json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
                text_contents(uri, "application/json", &data.to_string())
            },
        );
    prompts(b).completion(|ctx| {
        let p = ctx.params();
        let is_arg1 = p["ref"]["type"] == "ref/prompt"
            && p["ref"]["name"] == "test_prompt_with_arguments"
            && p["argument"]["name"] == "arg1";
        let prefix = p["argument"]["value"].as_str().unwrap_or_default();
        let values: Vec<&str> = if is_arg1 {
            ARG1_VALUES
                .into_iter()
                .filter(|v| v.starts_with(prefix))
                .collect()
        } else {
            Vec::new()
        };
        json!({"completion": {"values": values, "total": values.len(), "hasMore": false}})
    })
}

fn prompts(b: ServerBuilder) -> ServerBuilder {
    b.prompt(
        json!({"name": "test_simple_prompt", "description": "A simple prompt without arguments"}),
        |_ctx, _args| json!({"messages": [user_text("This is a simple prompt for testing.")]}),
    )
    .prompt(
        json!({"name": "test_prompt_with_arguments", "description": "A prompt with two required arguments",
            "arguments": [
                {"name": "arg1", "description": "First argument", "required": true},
                {"name": "arg2", "description": "Second argument", "required": true},
            ]}),
        |_ctx, args| {
            let arg1 = args["arg1"].as_str().unwrap_or_default();
            let arg2 = args["arg2"].as_str().unwrap_or_default();
            json!({"messages": [user_text(&format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"))]})
        },
    )
    .prompt(
        json!({"name": "test_prompt_with_embedded_resource", "description": "A prompt embedding a resource",
            "arguments": [{"name": "resourceUri", "description": "URI of the resource to embed", "required": true}]}),
        |_ctx, args| {
            let Some(uri) = args["resourceUri"].as_str() else {
                return Reply::Error(RpcError::invalid_params("resourceUri must be a string"));
            };
            json!({"messages": [
                {"role": "user", "content": {"type": "resource", "resource": {
                    "uri": uri, "mimeType": "text/plain", "text": "Embedded resource content for testing."}}},
                user_text("Please process the embedded resource above."),
            ]})
            .into()
        },
    )
    .prompt(
        json!({"name": "test_prompt_with_image", "description": "A prompt with an image"}),
        |_ctx, _args| {
            json!({"messages": [
                {"role": "user", "content": {"type": "image", "data": PNG_BASE64, "mimeType": "image/png"}},
                user_text("Please analyze the image above."),
            ]})
        },
    )
}
