//! Shapes shared by every domain: `_meta` objects, params that carry only `_meta`, the empty result,
//! and the serde helpers that keep JSON numbers as they were written.

use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

use super::result_type::ResultType;

/// A `_meta` object: reserved and vendor keys mapped to any JSON.
pub type Meta = Map<String, Value>;

/// Any JSON object (the schema's `JSONObject`), used for open-ended capability and extension entries.
pub type JsonObject = Map<String, Value>;

/// Params that carry nothing but `_meta`: `server/discover`, the `list_changed` notifications, `ping`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MetaParams {
    /// Request or notification metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl MetaParams {
    /// Params with the given `_meta`.
    pub fn with_meta(meta: Meta) -> Self {
        MetaParams { meta: Some(meta) }
    }
}

/// A result with no payload (`EmptyResult`): the answer to `ping`, `logging/setLevel` and the legacy
/// subscribe calls; in 2026-07-28 it still carries `resultType`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmptyResult {
    /// `complete` for 2026-07-28 servers; absent from legacy servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Builder methods of the definition types: `fn field(self, value) -> Self` setting an optional
/// field, each with its doc line.
macro_rules! optional_setters {
    ($($doc:literal $field:ident: $ty:ty),* $(,)?) => {$(
        #[doc = $doc]
        pub fn $field(mut self, value: impl Into<$ty>) -> Self {
            self.$field = Some(value.into());
            self
        }
    )*};
}
pub(crate) use optional_setters;

/// Serialises an `f64` the way a JSON author would write it: integral values without a fraction, so
/// `50` read from the wire is written back as `50`, not `50.0` (JSON does not tell the two apart, but
/// byte-level and `Value` comparisons do).
pub(crate) fn ser_f64<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    // 2^53: beyond it an f64 is not an exact integer in every JSON reader.
    if v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
        s.serialize_i64(*v as i64)
    } else {
        s.serialize_f64(*v)
    }
}

/// [`ser_f64`] for optional fields (used with `skip_serializing_if = "Option::is_none"`).
pub(crate) fn ser_opt_f64<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => ser_f64(v, s),
        None => s.serialize_none(),
    }
}

/// Reads `value["key"]` as a string, for the hand-written discriminated deserialisers.
pub(crate) fn str_field<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

/// Deserialises a JSON value into `T`, mapping the error into the outer deserializer's error type.
pub(crate) fn from_value<T, E>(value: Value) -> Result<T, E>
where
    T: serde::de::DeserializeOwned,
    E: serde::de::Error,
{
    serde_json::from_value(value).map_err(E::custom)
}
