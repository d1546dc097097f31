//! `Server`: the engine's server behind a handle Python registers into, and its transports.
//!
//! Every handler is the engine's raw [`Handler`]: it wraps the invocation in a [`Request`] and calls
//! the Python `invoke(request)` callable on one of the package's Python workers (the GIL is taken
//! there, never on an engine worker); the Python layer answers through the request, now or later.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use libmcp::ProtocolVersion;
use libmcp::server::{Change, Handler, RequestContext, Responder, ServerConfig};
use libmcp::transport::http::{HttpEndpoint, HttpServerConfig, HttpServerHandle, serve_http};
use parking_lot::Mutex;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tokio::sync::oneshot;

use crate::convert::{from_py, to_py};
use crate::endpoint::Endpoint;
use crate::errors::to_pyerr;
use crate::executor;
use crate::loop_queue::{LoopQueue, LoopSlot};
use crate::request::Request;
use crate::task::{Task, spawn_py};

/// A skill to serve (the skills extension, SEP-2640): its `SKILL.md` text and its other files as
/// `(path, mime_type, content)`.
type SkillParts = (String, Vec<(String, String, Vec<u8>)>);

/// The engine's skill from its parts; a SKILL.md or a file path the engine refuses is a ValueError.
fn skill_of((skill_md, files): SkillParts) -> PyResult<libmcp::skills::Skill> {
    let mut skill = libmcp::skills::Skill::new(skill_md);
    for (path, mime_type, content) in files {
        skill = skill.and_then(|s| s.file(path, mime_type, content));
    }
    skill.map_err(PyValueError::new_err)
}

/// A server: register tools, resources, templates, prompts and completion, then serve.
#[pyclass(module = "libmcp._native", frozen)]
pub struct Server {
    inner: libmcp::server::Server,
    redis: Option<libmcp::store::redis::RedisStore>,
    /// The serving loop's queue, for handlers registered with `on_loop` (`async def` ones).
    loop_slot: LoopSlot,
}

fn invoke(py: Python<'_>, callable: &Py<PyAny>, ctx: RequestContext, responder: Responder) {
    let request = match Py::new(py, Request::new(ctx, responder)) {
        Ok(r) => r,
        // Dropping the request drops its responder, which answers with an internal error.
        Err(_) => return,
    };
    if let Err(e) = callable.call1(py, (request.clone_ref(py),)) {
        request
            .get()
            .fail_if_unanswered(format!("the handler failed: {e}"));
    }
}

/// The engine's handler for a Python `invoke`: on an engine thread the call is queued for the
/// serving event loop (`on_loop`, while there is one: `loop_queue.rs`) or for the package's Python
/// workers (`executor.rs`), which hold the GIL across queued calls; elsewhere it runs here.
fn handler(callable: Py<PyAny>, on_loop: Option<LoopSlot>) -> Handler {
    let callable = Arc::new(callable);
    Arc::new(move |ctx: RequestContext, responder: Responder| {
        let callable = callable.clone();
        let job: executor::Job = Box::new(move |py| invoke(py, &callable, ctx, responder));
        if tokio::runtime::Handle::try_current().is_err() {
            Python::attach(job);
        } else if let Some(slot) = &on_loop {
            slot.run(job);
        } else {
            executor::run(job);
        }
    })
}

/// Converts `definition` and `invoke` and hands them to one of the core's runtime registrations,
/// whose refusal becomes the matching Python exception.
fn register(
    py: Python<'_>,
    definition: &Bound<'_, PyAny>,
    invoke: Py<PyAny>,
    on_loop: Option<LoopSlot>,
    add: impl FnOnce(serde_json::Value, Handler) -> libmcp::Result<()>,
) -> PyResult<()> {
    add(self::definition(definition)?, handler(invoke, on_loop)).map_err(|e| to_pyerr(py, e))
}

fn definition(obj: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    from_py(obj)
}

