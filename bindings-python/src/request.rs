//! `Request`: one handler invocation as Python sees it. It reads the engine's [`RequestContext`] and
//! completes its [`Responder`] exactly once; everything about the protocol (validation, MRTR versus
//! legacy server-to-client requests, shapes per revision) stays in the engine.

use libmcp::RpcError;
use libmcp::model::logging::LoggingLevel;
use libmcp::server::{CancelFlag, InputRequired, Reply, RequestContext, Responder};
use parking_lot::Mutex;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use serde_json::Value;

use crate::convert::{from_py, to_py};

/// A request being served.
#[pyclass(module = "libmcp._native", frozen)]
pub struct Request {
    ctx: RequestContext,
    responder: Mutex<Option<Responder>>,
    /// Set once answered, so that cancellation watchers end with the request.
    answered: CancelFlag,
}

impl Request {
    pub fn new(ctx: RequestContext, responder: Responder) -> Self {
        Request {
            ctx,
            responder: Mutex::new(Some(responder)),
            answered: CancelFlag::default(),
        }
    }

    /// Answers with an internal error unless the request was answered already.
    pub fn fail_if_unanswered(&self, message: String) {
        if let Some(r) = self.responder.lock().take() {
            // Answering may start engine work (legacy input rounds), from any thread.
            let rt = crate::runtime::handle().ok();
            let _entered = rt.as_ref().map(|h| h.enter());
            r.error(RpcError::internal(message));
            self.answered.cancel();
        }
    }

    fn finish(&self, py: Python<'_>, reply: Reply) -> PyResult<()> {
        let Some(r) = self.responder.lock().take() else {
            return Err(PyRuntimeError::new_err("this request was answered already"));
        };
        // Answering may start engine work (legacy input rounds): the caller may be an event loop
        // thread, outside the engine's runtime. The engine's share (completing the result, encoding
        // and handing it to the transport) runs without the GIL, so that other handlers go on.
        let rt = crate::runtime::handle()?;
        py.detach(|| {
            let _entered = rt.enter();
            r.reply(reply);
        });
        self.answered.cancel();
        Ok(())
    }
}

fn opt_to_py(py: Python<'_>, v: Option<&Value>) -> PyResult<Py<PyAny>> {
    match v {
        Some(v) => Ok(to_py(py, v)?.unbind()),
        None => Ok(py.None()),
    }
}

#[pymethods]
impl Request {
    /// The method served (`tools/call`, `resources/read`, `prompts/get`, `completion/complete`).
    #[getter]
    fn method(&self) -> &str {
        self.ctx.method()
    }

    /// The full params object.
    #[getter]
    fn params(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(to_py(py, self.ctx.params())?.unbind())
    }

    /// `params.arguments` (`{}` when absent).
    #[getter]
    fn arguments(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(to_py(py, self.ctx.arguments())?.unbind())
    }

    /// The variables a resource template matched, or None.
    #[getter]
    fn template_vars(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let vars = self.ctx.template_vars().cloned().map(Value::Object);
        opt_to_py(py, vars.as_ref())
    }

    /// The request's `_meta`, or None.
    #[getter]
    fn meta(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let meta = self.ctx.meta().cloned().map(Value::Object);
        opt_to_py(py, meta.as_ref())
    }

    /// The JSON-RPC id, as a str or int.
    #[getter]
    fn request_id(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let id = serde_json::to_value(self.ctx.id()).unwrap_or(Value::Null);
        Ok(to_py(py, &id)?.unbind())
    }

    /// The protocol version the request is served under.
    #[getter]
    fn protocol_version(&self) -> &str {
        self.ctx.protocol_version().as_str()
    }

