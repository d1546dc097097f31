//! A compiled schema: its subschemas as nodes holding checks, with every `$ref` resolved to the
//! node it names. Built by `build`, run by `eval`.

use std::collections::HashMap;

use serde_json::{Number, Value};

use super::format::Format;
use super::regex::Regex;

/// A compiled document.
pub(super) struct Program {
    pub(super) nodes: Vec<Node>,
    /// Per schema resource: what the dynamic scope needs of it.
    pub(super) resources: Vec<ResourceInfo>,
    /// Whether any node has `unevaluatedProperties` / `unevaluatedItems`: only then are the
    /// evaluated properties and items tracked.
    pub(super) track_unevaluated: bool,
    /// Whether any node has `$dynamicRef` / `$recursiveRef`: only then is the dynamic scope kept.
    pub(super) dynamic: bool,
}

/// What `$dynamicRef` (2020-12) and `$recursiveRef` (2019-09) look up in a resource of the
/// dynamic scope.
#[derive(Default)]
pub(super) struct ResourceInfo {
    /// `$dynamicAnchor` names to their nodes.
    pub(super) dynamic_anchors: HashMap<String, usize>,
    /// The resource's root node, when it has `$recursiveAnchor: true`.
    pub(super) recursive_root: Option<usize>,
}

/// One subschema.
pub(super) enum Node {
    /// `true` or `false`.
    Bool(bool),
    /// An object schema: its checks, in the order they run (`unevaluated*` last).
    Checks { resource: usize, checks: Vec<Check> },
}

/// The `type` names, as bits of [`Check::Type`].
pub(super) const TYPE_NAMES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// One keyword (or a group of keywords that work together) of a subschema.
pub(super) enum Check {
    Ref(usize),
    /// `$dynamicRef`: the node it names statically, and the anchor name to look up in the dynamic
    /// scope when that node has a `$dynamicAnchor` of the same name.
    DynamicRef {
        target: usize,
        anchor: Option<String>,
    },
    /// `$recursiveRef: "#"`: the root of the resource it is in.
    RecursiveRef(usize),
    /// Allowed types as bits of [`TYPE_NAMES`], and their names as written.
    Type(u8, Vec<&'static str>),
    Enum(Vec<Value>),
    Const(Value),
    Minimum(Number),
    Maximum(Number),
    ExclusiveMinimum(Number),
    ExclusiveMaximum(Number),
    MultipleOf(Number),
    MinLength(u64),
    MaxLength(u64),
    Pattern(Regex, String),
    Format(Format),
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    /// `prefixItems` + `items` (2020-12), or `items` as an array + `additionalItems` (before), or
    /// `items` as one schema; with the keyword names for schema paths.
    Items {
        prefix: Vec<usize>,
        rest: Option<usize>,
        prefix_keyword: &'static str,
        rest_keyword: &'static str,
    },
    /// `contains` with `minContains` / `maxContains`; `annotates` when the items it matches count
    /// as evaluated for `unevaluatedItems` (2020-12).
    Contains {
        node: usize,
        min: u64,
        max: Option<u64>,
        annotates: bool,
    },
    MinProperties(u64),
    MaxProperties(u64),
    Required(Vec<String>),
    /// `properties`, `patternProperties` and `additionalProperties`, which depend on each other.
    Properties {
        named: Vec<(String, usize)>,
        patterns: Vec<(Regex, String, usize)>,
        additional: Option<usize>,
    },
    PropertyNames(usize),
    /// `dependentRequired` (or `dependencies` with an array), with the keyword name.
    DependentRequired(Vec<(String, Vec<String>)>, &'static str),
    /// `dependentSchemas` (or `dependencies` with a schema), with the keyword name.
    DependentSchemas(Vec<(String, usize)>, &'static str),
    AllOf(Vec<usize>),
    AnyOf(Vec<usize>),
    OneOf(Vec<usize>),
    /// `not`, with the subschema as written (for the message).
    Not(usize, Value),
    If {
        cond: usize,
        then: Option<usize>,
        otherwise: Option<usize>,
    },
    UnevaluatedItems(usize),
    UnevaluatedProperties(usize),
}
