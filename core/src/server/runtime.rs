//! A running server's handle: the connections it opens, what it tells about itself, and the
//! changes made at runtime (registrations, removals, announcements), each announced to listeners.

use std::sync::Arc;

use serde_json::Value;

use super::builder;
use super::change::Change;
use super::config::ServerConfig;
use super::custom_methods;
use super::owned::{self, Family};
use super::registry::{Handler, PromptEntry, Registry, ResourceEntry};
use super::session::Session;
use super::skills;
use super::state::{ChangeHook, Server, WeakServer};
use super::tasks::TaskSupport;
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
        let mut registry = self.inner.registry.write();
        let item = format!("tool {name:?}");
        refuse(&registry, Family::Tools, &item)?;
        if entry.task_support != TaskSupport::Forbidden {
            refuse(&registry, Family::Tasks, &item)?;
        }
        registry.tools.insert(name, entry);
        drop(registry);
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
        let mut registry = self.inner.registry.write();
        refuse(&registry, Family::Prompts, &format!("prompt {name:?}"))?;
        registry.prompts.insert(
            name,
            PromptEntry {
                definition,
                handler,
            },
        );
        drop(registry);
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
        let mut registry = self.inner.registry.write();
        refuse(&registry, Family::Resources, &format!("resource {uri:?}"))?;
        registry.resources.insert(
            uri,
            ResourceEntry {
                definition,
                handler,
            },
        );
        drop(registry);
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
        let mut registry = self.inner.registry.write();
        refuse(
            &registry,
            Family::Resources,
            &format!("resource template {key:?}"),
        )?;
        registry.templates.insert(key, entry);
        drop(registry);
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
        let item = format!("skill {:?} (its files are resources)", skill.name());
        refuse(&registry, Family::Resources, &item)?;
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

    /// Sets (or, with `None`, removes) the host's own handler of request method `method`: a
    /// request for it then goes to `handler` (as a registered handler's would: context, deadline,
    /// cancellation and input rounds alike), in both eras. Replaces the handler set before.
    ///
    /// `method` is either one the specification does not define (answered -32601, method not
    /// found, without a handler; no capability is declared for it), or one of the feature methods
    /// a host may own (`tools/list`, `tools/call`, `resources/list`, `resources/templates/list`,
    /// `resources/read`, `prompts/list`, `prompts/get`, `completion/complete`, `tasks/get`,
    /// `tasks/result`, `tasks/list`, `tasks/cancel`). For an owned method the engine still applies
    /// the revision's rules: it exists only where the revision has it, the request is checked
    /// against the revision's schema before the handler runs (-32602 naming what is wrong) and the
    /// handler's result after (-32603 naming what is wrong, logged, never sent); its capability
    /// must be declared first ([`declare_capabilities`](Self::declare_capabilities)); and owning it
    /// while the engine has items it would answer it for (a registered tool for `tools/call`, a
    /// tool that may run as a task for `tasks/get`, ...) is refused, as is registering such an
    /// item later. Every other method the specification defines (`initialize`, `ping`,
    /// `server/discover`, `subscriptions/listen`, `tasks/update`, ...), one in the
    /// `notifications/` namespace and one beginning with `rpc.` are refused with
    /// [`Error::InvalidArgument`](crate::Error) naming why.
    pub fn set_method_handler(&self, method: &str, handler: Option<Handler>) -> crate::Result<()> {
        custom_methods::check_name(method)?;
        let mut registry = self.inner.registry.write();
        if handler.is_some() {
            owned::check_capability(&registry.declared, method)
                .map_err(crate::Error::InvalidArgument)?;
            if let Some(item) = owned::engine_item(&registry, method) {
                return Err(crate::Error::InvalidArgument(owned::conflict(
                    method, &item,
                )));
            }
        }
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

    /// Removes the host's own handler of request method `method`
    /// ([`set_method_handler`](Self::set_method_handler)); whether there was one. A name no host
    /// handler may have is refused as `set_method_handler` refuses it
    /// ([`Error::InvalidArgument`](crate::Error) naming why).
    pub fn remove_method_handler(&self, method: &str) -> crate::Result<bool> {
        custom_methods::check_name(method)?;
        Ok(self.inner.registry.write().methods.remove(method).is_some())
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
    ///
    /// Refused ([`Error::InvalidArgument`](crate::Error)) while the host owns a resources method
    /// ([`set_method_handler`](Self::set_method_handler)).
    pub fn set_resource_lister(&self, handler: Option<Handler>) -> crate::Result<()> {
        let mut registry = self.inner.registry.write();
        if handler.is_some() {
            refuse(&registry, Family::Resources, "a resource lister")?;
        }
        registry.resource_lister = handler;
        Ok(())
    }

    /// Sets (or, with `None`, removes) the `completion/complete` handler at runtime; the completions
    /// capability follows it. Refused ([`Error::InvalidArgument`](crate::Error)) while the host
    /// owns `completion/complete` ([`set_method_handler`](Self::set_method_handler)).
    pub fn set_completion_handler(&self, handler: Option<Handler>) -> crate::Result<()> {
        let mut registry = self.inner.registry.write();
        if handler.is_some() {
            refuse(&registry, Family::Completion, "a completion handler")?;
        }
        registry.completion = handler;
        Ok(())
    }

    /// Declares capabilities of the host's own (an object of capabilities, as `initialize` and
    /// `server/discover` carry them): each key given is advertised as given, over what the
    /// engine would declare for it (a later declaration of a key replaces the earlier one). The
    /// methods a host owns ([`set_method_handler`](Self::set_method_handler)) need theirs
    /// declared: `tools`, `resources`, `prompts`, `completions`, and `tasks` (the 2025-11-25
    /// form; a 2026-07-28 client is told of tasks through the tasks extension, as for the
    /// engine's own). Anything but an object is refused with
    /// [`Error::InvalidArgument`](crate::Error).
    pub fn declare_capabilities(&self, capabilities: Value) -> crate::Result<()> {
        let Value::Object(map) = capabilities else {
            return Err(crate::Error::InvalidArgument(format!(
                "capabilities must be a JSON object, got {capabilities}"
            )));
        };
        self.inner.registry.write().declared.extend(map);
        Ok(())
    }

    /// Ends every open listen stream with a graceful final result.
    pub fn close_subscriptions(&self) {
        self.inner.listeners.close_all();
    }
}

/// Refuses registering `item` while the host owns a method of `family` (`owned`).
fn refuse(registry: &Registry, family: Family, item: &str) -> crate::Result<()> {
    owned::refuse_item(registry, family, item).map_err(crate::Error::InvalidArgument)
}
