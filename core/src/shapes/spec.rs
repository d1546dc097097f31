//! The official schema of each revision, embedded from `tests/spec/<revision>/schema.json`
//! (each definition as compact JSON text without its `description` annotations, and the method
//! tables of its `Client*`/`Server*` unions: `core/build.rs`), each definition parsed the first time
//! a walk needs it.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use parking_lot::RwLock;
use serde_json::Value;

use super::union::Leaf;

/// The members of one union node (`anyOf`/`oneOf`), flattened through nested unions and `$ref`s.
pub(crate) type Leaves = Vec<Leaf>;

/// What `core/build.rs` writes for one revision; every table is sorted by its first column.
struct Tables {
    /// The schema's `$schema` (its JSON Schema dialect).
    dialect: &'static str,
    /// Where its definitions are: `definitions` or `$defs`.
    defs_key: &'static str,
    /// Definition name → its schema as JSON text.
    defs: &'static [(&'static str, &'static str)],
    /// Client request method → its request definition.
    client_requests: &'static [(&'static str, &'static str)],
    /// Client request method → the definition of its result (`<X>Result`, or `EmptyResult`).
    results: &'static [(&'static str, &'static str)],
    /// Server request method → its request definition.
    requests: &'static [(&'static str, &'static str)],
    /// Server notification method → its notification definition.
    notifications: &'static [(&'static str, &'static str)],
}

/// One revision's schema: its definitions, parsed on first use, and what each method's messages
/// are. The caches are `BTreeMap`s and `OnceLock`s: this lives in a process-wide static, and a hash
/// table there is reachable only through a pointer into its allocation, which valgrind reports as
/// "possibly lost" in every C host.
pub(crate) struct Spec {
    /// The revision, e.g. `"2025-06-18"`.
    pub(crate) revision: &'static str,
    tables: &'static Tables,
    /// The parsed definitions, in the order of `tables.defs`.
    parsed: Box<[OnceLock<Value>]>,
    /// The [`Leaves`] of each union node flattened so far, keyed by the node's address (the walk of
    /// a legacy message flattens the same few unions for every value). Each is allocated once and
    /// kept for the life of the process, as the definitions are; there are a few dozen union nodes
    /// in a revision.
    unions: RwLock<BTreeMap<usize, &'static Leaves>>,
}

/// The revisions whose schema is embedded, oldest first (2026-07-28 for `check` only: the walk
/// leaves modern messages alone). `core/spec/` links to the
/// repository's `tests/spec/` files, so that `cargo package` puts them in the crate.
const SCHEMAS: [(&str, Tables); 5] = [
    (
        "2024-11-05",
        include!(concat!(env!("OUT_DIR"), "/schema-2024-11-05.rs")),
    ),
    (
        "2025-03-26",
        include!(concat!(env!("OUT_DIR"), "/schema-2025-03-26.rs")),
    ),
    (
        "2025-06-18",
        include!(concat!(env!("OUT_DIR"), "/schema-2025-06-18.rs")),
    ),
    (
        "2025-11-25",
        include!(concat!(env!("OUT_DIR"), "/schema-2025-11-25.rs")),
    ),
    (
        "2026-07-28",
        include!(concat!(env!("OUT_DIR"), "/schema-2026-07-28.rs")),
    ),
];

/// The schema of `revision`; `None` for a revision without an embedded schema.
pub(crate) fn spec(revision: &str) -> Option<&'static Spec> {
    static CACHE: [OnceLock<Spec>; 5] = [const { OnceLock::new() }; 5];
    let i = SCHEMAS.iter().position(|(r, _)| *r == revision)?;
    Some(CACHE[i].get_or_init(|| {
        let (revision, tables) = &SCHEMAS[i];
        Spec {
            revision,
            tables,
            parsed: tables.defs.iter().map(|_| OnceLock::new()).collect(),
            unions: RwLock::new(BTreeMap::new()),
        }
    }))
}

/// The JSON text of the named definition as embedded.
#[cfg(test)]
pub(crate) fn def_text(spec: &Spec, name: &str) -> &'static str {
    lookup(spec.tables.defs, name).expect("a listed definition")
}

