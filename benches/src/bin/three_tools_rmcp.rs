//! The program of `three_tools_libmcp.rs` written with rmcp, the official Rust SDK: three tools and
//! a client that starts this program as its server over stdio and calls each tool.

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ServiceExt, schemars, tool, tool_router};
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize, schemars::JsonSchema)]
struct AddArgs {
    a: i64,
    b: i64,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct GreetArgs {
    name: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct ForecastArgs {
    city: String,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Forecast {
    city: String,
    celsius: f64,
}

#[derive(Clone)]
struct ThreeTools;

#[tool_router(server_handler)]
impl ThreeTools {
    /// Adds two integers.
    #[tool]
    fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
        (a + b).to_string()
    }

    /// Greets someone by name.
    #[tool]
    fn greet(&self, Parameters(GreetArgs { name }): Parameters<GreetArgs>) -> String {
        format!("Hello, {name}!")
    }

    /// Tomorrow's forecast for a city.
    #[tool]
    fn forecast(
        &self,
        Parameters(ForecastArgs { city }): Parameters<ForecastArgs>,
    ) -> Json<Forecast> {
        Json(Forecast {
            city,
            celsius: 21.5,
        })
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::args().nth(1).as_deref() == Some("serve") {
        ThreeTools
            .serve(rmcp::transport::stdio())
            .await?
            .waiting()
            .await?;
        return Ok(());
    }
    let me = tokio::process::Command::new(std::env::current_exe()?).configure(|c| {
        c.arg("serve");
    });
    let client = ().serve(TokioChildProcess::new(me)?).await?;
    for (name, args) in [
        ("add", json!({"a": 2, "b": 3})),
        ("greet", json!({"name": "Ada"})),
        ("forecast", json!({"city": "Oslo"})),
    ] {
        let args = args.as_object().cloned().unwrap_or_default();
        let result = client
            .call_tool(CallToolRequestParams::new(name).with_arguments(args))
            .await?;
        let text = result
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.as_str());
        println!("{name}: {}", text.unwrap_or_default());
    }
    client.cancel().await?;
    Ok(())
}
