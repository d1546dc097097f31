//! The server's limits given from Python (`Server(max_message_bytes=..., ...)`), applied to the
//! core's [`ServerConfig`], which the server then checks through the binding kit
//! (`libmcp::host::validate_server_config`; a refusal names the Python option).

use std::time::Duration;

use libmcp::server::ServerConfig;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Sets each limit of `limits` (name to value; counts as `int`, durations as seconds) on `config`.
pub(crate) fn apply(config: &mut ServerConfig, limits: &Bound<'_, PyDict>) -> PyResult<()> {
    for (key, value) in limits.iter() {
        let key: String = key.extract()?;
        match key.as_str() {
            "max_message_bytes" => config.max_message_bytes = count(&value, &key)?,
            "max_in_flight" => config.max_in_flight = count(&value, &key)?,
            "max_request_state_bytes" => config.max_request_state_bytes = count(&value, &key)?,
            "max_input_rounds" => {
                config.max_input_rounds = u32::try_from(count(&value, &key)?)
                    .map_err(|_| PyValueError::new_err(format!("{key} is too large")))?
            }
            "state_ttl" => config.state_ttl = seconds(&value, &key)?,
            "client_request_timeout" => config.client_request_timeout = seconds(&value, &key)?,
            "handler_timeout" => config.handler_timeout = Some(seconds(&value, &key)?),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown server limit {key:?}"
                )));
            }
        }
    }
    Ok(())
}

pub(crate) fn count(value: &Bound<'_, PyAny>, key: &str) -> PyResult<usize> {
    let n: i64 = value
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{key} must be an int")))?;
    usize::try_from(n).map_err(|_| PyValueError::new_err(format!("{key} must not be negative")))
}

pub(crate) fn seconds(value: &Bound<'_, PyAny>, key: &str) -> PyResult<Duration> {
    let s: f64 = value
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{key} must be a number of seconds")))?;
    Duration::try_from_secs_f64(s).map_err(|_| {
        PyValueError::new_err(format!("{key} must be a non-negative number of seconds"))
    })
}
