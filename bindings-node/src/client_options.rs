//! The JS client options (JSON text) mapped onto the core's `ClientBuilder`, `ChildSpec` and
//! `HttpClientOptions`.

use std::sync::Arc;
use std::time::Duration;

use libmcp::client::{ClientBuilder, ClientConfig};
use libmcp::transport::child::ChildSpec;
use napi::bindgen_prelude::{Function, Promise};
use serde_json::{Map, Value};

use crate::client_auth;
use crate::error::invalid;

fn str_of<'a>(o: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str)
}

fn millis(o: &Map<String, Value>, k: &str) -> napi::Result<Option<Duration>> {
    match o.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_f64()
            .filter(|ms| ms.is_finite() && *ms > 0.0)
            .map(|ms| Some(Duration::from_secs_f64(ms / 1000.0)))
            .ok_or_else(|| invalid(format!("{k} must be a positive number of milliseconds"))),
    }
}

/// A builder with the implementation info, version preference and tunables of `o`:
/// `name`, `version`, `protocolVersion` (a version pins its era; absent: probe), `timeoutMs`,
/// `probeTimeoutMs`, `logLevel`, `roots`, `elicitationUrl`, `samplingTools`.
pub(crate) fn builder(o: &Map<String, Value>) -> napi::Result<ClientBuilder> {
    let mut b = libmcp::client::Client::builder(
        str_of(o, "name").unwrap_or("libmcp-node-client"),
        str_of(o, "version").unwrap_or(env!("CARGO_PKG_VERSION")),
    );
    let version = match o.get("protocolVersion") {
        None | Some(Value::Null) => None,
        Some(Value::String(v)) => Some(v.as_str()),
        Some(_) => return Err(invalid("protocolVersion: must be a string")),
    };
    let preference = libmcp::host::version_preference(version)
        .map_err(|e| invalid(format!("protocolVersion: {}", e.reason)))?;
    b = b.version_preference(preference);
    let mut config = ClientConfig::default();
    if let Some(t) = millis(o, "timeoutMs")? {
        config.request_timeout = t;
    }
    if let Some(t) = millis(o, "probeTimeoutMs")? {
        config.probe_timeout = t;
    }
    if let Some(l) = o.get("logLevel").filter(|l| !l.is_null()) {
        config.log_level = Some(
            serde_json::from_value(l.clone())
                .map_err(|_| invalid(format!("unknown log level {l}")))?,
        );
    }
    b = b.config(config);
    if let Some(roots) = o.get("roots") {
        let Value::Array(roots) = roots else {
            return Err(invalid("roots must be an array of {uri, name?}"));
        };
        b = b.roots(roots.clone());
    }
    if o.get("elicitationUrl").and_then(Value::as_bool) == Some(true) {
        b = b.elicitation_url(true);
    }
    if o.get("samplingTools").and_then(Value::as_bool) == Some(true) {
        b = b.sampling_tools(true);
    }
    Ok(b)
}

fn string_list(v: Option<&Value>, what: &str) -> napi::Result<Vec<String>> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(v) => v
            .as_array()
            .and_then(|a| a.iter().map(|s| s.as_str().map(String::from)).collect())
            .ok_or_else(|| invalid(format!("{what} must be an array of strings"))),
    }
}

fn string_pairs(v: Option<&Value>, what: &str) -> napi::Result<Vec<(String, String)>> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| match v.as_str() {
                Some(s) => Ok((k.clone(), s.to_string())),
                None => Err(invalid(format!("{what}.{k} must be a string"))),
            })
            .collect(),
        Some(_) => Err(invalid(format!("{what} must be an object of strings"))),
    }
}

/// The child process of `o`: `command`, `args`, `env`, `cwd`, `stderr` (`"inherit"`, the default,
/// or `"ignore"`).
pub(crate) fn child(o: &Map<String, Value>) -> napi::Result<ChildSpec> {
    let command = str_of(o, "command").ok_or_else(|| invalid("command must be a string"))?;
    let mut spec = ChildSpec::new(command, string_list(o.get("args"), "args")?);
    spec.env = string_pairs(o.get("env"), "env")?;
    spec.cwd = str_of(o, "cwd").map(Into::into);
    match str_of(o, "stderr") {
        None | Some("inherit") => {}
        Some("ignore") => spec.stderr = Some(Arc::new(|_line: &str| {})),
        Some(other) => {
            return Err(invalid(format!(
                "stderr must be inherit or ignore, got {other:?}"
            )));
        }
    }
    Ok(spec)
}

/// The HTTP options of `o`: `headers`, and `oauth` (authorization with `authorize` as the
/// user-interaction step, see `client_auth.rs`).
pub(crate) fn http(
    o: &Map<String, Value>,
    authorize: Option<&Function<String, Promise<String>>>,
) -> napi::Result<libmcp::client::http::HttpClientOptions> {
    let auth = match (o.get("oauth").filter(|a| !a.is_null()), authorize) {
        (Some(oauth), f) => Some(client_auth::oauth_client(oauth, f)?),
        (None, None) => None,
        (None, Some(_)) => return Err(invalid("onAuthorize needs the oauth options")),
    };
    Ok(libmcp::client::http::HttpClientOptions {
        headers: string_pairs(o.get("headers"), "headers")?,
        auth,
        ..Default::default()
    })
}
