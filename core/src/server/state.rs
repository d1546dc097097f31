//! The server's object graph, as data only: a server ([`ServerInner`]) with its registry, listen
//! streams and tasks; a connection ([`SessionShared`]); a request ([`RequestContext`]) and its
//! pending answer ([`Responder`], [`Completion`]).
//!
//! These types refer to each other in a circle (a request knows its connection, which knows its
//! server, whose registry holds handlers that take a request and a responder, which holds the
//! request again), so they are defined together here, below every stage. Each stage of the
//! pipeline (`session` -> `admit` -> `route` -> `invoke` -> `complete` -> `tasks`, `mrtr` ->
//! `answer`) adds the behaviour it owns in its own file and calls only the stages below it.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize};
use std::sync::{Arc, Weak};

use parking_lot::{Mutex, RwLock};
use serde_json::{Map, Value};
use tokio::sync::{Notify, oneshot};

use super::caller::Caller;
use super::cancel::CancelFlag;
use super::change::Change;
use super::config::ServerConfig;
use super::registry::{Ordered, UriMatcher, Validator};
use super::tasks::{TaskOffer, TaskRecord, TaskStore, TaskSupport};
use crate::error::RpcError;
use crate::jsonrpc::RequestId;
use crate::model::logging::LoggingLevel;
use crate::outgoing::Sink;
use crate::request_state::StateSealer;
use crate::version::ProtocolVersion;

/// A server: cheap to clone, shareable across threads and connections.
#[derive(Clone)]
pub struct Server {
    pub(crate) inner: Arc<ServerInner>,
}

/// A weak handle to a [`Server`]; see [`Server::downgrade`].
#[derive(Clone)]
pub struct WeakServer(pub(super) Weak<ServerInner>);

/// A function told of every change a server announces itself ([`Server::on_change`]).
pub type ChangeHook = Arc<dyn Fn(&Change) + Send + Sync>;

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
    /// The legacy sessions told of changes (`listen`).
    pub(super) legacy_sessions: Mutex<Vec<Weak<SessionShared>>>,
    pub(crate) tasks: Tasks,
    /// Told of every change announced here ([`Server::on_change`]).
    pub(crate) change_hook: RwLock<Option<ChangeHook>>,
}

/// The lowest-level handler: called once per invocation with the request context and a responder to
/// complete now or later, from any thread. Every binding registers handlers of this shape.
pub type Handler = Arc<dyn Fn(RequestContext, Responder) + Send + Sync>;

/// A registered tool.
#[derive(Clone)]
pub struct ToolEntry {
    /// The Tool object as listed.
    pub definition: Value,
    /// Validates `arguments` against `inputSchema`.
    pub input: Option<Validator>,
    /// Validates `structuredContent` against `outputSchema`.
    pub output: Option<Validator>,
    /// Whether calls may or must run as tasks (`execution.taskSupport`).
    pub task_support: TaskSupport,
    /// The arguments a Streamable HTTP client mirrors into `Mcp-Param-*` headers (the
    /// `x-mcp-header` annotations of `inputSchema`), read once at registration so that each call
    /// checks them without walking the schema. Empty when the annotations break the rules: clients
    /// drop such a tool, and the server then checks no `Mcp-Param-*` header for it.
    pub header_params: Arc<[crate::names::HeaderParam]>,
    /// The handler.
    pub handler: Handler,
}

/// A registered static resource.
#[derive(Clone)]
pub struct ResourceEntry {
    /// The Resource object as listed.
    pub definition: Value,
    /// Reads the resource.
    pub handler: Handler,
}

/// A registered resource template.
#[derive(Clone)]
pub struct TemplateEntry {
    /// The ResourceTemplate object as listed.
    pub definition: Value,
    /// Matches URIs to this template.
    pub matcher: UriMatcher,
    /// Reads a resource matched by the template.
    pub handler: Handler,
}

/// A registered prompt.
#[derive(Clone)]
pub struct PromptEntry {
    /// The Prompt object as listed.
    pub definition: Value,
    /// Produces the prompt.
    pub handler: Handler,
}

