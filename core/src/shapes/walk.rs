//! The walk that fits one JSON value to a schema node of one revision: properties the node does not
//! define are dropped, union members are picked by their `type` tag and required properties, content
//! blocks of a kind the position does not allow become a text note, and what has no form at all is
//! refused with the path to it.

use serde_json::{Map, Value, json};

use super::spec::{Leaves, Spec};

/// Properties whose value is a JSON Schema document, not an MCP object: JSON Schema defines their
/// keywords (the 2026-07-28 schema says so with `additionalProperties: {}` on `Tool.inputSchema`), so
/// they pass unchanged in every revision.
const JSON_SCHEMA_DOCUMENTS: [&str; 2] = ["inputSchema", "outputSchema"];

/// Why a value cannot be expressed in a revision, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// Property names from the message's root to the offending value, innermost first.
    path: Vec<String>,
    /// What is wrong there.
    pub(crate) reason: String,
}

impl Refusal {
    pub(crate) fn new(reason: impl Into<String>) -> Refusal {
        Refusal {
            path: Vec::new(),
            reason: reason.into(),
        }
    }

    /// The same refusal one level further out, under property (or index) `key`.
    pub(crate) fn at(mut self, key: impl Into<String>) -> Refusal {
        self.path.push(key.into());
        self
    }

    /// The dotted path to the offending value (`""` for the root).
    pub(crate) fn path(&self) -> String {
        let mut parts: Vec<&str> = self.path.iter().map(String::as_str).collect();
        parts.reverse();
        parts.join(".")
    }
}

/// Fits values to the schema of one revision.
pub(crate) struct Walker {
    pub(crate) spec: &'static Spec,
}

