//! A running server's handle: the connections it opens, what it tells about itself, and the
//! changes made at runtime (registrations, removals, announcements), each announced to listeners.

use std::sync::Arc;

use serde_json::Value;

use super::builder;
use super::change::Change;
use super::config::ServerConfig;
use super::custom_methods;
use super::registry::{Handler, PromptEntry, ResourceEntry};
use super::session::Session;
use super::skills;
use super::state::{ChangeHook, Server, WeakServer};
#[cfg(feature = "schemars")]
use super::typed::ToolDef;
use crate::error::DefinitionKind;
use crate::outgoing::Sink;
use crate::version::{Era, ProtocolVersion};

impl WeakServer {
    /// The server, while it is alive.
    pub fn upgrade(&self) -> Option<Server> {
        self.0.upgrade().map(|inner| Server { inner })
    }
}

impl Server {
    /// A weak handle, for handlers that need the server (to change its lists) without keeping it
    /// alive through its own registry.
    pub fn downgrade(&self) -> WeakServer {
        WeakServer(Arc::downgrade(&self.inner))
    }

    /// A new connection whose connection-level messages go to `sink`.
    pub fn session(&self, sink: Sink) -> Session {
        Session::new(self.inner.clone(), sink, None)
    }

    /// A new connection on which requests without `_meta` or handshake are served as `assume` (for
    /// HTTP clients of 2025-03-26, which send no protocol-version header).
    pub fn session_assuming(&self, sink: Sink, assume: ProtocolVersion) -> Session {
        Session::new(self.inner.clone(), sink, Some(assume))
    }

    /// A connection for one stateless (2026-07-28) exchange, such as one HTTP POST: there is no
    /// handshake on it, so `initialize` is answered like any method the modern era removed (-32601).
    pub fn stateless_session(&self, sink: Sink) -> Session {
        Session::new_stateless(self.inner.clone(), sink)
    }

    /// The definition (the Tool object as listed) of a registered tool.
    pub fn tool_definition(&self, name: &str) -> Option<Value> {
        let registry = self.inner.registry.read();
        registry.tools.get(name).map(|t| t.definition.clone())
    }

    /// The `Mcp-Param-*` header arguments of a registered tool (see [`ToolEntry::header_params`]).
    #[cfg(feature = "http")]
    pub(crate) fn tool_header_params(
        &self,
        name: &str,
    ) -> Option<Arc<[crate::names::HeaderParam]>> {
        let registry = self.inner.registry.read();
        registry.tools.get(name).map(|t| t.header_params.clone())
    }

    /// The server's implementation object (`serverInfo`).
    pub fn info(&self) -> &Value {
        &self.inner.info
    }

    /// The capabilities currently declared.
    pub fn capabilities(&self) -> Value {
        self.inner.capabilities(Era::Modern)
    }

    /// The tunables in force.
    pub fn config(&self) -> &ServerConfig {
        &self.inner.config
    }

    /// Announces a change to listening clients of both eras, and tells the
    /// [`on_change`](Self::on_change) hook.
    pub fn notify(&self, change: Change) {
        let hook = self.inner.change_hook.read().clone();
        if let Some(hook) = hook {
            hook(&change);
        }
        self.inner.announce(change);
    }

    /// Announces a change to this server's listening clients only, without telling the
    /// [`on_change`](Self::on_change) hook: for changes another instance announced.
    pub fn notify_local(&self, change: Change) {
        self.inner.announce(change);
    }

    /// Calls `hook` with every change this server announces ([`notify`](Self::notify), and the
    /// runtime registrations that call it), e.g. to pass it to other instances; replaces the hook
    /// set before.
    pub fn on_change(&self, hook: ChangeHook) {
        *self.inner.change_hook.write() = Some(hook);
    }

    /// Registers (or replaces) a tool at runtime, checked and compiled like a builder registration,
    /// and announces the change to listeners of both eras.
    pub fn add_tool(
        &self,
        definition: impl serde::Serialize,
        handler: Handler,
    ) -> crate::Result<()> {
        let (name, entry) = builder::tool_entry(
            &self.inner.schemas,
            builder::to_definition(DefinitionKind::Tool, definition)?,
            handler,
        )?;
        self.inner.registry.write().tools.insert(name, entry);
        self.notify(Change::Tools);
        Ok(())
    }

    /// Registers (or replaces) a typed tool at runtime (see [`ToolDef`]) and announces the change.
    #[cfg(feature = "schemars")]
    pub fn register(&self, tool: ToolDef) -> crate::Result<()> {
        let (definition, handler) = tool
            .into_parts()
            .map_err(|e| crate::Error::InvalidDefinitions(vec![e]))?;
        self.add_tool(definition, handler)
    }

    /// Removes a tool at runtime and announces the change; `false` if there was none.
    pub fn remove_tool(&self, name: &str) -> bool {
        let removed = self.inner.registry.write().tools.remove(name);
        if removed {
            self.notify(Change::Tools);
        }
        removed
    }

    /// Registers (or replaces) a prompt at runtime and announces the change.
    pub fn add_prompt(
        &self,
        definition: impl serde::Serialize,
        handler: Handler,
    ) -> crate::Result<()> {
        let definition = builder::to_definition(DefinitionKind::Prompt, definition)?;
        let name = builder::prompt_name(&definition)?;
        self.inner.registry.write().prompts.insert(
            name,
            PromptEntry {
                definition,
                handler,
            },
        );
        self.notify(Change::Prompts);
        Ok(())
    }

    /// Removes a prompt at runtime and announces the change; `false` if there was none.
    pub fn remove_prompt(&self, name: &str) -> bool {
        let removed = self.inner.registry.write().prompts.remove(name);
        if removed {
            self.notify(Change::Prompts);
        }
        removed
    }