/// Everything registered.
#[derive(Default, Clone)]
pub struct Registry {
    /// Tools by name.
    pub tools: Ordered<ToolEntry>,
    /// Static resources by URI.
    pub resources: Ordered<ResourceEntry>,
    /// Templates by uriTemplate.
    pub templates: Ordered<TemplateEntry>,
    /// Prompts by name.
    pub prompts: Ordered<PromptEntry>,
    /// The completion handler.
    pub completion: Option<Handler>,
    /// Skills by name (their files are also in `resources`).
    pub skills: Ordered<crate::skills::Skill>,
    /// Handlers of request methods the host answers itself, by method: methods the specification
    /// does not define (`custom_methods`) and the feature methods it lets a host own (`owned`).
    pub methods: HashMap<String, Handler>,
    /// Capabilities the host declares (`Server::declare_capabilities`), advertised over the
    /// engine's own: those of the methods it owns.
    pub declared: Map<String, Value>,
    /// Gives the host's own entries of `resources/list`, listed after the registered resources
    /// (see `Server::set_resource_lister`).
    pub resource_lister: Option<Handler>,
}

/// The legacy handshake state of a connection.
#[derive(Clone, Debug)]
pub(crate) struct LegacyState {
    pub(crate) version: ProtocolVersion,
    pub(crate) client_capabilities: Value,
    pub(crate) client_info: Option<Value>,
    pub(crate) initialized: bool,
    pub(crate) log_level: Option<LoggingLevel>,
    pub(crate) subscriptions: HashSet<String>,
}

pub(crate) struct SessionShared {
    pub(crate) server: Arc<ServerInner>,
    /// Where messages that belong to no request go (legacy notifications, server-to-client requests).
    pub(crate) sink: Sink,
    /// Read it directly; change it through `SessionShared::legacy_write` (`connection`), which
    /// counts changes.
    pub(crate) legacy: RwLock<Option<LegacyState>>,
    /// How many times `legacy` was changed (see `Session::legacy_changes`).
    pub(super) legacy_changes: AtomicU64,
    pub(crate) inflight: Mutex<HashMap<RequestId, CancelFlag>>,
    /// Answers that have left `inflight` and are not in the sink yet (see
    /// `answer::answer_request`): `Session::inflight` counts them too.
    pub(crate) answering: AtomicUsize,
    pub(crate) outgoing: Mutex<HashMap<RequestId, oneshot::Sender<Result<Value, RpcError>>>>,
    pub(super) next_out_id: AtomicI64,
    /// Set once the peer can no longer answer (its input to us ended): server-to-client requests then
    /// fail at once instead of waiting out `client_request_timeout`.
    pub(super) answers_closed: AtomicBool,
    /// Set by `Session::close`: the transport is gone, so a [`SessionNotifier`](super::SessionNotifier)
    /// still holding the connection refuses to send on it.
    pub(crate) closed: AtomicBool,
    /// Whether requests without `_meta` may be served as legacy 2025-03-26 when no session exists
    /// (HTTP without an `MCP-Protocol-Version` header).
    pub(crate) assume_legacy: Option<ProtocolVersion>,
    /// A stateless connection (one modern HTTP request): `initialize` is not a method here, so it is
    /// routed like any other request (and answered -32601 in the modern era).
    pub(crate) stateless: bool,
    /// The authenticated principal that opened this connection (HTTP with authorization).
    #[cfg(feature = "http")]
    pub(crate) principal: std::sync::OnceLock<Arc<crate::auth::AuthInfo>>,
}

pub(crate) struct CtxInner {
    pub(crate) id: RequestId,
    pub(crate) method: String,
    pub(crate) params: Value,
    pub(crate) version: ProtocolVersion,
    pub(crate) client_capabilities: Value,
    pub(crate) client_info: Option<Value>,
    pub(crate) log_level: Option<LoggingLevel>,
    pub(crate) input_responses: Option<Map<String, Value>>,
    pub(crate) request_state: Option<String>,
    pub(crate) template_vars: Option<Map<String, Value>>,
    pub(crate) cancel: CancelFlag,
    pub(crate) sink: Sink,
    pub(crate) session: Arc<SessionShared>,
    pub(crate) last_progress: Mutex<Option<f64>>,
    pub(crate) round: u32,
    /// Who sent the request (verified token, HTTP request head).
    pub(crate) caller: Caller,
    /// Set when this `tools/call` may run as a task (see [`Responder::start_task`]).
    pub(crate) task_offer: Option<TaskOffer>,
    /// The task this request runs as, once started.
    pub(crate) task_id: std::sync::OnceLock<String>,
}