    /// `"modern"` or `"legacy"`.
    #[getter]
    fn era(&self) -> &'static str {
        libmcp::host::era_name(self.ctx.era())
    }

    /// The client capabilities in force.
    #[getter]
    fn client_capabilities(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(to_py(py, self.ctx.client_capabilities())?.unbind())
    }

    /// The client's implementation object, or None.
    #[getter]
    fn client_info(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        opt_to_py(py, self.ctx.client_info())
    }

    /// Whether the client declared the capability at this path, e.g. `["elicitation", "url"]`.
    fn has_client_capability(&self, path: Vec<String>) -> bool {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        self.ctx.has_client_capability(&path)
    }

    /// The principal of the request's verified bearer token (a dict), or None when the HTTP server
    /// does not authenticate.
    #[getter]
    fn auth(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match self.ctx.auth() {
            Some(info) => crate::resource::principal(py, info),
            None => Ok(py.None()),
        }
    }

    /// The HTTP request that carried the call, as `(method, target, headers, session_id,
    /// extension)` (`headers` a list of `(name, value)`, names lowercase; `extension` what the
    /// ASGI app attached, or None), or None when the request did not come over HTTP.
    #[getter]
    fn http(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let Some(parts) = self.ctx.http_request() else {
            return Ok(py.None());
        };
        let headers = PyList::empty(py);
        for (name, value) in &parts.headers {
            let value = String::from_utf8_lossy(value.as_bytes());
            headers.append((name.as_str(), value.as_ref()))?;
        }
        let extension = self
            .ctx
            .http_extension::<crate::endpoint::Extension>()
            .map(|e| e.clone_ref(py));
        let out = (
            parts.method.as_str(),
            parts.uri.to_string(),
            headers,
            self.ctx.http_session_id(),
            extension,
        );
        Ok(out.into_pyobject(py)?.into_any().unbind())
    }

    /// The answers to earlier input requests, keyed as asked, or None.
    #[getter]
    fn input_responses(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let r = self.ctx.input_responses().cloned().map(Value::Object);
        opt_to_py(py, r.as_ref())
    }

    /// The answer under `key` to a form elicitation asked with `requested_schema`, checked by the
    /// engine against that schema (`RequestContext::elicitation_answer`), or None when there is
    /// none; a malformed answer, or accepted content that does not match, raises `ProtocolError`
    /// (-32602).
    fn elicitation_answer(
        &self,
        py: Python<'_>,
        key: &str,
        requested_schema: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let schema = from_py(requested_schema)?;
        let answer = self
            .ctx
            .elicitation_answer(key, &schema)
            .map_err(|e| crate::errors::to_pyerr(py, libmcp::Error::Rpc(e)))?;
        opt_to_py(py, answer)
    }

    /// The verified state attached to the last `InputRequired`, or None.
    #[getter]
    fn request_state(&self) -> Option<&str> {
        self.ctx.request_state()
    }

    /// How many input rounds came before this invocation.
    #[getter]
    fn round(&self) -> u32 {
        self.ctx.round()
    }

    /// Whether the request was cancelled.
    #[getter]
    fn cancelled(&self) -> bool {
        self.ctx.is_cancelled()
    }

    /// Calls `callback()` (from a Python worker thread) once the request is cancelled. Returns at
    /// once.
    fn on_cancel(&self, callback: Py<PyAny>) -> PyResult<()> {
        let flag = self.ctx.cancel_flag().clone();
        let answered = self.answered.clone();
        crate::runtime::spawn(async move {
            tokio::select! {
                _ = flag.cancelled() => {}
                _ = answered.cancelled() => return,
            }
            // On a Python worker, not this engine thread. A callback failing has nobody to report
            // to but the handler it would cancel.
            crate::executor::run(Box::new(move |py| {
                let _ = callback.call0(py);
            }));
        })?;
        Ok(())
    }

    /// Sends a progress notification if the client asked for progress; returns whether it was sent.
    #[pyo3(signature = (progress, total=None, message=None))]
    fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) -> bool {
        self.ctx.notify_progress(progress, total, message)
    }

    /// Sends a log message if the client asked for this level; returns whether it was sent.
    #[pyo3(signature = (level, data, logger=None))]
    fn log(&self, level: &str, data: &Bound<'_, PyAny>, logger: Option<&str>) -> PyResult<bool> {
        let level: LoggingLevel = serde_json::from_value(Value::String(level.to_owned()))
            .map_err(|_| {
                PyValueError::new_err(format!(
                    "unknown log level {level:?} (debug, info, notice, warning, error, critical, alert, emergency)"
                ))
            })?;
        Ok(self.ctx.log(level, logger, from_py(data)?))
    }

    /// A handle on the legacy session of this request, to notify it after the request is
    /// answered; raises `NoSessionError` for a 2026-07-28 request or one served without a session.
    fn session_notifier(&self) -> PyResult<crate::session_notifier::SessionNotifier> {
        self.ctx
            .session_notifier()
            .map(crate::session_notifier::SessionNotifier)
            .map_err(|e| crate::errors::session_error(&e))
    }

    /// Closes the response stream while the request keeps running (resumable HTTP sessions only;
    /// the client reconnects for the rest); False, doing nothing, elsewhere.
    fn close_stream(&self) -> bool {
        self.ctx.close_stream()
    }

    /// Whether the request may still start a task (a task-supporting tool called by a client that
    /// takes tasks, not yet running as one).
    #[getter]
    fn can_run_as_task(&self) -> bool {
        self.ctx.can_run_as_task()
    }

    /// The id of the task this request runs as, or None.
    #[getter]
    fn task_id(&self) -> Option<&str> {
        self.ctx.task_id()
    }

    /// Runs the request as a task if it may: the client gets the task at once and the answer given
    /// later completes the task. Returns whether the request now runs as a task (False leaves the
    /// request to be answered directly).
    fn start_task(&self) -> PyResult<bool> {
        let mut slot = self.responder.lock();
        let Some(responder) = slot.take() else {
            return Err(PyRuntimeError::new_err("this request was answered already"));
        };
        if !self.ctx.can_run_as_task() {
            *slot = Some(responder);
            return Ok(self.ctx.task_id().is_some());
        }
        // The engine stores the task and answers on its runtime.
        let rt = crate::runtime::handle()?;
        let _entered = rt.enter();
        *slot = Some(responder.start_task());
        Ok(self.ctx.task_id().is_some())
    }

    /// Answers with a complete result object.
    fn reply_result(&self, result: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = from_py(result)?;
        if !value.is_object() {
            return Err(PyTypeError::new_err("a result must be a dict"));
        }
        self.finish(result.py(), Reply::Result(value))
    }

    /// Answers a tool call whose handler returned None: the binding kit's answer for nothing
    /// returned (`libmcp::host::ToolResult::Nothing`).
    fn reply_nothing(&self, py: Python<'_>) -> PyResult<()> {
        self.finish(py, libmcp::host::ToolResult::Nothing.into_reply())
    }

    /// Answers a tool call whose handler raised: the binding kit's tool error with `message` as
    /// its text (`libmcp::host::ToolResult::Error`).
    fn reply_tool_error(&self, py: Python<'_>, message: String) -> PyResult<()> {
        self.finish(py, libmcp::host::ToolResult::Error(message).into_reply())
    }

    /// Answers with a JSON-RPC error.
    #[pyo3(signature = (code, message, data=None))]
    fn reply_error(
        &self,
        py: Python<'_>,
        code: i32,
        message: String,
        data: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let mut e = RpcError::new(code, message);
        if let Some(d) = data {
            e = e.with_data(from_py(d)?);
        }
        self.finish(py, Reply::Error(e))
    }

    /// Asks the client for input (MRTR; legacy clients get real server-to-client requests).
    fn reply_input_required(&self, input: &Bound<'_, Input>) -> PyResult<()> {
        let py = input.py();
        let input = input.get().inner.lock().clone();
        if input.requests.is_empty() {
            return Err(PyValueError::new_err(
                "InputRequired needs at least one request",
            ));
        }
        self.finish(py, Reply::InputRequired(input))
    }

    /// Whether the request was answered.
    #[getter]
    fn answered(&self) -> bool {
        self.responder.lock().is_none()
    }
}