    /// Registers (or replaces) a static resource at runtime and announces the change.
    pub fn add_resource(
        &self,
        definition: impl serde::Serialize,
        handler: Handler,
    ) -> crate::Result<()> {
        let (uri, definition) = builder::resource_definition(definition)?;
        self.inner.registry.write().resources.insert(
            uri,
            ResourceEntry {
                definition,
                handler,
            },
        );
        self.notify(Change::Resources);
        Ok(())
    }

    /// Removes a static resource at runtime and announces the change; `false` if there was none.
    pub fn remove_resource(&self, uri: &str) -> bool {
        let removed = self.inner.registry.write().resources.remove(uri);
        if removed {
            self.notify(Change::Resources);
        }
        removed
    }

    /// Registers (or replaces) a resource template at runtime, checked like a builder registration,
    /// and announces the change (templates are part of the resource list).
    pub fn add_resource_template(
        &self,
        definition: impl serde::Serialize,
        handler: Handler,
    ) -> crate::Result<()> {
        let (key, entry) = builder::template_entry(
            builder::to_definition(DefinitionKind::ResourceTemplate, definition)?,
            handler,
        )?;
        self.inner.registry.write().templates.insert(key, entry);
        self.notify(Change::Resources);
        Ok(())
    }

    /// Removes the resource template with this `uriTemplate` and announces the change; `false` if
    /// there was none.
    pub fn remove_resource_template(&self, uri_template: &str) -> bool {
        let removed = self.inner.registry.write().templates.remove(uri_template);
        if removed {
            self.notify(Change::Resources);
        }
        removed
    }

    /// Serves a skill at runtime (the skills extension, as [`ServerBuilder::skill`](super::ServerBuilder::skill) does), replacing
    /// the skill of the same name if there is one, and announces the change to the resource list
    /// (its files are resources). A file whose URI is another resource's is refused
    /// ([`Error::InvalidDefinitions`](crate::Error::InvalidDefinitions)) and nothing changes. The
    /// extension's capability follows the registered skills, like every other capability.
    pub fn add_skill(&self, skill: crate::skills::Skill) -> crate::Result<()> {
        let mut registry = self.inner.registry.write();
        let replaced: Vec<String> = registry
            .skills
            .get(skill.name())
            .map(|old| old.files().iter().map(|f| old.uri(&f.path)).collect())
            .unwrap_or_default();
        let taken: Vec<_> = skill
            .files()
            .iter()
            .map(|f| skill.uri(&f.path))
            .filter(|uri| registry.resources.contains(uri) && !replaced.contains(uri))
            .map(|uri| {
                crate::error::DefinitionError::new(
                    DefinitionKind::Resource,
                    uri,
                    "is already a resource of this server",
                )
            })
            .collect();
        if !taken.is_empty() {
            return Err(crate::Error::InvalidDefinitions(taken));
        }
        for uri in &replaced {
            registry.resources.remove(uri);
        }
        let left = skills::register(&mut registry, skill);
        debug_assert!(left.is_empty(), "every URI was checked above: {left:?}");
        drop(registry);
        self.notify(Change::Resources);
        Ok(())
    }

    /// Stops serving the skill `name` (its files' resources go with it) and announces the change;
    /// `false` if there was none.
    pub fn remove_skill(&self, name: &str) -> bool {
        let mut registry = self.inner.registry.write();
        let Some(skill) = registry.skills.get(name).cloned() else {
            return false;
        };
        for f in skill.files() {
            registry.resources.remove(&skill.uri(&f.path));
        }
        registry.skills.remove(name);
        drop(registry);
        self.notify(Change::Resources);
        true
    }

    /// Sets (or, with `None`, removes) the handler of a request method the specification does not
    /// define: a request for `method` then goes to `handler` (as a registered handler's would:
    /// context, deadline, cancellation and input rounds alike) instead of being answered -32601
    /// (method not found), in both eras. No capability is declared for it. A method the
    /// specification defines (`tools/call`, `ping`, ...), one in the `notifications/` namespace
    /// and one beginning with `rpc.` are refused with [`Error::InvalidArgument`](crate::Error)
    /// naming why: the engine answers those itself. Replaces the handler set before.
    pub fn set_method_handler(&self, method: &str, handler: Option<Handler>) -> crate::Result<()> {
        custom_methods::check_name(method)?;
        let mut registry = self.inner.registry.write();
        match handler {
            Some(h) => {
                registry.methods.insert(method.to_string(), h);
            }
            None => {
                registry.methods.remove(method);
            }
        }
        Ok(())
    }

    /// Sets (or, with `None`, removes) the handler that adds the host's own entries to
    /// `resources/list`: it is called for each `resources/list` request (its context carries the
    /// request's params, `cursor` among them) and answers `{resources: [Resource, ...]}` (each with
    /// a string `uri` and `name`, else the request gets -32603 naming the entry). The engine lists
    /// the registered resources first and then these, and answers the page the request's cursor
    /// names: pagination stays the engine's, so the handler gives every entry each time. A
    /// resource it lists is read like any other URI (`resources/read` finds a registered resource
    /// or a template that matches it). The resources capability is declared once a resource or
    /// template is registered (or the builder enabled it), as without it.
    pub fn set_resource_lister(&self, handler: Option<Handler>) {
        self.inner.registry.write().resource_lister = handler;
    }

    /// Sets (or, with `None`, removes) the `completion/complete` handler at runtime; the completions
    /// capability follows it.
    pub fn set_completion_handler(&self, handler: Option<Handler>) {
        self.inner.registry.write().completion = handler;
    }

    /// Ends every open listen stream with a graceful final result.
    pub fn close_subscriptions(&self) {
        self.inner.listeners.close_all();
    }
}