impl Server {
    /// The engine's server.
    pub(crate) fn engine(&self) -> &libmcp::server::Server {
        &self.inner
    }

    fn slot(&self, on_loop: bool) -> Option<LoopSlot> {
        on_loop.then(|| self.loop_slot.clone())
    }
}

#[pymethods]
impl Server {
    /// A server named `name` at `version`.
    #[new]
    #[pyo3(signature = (name, version, instructions=None, info=None, versions=None, page_size=None,
        state_key=None, task_ttl=None, task_poll_interval=None, task_store=None, skills=None,
        redis=None, limits=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        name: String,
        version: String,
        instructions: Option<String>,
        info: Option<&Bound<'_, PyAny>>,
        versions: Option<Vec<String>>,
        page_size: Option<usize>,
        state_key: Option<Vec<u8>>,
        task_ttl: Option<f64>,
        task_poll_interval: Option<f64>,
        task_store: Option<Py<PyAny>>,
        skills: Option<Vec<SkillParts>>,
        redis: Option<String>,
        limits: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let mut b = libmcp::server::Server::builder(name, version);
        if let Some(text) = instructions {
            b = b.instructions(text);
        }
        if let Some(info) = info {
            let serde_json::Value::Object(fields) = from_py(info)? else {
                return Err(PyValueError::new_err("info must be a dict"));
            };
            for (k, v) in fields {
                b = b.info_field(&k, v);
            }
        }
        if let Some(v) = versions {
            b = b.versions(v.into_iter().map(ProtocolVersion::new).collect());
        }
        let mut config = ServerConfig::default();
        if let Some(n) = page_size {
            if n == 0 {
                return Err(PyValueError::new_err("page_size must be at least 1"));
            }
            config.page_size = n;
        }
        if let Some(s) = task_ttl {
            config.task_ttl_ms = Some(millis(s, "task_ttl")?);
        }
        if let Some(s) = task_poll_interval {
            // Zero stays zero for the binding kit to refuse; a positive interval is at least 1 ms.
            let d = seconds(s, "task_poll_interval")?;
            config.task_poll_interval_ms = if d.is_zero() { 0 } else { whole_millis(d) };
        }
        if let Some(limits) = limits {
            crate::limits::apply(&mut config, limits)?;
        }
        libmcp::host::validate_server_config(&config).map_err(|e| {
            crate::errors::InvalidArgument::new_err(libmcp::host::server_config_message(
                libmcp::host::Host::Python,
                &e,
            ))
        })?;
        for parts in skills.unwrap_or_default() {
            b = b.skill(skill_of(parts)?);
        }
        b = b.config(config);
        let redis = match redis {
            Some(_) if task_store.is_some() || state_key.is_some() => {
                return Err(PyValueError::new_err(
                    "redis keeps tasks and the requestState keys itself: give neither task_store \
                     nor state_key with it",
                ));
            }
            Some(url) => {
                let redis = crate::shared::connect(&url)?;
                b = b
                    .task_store(redis.task_store())
                    .state_sealer(crate::shared::sealer(py, &redis)?);
                Some(redis)
            }
            None => None,
        };
        if let Some(store) = task_store {
            b = b.task_store(Arc::new(crate::task_store::PyTaskStore::new(store)));
        }
        if let Some(key) = state_key {
            let key: [u8; 32] = key
                .try_into()
                .map_err(|_| PyValueError::new_err("state_key must be 32 bytes"))?;
            b = b.state_key(key);
        }
        let inner = b.build().map_err(|e| to_pyerr(py, e))?;
        if let Some(redis) = &redis {
            crate::shared::fan_out(py, redis, &inner)?;
        }
        Ok(Server {
            inner,
            redis,
            loop_slot: LoopSlot::default(),
        })
    }

    /// Registers (or replaces) a tool: `definition` is the Tool object, `invoke(request)` serves it.
    /// With `check_input=False` the engine does not check the arguments against `inputSchema`
    /// (the handler validates them itself, e.g. with pydantic, which may coerce them).
    #[pyo3(signature = (definition, invoke, on_loop=false, check_input=true))]
    fn add_tool(
        &self,
        py: Python<'_>,
        definition: &Bound<'_, PyAny>,
        invoke: Py<PyAny>,
        on_loop: bool,
        check_input: bool,
    ) -> PyResult<()> {
        register(py, definition, invoke, self.slot(on_loop), |d, h| {
            let by_host = libmcp::server::ValidatedByHost {
                input: !check_input,
                output: false,
            };
            self.inner.add_tool_validated_by_host(d, h, by_host)
        })
    }

    /// Registers (or replaces) a static resource.
    #[pyo3(signature = (definition, invoke, on_loop=false))]
    fn add_resource(
        &self,
        py: Python<'_>,
        definition: &Bound<'_, PyAny>,
        invoke: Py<PyAny>,
        on_loop: bool,
    ) -> PyResult<()> {
        register(py, definition, invoke, self.slot(on_loop), |d, h| {
            self.inner.add_resource(d, h)
        })
    }

    /// Registers (or replaces) a resource template.
    #[pyo3(signature = (definition, invoke, on_loop=false))]
    fn add_template(
        &self,
        py: Python<'_>,
        definition: &Bound<'_, PyAny>,
        invoke: Py<PyAny>,
        on_loop: bool,
    ) -> PyResult<()> {
        register(py, definition, invoke, self.slot(on_loop), |d, h| {
            self.inner.add_resource_template(d, h)
        })
    }

    /// Registers (or replaces) a prompt.
    #[pyo3(signature = (definition, invoke, on_loop=false))]
    fn add_prompt(
        &self,
        py: Python<'_>,
        definition: &Bound<'_, PyAny>,
        invoke: Py<PyAny>,
        on_loop: bool,
    ) -> PyResult<()> {
        register(py, definition, invoke, self.slot(on_loop), |d, h| {
            self.inner.add_prompt(d, h)
        })
    }

    /// Sets (or with None removes) the completion handler.
    #[pyo3(signature = (invoke, on_loop=false))]
    fn set_completion(
        &self,
        py: Python<'_>,
        invoke: Option<Py<PyAny>>,
        on_loop: bool,
    ) -> PyResult<()> {
        let slot = self.slot(on_loop);
        self.inner
            .set_completion_handler(invoke.map(|i| handler(i, slot)))
            .map_err(|e| to_pyerr(py, e))
    }

    /// Sets (or with None removes) the host's own handler of a request method
    /// (`Server::set_method_handler`): `invoke(request)` serves it as a registered handler's
    /// would. A method the specification does not define, or a feature method a host may own
    /// (`tools/call`, `tasks/get`, ...: the core's rules, its capability declared first); any
    /// other method the specification defines, one under `notifications/` and one beginning
    /// with `rpc.` are refused with InvalidArgument naming why.
    #[pyo3(signature = (method, invoke, on_loop=false))]
    fn set_method_handler(
        &self,
        py: Python<'_>,
        method: &str,
        invoke: Option<Py<PyAny>>,
        on_loop: bool,
    ) -> PyResult<()> {
        let slot = self.slot(on_loop);
        self.inner
            .set_method_handler(method, invoke.map(|i| handler(i, slot)))
            .map_err(|e| to_pyerr(py, e))
    }

    /// Sets (or with None removes) the handler giving the host's own entries of `resources/list`
    /// (`{"resources": [...]}`), listed after the registered resources and paged by the engine
    /// (`Server::set_resource_lister`).
    #[pyo3(signature = (invoke, on_loop=false))]
    fn set_resource_lister(
        &self,
        py: Python<'_>,
        invoke: Option<Py<PyAny>>,
        on_loop: bool,
    ) -> PyResult<()> {
        let slot = self.slot(on_loop);
        self.inner
            .set_resource_lister(invoke.map(|i| handler(i, slot)))
            .map_err(|e| to_pyerr(py, e))
    }

    /// Declares capabilities of the host's own (`Server::declare_capabilities`), as JSON text of
    /// an object: what the request methods it answers itself need.
    fn declare_capabilities(&self, py: Python<'_>, capabilities: &str) -> PyResult<()> {
        let value: serde_json::Value = serde_json::from_str(capabilities)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("capabilities: {e}")))?;
        self.inner
            .declare_capabilities(value)
            .map_err(|e| to_pyerr(py, e))
    }

    /// Sets (or with None clears) the queue of the event loop that serves: handlers registered
    /// with `on_loop` are called there while it is set.
    #[pyo3(signature = (queue))]
    fn set_loop_queue(&self, queue: Option<Py<LoopQueue>>) {
        self.loop_slot.set(queue);
    }

    /// Removes a tool; False if there was none.
    fn remove_tool(&self, name: &str) -> bool {
        self.inner.remove_tool(name)
    }

    /// Removes a static resource; False if there was none.
    fn remove_resource(&self, uri: &str) -> bool {
        self.inner.remove_resource(uri)
    }

    /// Removes a resource template; False if there was none.
    fn remove_template(&self, uri_template: &str) -> bool {
        self.inner.remove_resource_template(uri_template)
    }

    /// Removes a prompt; False if there was none.
    fn remove_prompt(&self, name: &str) -> bool {
        self.inner.remove_prompt(name)
    }

    /// Serves (or replaces) a skill; a file URI another resource has is a DefinitionError.
    fn add_skill(
        &self,
        py: Python<'_>,
        skill_md: String,
        files: Vec<(String, String, Vec<u8>)>,
    ) -> PyResult<()> {
        let skill = skill_of((skill_md, files))?;
        self.inner.add_skill(skill).map_err(|e| to_pyerr(py, e))
    }

    /// Stops serving a skill; False if there was none.
    fn remove_skill(&self, name: &str) -> bool {
        self.inner.remove_skill(name)
    }

    /// The Tool object of a registered tool, or None.
    fn tool_definition(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        match self.inner.tool_definition(name) {
            Some(d) => Ok(to_py(py, &d)?.unbind()),
            None => Ok(py.None()),
        }
    }

    /// The capabilities currently declared.
    fn capabilities(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(to_py(py, &self.inner.capabilities())?.unbind())
    }

    /// Tells subscribed clients that the resource at `uri` changed.
    fn notify_resource_updated(&self, uri: String) {
        self.inner.notify(Change::ResourceUpdated(uri));
    }

    /// Tells clients that the `list` list changed (`"tools"`, `"prompts"` or `"resources"`).
    fn notify_list_changed(&self, list: &str) -> PyResult<()> {
        let change = match list {
            "tools" => Change::Tools,
            "prompts" => Change::Prompts,
            "resources" => Change::Resources,
            other => {
                return Err(PyValueError::new_err(format!(
                    "no list {other:?} to announce (tools, prompts, resources)"
                )));
            }
        };
        self.inner.notify(change);
        Ok(())
    }

    /// Serves this process's stdin and stdout until stdin closes or `stop()` is called on the
    /// returned handle; `done(ok, value)` is called at the end.
    fn serve_stdio(&self, done: Py<PyAny>) -> PyResult<Stopper> {
        let (stop, stopped) = oneshot::channel::<()>();
        let server = self.inner.clone();
        let task = spawn_py(
            done,
            async move {
                server
                    .serve_stdio_until(async {
                        let _ = stopped.await;
                    })
                    .await
            },
            |py, ()| Ok(py.None()),
        )?;
        Ok(Stopper {
            stop: Mutex::new(Some(stop)),
            _task: task,
        })
    }

    /// Starts the Streamable HTTP server; `done(ok, HttpServer)` once it listens. `options` are the
    /// HTTP options (`http_options.rs`).
    #[pyo3(signature = (done, host, port, options=None))]
    fn serve_http(
        &self,
        py: Python<'_>,
        done: Py<PyAny>,
        host: &str,
        port: u16,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Task> {
        let ip: IpAddr = host.parse().map_err(|_| {
            PyValueError::new_err(format!("host must be an IP address, got {host:?}"))
        })?;
        let mut config = HttpServerConfig::with_bind(SocketAddr::new(ip, port));
        crate::http_options::apply(py, &mut config, options, false)?;
        let server = self.inner.clone();
        let redis = self.redis.clone();
        let serve = async move {
            if let Some(redis) = redis {
                crate::shared::configure(&redis, &mut config).await;
            }
            serve_http(server, config).await
        };
        spawn_py(done, serve, |py, handle| {
            let addr = handle.local_addr();
            Ok(Py::new(
                py,
                HttpServer {
                    addr,
                    handle: Arc::new(Mutex::new(Some(handle))),
                },
            )?
            .into_any())
        })
    }

    /// The endpoint to mount in the application's web server (`libmcp/asgi.py`), with the HTTP
    /// options of `options` over the core's mount defaults (`HttpServerConfig::for_mount`: no
    /// Host/Origin check until `allowed_hosts` or `allowed_origins` lists names).
    #[pyo3(signature = (options=None))]
    fn endpoint(&self, py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Endpoint> {
        let mut config = HttpServerConfig::for_mount();
        crate::http_options::apply(py, &mut config, options, true)?;
        let rt = crate::runtime::handle()?;
        let server = self.inner.clone();
        let redis = self.redis.clone();
        // Inside the runtime, so that the endpoint starts its session sweeper there.
        let endpoint = py.detach(|| {
            rt.block_on(async move {
                if let Some(redis) = redis {
                    crate::shared::configure(&redis, &mut config).await;
                }
                HttpEndpoint::new(server, config)
            })
        });
        endpoint.map(Endpoint::new).map_err(|e| to_pyerr(py, e))
    }
}

fn seconds(s: f64, name: &str) -> PyResult<Duration> {
    Duration::try_from_secs_f64(s).map_err(|_| {
        PyValueError::new_err(format!("{name} must be a non-negative number of seconds"))
    })
}

/// A positive number of seconds as whole milliseconds (at least 1).
fn millis(s: f64, name: &str) -> PyResult<u64> {
    let d = seconds(s, name)?;
    if d.is_zero() {
        return Err(PyValueError::new_err(format!(
            "{name} must be more than 0 seconds"
        )));
    }
    Ok(whole_millis(d))
}

/// A positive duration in whole milliseconds, at least 1.
fn whole_millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}

