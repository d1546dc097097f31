//! The C ABI of libmcp. Every item here is `extern "C"` and documented for C: the generated header
//! `include/mcp.h` carries these comments. Conventions (rustls-ffi, hyper, wasmtime):
//!
//! - opaque handles with `mcp_<noun>_new` / `mcp_<noun>_free`;
//! - fallible functions return [`mcp_status`]; results go to `*_out` parameters written only on success;
//! - strings in as `(const char *ptr, size_t len)` UTF-8, copied before return; borrowed views out as
//!   [`mcp_str`]; owned results as [`mcp_string`] freed with `mcp_string_free`;
//! - a panic never crosses the boundary (it becomes `MCP_STATUS_PANIC`) and every pointer is checked;
//! - signals: the library installs no handler; its threads block SIGPIPE (a closed pipe is an
//!   `MCP_STATUS_IO`, never a killed host); no function is async-signal-safe, so a signal handler sets
//!   a flag and a thread calls `mcp_serve_stop`; block signals you `sigwait` for before
//!   `mcp_runtime_new` so its threads inherit the mask;
//! - threads: callbacks run on the runtime's threads, where blocking functions fail with
//!   `MCP_STATUS_WRONG_THREAD` and the `_free` functions that wait must not be called;
//! - diagnostics: nothing is printed; `mcp_set_log_callback` receives them;
//! - valgrind: the release library is clean under `valgrind --leak-check=full` with no suppressions.
#![allow(non_camel_case_types)]
// Every extern fn checks its pointers itself; the safety contract is stated in its doc for C callers.
#![allow(clippy::missing_safety_doc)]
// The extern fns are safe to call from Rust's point of view only because C is the caller: they take
// raw pointers by design, check them for NULL, and document the validity C must guarantee.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

#[macro_use]
mod macros;

mod builder_slot;
pub mod cancel;
pub mod child;
mod child_stderr;
pub mod client;
pub mod client_async;
pub mod client_builder;
pub mod client_config;
pub mod client_http;
mod client_http_settings;
mod config_change;
pub mod elicitation_answer;
pub mod error;
pub mod event_store;
mod fd_stream;
pub mod handler;
pub mod http_config;
pub mod http_endpoint;
pub mod http_exchange;
pub mod http_server;
pub mod input;
pub mod json;
pub mod log;
pub mod methods;
pub mod oauth;
pub mod oauth_grants;
pub mod redis;
mod redis_shared;
pub mod request;
pub mod request_arguments;
pub mod request_http;
pub mod resource_server;
pub mod responder;
pub mod runtime;
pub mod serve_fd;
pub mod server;
pub mod server_config;
pub mod server_registry;
pub mod session_notifier;
pub mod session_store;
mod setting_values;
pub mod skills;
pub mod status;
pub mod string;
pub mod subscription;
pub mod tasks;
pub mod version;

pub use cancel::*;
pub use child::*;
pub use client::*;
pub use client_async::*;
pub use client_builder::*;
pub use client_config::*;
pub use client_http::*;
pub use error::*;
pub use event_store::*;
pub use handler::*;
pub use http_config::*;
pub use http_endpoint::*;
pub use http_exchange::*;
pub use http_server::*;
pub use input::*;
pub use json::*;
pub use log::*;
pub use methods::*;
pub use oauth::*;
pub use oauth_grants::*;
pub use redis::*;
pub use request::*;
pub use request_http::*;
pub use resource_server::*;
pub use responder::*;
pub use runtime::*;
pub use serve_fd::*;
pub use server::*;
pub use server_config::*;
pub use server_registry::*;
pub use session_notifier::*;
pub use session_store::*;
pub use skills::*;
pub use status::*;
pub use string::*;
pub use subscription::*;
pub use tasks::*;
pub use version::*;