/// The second column of the row whose first is `key`, in a table sorted by its first column.
fn lookup(table: &'static [(&'static str, &'static str)], key: &str) -> Option<&'static str> {
    let i = table.binary_search_by(|(k, _)| (*k).cmp(key)).ok()?;
    Some(table[i].1)
}

impl Spec {
    /// The flattened members of the union `node` of this schema (`None` if `node` is not a union
    /// node).
    pub(crate) fn union_leaves(&'static self, node: &'static Value) -> Option<&'static Leaves> {
        if node.get("anyOf").is_none() && node.get("oneOf").is_none() {
            return None;
        }
        if let Some(leaves) = self.unions.read().get(&address(node)) {
            return Some(*leaves);
        }
        let mut leaves = Vec::new();
        self.flatten(node, None, &mut leaves, 0);
        // Two threads may have flattened the same node: the first one's leaves are kept.
        let mut unions = self.unions.write();
        let kept = unions
            .entry(address(node))
            .or_insert_with(|| Box::leak(Box::new(leaves)));
        Some(*kept)
    }

    /// The non-union members of a union, flattened, with the definition name each came from.
    pub(crate) fn flatten(
        &'static self,
        node: &'static Value,
        name: Option<&'static str>,
        out: &mut Leaves,
        depth: usize,
    ) {
        if depth > 8 {
            return;
        }
        if let Some(r) = node.get("$ref").and_then(Value::as_str) {
            let target = self.def(def_name(r)).unwrap_or(&Value::Null);
            return self.flatten(target, Some(def_name(r)), out, depth + 1);
        }
        match node
            .get("anyOf")
            .or_else(|| node.get("oneOf"))
            .and_then(Value::as_array)
        {
            Some(members) => {
                for m in members {
                    self.flatten(m, None, out, depth + 1);
                }
            }
            None => out.push(Leaf::new(name, node)),
        }
    }

    /// The names of every definition, sorted.
    #[cfg(test)]
    pub(crate) fn def_names(&self) -> impl Iterator<Item = &'static str> {
        self.tables.defs.iter().map(|(name, _)| *name)
    }

    /// Every row of the method tables, as (table, method, definition).
    #[cfg(test)]
    pub(crate) fn method_rows(&self) -> Vec<(&'static str, &'static str, &'static str)> {
        let t = self.tables;
        [
            ("results", t.results),
            ("requests", t.requests),
            ("notifications", t.notifications),
        ]
        .into_iter()
        .flat_map(|(table, rows)| rows.iter().map(move |(m, d)| (table, *m, *d)))
        .collect()
    }

    /// The schema's JSON Schema dialect (its `$schema`).
    pub(crate) fn dialect(&self) -> &'static str {
        self.tables.dialect
    }

    /// The key the schema's definitions are under (`definitions` or `$defs`).
    pub(crate) fn defs_key(&self) -> &'static str {
        self.tables.defs_key
    }

    /// The named definition, parsed on first use.
    pub(crate) fn def(&'static self, name: &str) -> Option<&'static Value> {
        let i = self
            .tables
            .defs
            .binary_search_by(|(k, _)| (*k).cmp(name))
            .ok()?;
        // The embedded texts are the vendored official schemas, written by core/build.rs; a unit
        // test parses every one.
        Some(
            self.parsed[i]
                .get_or_init(|| serde_json::from_str(self.tables.defs[i].1).unwrap_or_default()),
        )
    }

    /// Follows `$ref`s to the schema node they name.
    pub(crate) fn resolve(&'static self, mut node: &'static Value) -> &'static Value {
        // Bounded: a schema whose references loop would otherwise hang the engine.
        for _ in 0..16 {
            match node.get("$ref").and_then(Value::as_str) {
                Some(r) => match self.def(def_name(r)) {
                    Some(target) => node = target,
                    None => return node,
                },
                None => return node,
            }
        }
        node
    }

    /// The name of the definition of the client request `method`; `None` if the revision lacks it.
    pub(crate) fn client_request_def(&self, method: &str) -> Option<&'static str> {
        lookup(self.tables.client_requests, method)
    }

    /// The name of the definition of the result answering the client request `method`.
    pub(crate) fn result_def(&self, method: &str) -> Option<&'static str> {
        lookup(self.tables.results, method)
    }

    /// The schema of the result answering the client request `method`.
    pub(crate) fn result_schema(&'static self, method: &str) -> Option<&'static Value> {
        self.def(lookup(self.tables.results, method)?)
    }

    /// The schema of the params of the server request `method`; `None` if the revision lacks it.
    pub(crate) fn request_params(&'static self, method: &str) -> Option<&'static Value> {
        let def = self.def(lookup(self.tables.requests, method)?)?;
        Some(def.pointer("/properties/params").unwrap_or(&Value::Null))
    }

    /// The schema of the params of the server notification `method`; `None` if the revision lacks it.
    pub(crate) fn notification_params(&'static self, method: &str) -> Option<&'static Value> {
        let def = self.notification(method)?;
        Some(def.pointer("/properties/params").unwrap_or(&Value::Null))
    }

    /// The definition of the server notification `method`; `None` if the revision lacks it.
    pub(crate) fn notification(&'static self, method: &str) -> Option<&'static Value> {
        self.def(lookup(self.tables.notifications, method)?)
    }
}

/// A schema node's identity: its address, stable because a [`Spec`] lives in a static and a parsed
/// definition is never changed.
fn address(node: &Value) -> usize {
    std::ptr::from_ref(node) as usize
}

/// The definition name a `$ref` points at (`#/definitions/Tool` → `Tool`).
pub(crate) fn def_name(reference: &str) -> &str {
    reference.rsplit('/').next().unwrap_or(reference)
}
