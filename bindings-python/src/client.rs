//! `Client`: the engine's client. Connecting, every request and closing run on the engine; their
//! outcomes reach Python through `done(ok, value)` callables (see [`crate::task`]). Input requests from
//! the server (elicitation, sampling, roots; MRTR or legacy) are answered by Python callables.

use std::sync::Arc;
use std::time::Duration;

use libmcp::RpcError;
use libmcp::client::http::HttpClientOptions;
use libmcp::client::{
    CallOptions, ClientBuilder, ClientConfig, TaskCall, VersionPreference, WireDirection,
};
use libmcp::transport::child::ChildSpec;
use parking_lot::Mutex;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::convert::{from_py, to_py};
use crate::task::{Task, spawn_py};

/// A connected client.
#[pyclass(module = "libmcp._native", frozen)]
pub struct Client {
    inner: libmcp::client::Client,
}

/// The answer slot of one input request: `send(result)` or `fail(code, message, data)`, once.
#[pyclass(module = "libmcp._native", frozen)]
pub struct InputReply {
    tx: Mutex<Option<oneshot::Sender<Result<Value, RpcError>>>>,
}

#[pymethods]
impl InputReply {
    /// Answers with a result object.
    fn send(&self, result: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = from_py(result);
        let answer = match value {
            Ok(v @ Value::Object(_)) => Ok(v),
            Ok(_) => Err(RpcError::internal(
                "the input handler returned something other than a dict",
            )),
            Err(e) => Err(RpcError::internal(e)),
        };
        if let Some(tx) = self.tx.lock().take() {
            let _ = tx.send(answer);
        }
        Ok(())
    }

    /// Answers with a JSON-RPC error.
    #[pyo3(signature = (code, message, data=None))]
    fn fail(&self, code: i32, message: String, data: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let mut e = RpcError::new(code, message);
        if let Some(d) = data {
            e = e.with_data(from_py(d)?);
        }
        if let Some(tx) = self.tx.lock().take() {
            let _ = tx.send(Err(e));
        }
        Ok(())
    }
}

/// An input handler calling `invoke(params, reply)` in Python and awaiting the reply.
fn ask_python(
    invoke: Arc<Py<PyAny>>,
) -> impl Fn(Value) -> std::pin::Pin<Box<dyn Future<Output = Result<Value, RpcError>> + Send>>
+ Send
+ Sync
+ 'static {
    move |params: Value| {
        let invoke = invoke.clone();
        Box::pin(async move {
            let (tx, rx) = oneshot::channel();
            let called = Python::attach(|py| -> PyResult<()> {
                let p = to_py(py, &params)?;
                let reply = Py::new(
                    py,
                    InputReply {
                        tx: Mutex::new(Some(tx)),
                    },
                )?;
                invoke.call1(py, (p, reply))?;
                Ok(())
            });
            if let Err(e) = called {
                return Err(RpcError::internal(e));
            }
            rx.await
                .unwrap_or_else(|_| Err(RpcError::internal("the input handler did not answer")))
        })
    }
}

/// The binding kit's version preference for `protocol_version` (absent: probe; else "auto" or a known
/// revision); a refusal is `InvalidArgument` naming the Python option.
fn preference(version: Option<&str>) -> PyResult<VersionPreference> {
    libmcp::host::version_preference(version).map_err(|e| {
        crate::errors::InvalidArgument::new_err(format!("protocol_version: {}", e.reason))
    })
}

fn seconds(s: f64, name: &str) -> PyResult<Duration> {
    Duration::try_from_secs_f64(s).map_err(|_| {
        PyValueError::new_err(format!("{name} must be a non-negative number of seconds"))
    })
}

/// How to build the client (everything but the transport).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Options {
    name: String,
    version: String,
    protocol_version: Option<String>,
    elicitation: Option<Py<PyAny>>,
    elicitation_url: bool,
    sampling: Option<Py<PyAny>>,
    roots: Option<Py<PyAny>>,
    on_notification: Option<Py<PyAny>>,
    on_wire: Option<Py<PyAny>>,
    request_timeout: Option<f64>,
    log_level: Option<String>,
}

