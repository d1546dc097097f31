//! Engine errors as JS exceptions. The exception's message is `libmcp:` followed by a JSON object
//! `{kind, message, code?, data?}`; `lib/errors.js` turns it into the matching `McpError` class.

use libmcp::{Error, ErrorKind};
use serde_json::{Value, json};

/// Marks a message as an encoded engine error.
const MARK: &str = "libmcp:";

/// The JS-facing name of an error kind.
fn kind_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Rpc => "rpc",
        ErrorKind::Transport => "transport",
        ErrorKind::Timeout => "timeout",
        ErrorKind::Cancelled => "cancelled",
        ErrorKind::Closed => "closed",
        ErrorKind::Protocol => "protocol",
        ErrorKind::Negotiation => "negotiation",
        ErrorKind::Authorization => "authorization",
        ErrorKind::InvalidArgument => "invalidArgument",
        _ => "other",
    }
}

/// An engine error as a napi error carrying its kind, code and data.
pub(crate) fn engine(e: Error) -> napi::Error {
    let mut body = json!({ "kind": kind_name(e.kind()), "message": e.detail() });
    if let Error::Rpc(rpc) = &e {
        body["code"] = json!(rpc.code);
        if let Some(d) = &rpc.data {
            body["data"] = d.clone();
        }
    }
    napi::Error::new(napi::Status::GenericFailure, format!("{MARK}{body}"))
}

/// An invalid value given by the JS caller.
pub(crate) fn invalid(message: impl Into<String>) -> napi::Error {
    engine(Error::InvalidArgument(message.into()))
}

/// A config the engine refuses, as an invalid argument naming the JS option: `names` pairs each
/// JS option with the config field [`ConfigError`](libmcp::error::ConfigError) names (a field without a
/// pair keeps its Rust name).
pub(crate) fn invalid_config(e: libmcp::error::ConfigError, names: &[(&str, &str)]) -> napi::Error {
    let option = names
        .iter()
        .find(|(_, field)| *field == e.field)
        .map_or(e.field, |(js, _)| js);
    invalid(format!("{option}: {}", e.reason))
}

/// Parses JSON text handed over by the JS layer.
pub(crate) fn parse(what: &str, text: &str) -> napi::Result<Value> {
    serde_json::from_str(text).map_err(|e| invalid(format!("{what} is not valid JSON: {e}")))
}

/// The core's -32021 error (a required client capability is missing) for `required` (JSON text), as
/// `{code, message, data}` JSON text: handlers throw it as an `McpError`.
#[napi_derive::napi]
pub fn missing_capability_error(required: String) -> napi::Result<String> {
    let e = libmcp::RpcError::missing_capability(parse("required capabilities", &required)?);
    Ok(json!({ "code": e.code, "message": e.message, "data": e.data }).to_string())
}
