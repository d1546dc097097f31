//! The official schema of each legacy revision, embedded from `tests/spec/<revision>/schema.json` and
//! read on first use, with the method tables derived from its `Client*`/`Server*` unions.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::{Map, Value};

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
}

/// The legacy revisions whose schema is embedded, oldest first, with the schema text.
const SCHEMAS: [(&str, &str); 4] = [
    (
        "2024-11-05",
        include_str!("../../../tests/spec/2024-11-05/schema.json"),
    ),
    (
        "2025-03-26",
        include_str!("../../../tests/spec/2025-03-26/schema.json"),
    ),
    (
        "2025-06-18",
        include_str!("../../../tests/spec/2025-06-18/schema.json"),
    ),
    (
        "2025-11-25",
        include_str!("../../../tests/spec/2025-11-25/schema.json"),
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

/// The definition name a `$ref` points at (`#/definitions/Tool` → `Tool`).
pub(crate) fn def_name(reference: &str) -> &str {
    reference.rsplit('/').next().unwrap_or(reference)
}