/// Input a handler needs before it can finish: the engine's [`InputRequired`], built by its own
/// methods (the request shapes live there).
#[pyclass(module = "libmcp._native", name = "InputRequired", frozen)]
pub struct Input {
    inner: Mutex<InputRequired>,
}

#[pymethods]
impl Input {
    /// No requests yet; `state` comes back verified on the retry (`ctx.request_state`).
    #[new]
    #[pyo3(signature = (state=None))]
    fn new(state: Option<String>) -> Self {
        let mut inner = InputRequired::new();
        inner.state = state;
        Input {
            inner: Mutex::new(inner),
        }
    }

    /// Adds a form-mode `elicitation/create` request under `key`.
    fn elicit<'py>(
        slf: Bound<'py, Self>,
        key: &str,
        message: &str,
        requested_schema: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        let schema = from_py(requested_schema)?;
        slf.get().update(|i| i.elicit(key, message, schema));
        Ok(slf)
    }

    /// Adds a URL-mode `elicitation/create` request under `key`.
    fn elicit_url<'py>(
        slf: Bound<'py, Self>,
        key: &str,
        message: &str,
        url: &str,
    ) -> Bound<'py, Self> {
        slf.get().update(|i| i.elicit_url(key, message, url));
        slf
    }

    /// Adds a `sampling/createMessage` request with these params under `key`.
    fn sample<'py>(
        slf: Bound<'py, Self>,
        key: &str,
        params: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        let params = from_py(params)?;
        if !params.is_object() {
            return Err(PyTypeError::new_err("sampling params must be a dict"));
        }
        slf.get().update(|i| i.sample(key, params));
        Ok(slf)
    }

    /// Adds a `roots/list` request under `key`.
    fn list_roots<'py>(slf: Bound<'py, Self>, key: &str) -> Bound<'py, Self> {
        slf.get().update(|i| i.list_roots(key));
        slf
    }

    /// The requests so far, keyed as added.
    #[getter]
    fn requests(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let requests = Value::Object(self.inner.lock().requests.clone());
        Ok(to_py(py, &requests)?.unbind())
    }

    /// The state to get back on the retry.
    #[getter]
    fn state(&self) -> Option<String> {
        self.inner.lock().state.clone()
    }
}

impl Input {
    fn update(&self, f: impl FnOnce(InputRequired) -> InputRequired) {
        let mut guard = self.inner.lock();
        let current = std::mem::take(&mut *guard);
        *guard = f(current);
    }
}
