//! Building a server: definitions are the typed `model` structs (`Tool`, `Resource`,
//! `ResourceTemplate`, `Prompt`) or the same JSON objects, checked at registration; handlers are typed
//! functions (schemas derived from their argument and return types), plain closures, async
//! functions, or raw [`Handler`]s that complete a [`Responder`] later.

use std::future::Future;
use std::sync::Arc;

use parking_lot::{Mutex, RwLock};
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::config::ServerConfig;
use super::context::{Reply, RequestContext};
use super::custom_methods;
use super::handlers::{async_handler, starts_task, sync_handler};
use super::owned;
use super::registry::{
    Handler, PromptEntry, Registry, ResourceEntry, TemplateEntry, ToolEntry, Validator,
};
use super::skills;
use super::state::{Listeners, Offers, Server, ServerInner, Tasks};
use super::tasks::{TaskStore, TaskSupport};
#[cfg(feature = "schemars")]
use super::typed::{ToolDef, ToolOutput};
use crate::error::{DefinitionError, DefinitionKind, Error, Result};
use crate::request_state::StateSealer;
use crate::schema::SchemaCache;
use crate::version::ProtocolVersion;

/// Builds a [`Server`]. Registration problems are collected and reported by [`ServerBuilder::build`].
pub struct ServerBuilder {
    info: Map<String, Value>,
    instructions: Option<String>,
    registry: Registry,
    versions: Vec<ProtocolVersion>,
    config: ServerConfig,
    key: Option<[u8; 32]>,
    sealer: Option<StateSealer>,
    task_store: Option<Arc<dyn TaskStore>>,
    enabled: Offers,
    schemas: SchemaCache,
    errors: Vec<DefinitionError>,
}

impl Server {
    /// Starts building a server with its implementation name and version.
    pub fn builder(name: impl Into<String>, version: impl Into<String>) -> ServerBuilder {
        ServerBuilder::new(name, version)
    }
}

