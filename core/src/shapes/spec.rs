//! The official schema of each legacy revision, embedded from `tests/spec/<revision>/schema.json`
//! (compact and without its `description` annotations: `core/build.rs`) and read on first use, with
//! the method tables derived from its `Client*`/`Server*` unions.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::union::Leaf;

/// The members of one union node (`anyOf`/`oneOf`), flattened through nested unions and `$ref`s.
pub(crate) type Leaves = Vec<Leaf>;

/// One revision's schema: its definitions and what each method's messages are. The tables are
/// `BTreeMap`s: this lives in a process-wide static, and a hash table there is reachable only through
/// a pointer into its allocation, which valgrind reports as "possibly lost" in every C host.
pub(crate) struct Spec {
    /// The revision, e.g. `"2025-06-18"`.
    pub(crate) revision: &'static str,
    defs: Map<String, Value>,
    /// Client request method → the definition of its result (`<X>Result`, or `EmptyResult`).
    results: BTreeMap<String, String>,
    /// Server request method → its request definition.
    requests: BTreeMap<String, String>,
    /// Server notification method → its notification definition.
    notifications: BTreeMap<String, String>,
    /// The [`Leaves`] of every union node in `defs`, keyed by the node's address, computed once on
    /// first use (the walk of a legacy message flattens the same few unions for every value).
    unions: OnceLock<BTreeMap<usize, Leaves>>,
}

/// The legacy revisions whose schema is embedded, oldest first, with the schema text (as
/// `core/build.rs` writes it). `core/spec/` links to the repository's `tests/spec/` files, so that
/// `cargo package` puts them in the crate.
const SCHEMAS: [(&str, &str); 4] = [
    (
        "2024-11-05",
        include_str!(concat!(env!("OUT_DIR"), "/schema-2024-11-05.json")),
    ),
    (
        "2025-03-26",
        include_str!(concat!(env!("OUT_DIR"), "/schema-2025-03-26.json")),
    ),
    (
        "2025-06-18",
        include_str!(concat!(env!("OUT_DIR"), "/schema-2025-06-18.json")),
    ),
    (
        "2025-11-25",
        include_str!(concat!(env!("OUT_DIR"), "/schema-2025-11-25.json")),
    ),
];

/// The schema of `revision`, parsed on first use; `None` for a revision without an embedded schema.
pub(crate) fn spec(revision: &str) -> Option<&'static Spec> {
    static CACHE: [OnceLock<Spec>; 4] = [const { OnceLock::new() }; 4];
    let i = SCHEMAS.iter().position(|(r, _)| *r == revision)?;
    Some(CACHE[i].get_or_init(|| Spec::parse(SCHEMAS[i].0, SCHEMAS[i].1)))
}

impl Spec {
    fn parse(revision: &'static str, text: &str) -> Spec {
        // The embedded files are the vendored official schemas; the unit tests parse every one.
        let mut document: Value = serde_json::from_str(text).unwrap_or_default();
        let defs = match document
            .as_object_mut()
            .and_then(|d| d.remove("definitions").or_else(|| d.remove("$defs")))
        {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        };
        let mut spec = Spec {
            revision,
            defs,
            results: BTreeMap::new(),
            requests: BTreeMap::new(),
            notifications: BTreeMap::new(),
            unions: OnceLock::new(),
        };
        spec.results = spec
            .methods("ClientRequest")
            .map(|(method, request)| {
                let own = format!("{}Result", request.trim_end_matches("Request"));
                match spec.defs.contains_key(&own) {
                    true => (method, own),
                    false => (method, "EmptyResult".to_owned()),
                }
            })
            .collect();
        spec.requests = spec.methods("ServerRequest").collect();
        spec.notifications = spec.methods("ServerNotification").collect();
        spec
    }

    /// (method, definition) of each member of a `Client*`/`Server*` union.
    fn methods(&self, union: &str) -> impl Iterator<Item = (String, String)> + '_ {
        let members = self
            .defs
            .get(union)
            .and_then(|u| u.get("anyOf"))
            .and_then(Value::as_array);
        members.into_iter().flatten().filter_map(|m| {
            let name = def_name(m.get("$ref")?.as_str()?);
            let method = self
                .defs
                .get(name)?
                .pointer("/properties/method/const")?
                .as_str()?;
            Some((method.to_owned(), name.to_owned()))
        })
    }

    /// The flattened members of the union `node` of this schema (`None` if `node` is not a union
    /// node of it).
    pub(crate) fn union_leaves(&'static self, node: &'static Value) -> Option<&'static Leaves> {
        let table = self.unions.get_or_init(|| {
            let mut table = BTreeMap::new();
            for def in self.defs.values() {
                self.collect_unions(def, &mut table, 0);
            }
            table
        });
        table.get(&address(node))
    }

    fn collect_unions(
        &'static self,
        node: &'static Value,
        table: &mut BTreeMap<usize, Leaves>,
        depth: usize,
    ) {
        if depth > crate::schema::MAX_SCHEMA_DEPTH {
            return;
        }
        let children: Box<dyn Iterator<Item = &'static Value>> = match node {
            Value::Object(map) => {
                if node.get("anyOf").is_some() || node.get("oneOf").is_some() {
                    let mut leaves = Vec::new();
                    self.flatten(node, None, &mut leaves, 0);
                    table.insert(address(node), leaves);
                }
                Box::new(map.values())
            }
            Value::Array(items) => Box::new(items.iter()),
            _ => return,
        };
        for child in children {
            self.collect_unions(child, table, depth + 1);
        }
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

    /// The named definition.
    pub(crate) fn def(&self, name: &str) -> Option<&Value> {
        self.defs.get(name)
    }

    /// Follows `$ref`s to the schema node they name.
    pub(crate) fn resolve<'a>(&'a self, mut node: &'a Value) -> &'a Value {
        // Bounded: a schema whose references loop would otherwise hang the engine.
        for _ in 0..16 {
            match node.get("$ref").and_then(Value::as_str) {
                Some(r) => match self.defs.get(def_name(r)) {
                    Some(target) => node = target,
                    None => return node,
                },
                None => return node,
            }
        }
        node
    }

    /// The schema of the result answering the client request `method`.
    pub(crate) fn result_schema(&self, method: &str) -> Option<&Value> {
        self.results.get(method).and_then(|d| self.def(d))
    }

    /// The schema of the params of the server request `method`; `None` if the revision lacks it.
    pub(crate) fn request_params(&self, method: &str) -> Option<&Value> {
        let def = self.def(self.requests.get(method)?)?;
        Some(def.pointer("/properties/params").unwrap_or(&Value::Null))
    }

    /// The schema of the params of the server notification `method`; `None` if the revision lacks it.
    pub(crate) fn notification_params(&self, method: &str) -> Option<&Value> {
        let def = self.def(self.notifications.get(method)?)?;
        Some(def.pointer("/properties/params").unwrap_or(&Value::Null))
    }
}

/// A schema node's identity: its address, stable because a [`Spec`] lives in a static and is never
/// changed after parsing.
fn address(node: &Value) -> usize {
    std::ptr::from_ref(node) as usize
}

/// The definition name a `$ref` points at (`#/definitions/Tool` → `Tool`).
pub(crate) fn def_name(reference: &str) -> &str {
    reference.rsplit('/').next().unwrap_or(reference)
}
