//! The HTTP options given from Python (`server.run("http", ...)` and `server.asgi_app(...)`),
//! applied to the core's [`HttpServerConfig`] in one place for both: the own-port server and the
//! endpoint mounted in the application's ASGI server. The config is checked by the core
//! ([`HttpServerConfig::validate`]); its refusal is a `ValueError` naming the option.

use libmcp::transport::http::HttpServerConfig;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::limits::{count, seconds};

/// The options that only the own-port listener has: the mount point and the request head belong
/// to the web server the endpoint is mounted in.
const LISTENER_ONLY: [&str; 3] = ["path", "max_header_bytes", "max_headers"];

/// Sets each option of `options` (name to value; counts as `int`, durations as seconds, `auth` as
/// the resource-server options of `libmcp.auth.ResourceServer`) on `config`, then validates it.
/// `mounted`: the endpoint is mounted in a host's web server (listener options are refused).
pub(crate) fn apply(
    py: Python<'_>,
    config: &mut HttpServerConfig,
    options: Option<&Bound<'_, PyDict>>,
    mounted: bool,
) -> PyResult<()> {
    for (key, value) in options.into_iter().flat_map(|o| o.iter()) {
        let key: String = key.extract()?;
        if value.is_none() {
            continue;
        }
        if mounted && LISTENER_ONLY.contains(&key.as_str()) {
            return Err(PyValueError::new_err(format!(
                "{key} is an option of the own-port server (run(\"http\")): a mounted endpoint \
                 answers at the path the application routes to it, and the application's web \
                 server reads the request head"
            )));
        }
        match key.as_str() {
            "path" => config.path = value.extract()?,
            "legacy_sessions" => config.legacy_sessions = flag(&value, &key)?,
            "assume_2025_03_26" => config.assume_2025_03_26 = flag(&value, &key)?,
            "http_sse" => config.http_sse = flag(&value, &key)?,
            "sse_path" => config.sse_path = value.extract()?,
            "messages_path" => config.messages_path = value.extract()?,
            "dns_rebinding_protection" => config.dns_rebinding_protection = flag(&value, &key)?,
            "allowed_hosts" => config.allowed_hosts = names(&value, &key)?,
            "allowed_origins" => config.allowed_origins = names(&value, &key)?,
            "max_body_bytes" => config.max_body_bytes = count(&value, &key)?,
            "max_header_bytes" => config.max_header_bytes = count(&value, &key)?,
            "max_headers" => config.max_headers = count(&value, &key)?,
            "max_sessions" => config.max_sessions = count(&value, &key)?,
            "session_idle_timeout" => config.session_idle_timeout = seconds(&value, &key)?,
            "sse_keepalive" => config.sse_keepalive = seconds(&value, &key)?,
            "sse_retry" => config.sse_retry = seconds(&value, &key)?,
            "json_response" => config.json_response = flag(&value, &key)?,
            "legacy_stateless" => config.legacy_stateless = flag(&value, &key)?,
            "auth" => config.auth = Some(crate::resource::config(py, value.extract()?)?),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown HTTP option {key:?}"
                )));
            }
        }
    }
    config
        .validate()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

fn flag(value: &Bound<'_, PyAny>, key: &str) -> PyResult<bool> {
    value
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{key} must be a bool")))
}

fn names(value: &Bound<'_, PyAny>, key: &str) -> PyResult<Vec<String>> {
    if value.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyValueError::new_err(format!(
            "{key} must be a list of str, not a str"
        )));
    }
    value
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{key} must be a list of str")))
}
