//! Which keywords hold subschemas, and how: what every walk over a schema document needs.

/// How a keyword holds subschemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// One schema, or an array of schemas (`items`, `allOf`, `not`, ...).
    Direct,
    /// An object of named schemas (`properties`, `$defs`, `patternProperties`, ...).
    Named,
}

/// Where a keyword keeps subschemas (the applicators of drafts 4 to 2020-12), or `None` for keywords
/// whose values are data (`enum`, `const`, `default`, ...).
pub(crate) fn subschema_slot(keyword: &str) -> Option<Slot> {
    match keyword {
        "additionalProperties"
        | "items"
        | "additionalItems"
        | "contains"
        | "not"
        | "if"
        | "then"
        | "else"
        | "propertyNames"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "contentSchema"
        | "allOf"
        | "anyOf"
        | "oneOf"
        | "prefixItems" => Some(Slot::Direct),
        "properties" | "$defs" | "definitions" | "patternProperties" | "dependentSchemas"
        | "dependencies" => Some(Slot::Named),
        _ => None,
    }
}
