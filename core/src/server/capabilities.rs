//! What a server declares: the features it offers (registered or enabled) and the capabilities
//! object of each era (`initialize` for legacy sessions, `server/discover` for modern clients), and
//! which eras it serves.

use serde_json::{Map, Value, json};

use super::state::{Offers, ServerInner};
use super::tasks::TaskSupport;
use crate::model::tasks::EXTENSION as TASKS;
use crate::skills::EXTENSION as SKILLS;
use crate::version::Era;

impl ServerInner {
    /// What the server offers now: what is registered, and what was enabled explicitly.
    pub(crate) fn offers(&self) -> Offers {
        let r = self.registry.read();
        Offers {
            tools: self.enabled.tools || !r.tools.is_empty(),
            resources: self.enabled.resources || !r.resources.is_empty() || !r.templates.is_empty(),
            prompts: self.enabled.prompts || !r.prompts.is_empty(),
            completions: r.completion.is_some(),
            skills: !r.skills.is_empty(),
        }
    }

    /// Whether some tool may run as a task. A scan of the tools, so asked only where tasks matter
    /// (the `tasks/*` methods, task listen filters, the capabilities), not on every request.
    pub(crate) fn offers_tasks(&self) -> bool {
        self.registry
            .read()
            .tools
            .iter()
            .any(|t| t.task_support != TaskSupport::Forbidden)
    }

    /// Whether the server serves a 2026-07-28 (modern) revision.
    pub(crate) fn serves_modern(&self) -> bool {
        self.versions.iter().any(|v| v.era() == Era::Modern)
    }

    /// Whether the server serves a legacy revision (2024-11-05 through 2025-11-25).
    pub(crate) fn serves_legacy(&self) -> bool {
        self.versions.iter().any(|v| v.era() == Era::Legacy)
    }

    /// The capabilities object, matching what is registered.
    pub(crate) fn capabilities(&self, era: Era) -> Value {
        let o = self.offers();
        let mut caps = json!({ "logging": {} });
        if o.tools {
            caps["tools"] = json!({ "listChanged": true });
        }
        if o.resources {
            caps["resources"] = json!({ "subscribe": true, "listChanged": true });
        }
        if o.prompts {
            caps["prompts"] = json!({ "listChanged": true });
        }
        if o.completions {
            caps["completions"] = json!({});
        }
        if self.offers_tasks() {
            match era {
                Era::Modern => caps["extensions"][TASKS] = json!({}),
                // 2025-11-25 (older revisions drop it, crate::shapes).
                Era::Legacy => {
                    caps["tasks"] =
                        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}})
                }
            }
        }
        if o.skills {
            // The skills extension (SEP-2640), with `resources/directory/read`.
            caps["extensions"][SKILLS] = json!({ "directoryRead": true });
        }
        declare(&mut caps, &self.registry.read().declared, era);
        caps
    }
}

/// Puts what the host declared (`Server::declare_capabilities`) over the engine's capabilities:
/// each key the host names is the host's. `tasks` is the 2025-11-25 key; a modern client is told
/// of tasks by the tasks extension instead, as for the engine's own tasks.
fn declare(caps: &mut Value, declared: &Map<String, Value>, era: Era) {
    for (key, value) in declared {
        match (key.as_str(), era) {
            ("tasks", Era::Modern) => caps["extensions"][TASKS] = json!({}),
            ("extensions", _) => {
                for (ext, v) in value.as_object().into_iter().flatten() {
                    caps["extensions"][ext] = v.clone();
                }
            }
            _ => caps[key] = value.clone(),
        }
    }
}
