//! Protocol revisions as data: the known versions, their era, and the negotiation rules of each era.

use std::borrow::Cow;

/// How a revision establishes version and capabilities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Era {
    /// `initialize` handshake and sessions (2024-11-05 to 2025-11-25).
    Legacy,
    /// Stateless: version and capabilities in every request's `_meta` (2026-07-28 onward).
    Modern,
}

/// A protocol revision string such as `2025-11-25`. Open: unknown strings are representable.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProtocolVersion(Cow<'static, str>);

impl ProtocolVersion {
    /// 2024-11-05: the first revision; HTTP+SSE transport.
    pub const V2024_11_05: ProtocolVersion = ProtocolVersion(Cow::Borrowed("2024-11-05"));
    /// 2025-03-26: Streamable HTTP, batching, OAuth.
    pub const V2025_03_26: ProtocolVersion = ProtocolVersion(Cow::Borrowed("2025-03-26"));
    /// 2025-06-18: structured output, elicitation; batching removed.
    pub const V2025_06_18: ProtocolVersion = ProtocolVersion(Cow::Borrowed("2025-06-18"));
    /// 2025-11-25: icons, URL elicitation, sampling with tools, experimental tasks.
    pub const V2025_11_25: ProtocolVersion = ProtocolVersion(Cow::Borrowed("2025-11-25"));
    /// 2026-07-28: stateless, MRTR, subscriptions/listen.
    pub const V2026_07_28: ProtocolVersion = ProtocolVersion(Cow::Borrowed("2026-07-28"));

    /// The newest revision this engine speaks.
    pub const LATEST: ProtocolVersion = Self::V2026_07_28;
    /// The newest revision of the legacy era.
    pub const LATEST_LEGACY: ProtocolVersion = Self::V2025_11_25;

    /// Every revision this engine speaks, newest first.
    pub const KNOWN: [ProtocolVersion; 5] = [
        Self::V2026_07_28,
        Self::V2025_11_25,
        Self::V2025_06_18,
        Self::V2025_03_26,
        Self::V2024_11_05,
    ];

    /// A version from any string.
    pub fn new(s: impl Into<String>) -> Self {
        let s = s.into();
        Self::KNOWN
            .iter()
            .find(|k| k.as_str() == s)
            .cloned()
            .unwrap_or(ProtocolVersion(Cow::Owned(s)))
    }

    /// The version string.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this engine speaks this revision.
    pub fn is_known(&self) -> bool {
        Self::KNOWN.contains(self)
    }

    /// The era of this revision. Dates are compared as strings (ISO dates sort); anything from
    /// 2026-07-28 on is modern.
    pub fn era(&self) -> Era {
        if self.as_str() >= Self::V2026_07_28.as_str() {
            Era::Modern
        } else {
            Era::Legacy
        }
    }

    /// Whether JSON-RPC batches are legal (2025-03-26 only).
    pub fn allows_batches(&self) -> bool {
        *self == Self::V2025_03_26
    }

    /// Whether elicitation exists (2025-06-18 onward).
    pub fn has_elicitation(&self) -> bool {
        self.as_str() >= Self::V2025_06_18.as_str()
    }

    /// Whether a JSON-RPC error may leave out `id` (2025-11-25 onward; earlier schemas require it,
    /// so an error that answers no request has no valid form there).
    pub fn errors_may_omit_id(&self) -> bool {
        self.as_str() >= Self::V2025_11_25.as_str()
    }

    /// Whether resource-not-found is -32002 (legacy) rather than -32602.
    pub fn legacy_not_found_code(&self) -> bool {
        self.era() == Era::Legacy
    }
}

impl std::fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for ProtocolVersion {
    fn from(s: &str) -> Self {
        ProtocolVersion::new(s)
    }
}

/// The legacy answer to `initialize {protocolVersion: requested}`: the requested version when supported,
/// otherwise the newest supported legacy version (which the client may refuse). `None` when the server
/// supports no legacy version at all.
pub fn negotiate_legacy(requested: &str, supported: &[ProtocolVersion]) -> Option<ProtocolVersion> {
    if let Some(v) = supported
        .iter()
        .find(|v| v.as_str() == requested && v.era() == Era::Legacy)
    {
        return Some(v.clone());
    }
    supported
        .iter()
        .filter(|v| v.era() == Era::Legacy)
        .max()
        .cloned()
}

/// The modern check of a request's `_meta` protocolVersion: `Ok` when served, else the list of
/// modern versions the server supports (for the -32022 error).
pub fn check_modern<'a>(
    requested: &str,
    supported: &'a [ProtocolVersion],
) -> Result<&'a ProtocolVersion, Vec<&'a str>> {
    supported
        .iter()
        .find(|v| v.as_str() == requested && v.era() == Era::Modern)
        .ok_or_else(|| {
            supported
                .iter()
                .filter(|v| v.era() == Era::Modern)
                .map(|v| v.as_str())
                .collect()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One table pins negotiation and era detection.
    #[test]
    fn negotiation_table() {
        let all = ProtocolVersion::KNOWN.to_vec();
        let legacy_only = vec![ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_03_26];
        let modern_only = vec![ProtocolVersion::V2026_07_28];
        // (supported, requested, legacy answer, modern accepted)
        let table: &[(&Vec<ProtocolVersion>, &str, Option<&str>, bool)] = &[
            (&all, "2025-11-25", Some("2025-11-25"), false),
            (&all, "2025-06-18", Some("2025-06-18"), false),
            (&all, "2025-03-26", Some("2025-03-26"), false),
            (&all, "2024-11-05", Some("2024-11-05"), false),
            (&all, "2026-07-28", Some("2025-11-25"), true),
            (&all, "2099-01-01", Some("2025-11-25"), false),
            (&all, "garbage", Some("2025-11-25"), false),
            (&legacy_only, "2025-11-25", Some("2025-06-18"), false),
            (&legacy_only, "2025-03-26", Some("2025-03-26"), false),
            (&legacy_only, "2026-07-28", Some("2025-06-18"), false),
            (&modern_only, "2025-11-25", None, false),
            (&modern_only, "2026-07-28", None, true),
        ];
        for (supported, requested, legacy, modern) in table {
            let got = negotiate_legacy(requested, supported);
            assert_eq!(
                got.as_ref().map(|v| v.as_str()),
                *legacy,
                "legacy {requested} against {supported:?}"
            );
            assert_eq!(
                check_modern(requested, supported).is_ok(),
                *modern,
                "modern {requested}"
            );
        }
        assert_eq!(
            check_modern("2099-01-01", &all).unwrap_err(),
            vec!["2026-07-28"]
        );
    }

    #[test]
    fn eras_and_features() {
        assert_eq!(ProtocolVersion::V2026_07_28.era(), Era::Modern);
        assert_eq!(ProtocolVersion::new("2027-01-01").era(), Era::Modern);
        for v in &ProtocolVersion::KNOWN[1..] {
            assert_eq!(v.era(), Era::Legacy, "{v}");
        }
        assert!(ProtocolVersion::V2025_03_26.allows_batches());
        assert!(!ProtocolVersion::V2025_06_18.allows_batches());
        assert!(!ProtocolVersion::V2025_03_26.has_elicitation());
        assert!(ProtocolVersion::V2025_06_18.has_elicitation());
        assert!(ProtocolVersion::new("2025-11-25").is_known());
        assert!(!ProtocolVersion::new("2025-11-26").is_known());
    }
}