impl Walker {
    /// Fits `value` to `node` in place.
    pub(crate) fn fit(&self, node: &'static Value, value: &mut Value) -> Result<(), Refusal> {
        // A scalar is never changed (a union of scalars has nothing to pick), so most of a message's
        // values need no schema lookup at all.
        if !matches!(value, Value::Object(_) | Value::Array(_)) {
            return Ok(());
        }
        let node = self.spec.resolve(node);
        if node.get("anyOf").is_some() || node.get("oneOf").is_some() {
            return self.fit_union(node, value);
        }
        match value {
            Value::Object(map) => self.fit_object(node, map),
            Value::Array(items) => match node.get("items") {
                Some(each) => items.iter_mut().enumerate().try_for_each(|(i, item)| {
                    self.fit(each, item).map_err(|e| e.at(i.to_string()))
                }),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }

    fn fit_object(
        &self,
        node: &'static Value,
        map: &mut Map<String, Value>,
    ) -> Result<(), Refusal> {
        let extra = node.get("additionalProperties");
        // `additionalProperties` holding a schema: every property is an instance of it.
        let each = extra.filter(|e| e.as_object().is_some_and(|o| !o.is_empty()));
        let Some(props) = node.get("properties").and_then(Value::as_object) else {
            if let Some(each) = each {
                for (k, v) in map.iter_mut().filter(|(k, _)| *k != "_meta") {
                    self.fit(each, v).map_err(|e| e.at(k.as_str()))?;
                }
            }
            // An object schema that declares no properties is open (capability objects, `metadata`).
            return Ok(());
        };
        let open = match extra {
            Some(Value::Bool(b)) => *b,
            Some(Value::Object(o)) => o.is_empty(),
            _ => false,
        };
        let mut dropped: Vec<String> = Vec::new();
        for (k, v) in map.iter_mut() {
            if k == "_meta" {
                continue;
            }
            match (props.get(k), each) {
                (Some(_), _) if JSON_SCHEMA_DOCUMENTS.contains(&k.as_str()) => {}
                (Some(p), _) | (None, Some(p)) => self.fit(p, v).map_err(|e| e.at(k.as_str()))?,
                (None, None) if open => {}
                (None, None) => dropped.push(k.clone()),
            }
        }
        if dropped.is_empty() {
            return Ok(());
        }
        map.retain(|k, _| !dropped.contains(k));
        // Dropping is a downgrade only while the object keeps what the revision requires of it.
        let required = node.get("required").and_then(Value::as_array);
        match required
            .into_iter()
            .flatten()
            .find_map(|r| r.as_str().filter(|r| !map.contains_key(*r)))
        {
            Some(missing) => Err(Refusal::new(format!(
                "without {} (which this revision does not define) it lacks the required {missing:?}",
                dropped.join(", ")
            ))),
            None => Ok(()),
        }
    }

    fn fit_union(&self, node: &'static Value, value: &mut Value) -> Result<(), Refusal> {
        let computed: Leaves;
        let leaves = match self.spec.union_leaves(node) {
            Some(l) => l,
            None => {
                let mut l = Vec::new();
                self.spec.flatten(node, None, &mut l, 0);
                computed = l;
                &computed
            }
        };
        let candidates: Vec<&'static Value> = match value {
            Value::Array(_) => leaves
                .iter()
                .filter(|l| l.is_array())
                .map(|l| l.schema)
                .take(1)
                .collect(),
            Value::Object(map) => {
                let mut scored: Vec<(usize, &'static Value)> = leaves
                    .iter()
                    .filter_map(|l| l.fits(map).map(|score| (score, l.schema)))
                    .collect();
                // The most specific member first: most required properties, schema order on a tie.
                scored.sort_by_key(|s| std::cmp::Reverse(s.0));
                scored.into_iter().map(|(_, l)| l).collect()
            }
            _ => return Ok(()),
        };
        match candidates.as_slice() {
            [] => {}
            [only] => return self.fit(only, value),
            // Members that differ only deeper down (titled and untitled multi-select) or only in
            // optional properties (a legacy titled enum's `enumNames` beside the untitled enum): the
            // first member the value fits unchanged, else the first it fits all the way down.
            [first, ..] => {
                let mut fitted = None;
                for leaf in &candidates {
                    let mut trial = value.clone();
                    if self.fit(leaf, &mut trial).is_ok() {
                        if trial == *value {
                            return Ok(());
                        }
                        fitted.get_or_insert(trial);
                    }
                }
                return match fitted {
                    Some(trial) => {
                        *value = trial;
                        Ok(())
                    }
                    None => self.fit(first, value),
                };
            }
        }
        let Value::Object(map) = value else {
            return Ok(());
        };
        let text = leaves.iter().find(|l| l.name == Some("TextContent"));
        match (text, map.get("type").and_then(Value::as_str)) {
            (Some(text), Some(kind)) => {
                let note = content_note(self.spec.revision, kind, map);
                *value = note;
                self.fit(text.schema, value)
            }
            (_, kind) => Err(Refusal::new(format!(
                "{} matches none of the forms this revision defines here ({})",
                kind.map_or_else(|| "the value".to_owned(), |k| format!("type {k:?}")),
                leaves
                    .iter()
                    .map(|l| l.name.unwrap_or("inline schema"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
}

/// The text block that stands in for a content block of a kind `revision` does not have where it
/// appears: it names the kind and, where the block has them, its URI and media type, and keeps the
/// block's `annotations` and `_meta`.
fn content_note(revision: &str, kind: &str, block: &Map<String, Value>) -> Value {
    let mut text = format!("[{kind} content omitted: protocol revision {revision} cannot carry it");
    for key in ["name", "uri", "mimeType"] {
        if let Some(v) = block.get(key).and_then(Value::as_str) {
            text.push_str(&format!("; {key} {v}"));
        }
    }
    text.push(']');
    let mut note = json!({"type": "text", "text": text});
    for key in ["annotations", "_meta"] {
        if let Some(v) = block.get(key) {
            note[key] = v.clone();
        }
    }
    note
}
