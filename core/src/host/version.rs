//! The version preference a host's client option names: absent means "auto", otherwise the text
//! rule of [`VersionPreference`]'s `FromStr` (`"auto"` or a revision the engine knows).

use crate::client::VersionPreference;
use crate::error::ConfigError;

/// The preference for a client option holding `text`: `None` (the option absent) probes with
/// `server/discover` and falls back, like `"auto"`; a known revision pins its era; anything else
/// (an unknown or empty revision) is a [`ConfigError`] on the field `version_preference` listing what
/// is accepted.
pub fn version_preference(text: Option<&str>) -> Result<VersionPreference, ConfigError> {
    match text {
        None => Ok(VersionPreference::Auto),
        Some(text) => text.parse(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProtocolVersion;

    #[test]
    fn absent_is_auto_and_a_known_revision_pins_its_era() {
        assert_eq!(version_preference(None), Ok(VersionPreference::Auto));
        assert_eq!(
            version_preference(Some("auto")),
            Ok(VersionPreference::Auto)
        );
        assert_eq!(
            version_preference(Some("2025-06-18")),
            Ok(VersionPreference::Legacy(ProtocolVersion::V2025_06_18))
        );
        let e = version_preference(Some("")).unwrap_err();
        assert_eq!(e.field, "version_preference");
    }
}
