//! Three tools and a client that calls them, with libmcp: run without arguments, the program starts
//! itself as the server (`serve`) over stdio and calls each tool. `three_tools_rmcp.rs` is the same
//! program with rmcp; `benches/tests/three_tools.rs` runs both and compares their length.

use libmcp::client::Client;
use libmcp::server::{Json, Server};
use libmcp::tool;
use libmcp::transport::child::ChildSpec;
use serde_json::json;

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

/// Greets someone by name.
#[tool]
fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Forecast {
    city: String,
    celsius: f64,
}

/// Tomorrow's forecast for a city.
#[tool]
fn forecast(city: String) -> Json<Forecast> {
    Json(Forecast {
        city,
        celsius: 21.5,
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::args().nth(1).as_deref() == Some("serve") {
        let server = Server::builder("three-tools", "1.0.0");
        let server = server
            .register(add())
            .register(greet())
            .register(forecast())
            .build()?;
        return Ok(server.serve_stdio().await?);
    }
    let me = ChildSpec::new(std::env::current_exe()?.display().to_string(), ["serve"]);
    let client = Client::builder("three-tools-client", "1.0.0")
        .connect_stdio(me)
        .await?;
    for (name, args) in [
        ("add", json!({"a": 2, "b": 3})),
        ("greet", json!({"name": "Ada"})),
        ("forecast", json!({"city": "Oslo"})),
    ] {
        let result = client.call_tool(name, args).await?;
        println!("{name}: {}", result.first_text().unwrap_or_default());
    }
    client.close().await;
    Ok(())
}
