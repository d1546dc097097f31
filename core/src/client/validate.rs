//! The rules every host applies to a client's settings, written once: [`ClientConfig::validate`],
//! [`VersionPreference`] from text, and [`ServerDescription`] as JSON.

use std::str::FromStr;
use std::time::Duration;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::config::ClientConfig;
use super::description::ServerDescription;
use super::handshake::VersionPreference;
use crate::error::ConfigError;
use crate::error::ConfigError as E;
use crate::version::{Era, ProtocolVersion};

impl ClientConfig {
    /// Checks the settings: every timeout and limit above zero, and the idle timeout of a request
    /// not above its hard limit (it could never fire).
    pub fn validate(&self) -> Result<(), ConfigError> {
        E::positive("request_timeout", self.request_timeout == Duration::ZERO)?;
        E::positive(
            "max_total_timeout",
            self.max_total_timeout == Duration::ZERO,
        )?;
        E::positive("probe_timeout", self.probe_timeout == Duration::ZERO)?;
        E::positive("max_input_rounds", self.max_input_rounds == 0)?;
        E::positive("max_message_bytes", self.max_message_bytes == 0)?;
        if self.request_timeout > self.max_total_timeout {
            return Err(ConfigError::new(
                "request_timeout",
                format!(
                    "{:?} is above max_total_timeout ({:?})",
                    self.request_timeout, self.max_total_timeout
                ),
            ));
        }
        Ok(())
    }
}

impl FromStr for VersionPreference {
    type Err = ConfigError;

    /// `"auto"` probes and falls back; a revision this engine knows pins its era (`"2026-07-28"`:
    /// modern only; `"2025-11-25"` and older: the `initialize` handshake asking for it). Anything
    /// else is refused: an unknown revision has no era the client could speak.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "auto" {
            return Ok(VersionPreference::Auto);
        }
        let version = ProtocolVersion::new(s);
        if !version.is_known() {
            let known: Vec<&str> = ProtocolVersion::KNOWN.iter().map(|v| v.as_str()).collect();
            return Err(ConfigError::new(
                "version_preference",
                format!(
                    "unknown protocol version {s:?} (known: auto, {})",
                    known.join(", ")
                ),
            ));
        }
        Ok(match version.era() {
            Era::Legacy => VersionPreference::Legacy(version),
            Era::Modern => VersionPreference::Modern(version),
        })
    }
}

impl Serialize for ServerDescription {
    /// `{"era": "legacy" | "modern", "protocolVersion", "supportedVersions", "capabilities",
    /// "serverInfo", "instructions"}` (the last two `null` when the server sent none).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("ServerDescription", 6)?;
        let era = match self.era {
            Era::Legacy => "legacy",
            Era::Modern => "modern",
        };
        s.serialize_field("era", era)?;
        s.serialize_field("protocolVersion", self.version.as_str())?;
        s.serialize_field("supportedVersions", &self.supported_versions)?;
        s.serialize_field("capabilities", &self.capabilities)?;
        s.serialize_field("serverInfo", &self.server_info)?;
        s.serialize_field("instructions", &self.instructions)?;
        s.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn client_config_rules() {
        assert_eq!(ClientConfig::default().validate(), Ok(()));
        let zero = ClientConfig {
            probe_timeout: Duration::ZERO,
            ..ClientConfig::default()
        };
        assert_eq!(
            zero.validate().unwrap_err().to_string(),
            "probe_timeout: must not be zero"
        );
        let above = ClientConfig {
            request_timeout: Duration::from_secs(11),
            max_total_timeout: Duration::from_secs(10),
            ..ClientConfig::default()
        };
        assert_eq!(
            above.validate().unwrap_err().to_string(),
            "request_timeout: 11s is above max_total_timeout (10s)"
        );
    }

    #[test]
    fn version_preference_from_text() {
        assert_eq!("auto".parse(), Ok(VersionPreference::Auto));
        assert_eq!(
            "2026-07-28".parse(),
            Ok(VersionPreference::Modern(ProtocolVersion::V2026_07_28))
        );
        assert_eq!(
            "2024-11-05".parse(),
            Ok(VersionPreference::Legacy(ProtocolVersion::V2024_11_05))
        );
        let e = "2099-01-01".parse::<VersionPreference>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "version_preference: unknown protocol version \"2099-01-01\" (known: auto, \
             2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)"
        );
        assert!("".parse::<VersionPreference>().is_err());
    }

    #[test]
    fn server_description_json() {
        let d = ServerDescription {
            era: Era::Legacy,
            version: ProtocolVersion::V2025_11_25,
            supported_versions: vec!["2025-11-25".into()],
            capabilities: json!({"tools": {}}),
            server_info: Some(json!({"name": "s", "version": "1"})),
            instructions: None,
        };
        assert_eq!(
            serde_json::to_value(&d).unwrap(),
            json!({"era": "legacy", "protocolVersion": "2025-11-25",
                "supportedVersions": ["2025-11-25"], "capabilities": {"tools": {}},
                "serverInfo": {"name": "s", "version": "1"}, "instructions": null})
        );
    }
}