impl ServerBuilder {
    pub(crate) fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        let mut info = Map::new();
        info.insert("name".into(), json!(name.into()));
        info.insert("version".into(), json!(version.into()));
        ServerBuilder {
            info,
            instructions: None,
            registry: Registry::default(),
            versions: ProtocolVersion::KNOWN.to_vec(),
            config: ServerConfig::default(),
            key: None,
            sealer: None,
            task_store: None,
            enabled: Offers::default(),
            schemas: SchemaCache::default(),
            errors: Vec::new(),
        }
    }

    /// Sets a field of the implementation object (`title`, `description`, `websiteUrl`, `icons`).
    pub fn info_field(mut self, key: &str, value: Value) -> Self {
        self.info.insert(key.into(), value);
        self
    }

    /// Sets the instructions returned by `initialize` and `server/discover`.
    pub fn instructions(mut self, text: impl Into<String>) -> Self {
        self.instructions = Some(text.into());
        self
    }

    /// Restricts the protocol revisions served (default: all known, both eras).
    pub fn versions(mut self, versions: Vec<ProtocolVersion>) -> Self {
        self.versions = versions;
        self
    }

    /// Replaces the tunables.
    pub fn config(mut self, config: ServerConfig) -> Self {
        self.config = config;
        self
    }

    /// Sets the key that seals `requestState` (default: random per server). Instances behind one load
    /// balancer share a key so a retry may land on any of them.
    pub fn state_key(mut self, key: [u8; 32]) -> Self {
        self.key = Some(key);
        self
    }

    /// Seals `requestState` with `sealer`, whose keys may change while the server runs
    /// ([`StateSealer::rotate`]); instances that follow one shared key ring accept each other's
    /// tokens across rotations. Takes precedence over [`state_key`](Self::state_key).
    pub fn state_sealer(mut self, sealer: StateSealer) -> Self {
        self.sealer = Some(sealer);
        self
    }

    /// Declares the tools capability even while no tool is registered.
    pub fn enable_tools(mut self) -> Self {
        self.enabled.tools = true;
        self
    }

    /// Declares the resources capability even while no resource is registered.
    pub fn enable_resources(mut self) -> Self {
        self.enabled.resources = true;
        self
    }

    /// Declares the prompts capability even while no prompt is registered.
    pub fn enable_prompts(mut self) -> Self {
        self.enabled.prompts = true;
        self
    }

    /// Registers a tool with a synchronous handler receiving the context and the arguments (`{}` when
    /// the client sent none).
    pub fn tool<F, R>(self, definition: impl Serialize, f: F) -> Self
    where
        F: Fn(&RequestContext, &Value) -> R + Send + Sync + 'static,
        R: Into<Reply>,
    {
        self.tool_handler(
            definition,
            starts_task(sync_handler(move |ctx| f(ctx, ctx.arguments()))),
        )
    }

    /// Registers a typed tool with a synchronous handler: arguments arrive deserialised into `A`,
    /// whose JSON Schema (via `schemars`) is the `inputSchema`; a [`Json`](super::Json) return type
    /// gives the `outputSchema` and is sent as `structuredContent`. `definition` is a
    /// [`Tool`](crate::model::Tool) or just its name.
    #[cfg(feature = "schemars")]
    pub fn typed_tool<A, R, F>(self, definition: impl Into<crate::model::Tool>, f: F) -> Self
    where
        A: serde::de::DeserializeOwned + schemars::JsonSchema,
        R: ToolOutput,
        F: Fn(&RequestContext, A) -> R + Send + Sync + 'static,
    {
        self.register(ToolDef::sync_fn(definition, f))
    }

    /// Registers a typed tool with an async handler; schemas as in [`ServerBuilder::typed_tool`].
    #[cfg(feature = "schemars")]
    pub fn typed_tool_async<A, R, F, Fut>(
        self,
        definition: impl Into<crate::model::Tool>,
        f: F,
    ) -> Self
    where
        A: serde::de::DeserializeOwned + schemars::JsonSchema,
        R: ToolOutput + Send + 'static,
        F: Fn(RequestContext, A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
    {
        self.register(ToolDef::async_fn(definition, f))
    }

    /// Registers a tool made by [`ToolDef`](super::ToolDef) or the `#[tool]` attribute.
    #[cfg(feature = "schemars")]
    pub fn register(mut self, tool: ToolDef) -> Self {
        match tool.into_parts() {
            Ok((definition, handler)) => self.tool_handler(definition, handler),
            Err(e) => {
                self.errors.push(e);
                self
            }
        }
    }

    /// Registers a tool with an async handler.
    pub fn tool_async<F, Fut, R>(self, definition: impl Serialize, f: F) -> Self
    where
        F: Fn(RequestContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: Into<Reply> + Send + 'static,
    {
        self.tool_handler(definition, starts_task(async_handler(f)))
    }

    /// Keeps task state in `store` instead of the default in-memory store (a store shared by several
    /// instances lets any of them answer `tasks/get`).
    pub fn task_store(mut self, store: Arc<dyn TaskStore>) -> Self {
        self.task_store = Some(store);
        self
    }

    /// Registers a tool with a raw handler.
    pub fn tool_handler(mut self, definition: impl Serialize, handler: Handler) -> Self {
        match to_definition(DefinitionKind::Tool, definition)
            .and_then(|d| tool_entry(&self.schemas, d, handler))
        {
            Ok((name, _)) if self.registry.tools.contains(&name) => {
                self.errors.push(duplicate(DefinitionKind::Tool, name))
            }
            Ok((name, entry)) => self.registry.tools.insert(name, entry),
            Err(e) => self.errors.push(e),
        }
        self
    }

    /// Registers a static resource with a synchronous read handler returning a ReadResourceResult.
    pub fn resource<F, R>(self, definition: impl Serialize, f: F) -> Self
    where
        F: Fn(&RequestContext) -> R + Send + Sync + 'static,
        R: Into<Reply>,
    {
        self.resource_handler(definition, sync_handler(f))
    }

    /// Registers a static resource with a raw handler.
    pub fn resource_handler(mut self, definition: impl Serialize, handler: Handler) -> Self {
        match resource_definition(definition) {
            Ok((uri, _)) if self.registry.resources.contains(&uri) => {
                self.errors.push(duplicate(DefinitionKind::Resource, uri))
            }
            Ok((uri, definition)) => self.registry.resources.insert(
                uri,
                ResourceEntry {
                    definition,
                    handler,
                },
            ),
            Err(e) => self.errors.push(e),
        }
        self
    }

    /// Serves a skill (the skills extension): its files become resources and the extension is
    /// declared with `skills/list`, `skills/get` and `resources/directory/read`.
    pub fn skill(mut self, skill: crate::skills::Skill) -> Self {
        for uri in skills::register(&mut self.registry, skill) {
            self.errors.push(duplicate(DefinitionKind::Resource, uri));
        }
        self
    }

    /// Registers a resource template (RFC 6570) with a synchronous read handler; the matched variables
    /// are in [`RequestContext::template_vars`].
    pub fn resource_template<F, R>(self, definition: impl Serialize, f: F) -> Self
    where
        F: Fn(&RequestContext) -> R + Send + Sync + 'static,
        R: Into<Reply>,
    {
        self.template_handler(definition, sync_handler(f))
    }

    /// Registers a resource template with a raw handler.
    pub fn template_handler(mut self, definition: impl Serialize, handler: Handler) -> Self {
        match to_definition(DefinitionKind::ResourceTemplate, definition)
            .and_then(|d| template_entry(d, handler))
        {
            Ok((key, _)) if self.registry.templates.contains(&key) => self
                .errors
                .push(duplicate(DefinitionKind::ResourceTemplate, key)),
            Ok((key, entry)) => self.registry.templates.insert(key, entry),
            Err(e) => self.errors.push(e),
        }
        self
    }

    /// Registers a prompt with a synchronous handler returning a GetPromptResult.
    pub fn prompt<F, R>(self, definition: impl Serialize, f: F) -> Self
    where
        F: Fn(&RequestContext, &Value) -> R + Send + Sync + 'static,
        R: Into<Reply>,
    {
        self.prompt_handler(definition, sync_handler(move |ctx| f(ctx, ctx.arguments())))
    }

    /// Registers a prompt with a raw handler.
    pub fn prompt_handler(mut self, definition: impl Serialize, handler: Handler) -> Self {
        match to_definition(DefinitionKind::Prompt, definition)
            .and_then(|d| Ok((prompt_name(&d)?, d)))
        {
            Ok((name, _)) if self.registry.prompts.contains(&name) => {
                self.errors.push(duplicate(DefinitionKind::Prompt, name))
            }
            Ok((name, definition)) => self.registry.prompts.insert(
                name,
                PromptEntry {
                    definition,
                    handler,
                },
            ),
            Err(e) => self.errors.push(e),
        }
        self
    }

    /// Registers the `completion/complete` handler (declares the completions capability).
    pub fn completion<F, R>(mut self, f: F) -> Self
    where
        F: Fn(&RequestContext) -> R + Send + Sync + 'static,
        R: Into<Reply>,
    {
        self.registry.completion = Some(sync_handler(f));
        self
    }

    /// Registers a raw `completion/complete` handler.
    pub fn completion_handler(mut self, handler: Handler) -> Self {
        self.registry.completion = Some(handler);
        self
    }

    /// Answers request method `method` with the host's own `handler`: a method the
    /// specification does not define, or a feature method a host may own (`tools/call`,
    /// `tasks/get`, ...), with the rules of [`Server::set_method_handler`]; what breaks them
    /// (a method the engine keeps, an owned method whose capability is not declared, or owned
    /// while the engine has items it would answer it for) is reported by
    /// [`build`](Self::build).
    pub fn method_handler(mut self, method: &str, handler: Handler) -> Self {
        match custom_methods::check_name(method) {
            Ok(()) => {
                self.registry.methods.insert(method.to_owned(), handler);
            }
            // The reason alone: the build's error already says the registration was invalid.
            Err(e) => self
                .errors
                .push(DefinitionError::unnamed(DefinitionKind::Server, e.detail())),
        }
        self
    }

    /// Declares capabilities of the host's own, advertised as given over what the engine would
    /// declare for each key (see [`Server::declare_capabilities`]); a value that is not a JSON
    /// object is reported by [`build`](Self::build).
    pub fn declare_capabilities(mut self, capabilities: Value) -> Self {
        match capabilities {
            Value::Object(map) => self.registry.declared.extend(map),
            other => self.errors.push(DefinitionError::unnamed(
                DefinitionKind::Server,
                format!("capabilities must be a JSON object, got {other}"),
            )),
        }
        self
    }

    /// Builds the server, or reports every registration problem at once
    /// ([`Error::InvalidDefinitions`]); a name registered twice is one of them, and so is a
    /// method the host owns that the engine would also answer for a registered item.
    pub fn build(mut self) -> Result<Server> {
        if self.versions.is_empty() {
            self.errors.push(DefinitionError::unnamed(
                DefinitionKind::Server,
                "a server must serve at least one protocol version",
            ));
        }
        let mut owned: Vec<&String> = self.registry.methods.keys().collect();
        owned.sort();
        for method in owned {
            let refusal = owned::check_capability(&self.registry.declared, method)
                .err()
                .or_else(|| {
                    owned::engine_item(&self.registry, method).map(|i| owned::conflict(method, &i))
                });
            if let Some(why) = refusal {
                self.errors
                    .push(DefinitionError::unnamed(DefinitionKind::Server, why));
            }
        }
        if !self.errors.is_empty() {
            return Err(Error::InvalidDefinitions(self.errors));
        }
        let sealer = match (self.sealer, self.key) {
            (Some(s), _) => s,
            (None, Some(k)) => StateSealer::new(k),
            (None, None) => StateSealer::random(),
        };
        Ok(Server {
            inner: Arc::new(ServerInner {
                info: Value::Object(self.info),
                instructions: self.instructions,
                registry: RwLock::new(self.registry),
                versions: self.versions,
                sealer,
                config: self.config,
                enabled: self.enabled,
                listeners: Listeners::default(),
                schemas: self.schemas,
                legacy_sessions: Mutex::new(Vec::new()),
                change_hook: parking_lot::RwLock::new(None),
                tasks: match self.task_store {
                    Some(store) => Tasks::new(store),
                    None => Tasks::default(),
                },
            }),
        })
    }
}

/// What [`ServerBuilder::build`] reports for a name registered twice.
fn duplicate(kind: DefinitionKind, name: String) -> DefinitionError {
    DefinitionError::new(kind, name, "registered more than once")
}

/// A definition's checks fail with this.
type Checked<T> = std::result::Result<T, DefinitionError>;

/// A definition object from a model type or JSON.
pub(crate) fn to_definition(kind: DefinitionKind, definition: impl Serialize) -> Checked<Value> {
    match serde_json::to_value(definition) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(other) => Err(DefinitionError::unnamed(
            kind,
            format!("a definition must be a JSON object, got {other}"),
        )),
        Err(e) => Err(DefinitionError::unnamed(
            kind,
            format!("a definition does not serialise: {e}"),
        )),
    }
}

