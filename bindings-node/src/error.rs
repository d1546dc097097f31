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

/// Node's name of a Linux errno (the package is built for Linux only, where x86_64 and aarch64
/// share these numbers), for the errors a transport meets.
fn errno_name(n: i32) -> Option<&'static str> {
    Some(match n {
        1 => "EPERM",
        2 => "ENOENT",
        4 => "EINTR",
        9 => "EBADF",
        11 => "EAGAIN",
        12 => "ENOMEM",
        13 => "EACCES",
        17 => "EEXIST",
        20 => "ENOTDIR",
        21 => "EISDIR",
        22 => "EINVAL",
        23 => "ENFILE",
        24 => "EMFILE",
        28 => "ENOSPC",
        32 => "EPIPE",
        98 => "EADDRINUSE",
        99 => "EADDRNOTAVAIL",
        101 => "ENETUNREACH",
        103 => "ECONNABORTED",
        104 => "ECONNRESET",
        110 => "ETIMEDOUT",
        111 => "ECONNREFUSED",
        113 => "EHOSTUNREACH",
        _ => return None,
    })
}

/// The Linux errno of an I/O error kind, for an error that kept its kind but not its number.
fn errno_of_kind(kind: std::io::ErrorKind) -> Option<i32> {
    use std::io::ErrorKind as K;
    Some(match kind {
        K::NotFound => 2,
        K::PermissionDenied => 13,
        K::AlreadyExists => 17,
        K::BrokenPipe => 32,
        K::AddrInUse => 98,
        K::AddrNotAvailable => 99,
        K::ConnectionAborted => 103,
        K::ConnectionReset => 104,
        K::TimedOut => 110,
        K::ConnectionRefused => 111,
        _ => return None,
    })
}

/// The OS error under a transport error, as Node reports one: `{errno, code}`, `errno` negative
/// (as libuv gives it) and `code` its name.
fn os_error(e: &Error) -> Option<Value> {
    let Error::Transport(t) = e else { return None };
    let mut cause = std::error::Error::source(t);
    while let Some(c) = cause {
        if let Some(io) = c.downcast_ref::<std::io::Error>() {
            // An error the engine rewrapped (to name the program, the address) keeps its kind only.
            let n = io.raw_os_error().or_else(|| errno_of_kind(io.kind()))?;
            return Some(json!({ "errno": -n, "code": errno_name(n)? }));
        }
        cause = c.source();
    }
    None
}

/// An engine error as a napi error carrying its kind, code and data, and for a transport error
/// caused by the OS, the OS error (`os`).
pub(crate) fn engine(e: Error) -> napi::Error {
    let mut body = json!({ "kind": kind_name(e.kind()), "message": e.detail() });
    if let Some(os) = os_error(&e) {
        body["os"] = os;
    }
    if let Error::Rpc(rpc) = &e {
        body["code"] = json!(rpc.code);
        if let Some(d) = &rpc.data {
            body["data"] = d.clone();
        }
    }
    napi::Error::new(napi::Status::GenericFailure, format!("{MARK}{body}"))
}

/// An error of a kind the engine's [`ErrorKind`] does not name (`noSession`), with its message.
pub(crate) fn of_kind(kind: &str, message: impl Into<String>) -> napi::Error {
    let body = json!({ "kind": kind, "message": message.into() });
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
