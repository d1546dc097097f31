//! The strict half of a wire check: properties a message carries that its revision's schema does not
//! define for that object. Schema validation alone cannot see them (the MCP schemas leave objects
//! open), so this walks the schema's `properties`, `items` and `additionalProperties` through `$ref`,
//! `anyOf`, `oneOf` and `allOf`, independently of the engine's own downgrade.
//!
//! `_meta` is allowed on every object; a tool's `inputSchema` and `outputSchema` are JSON Schema
//! documents whose keywords JSON Schema defines (the 2026-07-28 schema says so explicitly), so they are
//! not walked.

use serde_json::Value;

use super::wire::{Schemas, Side};

const JSON_SCHEMA_DOCUMENTS: [&str; 2] = ["inputSchema", "outputSchema"];

impl Schemas {
    fn node<'a>(&'a self, mut node: &'a Value) -> &'a Value {
        while let Some(r) = node.get("$ref").and_then(Value::as_str) {
            let name = r.rsplit('/').next().unwrap_or(r);
            node = &self.document[self.defs_key][name];
        }
        node
    }

    /// JSON pointers of the properties of `instance` that `node` does not define.
    pub fn undefined_properties(&self, node: &Value, instance: &Value, at: &str) -> Vec<String> {
        let node = self.node(node);
        if let Some(members) = node
            .get("anyOf")
            .or_else(|| node.get("oneOf"))
            .and_then(Value::as_array)
        {
            // A member whose `type` tag names another kind is not a candidate; among the rest the
            // instance must fit one member completely.
            let tag = instance.get("type");
            let tagged = |m: &&Value| {
                let m = self.node(m);
                match m.pointer("/properties/type/const") {
                    Some(c) => Some(c) == tag,
                    None => true,
                }
            };
            let mut candidates: Vec<&Value> = members.iter().filter(tagged).collect();
            if candidates.is_empty() {
                candidates = members.iter().collect();
            }
            return candidates
                .into_iter()
                .map(|m| self.undefined_properties(m, instance, at))
                .min_by_key(Vec::len)
                .unwrap_or_default();
        }
        if let Some(parts) = node.get("allOf").and_then(Value::as_array) {
            // Defined by any part is defined.
            let lists: Vec<Vec<String>> = parts
                .iter()
                .map(|p| self.undefined_properties(p, instance, at))
                .collect();
            let first = lists.first().cloned().unwrap_or_default();
            return first
                .into_iter()
                .filter(|p| lists.iter().all(|l| l.contains(p)))
                .collect();
        }
        match instance {
            Value::Object(map) => {
                let props = node.get("properties").and_then(Value::as_object);
                let extra = node.get("additionalProperties");
                let each = extra.filter(|e| e.as_object().is_some_and(|o| !o.is_empty()));
                let open = props.is_none()
                    || matches!(extra, Some(Value::Bool(true)))
                    || extra.is_some_and(|e| e.as_object().is_some_and(|o| o.is_empty()));
                let mut out = Vec::new();
                for (k, v) in map {
                    let path = format!("{at}/{k}");
                    if k == "_meta" {
                        continue;
                    }
                    match (props.and_then(|p| p.get(k)), each) {
                        (Some(_), _) if JSON_SCHEMA_DOCUMENTS.contains(&k.as_str()) => {}
                        (Some(p), _) | (None, Some(p)) => {
                            out.extend(self.undefined_properties(p, v, &path))
                        }
                        (None, None) if open => {}
                        (None, None) => out.push(path),
                    }
                }
                out
            }
            Value::Array(items) => match node.get("items") {
                Some(each) => items
                    .iter()
                    .enumerate()
                    .flat_map(|(i, v)| self.undefined_properties(each, v, &format!("{at}/{i}")))
                    .collect(),
                None => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// The properties of a message sent by `sent_by` that its definition does not define: `params`
    /// of requests and notifications, `result` against the result of `request_method`, `error`
    /// against the error envelope.
    pub fn undefined_in_message(
        &self,
        msg: &Value,
        sent_by: Side,
        request_method: Option<&str>,
    ) -> Result<Vec<String>, String> {
        let defs = &self.document[self.defs_key];
        let (def, key) = if let Some(method) = msg.get("method").and_then(Value::as_str) {
            let def = if msg.get("id").is_some() {
                self.request_definition(sent_by, method)
            } else {
                self.notification_definition(sent_by, method)
            };
            let def = def.ok_or_else(|| format!("no {method:?} in {}", self.revision))?;
            (defs[def].pointer("/properties/params").cloned(), "params")
        } else if let Some(result) = msg.get("result") {
            let Some(method) = request_method else {
                return Ok(Vec::new());
            };
            let def = self.result_definition(method, result)?;
            (Some(defs[def.as_str()].clone()), "result")
        } else {
            let envelope = ["JSONRPCErrorResponse", "JSONRPCError"]
                .into_iter()
                .find(|n| self.has(n))
                .ok_or("no error envelope")?;
            (
                defs[envelope].pointer("/properties/error").cloned(),
                "error",
            )
        };
        let (Some(def), Some(body)) = (def, msg.get(key)) else {
            return Ok(Vec::new());
        };
        Ok(self.undefined_properties(&def, body, &format!("/{key}")))
    }
}