/// A Resource definition and its URI.
pub(crate) fn resource_definition(definition: impl Serialize) -> Checked<(String, Value)> {
    let kind = DefinitionKind::Resource;
    let definition = to_definition(kind, definition)?;
    let uri = required_str(&definition, "uri", kind)?;
    required_str(&definition, "name", kind)?;
    check_meta_keys(definition.get("_meta"), kind, &uri)?;
    Ok((uri, definition))
}

fn required_str(def: &Value, key: &str, kind: DefinitionKind) -> Checked<String> {
    def.get(key)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| DefinitionError::unnamed(kind, format!("needs a string {key}: {def}")))
}

pub(crate) fn tool_name(def: &Value) -> Checked<String> {
    let name = required_str(def, "name", DefinitionKind::Tool)?;
    crate::names::validate_tool_name(&name)
        .map_err(|e| DefinitionError::new(DefinitionKind::Tool, &name, e.to_string()))?;
    Ok(name)
}

pub(crate) fn prompt_name(def: &Value) -> Checked<String> {
    let kind = DefinitionKind::Prompt;
    let name = required_str(def, "name", kind)?;
    check_meta_keys(def.get("_meta"), kind, &name)?;
    if let Some(args) = def.get("arguments")
        && !args.as_array().is_some_and(|a| {
            a.iter()
                .all(|x| x.get("name").is_some_and(Value::is_string))
        })
    {
        return Err(DefinitionError::new(
            kind,
            name,
            "arguments must be an array of {name, ...}",
        ));
    }
    Ok(name)
}

