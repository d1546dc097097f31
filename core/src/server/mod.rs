//! The MCP server: a registry of tools, resources and prompts served to clients of both eras.
//!
//! ```no_run
//! use libmcp::server::{Server, Reply};
//! use serde_json::json;
//!
//! # async fn run() -> libmcp::Result<()> {
//! let server = Server::builder("demo", "1.0.0")
//!     .tool(
//!         json!({"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}),
//!         |_ctx, args| Reply::text(args["text"].as_str().unwrap_or_default()),
//!     )
//!     .build()
//!     .expect("valid definitions");
//! server.serve_stdio().await
//! # }
//! ```

mod builder;
mod complete;
pub mod context;
mod deadline;
mod listen;
mod methods;
mod mrtr;
pub mod registry;
mod session;
mod skills;
pub mod tasks;
#[cfg(feature = "schemars")]
mod typed;
mod validate;

use std::sync::{Arc, Weak};
use std::time::Duration;

use parking_lot::{Mutex, RwLock};
use serde_json::{Value, json};

pub use crate::model::CacheScope;
pub use builder::{ServerBuilder, async_handler, sync_handler};
pub use context::{CancelFlag, InputRequired, Reply, RequestContext, Responder};
pub use listen::Change;
pub use registry::{
    Handler, PromptEntry, ResourceEntry, TemplateEntry, ToolEntry, UriMatcher, Validator,
};
pub use session::Session;
#[cfg(feature = "schemars")]
pub use typed::{Json, ToolDef, ToolOutput, derive_schema};

use crate::error::DefinitionKind;
use crate::outgoing::Sink;
use crate::request_state::StateSealer;
use crate::version::{Era, ProtocolVersion};
use listen::Listeners;
use registry::Registry;
use session::SessionShared;

/// Tunables of a server. Every limit has a safe default.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Items per page of `tools/list` and the other lists.
    pub page_size: usize,
    /// Largest accepted message in bytes; larger ones get -32600 and the connection carries on.
    pub max_message_bytes: usize,
    /// How long a sealed `requestState` stays valid.
    pub state_ttl: Duration,
    /// Largest `requestState` payload (the handler's state, before sealing) in bytes. A handler
    /// returning a larger state fails its request with -32603; a client sending back a token
    /// longer than the sealing of such a payload gets -32602 before any decoding.
    pub max_request_state_bytes: usize,
    /// Most input rounds one legacy request may take before it fails.
    pub max_input_rounds: u32,
    /// Most requests one session (a stdio connection, a legacy HTTP session, one modern POST) may
    /// have in flight; a request beyond that gets -32603 with `data.maxInFlight` and the session
    /// serves the next one as soon as one completes.
    pub max_in_flight: usize,
    /// `ttlMs` put on cacheable results that do not set their own.
    pub cache_ttl_ms: u64,
    /// `cacheScope` put on cacheable results that do not set their own.
    pub cache_scope: CacheScope,
    /// How long a legacy server-to-client request may wait for the client.
    pub client_request_timeout: Duration,
    /// Longest a handler (tool, prompt, resource, completion) may take to answer its request,
    /// legacy input rounds included; `None` (the default) lets handlers run as long as they
    /// like. When it passes first, the engine answers -32603 with `data.handlerTimeoutMs`,
    /// cancels the request (the handler sees it through its context) and drops the handler's
    /// later answer. A request the handler runs as a task is answered at once with the task, so
    /// the task's work is not limited.
    pub handler_timeout: Option<Duration>,
    /// How long the stdio server waits for in-flight requests after stdin closes.
    pub shutdown_grace: Duration,
    /// How long a task is kept after its creation (`ttlMs`); `None` keeps tasks until the store
    /// drops them. A 2025-11-25 client may ask for less.
    pub task_ttl_ms: Option<u64>,
    /// How often clients are asked to poll a task (`pollIntervalMs`).
    pub task_poll_interval_ms: u64,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            page_size: 100,
            max_message_bytes: 8 * 1024 * 1024,
            state_ttl: Duration::from_secs(600),
            max_request_state_bytes: 256 * 1024,
            max_input_rounds: 10,
            max_in_flight: 1024,
            cache_ttl_ms: 0,
            cache_scope: CacheScope::Private,
            client_request_timeout: Duration::from_secs(300),
            handler_timeout: None,
            shutdown_grace: Duration::from_secs(10),
            task_ttl_ms: Some(3_600_000),
            task_poll_interval_ms: 500,
        }
    }
}

