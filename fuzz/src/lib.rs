//! What the fuzz targets share: a small server with one handler of each kind (none panics:
//! libFuzzer's panic hook aborts even on a panic the engine would isolate), a paused-clock tokio
//! runtime, and helpers that split one input into several.

use std::sync::OnceLock;
use std::time::Duration;

use libmcp::model::logging::LoggingLevel;
use libmcp::server::{InputRequired, Reply, Server, ServerConfig};
use serde_json::{Value, json};

/// A current-thread runtime whose clock is paused: timers fire as soon as every task waits, so
/// handler sleeps, timeouts and shutdown graces cost no wall time and runs are reproducible.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .expect("a current-thread runtime builds")
}

/// Runs `f` to completion on this thread's reused runtime (for targets that spawn no tasks: one
/// runtime per input would dominate their cost).
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    thread_local! {
        static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a current-thread runtime builds");
    }
    RUNTIME.with(|rt| rt.block_on(f))
}

/// The server every engine target talks to (built once; sessions are per connection).
pub fn server() -> Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(build_server).clone()
}

fn build_server() -> Server {
    let config = ServerConfig {
        page_size: 2,
        max_message_bytes: 64 * 1024,
        client_request_timeout: Duration::from_secs(2),
        shutdown_grace: Duration::from_secs(1),
        ..ServerConfig::default()
    };
    let header_schema = json!({"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "n": {"type": "integer", "minimum": 0, "x-mcp-header": "N"}}});
    Server::builder("fuzz", "0.1.0")
        .config(config)
        .instructions("fuzzing")
        .tool(
            json!({"name": "echo", "inputSchema": {"type": "object",
                "properties": {"text": {"type": "string", "maxLength": 64}}, "required": ["text"]}}),
            |_ctx, args| Reply::text(args["text"].as_str().unwrap_or_default()),
        )
        .tool(json!({"name": "routed", "inputSchema": header_schema}), |_ctx, args| {
            Reply::text(args.to_string())
        })
        .tool_async(json!({"name": "slow", "inputSchema": {"type": "object"}}), |ctx| async move {
            ctx.notify_progress(1.0, Some(2.0), Some("half"));
            ctx.log(LoggingLevel::Info, Some("slow"), json!("step"));
            tokio::time::sleep(Duration::from_millis(50)).await;
            Reply::text("done")
        })
        .tool(json!({"name": "ask", "inputSchema": {"type": "object"}}), |ctx, _| {
            let name = ctx.input_response("who").and_then(|r| r["content"]["name"].as_str());
            match (name, ctx.request_state()) {
                (Some(n), Some("asked")) => Reply::text(format!("Hello, {n}!")),
                _ => InputRequired::new()
                    .elicit("who", "Name?", json!({"type": "object",
                        "properties": {"name": {"type": "string"}}, "required": ["name"]}))
                    .with_state("asked")
                    .into(),
            }
        })
        .tool(json!({"name": "roots", "inputSchema": {"type": "object"}}), |ctx, _| {
            match ctx.input_response("r").and_then(|r| r["roots"].as_array()) {
                Some(roots) => Reply::text(format!("{} roots", roots.len())),
                None => InputRequired::new().list_roots("r").into(),
            }
        })
        .tool(
            json!({"name": "structured", "inputSchema": {"type": "object"},
                "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}),
            |_ctx, args| Reply::Result(json!({"structuredContent": {"n": args["n"].clone()}})),
        )
        .resource(json!({"uri": "test://static", "name": "static"}), |ctx| {
            Reply::Result(json!({"contents": [{"uri": ctx.uri().unwrap_or_default(), "text": "static"}]}))
        })
        .resource_template(
            json!({"uriTemplate": "test://items/{id}{?q*}", "name": "item"}),
            |ctx| {
                let vars = ctx.template_vars().map(|v| Value::Object(v.clone()));
                Reply::Result(json!({"contents": [{"uri": ctx.uri().unwrap_or_default(),
                    "text": vars.unwrap_or_default().to_string()}]}))
            },
        )
        .prompt(json!({"name": "greet", "arguments": [{"name": "who", "required": true}]}), |_ctx, args| {
            Reply::Result(json!({"messages": [{"role": "user",
                "content": {"type": "text", "text": args["who"].as_str().unwrap_or_default()}}]}))
        })
        .completion(|ctx| {
            let prefix = ctx.params()["argument"]["value"].as_str().unwrap_or_default().to_owned();
            let values: Vec<&str> =
                ["alpha", "beta", "alps"].into_iter().filter(|v| v.starts_with(&prefix)).collect();
            Reply::Result(json!({"completion": {"values": values, "hasMore": false}}))
        })
        .build()
        .expect("the fuzz server's definitions are valid")
}

/// Splits `data` at NUL bytes into at most `n` parts (the last keeps any further NULs).
pub fn split_nul(data: &[u8], n: usize) -> Vec<&[u8]> {
    data.splitn(n, |&b| b == 0).collect()
}

/// `data` as text, invalid UTF-8 replaced.
pub fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// A line the server wrote must be one JSON object or array.
pub fn assert_json_line(line: &[u8]) {
    match serde_json::from_slice::<Value>(line) {
        Ok(Value::Object(_) | Value::Array(_)) => {}
        Ok(other) => panic!("the server wrote a JSON {other} that is not a message"),
        Err(e) => panic!(
            "the server wrote non-JSON {:?}: {e}",
            String::from_utf8_lossy(line)
        ),
    }
}