/// Checks a Tool definition and compiles its schemas.
pub(crate) fn tool_entry(
    schemas: &SchemaCache,
    mut definition: Value,
    handler: Handler,
) -> Checked<(String, ToolEntry)> {
    let kind = DefinitionKind::Tool;
    let name = tool_name(&definition)?;
    let obj = definition
        .as_object_mut()
        .expect("tool_name checked an object");
    check_meta_keys(obj.get("_meta"), kind, &name)?;
    let input = obj
        .entry("inputSchema")
        .or_insert_with(|| json!({ "type": "object" }));
    let compiled = schemas
        .compile_tool_input_schema(input)
        .map_err(|e| DefinitionError::new(kind, &name, format!("inputSchema: {e}")))?;
    let input: Validator =
        Arc::new(move |instance: &Value| compiled.validate(instance).map_err(|e| e.to_string()));
    let task_support = TaskSupport::of_definition(&Value::Object(obj.clone()))
        .map_err(|e| DefinitionError::new(kind, &name, e))?;
    let output: Option<Validator> = match obj.get("outputSchema") {
        None => None,
        Some(s) => {
            let compiled = schemas
                .compile(s)
                .map_err(|e| DefinitionError::new(kind, &name, format!("outputSchema: {e}")))?;
            Some(Arc::new(move |instance: &Value| {
                compiled.validate(instance).map_err(|e| e.to_string())
            }))
        }
    };
    let header_params = obj
        .get("inputSchema")
        .and_then(|s| crate::names::x_mcp_header_params(s).ok())
        .unwrap_or_default()
        .into();
    Ok((
        name,
        ToolEntry {
            definition,
            input: Some(input),
            output,
            task_support,
            header_params,
            handler,
        },
    ))
}

