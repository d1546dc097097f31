//! The same echo server written with rmcp, the official Rust SDK, served over its non-blocking
//! stdio pipe transport (`stdio_pipes`), which is the fast one on Linux.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ServiceExt, schemars, tool, tool_router};
use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema)]
struct EchoArgs {
    /// The text to return.
    text: String,
}

#[derive(Clone)]
struct Echo;

#[tool_router(server_handler)]
impl Echo {
    #[tool(description = "Returns the text it is given")]
    fn echo(&self, Parameters(EchoArgs { text }): Parameters<EchoArgs>) -> String {
        text
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = Echo.serve(rmcp::transport::io::stdio_pipes()).await?;
    running.waiting().await?;
    Ok(())
}
