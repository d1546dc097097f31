//! Wire-schema validation against the official schema of each protocol revision.
//!
//! Every revision's `schema.json` (vendored under `tests/spec/`) is compiled once, lazily, into a map
//! of validators keyed by definition pointer. [`assert_valid_message`] checks a JSON-RPC message
//! against both the generic envelope and the specific definition for its method, direction and kind,
//! with method tables read from the schema itself (the `Client*`/`Server*` unions and each member's
//! `method.const`), so a new revision needs no hand-written table.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use jsonschema::{Draft, ValidatorMap};
use serde_json::Value;

/// The revisions with a vendored schema, oldest first.
pub const REVISIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

/// Who sent a message: decides which request/notification unions of the schema apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The MCP client.
    Client,
    /// The MCP server.
    Server,
}

impl Side {
    fn prefix(self) -> &'static str {
        match self {
            Side::Client => "Client",
            Side::Server => "Server",
        }
    }
}

/// The directory of the vendored specification data (`<repo>/tests/spec`).
pub fn spec_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/spec")
}

/// One revision's compiled schema and the tables derived from it.
pub struct Schemas {
    /// The revision, e.g. `"2026-07-28"`.
    pub revision: &'static str,
    /// The schema document.
    pub document: Value,
    /// `"definitions"` (draft-07 revisions) or `"$defs"` (2020-12 revisions).
    pub defs_key: &'static str,
    validators: ValidatorMap,
    /// (side, method) → request definition name.
    requests: BTreeMap<(&'static str, String), String>,
    /// (side, method) → notification definition name.
    notifications: BTreeMap<(&'static str, String), String>,
    /// error code → specific error-response definition (e.g. -32022 → UnsupportedProtocolVersionError).
    error_codes: BTreeMap<i64, String>,
}

impl Schemas {
    fn load(revision: &'static str) -> Schemas {
        let path = spec_dir().join(revision).join("schema.json");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let document: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        let (defs_key, draft) = if document.get("$defs").is_some() {
            ("$defs", Draft::Draft202012)
        } else {
            ("definitions", Draft::Draft7)
        };
        let validators = jsonschema::options()
            .with_draft(draft)
            .build_map(&document)
            .unwrap_or_else(|e| panic!("schema of {revision} does not compile: {e}"));
        let defs = document[defs_key].as_object().expect("definitions object");

        let method_of = |name: &str| -> Option<String> {
            defs.get(name)?
                .pointer("/properties/method/const")?
                .as_str()
                .map(str::to_owned)
        };
        let mut requests = BTreeMap::new();
        let mut notifications = BTreeMap::new();
        for side in ["Client", "Server"] {
            for (kind, table) in [
                ("Request", &mut requests),
                ("Notification", &mut notifications),
            ] {
                let union = format!("{side}{kind}");
                let Some(def) = defs.get(&union) else {
                    continue;
                };
                let members: Vec<String> = match def.get("anyOf").and_then(Value::as_array) {
                    Some(refs) => refs
                        .iter()
                        .filter_map(|r| r.get("$ref")?.as_str())
                        .map(|r| r.rsplit('/').next().unwrap().to_owned())
                        .collect(),
                    // A union of one member is generated inline (2026-07-28 ClientNotification).
                    None => vec![union.clone()],
                };
                for name in members {
                    if let Some(method) = method_of(&name) {
                        table.insert((side, method), name);
                    }
                }
            }
        }
        let mut error_codes = BTreeMap::new();
        for (name, def) in defs {
            let Some(parts) = def
                .pointer("/properties/error/allOf")
                .and_then(Value::as_array)
            else {
                continue;
            };
            for part in parts {
                if let Some(code) = part
                    .pointer("/properties/code/const")
                    .and_then(Value::as_i64)
                {
                    error_codes.insert(code, name.clone());
                }
            }
        }
        Schemas {
            revision,
            document,
            defs_key,
            validators,
            requests,
            notifications,
            error_codes,
        }
    }

    /// Whether the revision defines `definition`.
    pub fn has(&self, definition: &str) -> bool {
        self.document[self.defs_key].get(definition).is_some()
    }

    /// The names of all definitions.
    pub fn definitions(&self) -> Vec<&str> {
        self.document[self.defs_key]
            .as_object()
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    /// Validates `instance` against `definition`; `Err` lists each error with its instance path.
    pub fn validate(&self, definition: &str, instance: &Value) -> Result<(), Vec<String>> {
        let pointer = format!("#/{}/{definition}", self.defs_key);
        let validator = self
            .validators
            .get(&pointer)
            .unwrap_or_else(|| panic!("revision {} has no definition {definition}", self.revision));
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|e| format!("at {:?}: {e}", e.instance_path().as_str()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// The request definition for `method` sent by `side`, if the revision has one.
    pub fn request_definition(&self, side: Side, method: &str) -> Option<&str> {
        self.requests
            .get(&(side.prefix(), method.to_owned()))
            .map(String::as_str)
    }

    /// The notification definition for `method` sent by `side`, if the revision has one.
    pub fn notification_definition(&self, side: Side, method: &str) -> Option<&str> {
        self.notifications
            .get(&(side.prefix(), method.to_owned()))
            .map(String::as_str)
    }

    /// The definition a `result` answering `method` must match: `<X>Result` for `<X>Request`,
    /// `EmptyResult` for methods without their own (ping, logging/setLevel, resources/subscribe), and
    /// `InputRequiredResult` / `CreateTaskResult` when the result says it is one.
    pub fn result_definition(&self, method: &str, result: &Value) -> Result<String, String> {
        let request = [Side::Client, Side::Server]
            .iter()
            .find_map(|s| self.request_definition(*s, method))
            .ok_or_else(|| format!("no request definition for method {method:?}"))?;
        if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
            if !self.has("InputRequiredResult") {
                return Err("resultType input_required does not exist in this revision".into());
            }
            if !matches!(method, "tools/call" | "prompts/get" | "resources/read") {
                return Err(format!("input_required is not allowed on {method}"));
            }
            return Ok("InputRequiredResult".into());
        }
        if result.get("task").is_some_and(Value::is_object) && self.has("CreateTaskResult") {
            return Ok("CreateTaskResult".into());
        }
        let own = format!("{}Result", request.trim_end_matches("Request"));
        Ok(if self.has(&own) {
            own
        } else {
            "EmptyResult".into()
        })
    }

    fn first_of<'a>(&self, names: &[&'a str]) -> &'a str {
        names
            .iter()
            .copied()
            .find(|n| self.has(n))
            .unwrap_or_else(|| panic!("revision {} has none of {names:?}", self.revision))
    }

    /// Checks a JSON-RPC message; `Err` describes the first definition it fails, with every error.
    pub fn check_message(
        &self,
        msg: &Value,
        sent_by: Side,
        request_method: Option<&str>,
    ) -> Result<(), String> {
        let mut checks: Vec<String> = Vec::new();
        let method = msg.get("method").and_then(Value::as_str);
        if let Some(method) = method {
            if msg.get("id").is_some() {
                checks.push("JSONRPCRequest".into());
                let def = self.request_definition(sent_by, method).ok_or_else(|| {
                    format!(
                        "no {sent_by:?} request {method:?} in revision {}",
                        self.revision
                    )
                })?;
                checks.push(def.into());
            } else {
                checks.push("JSONRPCNotification".into());
                let def = self
                    .notification_definition(sent_by, method)
                    .ok_or_else(|| {
                        format!(
                            "no {sent_by:?} notification {method:?} in revision {}",
                            self.revision
                        )
                    })?;
                checks.push(def.into());
            }
        } else if let Some(error) = msg.get("error") {
            checks.push(
                self.first_of(&["JSONRPCErrorResponse", "JSONRPCError"])
                    .into(),
            );
            if let Some(def) = error
                .get("code")
                .and_then(Value::as_i64)
                .and_then(|c| self.error_codes.get(&c))
            {
                checks.push(def.clone());
            }
        } else if let Some(result) = msg.get("result") {
            checks.push(
                self.first_of(&["JSONRPCResultResponse", "JSONRPCResponse"])
                    .into(),
            );
            if let Some(method) = request_method {
                let def = self.result_definition(method, result)?;
                self.validate(&def, result).map_err(|errors| {
                    self.describe(&format!("{def} (result of {method})"), &errors, msg)
                })?;
            }
        } else {
            return Err(format!("not a JSON-RPC message: {msg}"));
        }
        for def in &checks {
            self.validate(def, msg)
                .map_err(|errors| self.describe(def, &errors, msg))?;
        }
        Ok(())
    }

    fn describe(&self, def: &str, errors: &[String], msg: &Value) -> String {
        format!(
            "revision {}: message does not match {def}:\n  {}\nmessage: {}",
            self.revision,
            errors.join("\n  "),
            serde_json::to_string_pretty(msg).unwrap_or_default()
        )
    }
}

/// The compiled schema of `revision` (compiled on first use, then cached for the process).
pub fn schema_for(revision: &str) -> &'static Schemas {
    static CACHE: [OnceLock<Schemas>; 5] = [const { OnceLock::new() }; 5];
    let i = REVISIONS
        .iter()
        .position(|r| *r == revision)
        .unwrap_or_else(|| panic!("no vendored schema for revision {revision:?}"));
    CACHE[i].get_or_init(|| Schemas::load(REVISIONS[i]))
}