pub(crate) fn builder(o: Options) -> PyResult<ClientBuilder> {
    let mut b = libmcp::client::Client::builder(o.name, o.version)
        .version_preference(preference(o.protocol_version.as_deref())?);
    let mut config = ClientConfig::default();
    if let Some(t) = o.request_timeout {
        config.request_timeout = seconds(t, "request_timeout")?;
    }
    if let Some(level) = o.log_level {
        config.log_level = Some(
            serde_json::from_value(json!(level))
                .map_err(|_| PyValueError::new_err(format!("unknown log level {level:?}")))?,
        );
    }
    b = b.config(config);
    if let Some(f) = o.elicitation {
        b = b
            .on_elicitation(ask_python(Arc::new(f)))
            .elicitation_url(o.elicitation_url);
    }
    if let Some(f) = o.sampling {
        b = b.on_sampling(ask_python(Arc::new(f)));
    }
    if let Some(f) = o.roots {
        b = b.on_roots(ask_python(Arc::new(f)));
    }
    if let Some(f) = o.on_notification {
        b = b.on_notification(move |method: &str, params: &Value| {
            Python::attach(|py| {
                if let Ok(p) = to_py(py, params) {
                    let _ = f.call1(py, (method, p));
                }
            })
        });
    }
    if let Some(f) = o.on_wire {
        b = b.on_wire(move |dir: WireDirection, bytes: &[u8]| {
            Python::attach(|py| {
                let d = match dir {
                    WireDirection::Sent => "sent",
                    WireDirection::Received => "received",
                };
                let _ = f.call1(py, (d, PyBytes::new(py, bytes)));
            })
        });
    }
    Ok(b)
}

pub(crate) fn wrap(py: Python<'_>, c: libmcp::client::Client) -> PyResult<Py<PyAny>> {
    Ok(Py::new(py, Client { inner: c })?.into_any())
}

fn value(py: Python<'_>, v: Value) -> PyResult<Py<PyAny>> {
    Ok(to_py(py, &v)?.unbind())
}

fn task_value(py: Python<'_>, t: libmcp::model::Task) -> PyResult<Py<PyAny>> {
    value(py, serde_json::to_value(t).unwrap_or(Value::Null))
}

fn unit(py: Python<'_>, (): ()) -> PyResult<Py<PyAny>> {
    Ok(py.None())
}

/// Spawns `command args...` and connects over its stdin and stdout; `done(ok, Client)`.
#[pyfunction]
#[pyo3(signature = (done, options, command, args, env=None, cwd=None, on_stderr=None))]
pub fn connect_stdio(
    done: Py<PyAny>,
    options: Options,
    command: String,
    args: Vec<String>,
    env: Option<Vec<(String, String)>>,
    cwd: Option<String>,
    on_stderr: Option<Py<PyAny>>,
) -> PyResult<Task> {
    let b = builder(options)?;
    let mut spec = ChildSpec::new(command, args);
    spec.env = env.unwrap_or_default();
    spec.cwd = cwd.map(Into::into);
    if let Some(f) = on_stderr {
        spec.stderr = Some(Arc::new(move |line: &str| {
            Python::attach(|py| {
                let _ = f.call1(py, (line,));
            })
        }));
    }
    spawn_py(done, b.connect_stdio(spec), wrap)
}

/// Connects to a Streamable HTTP endpoint; `done(ok, Client)`. `auth` authorizes with OAuth 2.1;
/// `root_certificates` are PEM bundles trusted for `https://` besides (or, with
/// `skip_default_roots`, instead of) the bundled Mozilla roots.
#[pyfunction]
#[pyo3(signature = (done, options, url, headers=None, auth=None, root_certificates=None,
    skip_default_roots=false))]
pub fn connect_http(
    done: Py<PyAny>,
    options: Options,
    url: String,
    headers: Option<Vec<(String, String)>>,
    auth: Option<PyRef<'_, crate::oauth::OAuth>>,
    root_certificates: Option<Vec<Vec<u8>>>,
    skip_default_roots: bool,
) -> PyResult<Task> {
    let b = builder(options)?;
    let opts = HttpClientOptions {
        headers: headers.unwrap_or_default(),
        auth: auth.map(|a| a.inner.clone()),
        root_certificates: root_certificates.unwrap_or_default(),
        skip_default_roots,
    };
    spawn_py(
        done,
        async move { b.connect_http_with(&url, opts).await },
        wrap,
    )
}

