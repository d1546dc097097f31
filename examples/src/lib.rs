//! Example programs built on libmcp, and the code they share:
//! - [`everything`]: the conformance "everything" server (every fixture the official suite names);
//! - [`scenarios`]: the conformance client scenarios, each a function over a connected client;
//! - [`cli`]: argument parsing, elicitation answering and output formatting of the `mcp` tool.
#![warn(missing_docs)]

pub mod cli;
pub mod everything;
pub mod scenarios;