/// The compiled schema of the tasks extension (`tests/spec/ext-tasks-draft`).
pub fn tasks_schema() -> &'static Schemas {
    static CACHE: OnceLock<Schemas> = OnceLock::new();
    CACHE.get_or_init(|| Schemas::load("ext-tasks-draft"))
}

/// The tasks extension's definition for a 2026-07-28 server message that belongs to it: its
/// notification, the results of its methods, and a `CreateTaskResult` (`resultType: "task"`).
/// `None` for every other message, which the revision's own schema covers.
pub fn tasks_definition(msg: &Value, request_method: Option<&str>) -> Option<&'static str> {
    if msg.get("method").and_then(Value::as_str) == Some("notifications/tasks") {
        return Some("TaskStatusNotification");
    }
    let result = msg.get("result")?;
    match request_method? {
        "tasks/get" => Some("GetTaskResult"),
        "tasks/update" => Some("UpdateTaskResult"),
        "tasks/cancel" => Some("CancelTaskResult"),
        _ if result.get("resultType").and_then(Value::as_str) == Some("task") => {
            Some("CreateTaskResult")
        }
        _ => None,
    }
}

/// Panics unless a 2026-07-28 server message is valid: against the tasks extension's schema when it
/// belongs to the extension (its result, or the whole notification), otherwise as
/// [`assert_valid_message`] checks it.
pub fn assert_valid_modern_with_tasks(msg: &Value, request_method: Option<&str>) {
    let Some(def) = tasks_definition(msg, request_method) else {
        return assert_valid_message("2026-07-28", msg, Side::Server, request_method);
    };
    let tasks = tasks_schema();
    let (checked, envelope) = match msg.get("result") {
        Some(result) => (result, "JSONRPCResultResponse"),
        None => (msg, "JSONRPCNotification"),
    };
    if let Err(errors) = tasks.validate(def, checked) {
        panic!("{}", tasks.describe(def, &errors, msg));
    }
    assert_valid("2026-07-28", envelope, msg);
}

/// Panics unless `msg` is a valid JSON-RPC message of `revision` sent by `sent_by`.
///
/// Requests and notifications are checked against the envelope and the definition of their method
/// for that side; error responses against the error envelope (and the specific error definition for
/// codes the revision defines); result responses against the envelope and, when `request_method`
/// names the request answered, the result definition of that method.
pub fn assert_valid_message(
    revision: &str,
    msg: &Value,
    sent_by: Side,
    request_method: Option<&str>,
) {
    if let Err(e) = schema_for(revision).check_message(msg, sent_by, request_method) {
        panic!("{e}");
    }
}

/// Panics unless `instance` matches `definition` of `revision`.
pub fn assert_valid(revision: &str, definition: &str, instance: &Value) {
    let schemas = schema_for(revision);
    if let Err(errors) = schemas.validate(definition, instance) {
        panic!("{}", schemas.describe(definition, &errors, instance));
    }
}