fn params(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Value> {
    match obj {
        None => Ok(json!({})),
        Some(o) => match from_py(o)? {
            v @ Value::Object(_) => Ok(v),
            Value::Null => Ok(json!({})),
            _ => Err(PyTypeError::new_err("params must be a dict")),
        },
    }
}

fn call_options(timeout: Option<f64>, progress: Option<Py<PyAny>>) -> PyResult<CallOptions> {
    let mut o = CallOptions::default();
    if let Some(t) = timeout {
        o.timeout = Some(seconds(t, "timeout")?);
    }
    if let Some(f) = progress {
        o.on_progress = Some(Arc::new(
            move |p: f64, total: Option<f64>, message: Option<&str>| {
                Python::attach(|py| {
                    let _ = f.call1(py, (p, total, message));
                })
            },
        ));
    }
    Ok(o)
}

#[pymethods]
impl Client {
    /// What the client learned about the server, as a dict.
    #[getter]
    fn server(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let v = libmcp::host::server_description(&self.inner.server());
        value(py, v)
    }

    /// The process id of a spawned server, while it runs.
    #[getter]
    fn server_pid(&self) -> Option<u32> {
        self.inner.server_pid()
    }

    /// Any request, with input rounds fulfilled; the result as sent.
    #[pyo3(signature = (done, method, params=None, timeout=None, progress=None))]
    fn call(
        &self,
        done: Py<PyAny>,
        method: String,
        params: Option<&Bound<'_, PyAny>>,
        timeout: Option<f64>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Task> {
        let p = self::params(params)?;
        let opts = call_options(timeout, progress)?;
        let c = self.inner.clone();
        spawn_py(done, async move { c.call(&method, p, &opts).await }, value)
    }

    /// `tools/call`; the CallToolResult as sent.
    #[pyo3(signature = (done, name, arguments=None, timeout=None, progress=None))]
    fn call_tool(
        &self,
        done: Py<PyAny>,
        name: String,
        arguments: Option<&Bound<'_, PyAny>>,
        timeout: Option<f64>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Task> {
        let args = self::params(arguments)?;
        let opts = call_options(timeout, progress)?;
        let c = self.inner.clone();
        spawn_py(
            done,
            async move { c.call_tool_raw_with(&name, args, &opts).await },
            value,
        )
    }

    /// `tools/call` offering to run the tool as a task (input needed before the task exists is
    /// answered first); `{"task": Task}` when the server made one, else `{"result": CallToolResult}`.
    #[pyo3(signature = (done, name, arguments=None))]
    fn call_tool_as_task(
        &self,
        done: Py<PyAny>,
        name: String,
        arguments: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Task> {
        let args = self::params(arguments)?;
        let c = self.inner.clone();
        spawn_py(
            done,
            async move { c.call_tool_as_task(&name, args).await },
            |py, call| {
                let v = match call {
                    TaskCall::Task(t) => json!({ "task": t }),
                    TaskCall::Complete(r) => json!({ "result": r }),
                };
                value(py, v)
            },
        )
    }

    /// `tasks/get`: the Task.
    fn get_task(&self, done: Py<PyAny>, task_id: String) -> PyResult<Task> {
        let c = self.inner.clone();
        spawn_py(done, async move { c.get_task(&task_id).await }, task_value)
    }

    /// `tasks/cancel`.
    fn cancel_task(&self, done: Py<PyAny>, task_id: String) -> PyResult<Task> {
        let c = self.inner.clone();
        spawn_py(done, async move { c.cancel_task(&task_id).await }, unit)
    }

    /// Follows the task to its end (polling, answering its input requests; `tasks/result` at
    /// 2025-11-25); the CallToolResult.
    fn task_result(&self, done: Py<PyAny>, task_id: String) -> PyResult<Task> {
        let c = self.inner.clone();
        spawn_py(
            done,
            async move {
                let task = c.get_task(&task_id).await?;
                c.wait_task(&task).await
            },
            |py, r| value(py, serde_json::to_value(r).unwrap_or(Value::Null)),
        )
    }

    /// Every skill of `skills/list` (the skills extension), as SkillEntry dicts.
    fn list_skills(&self, done: Py<PyAny>) -> PyResult<Task> {
        let c = self.inner.clone();
        spawn_py(
            done,
            async move { c.list_all_skills().await },
            |py, skills| value(py, serde_json::to_value(skills).unwrap_or(Value::Null)),
        )
    }

    /// `skills/get`: the SkillEntry of the skill whose `SKILL.md` is at `uri`.
    fn get_skill(&self, done: Py<PyAny>, uri: String) -> PyResult<Task> {
        let c = self.inner.clone();
        spawn_py(done, async move { c.get_skill(&uri).await }, |py, entry| {
            value(py, serde_json::to_value(entry).unwrap_or(Value::Null))
        })
    }

    /// Reads the file at `uri` of the skill `entry` (a SkillEntry dict) describes: its bytes, once
    /// they match the entry's size and digest (and, for `SKILL.md`, its frontmatter).
    fn read_skill_file(
        &self,
        done: Py<PyAny>,
        entry: &Bound<'_, PyAny>,
        uri: String,
    ) -> PyResult<Task> {
        let entry: libmcp::skills::SkillEntry = serde_json::from_value(from_py(entry)?)
            .map_err(|e| PyValueError::new_err(format!("invalid skill entry: {e}")))?;
        let c = self.inner.clone();
        spawn_py(
            done,
            async move { c.read_skill_file(&entry, &uri).await },
            |py, bytes| Ok(PyBytes::new(py, &bytes).into_any().unbind()),
        )
    }

    /// Every item of `tools/list`, `resources/list`, `resources/templates/list` or `prompts/list`.
    fn list_all(&self, done: Py<PyAny>, method: String) -> PyResult<Task> {
        let c = self.inner.clone();
        spawn_py(
            done,
            async move { c.list_all_raw(&method).await.map(Value::Array) },
            value,
        )
    }

    /// `resources/read`; the ReadResourceResult as sent.
    fn read_resource(&self, done: Py<PyAny>, uri: String) -> PyResult<Task> {
        let c = self.inner.clone();
        spawn_py(done, async move { c.read_resource_raw(&uri).await }, value)
    }

    /// `prompts/get`; the GetPromptResult as sent.
    #[pyo3(signature = (done, name, arguments=None))]
    fn get_prompt(
        &self,
        done: Py<PyAny>,
        name: String,
        arguments: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Task> {
        let args = self::params(arguments)?;
        let c = self.inner.clone();
        spawn_py(
            done,
            async move { c.get_prompt_raw(&name, args).await },
            value,
        )
    }

    /// `completion/complete`; the CompleteResult as sent.
    #[pyo3(signature = (done, reference, argument, value, context=None))]
    fn complete(
        &self,
        done: Py<PyAny>,
        reference: &Bound<'_, PyAny>,
        argument: String,
        value: String,
        context: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Task> {
        let reference = from_py(reference)?;
        let context = context.map(from_py).transpose()?;
        let c = self.inner.clone();
        spawn_py(
            done,
            async move { c.complete_raw(reference, &argument, &value, context).await },
            self::value,
        )
    }

    /// Opens a subscription with a SubscriptionFilter dict; `done(ok, Subscription)`.
    fn subscribe(&self, done: Py<PyAny>, filter: &Bound<'_, PyAny>) -> PyResult<Task> {
        let filter = crate::subscription::filter(filter)?;
        let c = self.inner.clone();
        spawn_py(
            done,
            async move { c.subscribe(filter).await },
            crate::subscription::wrap,
        )
    }

    /// `ping` (legacy era).
    fn ping(&self, done: Py<PyAny>) -> PyResult<Task> {
        let c = self.inner.clone();
        spawn_py(done, async move { c.ping().await }, unit)
    }

    /// Closes the connection (a spawned server is stopped).
    fn close(&self, done: Py<PyAny>) -> PyResult<Task> {
        let c = self.inner.clone();
        spawn_py(
            done,
            async move {
                c.close().await;
                Ok(())
            },
            unit,
        )
    }
}
