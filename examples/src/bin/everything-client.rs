//! The conformance everything-client.
//!
//! Usage: `everything-client <server-command> [args...]`, with `MCP_CONFORMANCE_SCENARIO` naming the
//! scenario, `MCP_CONFORMANCE_PROTOCOL_VERSION` the era (≤ 2025-11-25: `initialize`; 2026-07-28:
//! modern), and `MCP_CONFORMANCE_CONTEXT` optional JSON. A trailing `http://` URL (what the
//! conformance harness appends) is spoken to over Streamable HTTP; anything else is a server command,
//! spawned and spoken to over stdio. The `auth/*` scenarios authorize with OAuth 2.1 (the suite's
//! authorization servers redirect at once; pre-registered credentials come from the context).
//!
//! Exit codes: 0 success, 1 scenario failure or unknown scenario, 2 usage error.

use libmcp::client::http::HttpClientOptions;
use libmcp::transport::child::ChildSpec;
use libmcp_examples::scenarios;
use serde_json::{Value, json};

fn fail(code: i32, message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(code)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Ok(scenario) = std::env::var("MCP_CONFORMANCE_SCENARIO") else {
        fail(
            2,
            "everything-client: MCP_CONFORMANCE_SCENARIO is not set\nUsage: MCP_CONFORMANCE_SCENARIO=<name> everything-client <server-command> [args...]",
        );
    };
    if !scenarios::SCENARIOS.contains(&scenario.as_str()) && !scenarios::is_auth(&scenario) {
        fail(1, &format!("Unknown scenario: {scenario}"));
    }
    let Some((program, rest)) = args.split_first() else {
        fail(
            2,
            "everything-client: no server command given\nUsage: MCP_CONFORMANCE_SCENARIO=<name> everything-client <server-command> [args...] | <http-url>",
        );
    };
    let url = args
        .last()
        .filter(|a| a.starts_with("http://") || a.starts_with("https://"))
        .cloned();
    let context: Value = match std::env::var("MCP_CONFORMANCE_CONTEXT") {
        Ok(raw) => serde_json::from_str(&raw).unwrap_or_else(|e| {
            fail(
                2,
                &format!("everything-client: MCP_CONFORMANCE_CONTEXT is not JSON: {e}"),
            )
        }),
        Err(_) => json!({}),
    };
    let version = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").ok();
    let pref = scenarios::version_preference(&scenario, version.as_deref());
    let builder = scenarios::client_builder().version_preference(pref);
    let connected = match &url {
        Some(url) if scenarios::is_auth(&scenario) => {
            let auth = scenarios::conformance_oauth(&scenario, &context)
                .unwrap_or_else(|e| fail(1, &format!("everything-client: {e}")));
            let options = HttpClientOptions {
                auth: Some(auth),
                ..Default::default()
            };
            builder.connect_http_with(url, options).await
        }
        Some(url) => builder.connect_http(url).await,
        None => {
            builder
                .connect_stdio(ChildSpec::new(program.clone(), rest.iter().cloned()))
                .await
        }
    };
    let target = url.as_deref().unwrap_or(program);
    let client = connected.unwrap_or_else(|e| {
        fail(
            1,
            &format!("everything-client: cannot connect to {target}: {e}"),
        )
    });
    let outcome = scenarios::run(&scenario, &client, &context).await;
    client.close().await;
    if let Err(e) = outcome {
        fail(
            1,
            &format!("everything-client: scenario {scenario} failed: {e}"),
        );
    }
    eprintln!("everything-client: scenario {scenario} passed");
}
