//! The binding kit: what every host of the engine (a Rust program, the C ABI, the Python and the Node
//! packages) must agree on, decided once here so that the four surfaces answer alike. A host converts
//! its own values into these calls and reports their errors in its own terms; it adds no rule.
//!
//! Built on the public API of [`client`](crate::client) and [`server`](crate::server) only. The
//! cross-host test (`tests/hosts/expectations.json`, read by a test on each surface) pins every answer.

mod config;
mod describe;
mod diagnostics;
mod tool_result;
mod version;

pub use config::{Host, server_config_message, server_option, validate_server_config};
pub use describe::{era_name, server_description};
pub use diagnostics::{
    Diagnostic, DiagnosticLevel, DiagnosticsSink, OtherSubscriber, set_diagnostics_sink,
};
pub use tool_result::{ToolResult, answer_tool};
pub use version::version_preference;
