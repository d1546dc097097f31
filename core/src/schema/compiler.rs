//! Compiling a schema document into a [`Program`]: each subschema a node, each keyword checked for
//! shape (a malformed keyword is [`SchemaError::Invalid`] naming where), each `$ref` resolved to
//! the node it names (one outside the document is [`SchemaError::ExternalRef`]: nothing is fetched).

use std::collections::HashMap;

use serde_json::{Map, Number, Value};

use super::dialect::Dialect;
use super::equal::is_integer;
use super::error::SchemaError;
use super::format::Format;
use super::pointer::{display_pointer, escape};
use super::program::{Check, Node, Program, ResourceInfo, TYPE_NAMES};
use super::regex::Regex;
use super::resources::Resources;
use super::uri;

/// Compiles `root`, whose dialect is `dialect` (bounds already checked).
pub(super) fn compile(root: &Value, dialect: Dialect) -> Result<Program, SchemaError> {
    let resources = Resources::index(root, dialect)?;
    let mut b = Builder {
        root,
        resources,
        nodes: Vec::new(),
        memo: HashMap::new(),
        pointers: Vec::new(),
        pending: Vec::new(),
        track_unevaluated: false,
        dynamic: false,
    };
    b.node_at("")?;
    // Every subschema is compiled, used or not: a malformed keyword or an external `$ref` in an
    // unused `$defs` entry is refused like one in use.
    for pointer in b.resources.positions() {
        b.node_at(&pointer)?;
    }
    let mut infos = Vec::with_capacity(b.resources.list.len());
    for r in 0..b.resources.list.len() {
        let mut info = ResourceInfo::default();
        let anchors: Vec<(String, String)> = b.resources.list[r]
            .dynamic_anchors
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (name, pointer) in anchors {
            info.dynamic_anchors.insert(name, b.node_at(&pointer)?);
        }
        if b.resources.list[r].recursive_anchor {
            let pointer = b.resources.list[r].pointer.clone();
            info.recursive_root = Some(b.node_at(&pointer)?);
        }
        infos.push(info);
    }
    while let Some((index, pointer)) = b.pending.pop() {
        b.nodes[index] = b.compile_node(&pointer)?;
    }
    Ok(Program {
        nodes: b.nodes,
        resources: infos,
        track_unevaluated: b.track_unevaluated,
        dynamic: b.dynamic,
    })
}

struct Builder<'a> {
    root: &'a Value,
    resources: Resources,
    nodes: Vec<Node>,
    /// Node of each compiled (or pending) pointer, and the pointer of each node.
    memo: HashMap<String, usize>,
    pointers: Vec<String>,
    pending: Vec<(usize, String)>,
    track_unevaluated: bool,
    dynamic: bool,
}