/// Everything a handler may need to know about the request it serves. Cheap to clone; `Send + Sync`.
#[derive(Clone)]
pub struct RequestContext(pub(crate) Arc<CtxInner>);

impl std::fmt::Debug for RequestContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestContext")
            .field("id", &self.0.id)
            .field("method", &self.0.method)
            .field("version", &self.0.version)
            .finish_non_exhaustive()
    }
}

/// Completes a request exactly once. Dropping it unanswered sends an internal error, so a request
/// never hangs. `Send`: it may be completed from any thread.
pub struct Responder {
    pub(crate) completion: Option<Completion>,
}

impl std::fmt::Debug for Responder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Responder")
    }
}

/// What kind of result a request produces, for shaping.
#[derive(Clone)]
pub(crate) enum Kind {
    /// `tools/call` of this tool.
    Tool(Arc<ToolEntry>),
    /// A cacheable result (`resources/read`, lists, discover).
    Cacheable,
    /// `resources/list` answered with a host's entries (`Server::set_resource_lister`): the
    /// registered resources come first, and the answer is one page of both.
    ResourceList,
    /// The answer of a host's handler of a method the specification defines (`owned`): checked
    /// against the revision's result schema; `cacheable` as [`Kind::Cacheable`] on 2026-07-28.
    Owned { cacheable: bool },
    /// Anything else.
    Plain,
}

/// The pending completion of one request.
pub(crate) struct Completion {
    pub(crate) ctx: RequestContext,
    pub(crate) kind: Kind,
    /// The handler, kept to re-invoke it after input rounds.
    pub(crate) handler: Option<Handler>,
    /// The task the answer goes to instead of the wire.
    pub(crate) task: Option<Arc<Live>>,
}

/// The open listen streams of a server.
#[derive(Default)]
pub(crate) struct Listeners {
    pub(super) list: Mutex<Vec<Arc<Listener>>>,
}

/// One open `subscriptions/listen` stream and what it asked for.
pub(super) struct Listener {
    pub(super) ctx: RequestContext,
    pub(super) tools: bool,
    pub(super) prompts: bool,
    pub(super) resources: bool,
    pub(super) uris: Vec<String>,
    /// The tasks whose status changes this stream carries (`notifications/tasks`).
    pub(super) task_ids: Vec<String>,
}

/// The tasks of one server: the store, and the tasks this instance runs.
pub(crate) struct Tasks {
    pub(crate) store: Arc<dyn TaskStore>,
    pub(super) live: Mutex<HashMap<String, Arc<Live>>>,
}

/// A task run by this instance, until it is terminal or expired.
pub(crate) struct Live {
    pub(crate) id: String,
    /// The cancel flag of the request that created the task, which its handler watches.
    pub(super) cancel: CancelFlag,
    pub(super) state: Arc<tokio::sync::Mutex<LiveState>>,
    /// Woken on every status change (2025-11-25 `tasks/result` waits on it).
    pub(crate) changed: Notify,
}

pub(super) struct LiveState {
    pub(super) record: TaskRecord,
    pub(super) waiting: Option<Waiting>,
    /// Numbers the wire keys of input requests, so no key is used twice in the task's life.
    pub(super) next_key: u64,
}

/// A handler waiting for the answers to its input requests.
pub(super) struct Waiting {
    pub(super) ctx: RequestContext,
    pub(super) kind: Kind,
    pub(super) handler: Handler,
    /// Outstanding wire keys and the handler's own key for each.
    pub(super) keys: HashMap<String, String>,
    /// Answers received so far, by the handler's keys.
    pub(super) answers: Map<String, Value>,
    pub(super) state: Option<String>,
}
