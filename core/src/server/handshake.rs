//! The legacy handshake (`initialize`, 2024-11-05 through 2025-11-25 lifecycle): the version is
//! negotiated among the server's legacy revisions, and the connection keeps the client's facts
//! for the requests that follow.

use std::sync::Arc;

use serde_json::{Value, json};

use super::state::{LegacyState, SessionShared};
use crate::error::RpcError;
use crate::jsonrpc::Request;
use crate::version::{self, Era};

/// Answers `initialize`: the version is negotiated, the client's capabilities read, and the
/// connection becomes a legacy session (told of changes from now on).
pub(crate) fn initialize(shared: &Arc<SessionShared>, req: &Request) -> Result<Value, RpcError> {
    let server = &shared.server;
    let params = req
        .params
        .as_ref()
        .ok_or_else(|| RpcError::invalid_params("initialize needs params"))?;
    let requested = params
        .get("protocolVersion")
        .and_then(Value::as_str)
        .ok_or_else(|| RpcError::invalid_params("initialize: protocolVersion must be a string"))?;
    let caps = match params.get("capabilities") {
        Some(c @ Value::Object(_)) => c.clone(),
        None => json!({}),
        Some(_) => {
            return Err(RpcError::invalid_params(
                "initialize: capabilities must be an object",
            ));
        }
    };
    let Some(version) = version::negotiate_legacy(requested, &server.versions) else {
        // A modern-only server names what it does support.
        let supported: Vec<&str> = server.versions.iter().map(|v| v.as_str()).collect();
        return Err(RpcError::unsupported_version(&supported, requested));
    };
    if shared.legacy.read().as_ref().is_some_and(|l| l.initialized) {
        return Err(RpcError::invalid_request(
            "the session is already initialized",
        ));
    }
    *shared.legacy_write() = Some(LegacyState {
        version: version.clone(),
        client_capabilities: caps,
        client_info: params.get("clientInfo").cloned(),
        initialized: false,
        log_level: None,
        subscriptions: Default::default(),
    });
    server.remember_session(shared);
    let mut result = json!({
        "protocolVersion": version.as_str(),
        "capabilities": server.capabilities(Era::Legacy),
        "serverInfo": server.info,
    });
    if let Some(i) = &server.instructions {
        result["instructions"] = json!(i);
    }
    // E.g. no `completions` capability (2025-03-26) nor serverInfo `title` (2025-06-18) for
    // 2024-11-05 (crate::shapes).
    crate::shapes::result(&version, "initialize", &mut result)?;
    Ok(result)
}