/// Which features are offered (and so which capabilities are declared).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Offers {
    pub(crate) tools: bool,
    pub(crate) resources: bool,
    pub(crate) prompts: bool,
    pub(crate) completions: bool,
    pub(crate) skills: bool,
}

pub(crate) struct ServerInner {
    pub(crate) info: Value,
    pub(crate) instructions: Option<String>,
    pub(crate) registry: RwLock<Registry>,
    pub(crate) versions: Vec<ProtocolVersion>,
    pub(crate) sealer: StateSealer,
    pub(crate) config: ServerConfig,
    /// Features enabled explicitly even while nothing of that kind is registered.
    pub(crate) enabled: Offers,
    pub(crate) listeners: Listeners,
    pub(crate) schemas: crate::schema::SchemaCache,
    legacy_sessions: Mutex<Vec<Weak<SessionShared>>>,
    pub(crate) tasks: tasks::Tasks,
    /// Told of every change announced here ([`Server::on_change`]).
    pub(crate) change_hook: parking_lot::RwLock<Option<ChangeHook>>,
}

/// A function told of every change a server announces itself ([`Server::on_change`]).
pub type ChangeHook = Arc<dyn Fn(&Change) + Send + Sync>;

impl ServerInner {
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
            .any(|t| t.task_support != tasks::TaskSupport::Forbidden)
    }

    pub(crate) fn serves_modern(&self) -> bool {
        self.versions.iter().any(|v| v.era() == Era::Modern)
    }

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
                Era::Modern => caps["extensions"][tasks::EXTENSION] = json!({}),
                // 2025-11-25 (older revisions drop it, crate::shapes).
                Era::Legacy => {
                    caps["tasks"] =
                        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}})
                }
            }
        }
        if o.skills {
            skills::declare(&mut caps);
        }
        caps
    }

    pub(crate) fn remember_session(&self, s: &Arc<SessionShared>) {
        let mut list = self.legacy_sessions.lock();
        list.retain(|w| w.strong_count() > 0);
        if !list
            .iter()
            .any(|w| std::ptr::eq(w.as_ptr(), Arc::as_ptr(s)))
        {
            list.push(Arc::downgrade(s));
        }
    }

    pub(crate) fn forget_session(&self, s: &SessionShared) {
        self.legacy_sessions
            .lock()
            .retain(|w| w.strong_count() > 0 && !std::ptr::eq(w.as_ptr(), s));
    }

    fn announce(&self, change: Change) {
        self.listeners.broadcast(&change);
        let sessions: Vec<Arc<SessionShared>> = self
            .legacy_sessions
            .lock()
            .iter()
            .filter_map(Weak::upgrade)
            .collect();
        for s in sessions {
            let wanted = match s.legacy.read().as_ref() {
                Some(l) if l.initialized => match &change {
                    Change::ResourceUpdated(uri) => l.subscriptions.contains(uri),
                    _ => true,
                },
                _ => false,
            };
            if wanted {
                let params = match &change {
                    Change::ResourceUpdated(uri) => Some(json!({ "uri": uri })),
                    _ => None,
                };
                let bytes = crate::jsonrpc::encode_notification(change.method(), params.as_ref());
                s.sink.send(crate::outgoing::Outgoing {
                    kind: crate::outgoing::OutKind::Notification,
                    bytes,
                });
            }
        }
    }
}

/// A weak handle to a [`Server`]; see [`Server::downgrade`].
#[derive(Clone)]
pub struct WeakServer(Weak<ServerInner>);

impl WeakServer {
    /// The server, while it is alive.
    pub fn upgrade(&self) -> Option<Server> {
        self.0.upgrade().map(|inner| Server { inner })
    }
}

/// A server: cheap to clone, shareable across threads and connections.
#[derive(Clone)]
pub struct Server {
    pub(crate) inner: Arc<ServerInner>,
}

impl Server {
    /// Starts building a server with its implementation name and version.
    pub fn builder(name: impl Into<String>, version: impl Into<String>) -> ServerBuilder {
        ServerBuilder::new(name, version)
    }

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

    /// Serves a skill at runtime (the skills extension, as [`ServerBuilder::skill`] does), replacing
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
