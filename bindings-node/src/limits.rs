//! The server's limits given from JS (`new Server(info, {maxMessageBytes, ...})`), applied to the
//! core's [`ServerConfig`], which the server then checks through the binding kit
//! (`libmcp::host::validate_server_config`; a refusal names the JS option).
//! The JS layer has checked that each value is a non-negative integer (`lib/server.js`).

use std::time::Duration;

use libmcp::server::ServerConfig;
use serde_json::Value;

use crate::error::invalid;

/// Sets each limit of `limits` (a JSON object: option name to count, durations in milliseconds) on
/// `config`; the caller checks the whole config through the binding kit.
pub(crate) fn apply(config: &mut ServerConfig, limits: &Value) -> napi::Result<()> {
    let Value::Object(map) = limits else {
        return Err(invalid("server limits must be an object"));
    };
    for (key, value) in map {
        let n = value
            .as_u64()
            .ok_or_else(|| invalid(format!("{key} must be a non-negative integer")))?;
        let count = || usize::try_from(n).map_err(|_| invalid(format!("{key} is too large")));
        match key.as_str() {
            "pageSize" => config.page_size = count()?,
            "maxMessageBytes" => config.max_message_bytes = count()?,
            "maxInFlight" => config.max_in_flight = count()?,
            "maxRequestStateBytes" => config.max_request_state_bytes = count()?,
            "maxInputRounds" => {
                config.max_input_rounds =
                    u32::try_from(n).map_err(|_| invalid(format!("{key} is too large")))?
            }
            "stateTtlMs" => config.state_ttl = Duration::from_millis(n),
            "clientRequestTimeoutMs" => config.client_request_timeout = Duration::from_millis(n),
            "handlerTimeoutMs" => config.handler_timeout = Some(Duration::from_millis(n)),
            _ => return Err(invalid(format!("unknown server limit {key:?}"))),
        }
    }
    Ok(())
}
