//! The schema resources of one document: where each `$id` (draft-04: `id`) starts a resource, the
//! absolute URI it is known by, and the anchors it defines (`$anchor`, `$dynamicAnchor`, a
//! fragment-only `$id` before 2019-09), so that `$ref` resolves without fetching anything.
//!
//! Only subschema positions are visited ([`subschema_slot`]): an `$id` inside `enum`, `const` or an
//! unknown keyword is data, not an identifier.

use std::collections::HashMap;

use serde_json::Value;

use super::dialect::Dialect;
use super::error::SchemaError;
use super::keywords::{Slot, subschema_slot};
use super::pointer::{display_pointer, escape};
use super::uri;

/// The base URI of a document whose root has no absolute `$id`.
pub(super) const DEFAULT_BASE: &str = "json-schema:///";

/// One schema resource.
pub(super) struct Resource {
    /// Its absolute URI, without fragment.
    pub(super) uri: String,
    /// JSON Pointer of its root in the document.
    pub(super) pointer: String,
    /// The dialect its keywords are read under.
    pub(super) dialect: Dialect,
    /// Plain-name anchors (`$anchor`, `$dynamicAnchor`, `$id: "#name"`) to the pointer they name.
    pub(super) anchors: HashMap<String, String>,
    /// `$dynamicAnchor` names (2020-12) to the pointer they name.
    pub(super) dynamic_anchors: HashMap<String, String>,
    /// `$recursiveAnchor: true` at its root (2019-09).
    pub(super) recursive_anchor: bool,
}

/// Every resource of a document, and the resource each subschema position belongs to.
pub(super) struct Resources {
    pub(super) list: Vec<Resource>,
    by_uri: HashMap<String, usize>,
    /// Subschema pointer to the resource it is in.
    owner: HashMap<String, usize>,
}

impl Resources {
    /// Indexes `root`, whose dialect is `dialect`.
    pub(super) fn index(root: &Value, dialect: Dialect) -> Result<Resources, SchemaError> {
        let mut me = Resources {
            list: Vec::new(),
            by_uri: HashMap::new(),
            owner: HashMap::new(),
        };
        let mut stack: Vec<(&Value, String, Option<usize>, Dialect)> =
            vec![(root, String::new(), None, dialect)];
        while let Some((node, pointer, parent, mut dialect)) = stack.pop() {
            let Some(map) = node.as_object() else {
                if let Some(r) = parent {
                    me.owner.insert(pointer, r);
                } else {
                    me.add_resource(DEFAULT_BASE.to_owned(), pointer, dialect, None)?;
                }
                continue;
            };
            // An embedded `$schema` this engine does not implement is refused
            // (`UnsupportedDialect`), never read under the parent's dialect.
            if let Some(uri) = map.get("$schema").and_then(Value::as_str) {
                dialect = Dialect::from_uri(uri)?;
            }
            let base = parent
                .map_or(DEFAULT_BASE, |r| me.list[r].uri.as_str())
                .to_owned();
            let id_keyword = if dialect == Dialect::Draft4 {
                "id"
            } else {
                "$id"
            };
            // Before 2019-09 every keyword beside `$ref` is ignored, `$id` included.
            let ref_hides_siblings = dialect.ref_hides_siblings() && map.contains_key("$ref");
            let id = map
                .get(id_keyword)
                .and_then(Value::as_str)
                .filter(|_| !ref_hides_siblings);
            let mut here = parent;
            let mut anchor_from_id = None;
            match id {
                Some(id) if id.starts_with('#') && dialect.ref_hides_siblings() => {
                    anchor_from_id = Some(id[1..].to_owned());
                }
                Some(id) => {
                    let absolute = uri::resolve(&base, id);
                    let (resource_uri, fragment) = uri::split_fragment(&absolute);
                    if !fragment.is_empty() && !dialect.ref_hides_siblings() {
                        return Err(SchemaError::Invalid(format!(
                            "at {}: $id {id:?} must not have a fragment",
                            display_pointer(&pointer)
                        )));
                    }
                    if !fragment.is_empty() {
                        anchor_from_id = Some(fragment.to_owned());
                    }
                    here = Some(me.add_resource(
                        resource_uri.to_owned(),
                        pointer.clone(),
                        dialect,
                        Some(map),
                    )?);
                }
                None => {}
            }
            let r = match here {
                Some(r) => r,
                None => {
                    me.add_resource(DEFAULT_BASE.to_owned(), pointer.clone(), dialect, Some(map))?
                }
            };
            if let Some(name) = anchor_from_id {
                me.list[r].anchors.insert(name, pointer.clone());
            }
            if dialect.has_anchor_keyword() {
                if let Some(name) = map.get("$anchor").and_then(Value::as_str) {
                    me.list[r].anchors.insert(name.to_owned(), pointer.clone());
                }
            }
            if dialect == Dialect::Draft202012 {
                if let Some(name) = map.get("$dynamicAnchor").and_then(Value::as_str) {
                    me.list[r].anchors.insert(name.to_owned(), pointer.clone());
                    me.list[r]
                        .dynamic_anchors
                        .insert(name.to_owned(), pointer.clone());
                }
            }
            me.owner.insert(pointer.clone(), r);
            for (keyword, sub) in map {
                let at = format!("{pointer}/{}", escape(keyword));
                match subschema_slot(keyword) {
                    Some(Slot::Direct) => match sub {
                        Value::Array(items) => {
                            for (i, item) in items.iter().enumerate() {
                                stack.push((item, format!("{at}/{i}"), Some(r), dialect));
                            }
                        }
                        other => stack.push((other, at, Some(r), dialect)),
                    },
                    Some(Slot::Named) => {
                        for (name, item) in sub.as_object().into_iter().flatten() {
                            if item.is_object() || item.is_boolean() {
                                let p = format!("{at}/{}", escape(name));
                                stack.push((item, p, Some(r), dialect));
                            }
                        }
                    }
                    None => {}
                }
            }
        }
        Ok(me)
    }

