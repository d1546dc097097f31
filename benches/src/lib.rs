//! Shared pieces of the stdio benchmark: the driver (a raw newline-delimited JSON-RPC client that
//! spawns a server and measures `tools/call`) and the report.

pub mod driver;
pub mod report;
