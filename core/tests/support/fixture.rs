//! The server the wire tests talk to: one of each kind of handler.

use std::time::Duration;

use libmcp::model::logging::LoggingLevel;
use libmcp::server::{InputRequired, Reply, Server, ServerConfig};
use serde_json::{Value, json};

/// The fixture server with default tunables.
pub fn server() -> Server {
    server_with(ServerConfig::default())
}

fn name_schema() -> Value {
    json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
}

/// The fixture server with the given tunables.
pub fn server_with(config: ServerConfig) -> Server {
    Server::builder("fixture", "0.1.0")
        .config(config)
        .instructions("for tests")
        .tool(
            json!({"name": "echo", "description": "Echoes text", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}),
            |_ctx, args| Reply::text(args["text"].as_str().unwrap_or_default()),
        )
        .tool_async(json!({"name": "slow", "inputSchema": {"type": "object"}}), |ctx| async move {
            for i in 1..=3 {
                ctx.notify_progress(f64::from(i), Some(3.0), Some("working"));
                ctx.log(LoggingLevel::Info, Some("slow"), json!(format!("step {i}")));
                tokio::time::sleep(Duration::from_millis(60)).await;
            }
            Reply::text("done")
        })
        .tool(json!({"name": "ask", "inputSchema": {"type": "object"}}), |ctx, _| {
            // The answer checked against the schema asked with (-32602 when it does not match).
            let answer = match ctx.elicitation_answer("user_name", &name_schema()) {
                Ok(a) => a,
                Err(e) => return e.into(),
            };
            let name = answer
                .filter(|r| r["action"] == "accept")
                .and_then(|r| r["content"]["name"].as_str());
            match (name, ctx.request_state()) {
                (Some(n), Some("asked")) => Reply::text(format!("Hello, {n}!")),
                _ => InputRequired::new()
                    .elicit("user_name", "What is your name?", name_schema())
                    .with_state("asked")
                    .into(),
            }
        })
        .tool(json!({"name": "sample", "inputSchema": {"type": "object"}}), |ctx, _| {
            match ctx.input_response("answer").and_then(|r| r["content"]["text"].as_str()) {
                Some(t) => Reply::text(format!("model said: {t}")),
                None => InputRequired::new()
                    .sample(
                        "answer",
                        json!({"messages": [{"role": "user", "content": {"type": "text", "text": "2+2?"}}], "maxTokens": 10}),
                    )
                    .into(),
            }
        })
        .tool(json!({"name": "roots", "inputSchema": {"type": "object"}}), |ctx, _| {
            match ctx.input_response("r").and_then(|r| r["roots"].as_array()) {
                Some(roots) => Reply::text(format!("{} roots", roots.len())),
                None => InputRequired::new().list_roots("r").into(),
            }
        })
        .tool(json!({"name": "url", "inputSchema": {"type": "object"}}), |ctx, _| {
            match ctx.input_response("go") {
                Some(r) => Reply::text(format!("url {}", r["action"].as_str().unwrap_or("?"))),
                None => InputRequired::new().elicit_url("go", "Open this", "https://example.com/auth").into(),
            }
        })
        .tool(json!({"name": "bad_form", "inputSchema": {"type": "object"}}), |_ctx, _| {
            // Nested objects are not allowed in elicitation forms: the engine refuses to send this.
            InputRequired::new().elicit("k", "?", json!({"type": "object", "properties": {"o": {"type": "object"}}}))
        })
        .tool(
            json!({"name": "structured", "inputSchema": {"type": "object", "properties": {"good": {"type": "boolean"}}},
                   "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}),
            |_ctx, args| {
                let n = if args["good"] == true { json!(7) } else { json!("seven") };
                Reply::Result(json!({"structuredContent": {"n": n}}))
            },
        )
        .tool(json!({"name": "panics", "inputSchema": {"type": "object"}}), |_ctx, _| -> Reply {
            panic!("handler bug")
        })
        .tool_handler(
            json!({"name": "later", "inputSchema": {"type": "object"}}),
            std::sync::Arc::new(|_ctx, responder: libmcp::server::Responder| {
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(200));
                    responder.result(json!({"content": [{"type": "text", "text": "from another thread"}]}));
                });
            }),
        )
        .resource(
            json!({"uri": "test://static", "name": "static", "mimeType": "text/plain"}),
            |ctx| Reply::Result(json!({"contents": [{"uri": ctx.uri().unwrap(), "mimeType": "text/plain", "text": "static text"}]})),
        )
        .resource_template(
            json!({"uriTemplate": "test://items/{id}", "name": "item", "mimeType": "application/json"}),
            |ctx| {
                let id = ctx.template_vars().and_then(|v| v["id"].as_str()).unwrap_or_default().to_string();
                Reply::Result(json!({"contents": [{"uri": ctx.uri().unwrap(), "text": format!("item {id}")}]}))
            },
        )
        .prompt(
            json!({"name": "greet", "arguments": [{"name": "who", "required": true}]}),
            |_ctx, args| {
                Reply::Result(json!({"messages": [{"role": "user", "content": {"type": "text", "text": format!("Hi {}", args["who"].as_str().unwrap_or(""))}}]}))
            },
        )
        .completion(|ctx| {
            let prefix = ctx.params()["argument"]["value"].as_str().unwrap_or("").to_string();
            let values: Vec<&str> = ["alpha", "beta", "alps"].into_iter().filter(|v| v.starts_with(&prefix)).collect();
            Reply::Result(json!({"completion": {"values": values, "total": values.len(), "hasMore": false}}))
        })
        .build()
        .expect("fixture definitions are valid")
}
