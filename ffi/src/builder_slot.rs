//! The engine builder a C builder handle holds until it is consumed (`_build`, `_connect_*`).

use crate::status::mcp_status;

/// Replaces the builder in `slot` by `f` of it, or `MCP_STATUS_ALREADY_USED` once it was consumed.
pub(crate) fn update<B>(slot: &mut Option<B>, f: impl FnOnce(B) -> B) -> mcp_status {
    match slot.take() {
        Some(inner) => {
            *slot = Some(f(inner));
            mcp_status::MCP_STATUS_OK
        }
        None => mcp_status::MCP_STATUS_ALREADY_USED,
    }
}
