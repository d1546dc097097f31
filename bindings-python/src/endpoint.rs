//! `Endpoint`: the server's Streamable HTTP endpoint mounted in the application's own ASGI server.
//! Conversion and delegation only: the Python ASGI app (`libmcp/asgi.py`) hands each HTTP request
//! to the core's [`HttpEndpoint::exchange`] as plain data and sends back what it answers; every
//! protocol decision (eras, sessions, SSE and resumption, Host/Origin, limits) is the core's.

use std::sync::Arc;

use libmcp::transport::http::{ExchangeRequest, HttpEndpoint, ResponseBody};
use parking_lot::Mutex;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

use crate::loop_queue::LoopQueue;
use crate::task::{Task, spawn_to_future};

/// What the handler's context reads back with `RequestContext::http_extension`: the object the
/// ASGI app attached to the request (its scope).
pub(crate) type Extension = Arc<Py<PyAny>>;

/// The endpoint of one server; clones of the core endpoint share its sessions.
#[pyclass(module = "libmcp._native", frozen)]
pub struct Endpoint {
    inner: HttpEndpoint,
}

impl Endpoint {
    pub(crate) fn new(inner: HttpEndpoint) -> Self {
        Endpoint { inner }
    }
}

/// The bytes of one element of an ASGI header pair.
fn header_part(pair: &Bound<'_, PyAny>, i: usize) -> PyResult<String> {
    let part = pair.get_item(i)?;
    let bytes = part
        .cast::<PyBytes>()
        .map_err(|_| PyTypeError::new_err("ASGI header names and values must be bytes"))?;
    // HTTP header values are octets; the core's `http` types refuse any it cannot carry.
    Ok(String::from_utf8_lossy(bytes.as_bytes()).into_owned())
}

#[pymethods]
impl Endpoint {
    /// Answers one HTTP request: `headers` are ASGI's `[(name, value), ...]` (bytes), `body` the
    /// whole body read so far, `extension` what handlers get as the request's extension.
    /// Completes the asyncio future `answer` with `(status, headers, body, stream)`: `body` is the
    /// whole body (bytes) and `stream` None, or `body` None and `stream` a `ResponseStream` of the
    /// SSE events; through `queue` when given (a `LoopQueue` drained on the future's loop, see
    /// `spawn_to_future`). Aborting the returned task drops the exchange (a 2026-07-28 request is
    /// then cancelled).
    #[pyo3(signature = (queue, answer, method, target, headers, body, extension=None))]
    #[allow(clippy::too_many_arguments)]
    fn exchange(
        &self,
        queue: Option<Py<LoopQueue>>,
        answer: Py<PyAny>,
        method: String,
        target: String,
        headers: &Bound<'_, PyAny>,
        body: &Bound<'_, PyBytes>,
        extension: Option<Py<PyAny>>,
    ) -> PyResult<Task> {
        let mut req = ExchangeRequest::new(method, target);
        for pair in headers.try_iter()? {
            let pair = pair?;
            req = req.header(header_part(&pair, 0)?, header_part(&pair, 1)?);
        }
        req = req.body(body.as_bytes().to_vec());
        if let Some(ext) = extension {
            req = req.extension::<Extension>(Arc::new(ext));
        }
        let endpoint = self.inner.clone();
        let work = async move {
            let mut exchange = endpoint.exchange(req).await;
            let whole = if exchange.body.is_stream() {
                None
            } else {
                let mut all = Vec::new();
                while let Some(chunk) = exchange.body.next_chunk().await {
                    all.extend_from_slice(&chunk);
                }
                Some(all)
            };
            Ok::<_, libmcp::Error>((exchange, whole))
        };
        spawn_to_future(queue, answer, work, |py, (exchange, whole)| {
            let headers = PyList::empty(py);
            for (name, value) in &exchange.headers {
                let pair = (
                    PyBytes::new(py, name.as_bytes()),
                    PyBytes::new(py, value.as_bytes()),
                );
                headers.append(PyTuple::new(py, [pair.0, pair.1])?)?;
            }
            let (body, stream) = match whole {
                Some(all) => (PyBytes::new(py, &all).into_any().unbind(), py.None()),
                None => {
                    let stream = ResponseStream {
                        body: Arc::new(Mutex::new(Some(exchange.body))),
                    };
                    (py.None(), Py::new(py, stream)?.into_any())
                }
            };
            let out = (exchange.status, headers, body, stream);
            Ok(out.into_pyobject(py)?.into_any().unbind())
        })
    }

    /// Ends every session, open stream and subscription of the endpoint (the ASGI lifespan's
    /// shutdown).
    fn close(&self) {
        self.inner.close();
    }

    /// The largest request body the endpoint accepts, in bytes (the ASGI app stops reading there).
    #[getter]
    fn max_body_bytes(&self) -> usize {
        self.inner.config().max_body_bytes
    }
}

/// The SSE events of one response, as the engine produces them.
#[pyclass(module = "libmcp._native", frozen)]
pub struct ResponseStream {
    /// Taken out while a chunk is awaited, so that aborting that wait drops the body (and so ends
    /// the exchange); put back after each chunk.
    body: Arc<Mutex<Option<ResponseBody>>>,
}

#[pymethods]
impl ResponseStream {
    /// Completes the asyncio future `answer` (through `queue`, as `Endpoint.exchange` does) with
    /// the next event's bytes, or None once the stream has ended (or was closed). Aborting the
    /// returned task ends the stream.
    fn next_chunk(&self, queue: Option<Py<LoopQueue>>, answer: Py<PyAny>) -> PyResult<Task> {
        let slot = self.body.clone();
        let next = async move {
            let taken = slot.lock().take();
            let Some(mut body) = taken else {
                return Ok::<_, libmcp::Error>(None);
            };
            let chunk = body.next_chunk().await;
            if chunk.is_some() {
                *slot.lock() = Some(body);
            }
            Ok(chunk)
        };
        spawn_to_future(queue, answer, next, |py, chunk| {
            Ok(match chunk {
                Some(bytes) => PyBytes::new(py, &bytes).into_any().unbind(),
                None => py.None(),
            })
        })
    }

    /// Ends the stream now (the client went away): the exchange ends, as dropping it does.
    fn close(&self) {
        self.body.lock().take();
    }
}
