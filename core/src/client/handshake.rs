//! The opening exchange of a client connection, shared by every transport: the era probe
//! (`server/discover` first; a modern answer or a modern error means a modern server; anything else,
//! another error or a timeout, means legacy, and the client falls back to `initialize`), the legacy handshake, and recording what the
//! server is. Transports call these once their connection is up; the HTTP transport adds its own
//! probe rules (`http::probe`) on top of [`discover`] and [`initialize_fallback`].

use serde_json::{Value, json};

use super::connection::CallOptions;
use super::handle::Client;
use crate::error::{Error, Result, code};
use crate::meta;
use crate::version::{Era, ProtocolVersion};

/// Which era and version the client asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum VersionPreference {
    /// Probe with `server/discover` and fall back to `initialize` (the default).
    #[default]
    Auto,
    /// Only the modern era, starting with this version.
    Modern(ProtocolVersion),
    /// Only the legacy era, asking for this version at `initialize`.
    Legacy(ProtocolVersion),
}

/// Runs the era probe and records what the server is.
pub(crate) async fn negotiate(client: &Client, pref: &VersionPreference) -> Result<()> {
    match pref {
        VersionPreference::Legacy(v) => initialize(client, v).await,
        VersionPreference::Modern(v) => discover(client, v.clone(), None).await,
        VersionPreference::Auto => match probe_discover(client).await {
            Ok(()) => Ok(()),
            // A broken stdio connection would fail `initialize` the same way.
            Err(e) if probe_is_final(&e) || matches!(e, Error::Transport(_)) => Err(e),
            Err(_) => initialize_fallback(client).await,
        },
    }
}

/// The era probe's first step: `server/discover` at the newest version, within the probe timeout.
pub(crate) async fn probe_discover(client: &Client) -> Result<()> {
    discover(
        client,
        ProtocolVersion::LATEST,
        Some(client.conn.config.probe_timeout),
    )
    .await
}

/// Whether a failed probe is final, with no fallback to `initialize`: a recognised modern error
/// (the server is modern and refused this request) or a failed negotiation.
pub(crate) fn probe_is_final(e: &Error) -> bool {
    match e {
        Error::Rpc(e) => [
            code::HEADER_MISMATCH,
            code::MISSING_REQUIRED_CLIENT_CAPABILITY,
            code::UNSUPPORTED_PROTOCOL_VERSION,
        ]
        .contains(&e.code),
        Error::Negotiation(_) => true,
        _ => false,
    }
}

/// The probe's fallback: `initialize` at the newest legacy version. A server that refuses it with
/// -32022 naming only modern versions is modern after all (its answer to a probe that timed out came
/// too late, and it has committed the connection to 2026-07-28): the client then discovers at the
/// newest of those versions it speaks, without a timeout.
pub(crate) async fn initialize_fallback(client: &Client) -> Result<()> {
    match initialize(client, &ProtocolVersion::LATEST_LEGACY).await {
        Err(Error::Rpc(e)) if e.code == code::UNSUPPORTED_PROTOCOL_VERSION => {
            let modern = e
                .data
                .as_ref()
                .and_then(|d| d.get("supported"))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(ProtocolVersion::new)
                .filter(|v| v.is_known() && v.era() == Era::Modern)
                .max();
            match modern {
                Some(v) => discover(client, v, None).await,
                None => Err(Error::Rpc(e)),
            }
        }
        other => other,
    }
}

pub(crate) async fn discover(
    client: &Client,
    version: ProtocolVersion,
    timeout: Option<std::time::Duration>,
) -> Result<()> {
    let mut version = version;
    for _ in 0..2 {
        set_era(client, Era::Modern, version.clone());
        let opts = CallOptions {
            timeout,
            on_progress: None,
        };
        match client.request("server/discover", json!({}), &opts).await {
            Ok(result) => return record_discover(client, version, result),
            Err(Error::Rpc(e)) if e.code == code::UNSUPPORTED_PROTOCOL_VERSION => {
                let supported: Vec<String> = e
                    .data
                    .as_ref()
                    .and_then(|d| d.get("supported"))
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                let pick = supported
                    .iter()
                    .map(ProtocolVersion::new)
                    .filter(|v| v.is_known() && v.era() == Era::Modern)
                    .max();
                // Retry even with the same version: the server may have refused for another reason
                // (the loop runs twice at most).
                match pick {
                    Some(v) => version = v,
                    _ => {
                        return Err(Error::Negotiation(format!(
                            "the server supports {supported:?}, none of which this client speaks in the modern era"
                        )));
                    }
                }
            }
            Err(e) => return Err(e),
        }
    }
    Err(Error::Negotiation(
        "the server rejected every version it offered".into(),
    ))
}

fn record_discover(client: &Client, version: ProtocolVersion, result: Value) -> Result<()> {
    match result.get("resultType").and_then(Value::as_str) {
        None | Some("complete") => {}
        Some(other) => {
            return Err(Error::Protocol(format!(
                "server/discover answered resultType {other:?}"
            )));
        }
    }
    let supported: Vec<String> = result
        .get("supportedVersions")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::Protocol("server/discover result has no supportedVersions".into()))?
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    let mut d = client.server.write();
    d.era = Era::Modern;
    d.version = version;
    d.supported_versions = supported;
    d.capabilities = result.get("capabilities").cloned().unwrap_or(json!({}));
    d.server_info = meta::of(Some(&result))
        .and_then(|m| m.get(meta::SERVER_INFO))
        .cloned();
    d.instructions = result
        .get("instructions")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(())
}

fn set_era(client: &Client, era: Era, version: ProtocolVersion) {
    let mut d = client.server.write();
    d.era = era;
    d.version = version;
}

pub(crate) async fn initialize(client: &Client, version: &ProtocolVersion) -> Result<()> {
    set_era(client, Era::Legacy, version.clone());
    let params = json!({
        "protocolVersion": version.as_str(),
        "capabilities": client.conn.handlers.capabilities(),
        "clientInfo": *client.info,
    });
    let result = client
        .request("initialize", params, &CallOptions::default())
        .await?;
    let answered = result
        .get("protocolVersion")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::Protocol("initialize result has no protocolVersion".into()))?;
    let agreed = ProtocolVersion::new(answered);
    if !agreed.is_known() || agreed.era() != Era::Legacy {
        return Err(Error::Negotiation(format!(
            "the server offered protocol version {answered}, which this client does not speak"
        )));
    }
    {
        let mut d = client.server.write();
        d.era = Era::Legacy;
        d.version = agreed.clone();
        d.supported_versions = vec![answered.to_string()];
        d.capabilities = result.get("capabilities").cloned().unwrap_or(json!({}));
        d.server_info = result.get("serverInfo").cloned();
        d.instructions = result
            .get("instructions")
            .and_then(Value::as_str)
            .map(str::to_string);
    }
    client.conn.notify("notifications/initialized", None);
    if let Some(level) = client.conn.config.log_level
        && client.server.read().capabilities.get("logging").is_some()
    {
        client
            .request(
                "logging/setLevel",
                json!({ "level": level.as_str() }),
                &CallOptions::default(),
            )
            .await?;
    }
    Ok(())
}
