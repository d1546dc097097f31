//! Reserved `_meta` keys of the protocol and the per-request metadata of the modern era.

use serde_json::{Map, Value};

use crate::error::RpcError;

pub use crate::model::meta_keys::{
    CLIENT_CAPABILITIES, CLIENT_INFO, LOG_LEVEL, PROGRESS_TOKEN, PROTOCOL_VERSION, SERVER_INFO,
    SUBSCRIPTION_ID,
};

/// The `_meta` object of a params object, if it has one.
pub fn of(params: Option<&Value>) -> Option<&Map<String, Value>> {
    params?.get("_meta")?.as_object()
}

/// Checks the parts of a request's `_meta` that every revision defines, before anything reads it:
/// `params._meta` is an object (`RequestParams._meta` in every schema), and its `progressToken`,
/// when present, a string or an integer (`ProgressToken`). Anything else is -32602.
pub fn check_shape(params: Option<&Value>) -> Result<(), RpcError> {
    let Some(meta) = params.and_then(|p| p.get("_meta")) else {
        return Ok(());
    };
    let Value::Object(meta) = meta else {
        return Err(RpcError::invalid_params(format!(
            "params._meta must be an object, not {}",
            kind_of(meta)
        )));
    };
    match meta.get(PROGRESS_TOKEN) {
        None | Some(Value::String(_)) => Ok(()),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(()),
        Some(other) => Err(RpcError::invalid_params(format!(
            "params._meta.progressToken must be a string or an integer, not {}",
            kind_of(other)
        ))),
    }
}

/// How an error message names the JSON type of a value.
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a fractional number",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The modern protocol version a request names in its `_meta`, if any (a non-string counts as absent).
pub fn modern_version(params: Option<&Value>) -> Option<&str> {
    of(params)?.get(PROTOCOL_VERSION)?.as_str()
}

/// The per-request metadata of a modern request, checked in the order the spec recommends for shape.
#[derive(Clone, Debug)]
pub struct RequestMeta {
    /// The declared client capabilities (an object).
    pub client_capabilities: Value,
    /// The self-reported client implementation.
    pub client_info: Option<Value>,
    /// The requested minimum log level.
    pub log_level: Option<crate::model::logging::LoggingLevel>,
}

impl RequestMeta {
    /// Reads the required keys of a modern request's `_meta` (the version was checked before this).
    pub fn parse(params: Option<&Value>) -> Result<RequestMeta, RpcError> {
        let meta = of(params).ok_or_else(|| {
            RpcError::invalid_params(format!("params._meta must be an object carrying {PROTOCOL_VERSION} and {CLIENT_CAPABILITIES}"))
        })?;
        let caps = match meta.get(CLIENT_CAPABILITIES) {
            Some(v @ Value::Object(_)) => v.clone(),
            Some(_) => {
                return Err(RpcError::invalid_params(format!(
                    "_meta {CLIENT_CAPABILITIES} must be an object"
                )));
            }
            None => {
                return Err(RpcError::invalid_params(format!(
                    "params._meta is missing {CLIENT_CAPABILITIES}"
                )));
            }
        };
        let log_level = match meta.get(LOG_LEVEL) {
            None => None,
            Some(v) => Some(serde_json::from_value(v.clone()).map_err(|_| {
                RpcError::invalid_params(format!("_meta {LOG_LEVEL} must be one of debug, info, notice, warning, error, critical, alert, emergency"))
            })?),
        };
        Ok(RequestMeta {
            client_capabilities: caps,
            client_info: meta.get(CLIENT_INFO).cloned(),
            log_level,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn meta_shapes_every_revision_defines() {
        for ok in [
            json!({}),
            json!({"_meta": {}}),
            json!({"_meta": {"progressToken": "t"}}),
            json!({"_meta": {"progressToken": 7}}),
            json!({"_meta": {"progressToken": -7, "other": null}}),
        ] {
            assert!(check_shape(Some(&ok)).is_ok(), "{ok}");
        }
        assert!(check_shape(None).is_ok());
        for (bad, message) in [
            (
                json!({"_meta": "x"}),
                "params._meta must be an object, not a string",
            ),
            (
                json!({"_meta": null}),
                "params._meta must be an object, not null",
            ),
            (
                json!({"_meta": [1]}),
                "params._meta must be an object, not an array",
            ),
            (
                json!({"_meta": {"progressToken": 1.5}}),
                "params._meta.progressToken must be a string or an integer, not a fractional number",
            ),
            (
                json!({"_meta": {"progressToken": {"a": 1}}}),
                "params._meta.progressToken must be a string or an integer, not an object",
            ),
            (
                json!({"_meta": {"progressToken": true}}),
                "params._meta.progressToken must be a string or an integer, not a boolean",
            ),
        ] {
            let e = check_shape(Some(&bad)).unwrap_err();
            assert_eq!(e.code, -32602, "{bad}");
            assert!(e.message.ends_with(message), "{bad}: {}", e.message);
        }
    }
}
