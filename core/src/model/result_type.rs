//! `resultType`, the discriminator on every 2026-07-28 result (used by the common result shapes and
//! by MRTR; its public path is `model::mrtr::ResultType`).

use serde::de::Deserializer;
use serde::{Deserialize, Serialize, Serializer};

/// The `resultType` discriminator of a 2026-07-28 result.
///
/// Kept as an open enum rather than `Option<String>`: the two core values are matched on everywhere,
/// while extension values (the tasks extension's `"task"`) must survive a round trip unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ResultType {
    /// `"complete"`: the final result of the method.
    Complete,
    /// `"input_required"`: an [`InputRequiredResult`](super::mrtr::InputRequiredResult); retry with the requested input.
    InputRequired,
    /// A value defined by an extension, for example `"task"`.
    Other(String),
}

impl ResultType {
    /// The wire name.
    pub fn as_str(&self) -> &str {
        match self {
            ResultType::Complete => "complete",
            ResultType::InputRequired => "input_required",
            ResultType::Other(s) => s,
        }
    }
}

impl From<&str> for ResultType {
    fn from(s: &str) -> Self {
        match s {
            "complete" => ResultType::Complete,
            "input_required" => ResultType::InputRequired,
            other => ResultType::Other(other.to_owned()),
        }
    }
}

impl Serialize for ResultType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ResultType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(ResultType::from(s.as_str()))
    }
}
