//! libmcp: a native engine for the Model Context Protocol.
//!
//! One engine serves and consumes both eras of MCP: the stateless 2026-07-28 revision (per-request
//! `_meta`, `server/discover`, multi round-trip requests, `subscriptions/listen`) and the legacy
//! revisions 2024-11-05 through 2025-11-25 (the `initialize` handshake and sessions).
//!
//! The library never prints. Its diagnostics (a handler that panicked, a result it rejected, a
//! malformed message it ignored, a child server's stderr lines) are [`tracing`] events under targets
//! starting with `libmcp`; a host that wants them installs a subscriber.
#![warn(missing_docs)]

pub mod auth;
pub mod error;
pub mod file_uri;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
pub mod icons;
pub mod jsonrpc;
pub mod meta;
pub mod model;
pub mod names;
#[cfg(feature = "http")]
mod net;
pub mod outgoing;
pub mod request_state;
pub mod schema;
mod shapes;
pub mod skills;
#[cfg(feature = "redis")]
pub mod store;
pub mod uri_template;
pub mod version;

pub mod client;
pub mod server;
pub mod transport;

pub mod host;

pub use error::{Error, ErrorKind, Result, RpcError};

/// An MCP tool from a function: `#[tool] fn name(params...) -> R` becomes `fn name() -> ToolDef`,
/// ready for [`ServerBuilder::register`](server::ServerBuilder::register) or
/// [`Server::register`](server::Server::register).
///
/// - The parameters are the tool's arguments: their types (anything `Deserialize + JsonSchema`)
///   give the `inputSchema`; `Option<T>` parameters are optional. `#[arg(description = "...")]`
///   describes one; `#[serde(...)]` and `#[schemars(...)]` on a parameter pass through to its field.
/// - A first parameter of type `&RequestContext` (or `RequestContext`; by value in an `async fn`)
///   receives the request's context: progress, logging, cancellation, input requests.
/// - The return type is what [`ToolDef::sync_fn`](server::ToolDef::sync_fn) takes: `String`,
///   [`Json<T>`](server::Json) (then `T`'s schema is the `outputSchema` and the value the
///   `structuredContent`), `CallToolResult`, [`Reply`](server::Reply), or a `Result` of one whose
///   `Err` is a tool error the model reads.
/// - The name is the function's unless `name = "..."` says otherwise; the doc comment is the
///   `description` unless `description = "..."` is given; `title = "..."` sets the display name;
///   the flags `read_only`, `destructive`, `idempotent` and `open_world` set those annotation hints.
///
/// ```
/// use libmcp::server::{Json, RequestContext, Server};
/// use libmcp::tool;
///
/// /// Adds two integers.
/// #[tool(read_only)]
/// fn add(a: i64, #[arg(description = "The second term")] b: i64) -> String {
///     (a + b).to_string()
/// }
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Forecast {
///     city: String,
///     celsius: f64,
/// }
///
/// /// Tomorrow's forecast for a city.
/// #[tool(name = "get_forecast", title = "Forecast")]
/// async fn forecast(ctx: RequestContext, city: String, days: Option<u32>) -> Json<Forecast> {
///     let _ = (ctx.era(), days);
///     Json(Forecast { city, celsius: 21.5 })
/// }
///
/// let server = Server::builder("weather", "1.0.0").register(add()).register(forecast()).build()?;
/// assert_eq!(server.tool_definition("get_forecast").unwrap()["title"], "Forecast");
/// # Ok::<(), libmcp::Error>(())
/// ```
#[cfg(feature = "macros")]
#[doc(inline)]
pub use libmcp_macros::tool;

/// What the code `#[tool]` generates refers to, so that users need not depend on these crates.
#[cfg(feature = "macros")]
#[doc(hidden)]
pub mod __private {
    pub use schemars;
    pub use serde;
}
pub use jsonrpc::RequestId;
pub use version::{Era, ProtocolVersion};

/// The README's Rust examples, compiled as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
