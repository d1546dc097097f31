//! The Streamable HTTP benchmark: a raw HTTP/1.1 client, MCP sessions over it in both eras, the
//! phase runner and idle-session memory measurement, the report, the `mcp-bench --http` command, and its `--mount` comparison.

pub mod cli;
pub mod client;
pub mod mount;
pub mod report;
pub mod run;
pub mod server;
pub mod session;