/// Stops a stdio server.
#[pyclass(module = "libmcp._native", frozen)]
pub struct Stopper {
    stop: Mutex<Option<oneshot::Sender<()>>>,
    _task: Task,
}

#[pymethods]
impl Stopper {
    /// Asks the server to stop: in-flight requests are answered first (within the grace period).
    fn stop(&self) {
        if let Some(s) = self.stop.lock().take() {
            let _ = s.send(());
        }
    }
}

/// A listening Streamable HTTP server.
#[pyclass(module = "libmcp._native", frozen)]
pub struct HttpServer {
    addr: SocketAddr,
    handle: Arc<Mutex<Option<HttpServerHandle>>>,
}

#[pymethods]
impl HttpServer {
    /// The bound port.
    #[getter]
    fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The bound address.
    #[getter]
    fn host(&self) -> String {
        self.addr.ip().to_string()
    }

    /// Stops accepting and ends every session; `done(ok, None)` when finished.
    fn shutdown(&self, done: Py<PyAny>) -> PyResult<Task> {
        let handle = self.handle.lock().take();
        spawn_py(
            done,
            async move {
                if let Some(h) = handle {
                    h.shutdown().await;
                }
                Ok::<(), libmcp::Error>(())
            },
            |py, ()| Ok(py.None()),
        )
    }
}
