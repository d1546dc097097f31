//! The Node addon of libmcp: a thin N-API layer (napi-rs) over the core engine. Values cross as JSON
//! text (a request as its number and params, see `request.rs`); `lib/*.js` turns them into
//! objects, errors into `McpError` classes, and JS handlers into the raw handler shape of
//! `libmcp::server::Handler`. No protocol rule lives here: registration,
//! validation, both eras, MRTR and every transport are the core's.

// napi-derive registers exports only outside `cfg(test)`, so the unit-test build sees them unused.
#![cfg_attr(test, allow(dead_code))]

mod auth;
mod client;
mod client_auth;
mod client_options;
mod engine_log;
mod error;
mod host_request;
mod http;
mod http_stores;
mod js_strings;
mod json_schema;
mod large_strings;
mod limits;
mod memory;
mod mount;
mod option_values;
mod redis;
mod request;
mod server;
mod session_notifier;
mod skills;
mod stdio;
mod subscription;
mod task_store;
mod tool_result;
mod version;

/// Memory crosses between the engine's threads and the JS thread on every request; mimalloc frees
/// across threads without a shared lock.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The engine runs on one tokio worker: the JS thread is the other busy thread (handlers), and a
/// second worker would mostly steal the transport's tasks back and forth, each hand-off a wake-up.
#[cfg(not(test))]
#[napi_derive::module_init]
fn init() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build();
    // Without it napi-rs builds its default runtime when first needed.
    if let Ok(rt) = runtime {
        napi::bindgen_prelude::create_custom_tokio_runtime(rt);
    }
}
