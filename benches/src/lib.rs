//! Shared pieces of the benchmark: the stdio driver (a raw newline-delimited JSON-RPC client that
//! spawns a server and measures `tools/call`), the Streamable HTTP driver (a raw HTTP/1.1 client over
//! keep-alive connections), the Node package's comparison with the official TypeScript SDK, what the echo servers share, the
//! reports, and the soak.

pub mod args;
pub mod driver;
pub mod echo;
pub mod http;
pub mod node;
pub mod node_mount;
pub mod report;
pub mod serve;
pub mod soak;
