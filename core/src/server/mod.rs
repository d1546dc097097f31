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

//! # The request pipeline
//!
//! Each file calls only the files below it (`core/tests/layers.rs` checks it):
//!
//! - `session`: a connection; parses frames and hands each request to
//! - `admit`: `_meta` shape, the legacy handshake (`handshake`), the era (decided only here), and
//!   the in-flight limits; then
//! - `route`: gating by era and capability, the request's context, the engine's own answers; the
//!   extension methods go to `skills`, `listen` and `tasks`, handlers' methods to
//! - `invoke`: finds and checks the handler, arms its deadline (`deadline`) and calls it (`call`)
//!   with a [`Responder`] (`responder`), whose answer goes to
//! - `complete`: a task's answer goes into the task (`tasks`), a request for input starts an input
//!   round (`mrtr`), anything else goes on the wire through
//! - `answer`: result shaping and the one answer of each request.
//!
//! Under them all, `state` holds the data the stages share (the server, connection and request
//! types refer to each other, so they are defined together, without behaviour); `context`,
//! `connection`, `capabilities` and `registry` add the accessors the stages read it with.
//! `builder`, `handlers`, `typed` and `runtime` (registration, at build time and at runtime) sit
//! above the pipeline; `session_notifier` (a handler's handle on its legacy session, to notify it
//! after the request) reads only `state` and `context`.

mod admit;
mod answer;
mod ask;
mod builder;
mod call;
mod caller;
mod cancel;
mod capabilities;
mod change;
mod complete;
mod config;
mod connection;
pub mod context;
mod custom_methods;
mod deadline;
mod elicited;
mod handlers;
mod handshake;
mod host_validated;
mod invoke;
mod listen;
mod mrtr;
mod owned;
pub mod registry;
mod responder;
mod route;
mod runtime;
mod session;
mod session_notifier;
mod skills;
mod state;
pub mod tasks;
#[cfg(feature = "schemars")]
mod typed;
mod validate;

pub use crate::model::CacheScope;
#[cfg(feature = "http")]
pub(crate) use admit::modern_era;
pub use builder::ServerBuilder;
#[cfg(feature = "http")]
pub(crate) use caller::Caller;
pub use change::Change;
pub use config::ServerConfig;
pub use context::{CancelFlag, InputRequired, Reply, RequestContext, Responder};
pub use handlers::{async_handler, sync_handler};
pub use host_validated::ValidatedByHost;
pub use registry::{
    Handler, PromptEntry, ResourceEntry, TemplateEntry, ToolEntry, UriMatcher, Validator,
};
pub use session::Session;
pub use session_notifier::{ELICITATION_COMPLETE, SessionNotifier, SessionNotifyError};
pub use state::{ChangeHook, Server, WeakServer};
#[cfg(feature = "schemars")]
pub use typed::{Json, ToolDef, ToolOutput, derive_schema};
