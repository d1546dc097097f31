//! Values of settings as C passes them, read into the engine's types: one rule for every setter that
//! takes them (durations in milliseconds, a log level, a protocol version preference).

use std::time::Duration;

use libmcp::client::{ClientConfig, VersionPreference};

use crate::status::mcp_status;

/// Milliseconds as a `Duration`.
pub(crate) fn ms(ms: u64) -> Duration {
    Duration::from_millis(ms)
}

/// The one rule of `mcp_client_config_set_log_level` and `mcp_client_builder_set_log_level`: an
/// `mcp_log_level` value, else `MCP_STATUS_INVALID_ARGUMENT`.
pub(crate) fn set_log_level(config: &mut ClientConfig, level: u32) -> mcp_status {
    match crate::responder::log_level(level) {
        Some(l) => {
            config.log_level = Some(l);
            mcp_status::MCP_STATUS_OK
        }
        None => mcp_status::MCP_STATUS_INVALID_ARGUMENT,
    }
}

/// The one rule of `mcp_client_config_set_version` and `mcp_client_builder_set_protocol_version`:
/// the binding kit's version preference ("auto" or a known revision), the reason of a refusal
/// logged.
pub(crate) fn version_preference(text: &str) -> Result<VersionPreference, mcp_status> {
    libmcp::host::version_preference(Some(text)).map_err(|e| {
        tracing::debug!(target: "libmcp_ffi", "setting refused: {e}");
        mcp_status::MCP_STATUS_INVALID_ARGUMENT
    })
}
