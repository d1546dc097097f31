//! The restricted JSON Schema of an elicitation form: a flat object whose properties are primitive
//! field schemas (string, number, boolean, and the single- and multi-select enums).
//!
//! Each field struct writes its own `type`; [`PrimitiveSchemaDefinition`] dispatches on `type` and
//! the distinguishing keys (`oneOf`, `enumNames`, `enum`, `items.anyOf`) when reading.

use serde::de::Deserializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::common::{from_value, ser_opt_f64, str_field};

/// The restricted JSON Schema of a form: one level of primitive properties.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "object")]
pub struct ElicitationSchema {
    /// The `$schema` dialect URI, if given.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// The fields, in the order the server wrote them (the order a form shows them in).
    #[serde(with = "ordered_map")]
    pub properties: Vec<(String, PrimitiveSchemaDefinition)>,
    /// Names of the fields that must be filled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<Vec<String>>,
}

impl ElicitationSchema {
    /// The same schema with one more field, required or not.
    pub fn field(
        mut self,
        name: impl Into<String>,
        def: PrimitiveSchemaDefinition,
        required: bool,
    ) -> Self {
        let name = name.into();
        if required {
            self.required
                .get_or_insert_with(Vec::new)
                .push(name.clone());
        }
        self.properties.push((name, def));
        self
    }
}

/// (De)serialises a JSON object as a `Vec` of entries, keeping document order whatever the
/// `serde_json` map implementation.
mod ordered_map {
    use serde::de::{Deserializer, MapAccess, Visitor};
    use serde::ser::{SerializeMap, Serializer};
    use serde::{Deserialize, Serialize};

    pub fn serialize<S: Serializer, T: Serialize>(
        v: &[(String, T)],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(v.len()))?;
        for (k, t) in v {
            m.serialize_entry(k, t)?;
        }
        m.end()
    }

    pub fn deserialize<'de, D, T>(d: D) -> Result<Vec<(String, T)>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Vec<(String, T)>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(a.size_hint().unwrap_or(0));
                while let Some(entry) = a.next_entry()? {
                    out.push(entry);
                }
                Ok(out)
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// A form field's schema: one of the primitive shapes the spec allows.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PrimitiveSchemaDefinition {
    /// `type: "string"`, free text.
    String(StringSchema),
    /// `type: "number"` or `"integer"`.
    Number(NumberSchema),
    /// `type: "boolean"`.
    Boolean(BooleanSchema),
    /// Single choice from `enum`.
    UntitledSingleSelectEnum(UntitledSingleSelectEnumSchema),
    /// Single choice from `oneOf: [{const, title}]`.
    TitledSingleSelectEnum(TitledSingleSelectEnumSchema),
    /// Several choices from `items.enum`.
    UntitledMultiSelectEnum(UntitledMultiSelectEnumSchema),
    /// Several choices from `items.anyOf: [{const, title}]`.
    TitledMultiSelectEnum(TitledMultiSelectEnumSchema),
    /// The legacy `enum` + `enumNames` form, still accepted.
    LegacyTitledEnum(LegacyTitledEnumSchema),
}

impl<'de> Deserialize<'de> for PrimitiveSchemaDefinition {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use PrimitiveSchemaDefinition as P;
        let v = Value::deserialize(d)?;
        let has = |k: &str| v.get(k).is_some();
        match str_field(&v, "type") {
            Some("string") if has("oneOf") => from_value(v).map(P::TitledSingleSelectEnum),
            Some("string") if has("enumNames") => from_value(v).map(P::LegacyTitledEnum),
            Some("string") if has("enum") => from_value(v).map(P::UntitledSingleSelectEnum),
            Some("string") => from_value(v).map(P::String),
            Some("number" | "integer") => from_value(v).map(P::Number),
            Some("boolean") => from_value(v).map(P::Boolean),
            Some("array") if v.get("items").is_some_and(|i| i.get("anyOf").is_some()) => {
                from_value(v).map(P::TitledMultiSelectEnum)
            }
            Some("array") => from_value(v).map(P::UntitledMultiSelectEnum),
            other => Err(serde::de::Error::custom(format!(
                "not a primitive schema type: {other:?}"
            ))),
        }
    }
}

/// Formats a string field may require.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StringFormat {
    /// An email address.
    Email,
    /// A URI.
    Uri,
    /// A calendar date.
    Date,
    /// A date and time.
    DateTime,
}

/// A free-text field.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "string", rename_all = "camelCase")]
pub struct StringSchema {
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Minimum length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    /// Maximum length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
    /// Required format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<StringFormat>,
    /// Pre-filled value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// Whether a numeric field takes any number or only integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NumberType {
    /// Any number.
    Number,
    /// Integers only.
    Integer,
}

/// A numeric field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NumberSchema {
    /// `number` or `integer`.
    #[serde(rename = "type")]
    pub kind: NumberType,
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Smallest allowed value.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_f64"
    )]
    pub minimum: Option<f64>,
    /// Largest allowed value.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_f64"
    )]
    pub maximum: Option<f64>,
    /// Pre-filled value.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_f64"
    )]
    pub default: Option<f64>,
}

/// A yes/no field.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "boolean", rename_all = "camelCase")]
pub struct BooleanSchema {
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Pre-filled value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<bool>,
}

/// A single choice among plain values.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "string", rename_all = "camelCase")]
pub struct UntitledSingleSelectEnumSchema {
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The allowed values.
    #[serde(rename = "enum")]
    pub values: Vec<String>,
    /// Pre-selected value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// A value with a display label: `{const, title}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TitledOption {
    /// The value.
    #[serde(rename = "const")]
    pub value: String,
    /// Its label.
    pub title: String,
}

/// A single choice among labelled values.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "string", rename_all = "camelCase")]
pub struct TitledSingleSelectEnumSchema {
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The options.
    pub one_of: Vec<TitledOption>,
    /// Pre-selected value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// `items` of an untitled multi-select: `{type: "string", enum}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "string")]
pub struct UntitledEnumItems {
    /// The allowed values.
    #[serde(rename = "enum")]
    pub values: Vec<String>,
}

/// `items` of a titled multi-select: `{anyOf: [{const, title}]}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TitledEnumItems {
    /// The options.
    #[serde(rename = "anyOf")]
    pub any_of: Vec<TitledOption>,
}

/// Several choices among plain values.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "array", rename_all = "camelCase")]
pub struct UntitledMultiSelectEnumSchema {
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Fewest selections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    /// Most selections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    /// The allowed values.
    pub items: UntitledEnumItems,
    /// Pre-selected values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Vec<String>>,
}

/// Several choices among labelled values.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "array", rename_all = "camelCase")]
pub struct TitledMultiSelectEnumSchema {
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Fewest selections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    /// Most selections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    /// The options.
    pub items: TitledEnumItems,
    /// Pre-selected values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Vec<String>>,
}

/// The legacy single choice with labels in a parallel `enumNames` array.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "string", rename_all = "camelCase")]
pub struct LegacyTitledEnumSchema {
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The allowed values.
    #[serde(rename = "enum")]
    pub values: Vec<String>,
    /// Labels, index for index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enum_names: Option<Vec<String>>,
    /// Pre-selected value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}
