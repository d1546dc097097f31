//! The conformance "everything" server: exactly the tools, resources, prompts and completion that the
//! official MCP conformance suite names in its server scenarios, for both protocol eras.
//!
//! [`build_server`] constructs the server independently of any transport, so the same definition can be
//! served over stdio (the `everything-server` binary) or any other transport.

mod content;
mod inputs;
mod resources;
mod skills;
mod tasks;
mod transport;

use std::sync::{Arc, OnceLock};

use libmcp::server::{Reply, Server, ServerBuilder, WeakServer};
use serde_json::{Value, json};

/// The server's implementation name.
pub const SERVER_NAME: &str = "libmcp-everything-server";

/// A 1×1 PNG (base64), the image of the image tools, prompt and binary resource.
pub const PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// A tiny WAV file (base64), the sound of the audio tool.
pub const WAV_BASE64: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// The text of `test_simple_text`.
pub const SIMPLE_TEXT: &str = "This is a simple text response for testing.";

/// Builds the everything-server. Panics only if a fixed definition is invalid, which is a bug of
/// this example that the tests catch.
pub fn build_server() -> Server {
    build_server_with(|b| b)
}

/// [`build_server`] with `finish` applied to the builder last (shared stores, a sealer).
pub fn build_server_with(
    finish: impl FnOnce(libmcp::server::ServerBuilder) -> libmcp::server::ServerBuilder,
) -> Server {
    // The trigger tools mutate the server they belong to, so they reach it through a cell filled in
    // after `build()` with a weak handle (no reference cycle through the server's own registry).
    let cell: Arc<OnceLock<WeakServer>> = Arc::new(OnceLock::new());
    let builder = Server::builder(SERVER_NAME, env!("CARGO_PKG_VERSION"))
        .info_field("title", json!("libmcp everything server"))
        .instructions(
            "Conformance fixture: every tool, resource and prompt named by the MCP conformance suite.",
        );
    let builder = content::register(builder);
    let builder = inputs::register(builder);
    let builder = resources::register(builder);
    let builder = skills::register(builder);
    let builder = transport::register(builder);
    let builder = tasks::register(builder);
    let builder = finish(triggers(builder, &cell));
    let server = builder
        .build()
        .expect("the everything-server's definitions are valid");
    let _ = cell.set(server.downgrade());
    server
}

/// A tool definition with an empty object input schema.
pub(crate) fn no_args(name: &str, description: &str) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": {}},
    })
}

/// The name of the tool added and removed again by `test_trigger_tool_change`.
const DYNAMIC_TOOL: &str = "test_dynamic_tool";
/// The name of the prompt added and removed again by `test_trigger_prompt_change`.
const DYNAMIC_PROMPT: &str = "test_dynamic_prompt";

/// `test_trigger_tool_change` / `test_trigger_prompt_change`: each adds a temporary entry and removes it
/// again, so listeners get list_changed notifications while the listed set stays exactly the contract.
fn triggers(b: ServerBuilder, cell: &Arc<OnceLock<WeakServer>>) -> ServerBuilder {
    let tools_cell = cell.clone();
    let prompts_cell = cell.clone();
    b.tool(
        no_args(
            "test_trigger_tool_change",
            "Changes the tool list (adds and removes a temporary tool) so that listeners receive notifications/tools/list_changed",
        ),
        move |_ctx, _args| {
            let Some(server) = tools_cell.get().and_then(WeakServer::upgrade) else {
                return Reply::tool_error("the server is not running yet");
            };
            let definition = no_args(DYNAMIC_TOOL, "A temporary tool of test_trigger_tool_change");
            let handler = libmcp::server::sync_handler(|_ctx| Reply::text("dynamic"));
            if let Err(e) = server.add_tool(definition, handler) {
                return Reply::tool_error(format!("cannot add {DYNAMIC_TOOL}: {e}"));
            }
            server.remove_tool(DYNAMIC_TOOL);
            Reply::text("Tool list changed")
        },
    )
    .tool(
        no_args(
            "test_trigger_prompt_change",
            "Changes the prompt list (adds and removes a temporary prompt) so that listeners receive notifications/prompts/list_changed",
        ),
        move |_ctx, _args| {
            let Some(server) = prompts_cell.get().and_then(WeakServer::upgrade) else {
                return Reply::tool_error("the server is not running yet");
            };
            let definition = json!({"name": DYNAMIC_PROMPT, "description": "A temporary prompt of test_trigger_prompt_change"});
            let handler = libmcp::server::sync_handler(|_ctx| {
                json!({"messages": [{"role": "user", "content": {"type": "text", "text": "dynamic"}}]})
            });
            if let Err(e) = server.add_prompt(definition, handler) {
                return Reply::tool_error(format!("cannot add {DYNAMIC_PROMPT}: {e}"));
            }
            server.remove_prompt(DYNAMIC_PROMPT);
            Reply::text("Prompt list changed")
        },
    )
}
