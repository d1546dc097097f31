//! The members of a union node (`anyOf`/`oneOf`) of a revision's schema, flattened once per schema,
//! with what picking the member a value is needs read off each beforehand.

use serde_json::{Map, Value};

/// How a member tells its values by their `type` property.
enum Tag {
    /// No `type` property, or one without `const`/`enum`: any value.
    Any,
    /// `type` must equal this (`{"const": "text"}`).
    Const(&'static Value),
    /// `type` must be one of these.
    Enum(&'static [Value]),
}

/// One non-union member of a union.
pub(crate) struct Leaf {
    /// The definition it came from, if it was reached through a `$ref`.
    pub(crate) name: Option<&'static str>,
    /// Its schema node.
    pub(crate) schema: &'static Value,
    /// Its `type`, when that is a single name.
    kind: Option<&'static str>,
    tag: Tag,
    /// Its required property names; `None` if one of them is not a string (no object fits then).
    required: Option<Vec<&'static str>>,
}

impl Leaf {
    pub(crate) fn new(name: Option<&'static str>, schema: &'static Value) -> Leaf {
        let tag = match schema.get("properties").and_then(|p| p.get("type")) {
            Some(t) => match (t.get("const"), t.get("enum").and_then(Value::as_array)) {
                (Some(c), _) => Tag::Const(c),
                (None, Some(allowed)) => Tag::Enum(allowed),
                (None, None) => Tag::Any,
            },
            None => Tag::Any,
        };
        let required = schema
            .get("required")
            .and_then(Value::as_array)
            .map_or(Some(Vec::new()), |r| r.iter().map(Value::as_str).collect());
        Leaf {
            name,
            schema,
            kind: schema.get("type").and_then(Value::as_str),
            tag,
            required,
        }
    }

    /// Whether the member is an array schema.
    pub(crate) fn is_array(&self) -> bool {
        self.kind == Some("array")
    }

    /// How well `obj` fits this member: `None` if its `type` tag or a missing required property
    /// says it is not this member, else the number of required properties it has (more is more
    /// specific).
    pub(crate) fn fits(&self, obj: &Map<String, Value>) -> Option<usize> {
        if self.kind.is_some_and(|k| k != "object") {
            return None;
        }
        let actual = obj.get("type");
        let tagged = match self.tag {
            Tag::Any => true,
            Tag::Const(c) => actual == Some(c),
            Tag::Enum(allowed) => actual.is_some_and(|a| allowed.contains(a)),
        };
        if !tagged {
            return None;
        }
        let required = self.required.as_ref()?;
        required
            .iter()
            .all(|r| obj.contains_key(*r))
            .then_some(required.len())
    }
}