    /// Adds a resource, or (the document root without `$id`) the default one.
    fn add_resource(
        &mut self,
        uri: String,
        pointer: String,
        dialect: Dialect,
        map: Option<&serde_json::Map<String, Value>>,
    ) -> Result<usize, SchemaError> {
        if let Some(&existing) = self.by_uri.get(&uri) {
            if self.list[existing].pointer != pointer {
                return Err(SchemaError::Invalid(format!(
                    "$id {uri:?} identifies two different schemas ({} and {})",
                    display_pointer(&self.list[existing].pointer),
                    display_pointer(&pointer)
                )));
            }
            return Ok(existing);
        }
        let recursive_anchor = dialect == Dialect::Draft201909
            && map
                .and_then(|m| m.get("$recursiveAnchor"))
                .and_then(Value::as_bool)
                == Some(true);
        self.list.push(Resource {
            uri: uri.clone(),
            pointer,
            dialect,
            anchors: HashMap::new(),
            dynamic_anchors: HashMap::new(),
            recursive_anchor,
        });
        self.by_uri.insert(uri, self.list.len() - 1);
        Ok(self.list.len() - 1)
    }

    /// Every subschema position of the document, in pointer order.
    pub(super) fn positions(&self) -> Vec<String> {
        let mut all: Vec<String> = self.owner.keys().cloned().collect();
        all.sort_unstable();
        all
    }

    /// The resource whose URI (without fragment) is `uri`.
    pub(super) fn by_uri(&self, uri: &str) -> Option<usize> {
        self.by_uri.get(uri).copied()
    }

    /// The resource a subschema at `pointer` is in: the one recorded for it, else that of its
    /// nearest recorded ancestor (a `$ref` may point anywhere in the document).
    pub(super) fn owner_of(&self, pointer: &str) -> usize {
        let mut p = pointer;
        loop {
            if let Some(&r) = self.owner.get(p) {
                return r;
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return 0,
            }
        }
    }
}
