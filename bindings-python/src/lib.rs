//! `libmcp._native`: the engine as a Python extension module. Conversion and delegation only; the
//! protocol lives in the `libmcp` crate. The Python package (`python/libmcp`) builds its API on it.

mod client;
mod convert;
mod endpoint;
mod errors;
mod executor;
mod http_options;
mod limits;
mod log;
mod loop_queue;
mod memory;
mod oauth;
mod pipe;
mod request;
mod resource;
mod runtime;
mod server;
mod session_notifier;
mod shared;
mod subscription;
mod task;
mod task_store;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<server::Server>()?;
    m.add_class::<server::Stopper>()?;
    m.add_class::<loop_queue::LoopQueue>()?;
    m.add_class::<server::HttpServer>()?;
    m.add_class::<endpoint::Endpoint>()?;
    m.add_class::<endpoint::ResponseStream>()?;
    m.add_class::<request::Request>()?;
    m.add_class::<request::Input>()?;
    m.add_class::<session_notifier::SessionNotifier>()?;
    m.add_class::<client::Client>()?;
    m.add_class::<client::InputReply>()?;
    m.add_class::<task::Task>()?;
    m.add_class::<pipe::Pipe>()?;
    m.add_class::<oauth::OAuth>()?;
    m.add_class::<oauth::AuthorizationReply>()?;
    m.add_class::<resource::VerifyReply>()?;
    m.add_class::<subscription::Subscription>()?;
    m.add_function(wrap_pyfunction!(client::connect_stdio, m)?)?;
    m.add_function(wrap_pyfunction!(client::connect_http, m)?)?;
    m.add_function(wrap_pyfunction!(memory::connect_memory, m)?)?;
    m.add_function(wrap_pyfunction!(pipe::serve_pipe, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::shutdown, m)?)?;
    m.add_function(wrap_pyfunction!(log::set_engine_log, m)?)?;
    m.add_function(wrap_pyfunction!(subscription::task_of, m)?)?;
    m.add("ENGINE_VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