impl Builder<'_> {
    /// The node of the subschema at `pointer`, compiled later if new.
    fn node_at(&mut self, pointer: &str) -> Result<usize, SchemaError> {
        if let Some(&n) = self.memo.get(pointer) {
            return Ok(n);
        }
        let index = self.nodes.len();
        self.nodes.push(Node::Bool(true));
        self.pointers.push(pointer.to_owned());
        self.memo.insert(pointer.to_owned(), index);
        self.pending.push((index, pointer.to_owned()));
        Ok(index)
    }

    fn child(&mut self, at: &str, keyword: &str) -> Result<usize, SchemaError> {
        self.node_at(&format!("{at}/{}", escape(keyword)))
    }

    fn compile_node(&mut self, at: &str) -> Result<Node, SchemaError> {
        let value = self
            .root
            .pointer(at)
            .ok_or_else(|| invalid(at, "nothing is there".to_owned()))?;
        let map = match value {
            Value::Bool(b) => return Ok(Node::Bool(*b)),
            Value::Object(map) => map,
            other => {
                return Err(invalid(
                    at,
                    format!("a schema must be an object or a boolean, got {other}"),
                ));
            }
        };
        let resource = self.resources.owner_of(at);
        let dialect = self.resources.list[resource].dialect;
        let mut checks = Vec::new();
        if dialect.ref_hides_siblings() {
            if let Some(reference) = map.get("$ref") {
                let target = self.reference(resource, at, "$ref", reference)?;
                checks.push(Check::Ref(target));
                return Ok(Node::Checks { resource, checks });
            }
        }
        self.references(map, resource, dialect, at, &mut checks)?;
        self.assertions(map, dialect, at, &mut checks)?;
        self.arrays(map, dialect, at, &mut checks)?;
        self.objects(map, dialect, at, &mut checks)?;
        self.combinators(map, dialect, at, &mut checks)?;
        if dialect.rank() >= 19 {
            if map.contains_key("unevaluatedItems") {
                self.track_unevaluated = true;
                checks.push(Check::UnevaluatedItems(self.child(at, "unevaluatedItems")?));
            }
            if map.contains_key("unevaluatedProperties") {
                self.track_unevaluated = true;
                checks.push(Check::UnevaluatedProperties(
                    self.child(at, "unevaluatedProperties")?,
                ));
            }
        }
        Ok(Node::Checks { resource, checks })
    }

    fn references(
        &mut self,
        map: &Map<String, Value>,
        resource: usize,
        dialect: Dialect,
        at: &str,
        checks: &mut Vec<Check>,
    ) -> Result<(), SchemaError> {
        if let Some(reference) = map.get("$ref") {
            checks.push(Check::Ref(self.reference(resource, at, "$ref", reference)?));
        }
        if dialect == Dialect::Draft202012 {
            if let Some(reference) = map.get("$dynamicRef") {
                let target = self.reference(resource, at, "$dynamicRef", reference)?;
                let text = reference.as_str().unwrap_or_default();
                let fragment = uri::split_fragment(text).1;
                // Only a plain-name fragment that lands on a `$dynamicAnchor` of that name is
                // looked up in the dynamic scope (2020-12, 8.2.3.2); otherwise it is a `$ref`.
                let landed = self
                    .root
                    .pointer(self.pointer_of(target))
                    .and_then(|v| v.get("$dynamicAnchor").and_then(Value::as_str));
                let anchor = (!fragment.is_empty()
                    && !fragment.starts_with('/')
                    && landed == Some(fragment))
                .then(|| fragment.to_owned());
                checks.push(Check::DynamicRef { target, anchor });
                self.dynamic = true;
            }
        }
        if dialect == Dialect::Draft201909 {
            if let Some(reference) = map.get("$recursiveRef") {
                let target = self.reference(resource, at, "$recursiveRef", reference)?;
                checks.push(Check::RecursiveRef(target));
                self.dynamic = true;
            }
        }
        Ok(())
    }

    /// The pointer a node was made for.
    fn pointer_of(&self, node: usize) -> &str {
        &self.pointers[node]
    }

    /// Resolves a `$ref`-like keyword's value against the resource it is in.
    fn reference(
        &mut self,
        resource: usize,
        at: &str,
        keyword: &str,
        value: &Value,
    ) -> Result<usize, SchemaError> {
        let Some(reference) = value.as_str() else {
            return Err(invalid(
                at,
                format!("{keyword} must be a string, got {value}"),
            ));
        };
        let absolute = uri::resolve(&self.resources.list[resource].uri, reference);
        let (document, fragment) = uri::split_fragment(&absolute);
        let Some(target) = self.resources.by_uri(document) else {
            return Err(SchemaError::ExternalRef(absolute));
        };
        let fragment = uri::percent_decode(fragment);
        let base = &self.resources.list[target].pointer;
        let pointer = if fragment.is_empty() {
            base.clone()
        } else if fragment.starts_with('/') {
            format!("{base}{fragment}")
        } else {
            match self.resources.list[target].anchors.get(&fragment) {
                Some(p) => p.clone(),
                None => {
                    return Err(invalid(
                        at,
                        format!(
                            "unresolved {keyword} {reference:?}: no anchor {fragment:?} in {document}"
                        ),
                    ));
                }
            }
        };
        if self.root.pointer(&pointer).is_none() {
            return Err(invalid(
                at,
                format!(
                    "unresolved {keyword} {reference:?}: nothing at {}",
                    display_pointer(&pointer)
                ),
            ));
        }
        self.node_at(&pointer)
    }

    fn assertions(
        &mut self,
        map: &Map<String, Value>,
        dialect: Dialect,
        at: &str,
        checks: &mut Vec<Check>,
    ) -> Result<(), SchemaError> {
        if let Some(t) = map.get("type") {
            checks.push(type_check(t, at)?);
        }
        if let Some(e) = map.get("enum") {
            let Value::Array(options) = e else {
                return Err(invalid(at, format!("enum must be an array, got {e}")));
            };
            checks.push(Check::Enum(options.clone()));
        }
        if dialect.rank() >= 6 {
            if let Some(c) = map.get("const") {
                checks.push(Check::Const(c.clone()));
            }
        }
        let exclusive_flag = |key: &str| -> Result<bool, SchemaError> {
            match map.get(key) {
                None => Ok(false),
                Some(Value::Bool(b)) => Ok(*b),
                Some(other) => Err(invalid(at, format!("{key} must be a boolean, got {other}"))),
            }
        };
        if let Some(m) = map.get("minimum") {
            let n = number(m, "minimum", at)?;
            if dialect == Dialect::Draft4 && exclusive_flag("exclusiveMinimum")? {
                checks.push(Check::ExclusiveMinimum(n));
            } else {
                checks.push(Check::Minimum(n));
            }
        }
        if let Some(m) = map.get("maximum") {
            let n = number(m, "maximum", at)?;
            if dialect == Dialect::Draft4 && exclusive_flag("exclusiveMaximum")? {
                checks.push(Check::ExclusiveMaximum(n));
            } else {
                checks.push(Check::Maximum(n));
            }
        }
        if dialect != Dialect::Draft4 {
            if let Some(m) = map.get("exclusiveMinimum") {
                checks.push(Check::ExclusiveMinimum(number(m, "exclusiveMinimum", at)?));
            }
            if let Some(m) = map.get("exclusiveMaximum") {
                checks.push(Check::ExclusiveMaximum(number(m, "exclusiveMaximum", at)?));
            }
        }
        if let Some(m) = map.get("multipleOf") {
            let n = number(m, "multipleOf", at)?;
            if n.as_f64().is_none_or(|f| f <= 0.0) {
                return Err(invalid(
                    at,
                    format!("multipleOf must be greater than 0, got {n}"),
                ));
            }
            checks.push(Check::MultipleOf(n));
        }
        if let Some(v) = map.get("minLength") {
            checks.push(Check::MinLength(count(v, "minLength", at)?));
        }
        if let Some(v) = map.get("maxLength") {
            checks.push(Check::MaxLength(count(v, "maxLength", at)?));
        }
        if let Some(p) = map.get("pattern") {
            checks.push(Check::Pattern(
                regex(p, "pattern", at)?,
                p.as_str().unwrap_or_default().to_owned(),
            ));
        }
        if dialect.rank() <= 7 {
            if let Some(f) = map.get("format") {
                let Some(name) = f.as_str() else {
                    return Err(invalid(at, format!("format must be a string, got {f}")));
                };
                if let Some(format) = Format::from_name(name) {
                    checks.push(Check::Format(format));
                }
            }
        }
        Ok(())
    }

    fn arrays(
        &mut self,
        map: &Map<String, Value>,
        dialect: Dialect,
        at: &str,
        checks: &mut Vec<Check>,
    ) -> Result<(), SchemaError> {
        if let Some(v) = map.get("minItems") {
            checks.push(Check::MinItems(count(v, "minItems", at)?));
        }
        if let Some(v) = map.get("maxItems") {
            checks.push(Check::MaxItems(count(v, "maxItems", at)?));
        }
        match map.get("uniqueItems") {
            None | Some(Value::Bool(false)) => {}
            Some(Value::Bool(true)) => checks.push(Check::UniqueItems),
            Some(other) => {
                return Err(invalid(
                    at,
                    format!("uniqueItems must be a boolean, got {other}"),
                ));
            }
        }
        let items = if dialect == Dialect::Draft202012 {
            let prefix = match map.get("prefixItems") {
                Some(v) => self.schema_list(v, at, "prefixItems")?,
                None => Vec::new(),
            };
            let rest = map
                .get("items")
                .map(|_| self.child(at, "items"))
                .transpose()?;
            (prefix, rest, "prefixItems", "items")
        } else {
            match map.get("items") {
                Some(Value::Array(_)) => {
                    let prefix = self.schema_list(&map["items"], at, "items")?;
                    let rest = map
                        .get("additionalItems")
                        .map(|_| self.child(at, "additionalItems"))
                        .transpose()?;
                    (prefix, rest, "items", "additionalItems")
                }
                Some(_) => (Vec::new(), Some(self.child(at, "items")?), "items", "items"),
                None => (Vec::new(), None, "items", "items"),
            }
        };
        if !items.0.is_empty() || items.1.is_some() {
            checks.push(Check::Items {
                prefix: items.0,
                rest: items.1,
                prefix_keyword: items.2,
                rest_keyword: items.3,
            });
        }
        if dialect.rank() >= 6 && map.contains_key("contains") {
            let node = self.child(at, "contains")?;
            let (mut min, mut max) = (1, None);
            if dialect.rank() >= 19 {
                if let Some(v) = map.get("minContains") {
                    min = count(v, "minContains", at)?;
                }
                if let Some(v) = map.get("maxContains") {
                    max = Some(count(v, "maxContains", at)?);
                }
            }
            checks.push(Check::Contains {
                node,
                min,
                max,
                annotates: dialect == Dialect::Draft202012,
            });
        }
        Ok(())
    }

    fn objects(
        &mut self,
        map: &Map<String, Value>,
        dialect: Dialect,
        at: &str,
        checks: &mut Vec<Check>,
    ) -> Result<(), SchemaError> {
        if let Some(v) = map.get("minProperties") {
            checks.push(Check::MinProperties(count(v, "minProperties", at)?));
        }
        if let Some(v) = map.get("maxProperties") {
            checks.push(Check::MaxProperties(count(v, "maxProperties", at)?));
        }
        if let Some(v) = map.get("required") {
            checks.push(Check::Required(strings(v, "required", at)?));
        }
        let mut named = Vec::new();
        if let Some(v) = map.get("properties") {
            let Value::Object(props) = v else {
                return Err(invalid(
                    at,
                    format!("properties must be an object, got {v}"),
                ));
            };
            let base = format!("{at}/properties");
            for name in props.keys() {
                named.push((name.clone(), self.child(&base, name)?));
            }
        }
        let mut patterns = Vec::new();
        if let Some(v) = map.get("patternProperties") {
            let Value::Object(props) = v else {
                return Err(invalid(
                    at,
                    format!("patternProperties must be an object, got {v}"),
                ));
            };
            let base = format!("{at}/patternProperties");
            for name in props.keys() {
                let re = regex(&Value::String(name.clone()), "patternProperties", at)?;
                patterns.push((re, name.clone(), self.child(&base, name)?));
            }
        }
        let additional = map
            .get("additionalProperties")
            .map(|_| self.child(at, "additionalProperties"))
            .transpose()?;
        if !named.is_empty() || !patterns.is_empty() || additional.is_some() {
            checks.push(Check::Properties {
                named,
                patterns,
                additional,
            });
        }
        if dialect.rank() >= 6 && map.contains_key("propertyNames") {
            checks.push(Check::PropertyNames(self.child(at, "propertyNames")?));
        }
        let mut dependencies = |keyword: &'static str, both: bool, only: Option<bool>| {
            let Some(v) = map.get(keyword) else {
                return Ok::<_, SchemaError>(());
            };
            let Value::Object(deps) = v else {
                return Err(invalid(at, format!("{keyword} must be an object, got {v}")));
            };
            let mut required = Vec::new();
            let mut schemas = Vec::new();
            let base = format!("{at}/{keyword}");
            for (name, dep) in deps {
                let as_list = dep.is_array() && (both || only == Some(true));
                if as_list {
                    required.push((name.clone(), strings(dep, keyword, at)?));
                } else if both || only == Some(false) {
                    schemas.push((name.clone(), self.child(&base, name)?));
                }
            }
            if !required.is_empty() {
                checks.push(Check::DependentRequired(required, keyword));
            }
            if !schemas.is_empty() {
                checks.push(Check::DependentSchemas(schemas, keyword));
            }
            Ok(())
        };
        if dialect.rank() <= 7 {
            dependencies("dependencies", true, None)?;
        } else {
            dependencies("dependentRequired", false, Some(true))?;
            dependencies("dependentSchemas", false, Some(false))?;
        }
        Ok(())
    }

    fn combinators(
        &mut self,
        map: &Map<String, Value>,
        dialect: Dialect,
        at: &str,
        checks: &mut Vec<Check>,
    ) -> Result<(), SchemaError> {
        for (keyword, make) in [
            ("allOf", Check::AllOf as fn(Vec<usize>) -> Check),
            ("anyOf", Check::AnyOf),
            ("oneOf", Check::OneOf),
        ] {
            if let Some(v) = map.get(keyword) {
                let list = self.schema_list(v, at, keyword)?;
                if list.is_empty() {
                    return Err(invalid(at, format!("{keyword} must not be empty")));
                }
                checks.push(make(list));
            }
        }
        if let Some(not) = map.get("not") {
            checks.push(Check::Not(self.child(at, "not")?, not.clone()));
        }
        if dialect.rank() >= 7 && map.contains_key("if") {
            let cond = self.child(at, "if")?;
            let then = map
                .get("then")
                .map(|_| self.child(at, "then"))
                .transpose()?;
            let otherwise = map
                .get("else")
                .map(|_| self.child(at, "else"))
                .transpose()?;
            checks.push(Check::If {
                cond,
                then,
                otherwise,
            });
        }
        Ok(())
    }

    /// An array of subschemas (`allOf`, `prefixItems`, ...).
    fn schema_list(
        &mut self,
        v: &Value,
        at: &str,
        keyword: &str,
    ) -> Result<Vec<usize>, SchemaError> {
        let Value::Array(items) = v else {
            return Err(invalid(
                at,
                format!("{keyword} must be an array of schemas, got {v}"),
            ));
        };
        let base = format!("{at}/{}", escape(keyword));
        (0..items.len())
            .map(|i| self.node_at(&format!("{base}/{i}")))
            .collect()
    }
}

