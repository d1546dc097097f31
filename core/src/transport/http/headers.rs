//! The 2026-07-28 request headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`,
//! `Mcp-Param-*`) checked against the body they mirror; any disagreement is -32020 HeaderMismatch.

use hyper::HeaderMap;
use serde_json::Value;

use crate::error::RpcError;
use crate::jsonrpc::Request;
use crate::names::{self, HeaderKind};
use crate::server::Server;

pub(crate) const PROTOCOL_VERSION: &str = "mcp-protocol-version";
pub(crate) const SESSION_ID: &str = "mcp-session-id";
const METHOD: &str = "mcp-method";
const NAME: &str = "mcp-name";

/// A header's value as text, or -32020 when it is not visible ASCII.
pub(crate) fn text<'a>(headers: &'a HeaderMap, name: &str) -> Result<Option<&'a str>, RpcError> {
    match headers.get(name) {
        None => Ok(None),
        Some(v) => v
            .to_str()
            .map(Some)
            .map_err(|_| RpcError::header_mismatch(format!("{name} holds invalid characters"))),
    }
}

/// `MCP-Protocol-Version` against the `_meta` protocol version. Checked before the version itself,
/// so a header naming a supported version over an unsupported `_meta` is a mismatch (-32020).
pub(crate) fn check_version(headers: &HeaderMap, version: &str) -> Result<(), RpcError> {
    match text(headers, PROTOCOL_VERSION)? {
        None => Err(missing("MCP-Protocol-Version")),
        Some(h) if h != version => Err(RpcError::header_mismatch(format!(
            "MCP-Protocol-Version {h:?} does not match _meta protocolVersion {version:?}"
        ))),
        Some(_) => Ok(()),
    }
}

/// Checks the remaining headers of a modern request whose `_meta` passed the version and shape
/// checks.
pub(crate) fn check(server: &Server, headers: &HeaderMap, req: &Request) -> Result<(), RpcError> {
    match text(headers, METHOD)? {
        None => return Err(missing("Mcp-Method")),
        Some(h) if h != req.method => {
            return Err(RpcError::header_mismatch(format!(
                "Mcp-Method {h:?} does not match method {:?}",
                req.method
            )));
        }
        Some(_) => {}
    }
    let params = req.params.as_ref();
    let name_key = match req.method.as_str() {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
        _ => None,
    };
    if let Some(key) = name_key {
        let body = params.and_then(|p| p.get(key)).and_then(Value::as_str);
        let header = decoded(headers, NAME)?;
        match (header, body) {
            (None, _) => return Err(missing("Mcp-Name")),
            (Some(h), Some(b)) if h == b => {}
            (Some(h), b) => {
                return Err(RpcError::header_mismatch(format!(
                    "Mcp-Name {h:?} does not match params.{key} {b:?}"
                )));
            }
        }
    }
    if req.method == "tools/call" {
        check_params(server, headers, params)?;
    }
    Ok(())
}

/// `Mcp-Param-*` headers against the arguments the called tool's schema marks with `x-mcp-header`.
fn check_params(
    server: &Server,
    headers: &HeaderMap,
    params: Option<&Value>,
) -> Result<(), RpcError> {
    let Some(declared) = params
        .and_then(|p| p.get("name"))
        .and_then(Value::as_str)
        .and_then(|n| server.tool_header_params(n))
    else {
        // An unknown tool is the engine's to report.
        return Ok(());
    };
    if declared.is_empty() {
        return Ok(());
    }
    let empty = Value::Object(Default::default());
    let arguments = params.and_then(|p| p.get("arguments")).unwrap_or(&empty);
    for p in declared.iter() {
        let header_name = p.header_name();
        let header = decoded(headers, &header_name.to_ascii_lowercase())?;
        let body = p
            .value_in(arguments)
            .map_err(|e| RpcError::header_mismatch(e.to_string()))?
            .map(|v| names::decode_header_value(&v).unwrap_or(v));
        let same = match (&header, &body) {
            (None, None) => true,
            (Some(h), Some(b)) if p.kind == HeaderKind::Integer => {
                h.trim().parse::<i64>().ok() == b.parse::<i64>().ok()
            }
            (Some(h), Some(b)) => h == b,
            _ => false,
        };
        if !same {
            return Err(RpcError::header_mismatch(match (header, body) {
                (None, _) => format!("{header_name} is missing while the argument is present"),
                (Some(h), None) => format!("{header_name} {h:?} is set but the argument is absent"),
                (Some(h), Some(b)) => {
                    format!("{header_name} {h:?} does not match the argument {b:?}")
                }
            }));
        }
    }
    Ok(())
}

/// A header decoded from its `=?base64?...?=` form when it uses it.
fn decoded(headers: &HeaderMap, name: &str) -> Result<Option<String>, RpcError> {
    text(headers, name)?
        .map(|v| {
            names::decode_header_value(v)
                .map_err(|e| RpcError::header_mismatch(format!("{name}: {e}")))
        })
        .transpose()
}

fn missing(name: &str) -> RpcError {
    RpcError::header_mismatch(format!("the {name} header is required"))
}