/// `_meta` keys of a definition must follow the key syntax (prefix labels, name characters).
fn check_meta_keys(meta: Option<&Value>, kind: DefinitionKind, name: &str) -> Checked<()> {
    let Some(meta) = meta else { return Ok(()) };
    let obj = meta
        .as_object()
        .ok_or_else(|| DefinitionError::new(kind, name, "_meta must be an object"))?;
    for key in obj.keys() {
        crate::names::validate_meta_key(key)
            .map_err(|e| DefinitionError::new(kind, name, format!("_meta: {e}")))?;
    }
    Ok(())
}

pub(crate) fn template_entry(
    definition: Value,
    handler: Handler,
) -> Checked<(String, TemplateEntry)> {
    let kind = DefinitionKind::ResourceTemplate;
    let template = required_str(&definition, "uriTemplate", kind)?;
    required_str(&definition, "name", kind)?;
    let parsed = crate::uri_template::UriTemplate::parse(&template)
        .map_err(|e| DefinitionError::new(kind, &template, e.to_string()))?;
    let matcher = Arc::new(move |uri: &str| parsed.matches(uri).map(vars_to_json));
    Ok((
        template,
        TemplateEntry {
            definition,
            matcher,
            handler,
        },
    ))
}

/// Template variables as JSON: strings, arrays of strings, or objects of strings.
fn vars_to_json(
    vars: std::collections::BTreeMap<String, crate::uri_template::TemplateValue>,
) -> Map<String, Value> {
    use crate::uri_template::TemplateValue;
    vars.into_iter()
        .map(|(k, v)| {
            let v = match v {
                TemplateValue::String(s) => json!(s),
                TemplateValue::List(l) => json!(l),
                TemplateValue::Assoc(a) => {
                    Value::Object(a.into_iter().map(|(k, v)| (k, json!(v))).collect())
                }
            };
            (k, v)
        })
        .collect()
}