fn invalid(at: &str, what: String) -> SchemaError {
    if at.is_empty() {
        SchemaError::Invalid(what)
    } else {
        SchemaError::Invalid(format!("at {at}: {what}"))
    }
}

fn type_check(t: &Value, at: &str) -> Result<Check, SchemaError> {
    let names: Vec<&Value> = match t {
        Value::Array(list) => list.iter().collect(),
        one => vec![one],
    };
    let mut mask = 0u8;
    let mut written = Vec::with_capacity(names.len());
    for name in names {
        let bit = name
            .as_str()
            .and_then(|n| TYPE_NAMES.iter().position(|t| *t == n))
            .ok_or_else(|| {
                invalid(
                    at,
                    format!(
                        "type must be one of {} or an array of them, got {name}",
                        TYPE_NAMES.join(", ")
                    ),
                )
            })?;
        mask |= 1 << bit;
        written.push(TYPE_NAMES[bit]);
    }
    Ok(Check::Type(mask, written))
}

fn number(v: &Value, keyword: &str, at: &str) -> Result<Number, SchemaError> {
    match v {
        Value::Number(n) => Ok(n.clone()),
        other => Err(invalid(
            at,
            format!("{keyword} must be a number, got {other}"),
        )),
    }
}

/// A non-negative integer (`2.0` counts as `2`).
fn count(v: &Value, keyword: &str, at: &str) -> Result<u64, SchemaError> {
    if let Some(n) = v.as_u64() {
        return Ok(n);
    }
    match v {
        Value::Number(n) if is_integer(n) && n.as_f64().is_some_and(|f| f >= 0.0) => {
            Ok(n.as_f64().unwrap_or_default() as u64)
        }
        other => Err(invalid(
            at,
            format!("{keyword} must be a non-negative integer, got {other}"),
        )),
    }
}

fn strings(v: &Value, keyword: &str, at: &str) -> Result<Vec<String>, SchemaError> {
    let bad = || {
        invalid(
            at,
            format!("{keyword} must be an array of strings, got {v}"),
        )
    };
    let Value::Array(items) = v else {
        return Err(bad());
    };
    items
        .iter()
        .map(|i| i.as_str().map(str::to_owned).ok_or_else(bad))
        .collect()
}

fn regex(v: &Value, keyword: &str, at: &str) -> Result<Regex, SchemaError> {
    let Some(pattern) = v.as_str() else {
        return Err(invalid(at, format!("{keyword} must be a string, got {v}")));
    };
    Regex::new(pattern).map_err(|e| {
        invalid(
            at,
            format!("{keyword} {pattern:?} is not a valid regular expression: {e}"),
        )
    })
}
