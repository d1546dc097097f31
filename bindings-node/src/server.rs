//! `NativeServer`: a core `Server` built empty, whose tools, resources, templates, prompts and
//! completion handler are added (and removed) through the core's runtime registration, so a
//! registration fails at once with the core's own checks. Skills and Redis are fixed when it is
//! made (`skills.rs`, `redis.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use libmcp::server::tasks::TaskSupport;
use libmcp::server::{Handler, Responder, Server, ServerConfig, ValidatedByHost};
use napi::bindgen_prelude::{FnArgs, Function, Promise};
use napi::threadsafe_function::ThreadsafeFunctionCallMode;
use napi_derive::napi;
use serde_json::Value;

use crate::error::{engine, invalid, parse};
use crate::js_strings::{JsStrings, JsText};
use crate::{limits, redis, request, skills, task_store};

/// What a JS handler is called with: the request's number (see `request.rs`), its params as JSON
/// text and their large strings, if any (see `large_strings.rs`).
pub type HandlerArgs = FnArgs<(f64, JsText, Option<JsStrings>)>;

/// A server: handlers are JS functions called on the JS thread with a request's number and params.
#[napi]
pub struct NativeServer {
    pub(crate) server: Server,
    /// The shared stores of `new Server(info, {redis})`, for `serveHttp`.
    pub(crate) redis: Option<libmcp::store::redis::RedisStore>,
}

/// The engine handler that hands each invocation to `f`. The function is held weakly, so a
/// registered handler alone does not keep the process alive. With `in_task`, a request that may run
/// as a task is made one before `f` is called (the core's rule for closure handlers), so `f` runs
/// inside the task.
///
/// Each handler gets a number (returned by `add` and `setCompletion`): a request dispatched on the
/// JS thread while it feeds stdin is handed back to the JS layer under that number and called
/// there at once (see `stdio.rs`), without the thread-safe function's queue.
fn js_handler(f: &Function<HandlerArgs, ()>, in_task: bool) -> napi::Result<(Handler, u32)> {
    static NEXT_KEY: AtomicU32 = AtomicU32::new(1);
    let key = NEXT_KEY.fetch_add(1, Ordering::Relaxed);
    let tsfn = f
        .build_threadsafe_function::<HandlerArgs>()
        .weak::<true>()
        .callee_handled::<false>()
        .build()?;
    let handler: Handler = Arc::new(move |ctx, responder: Responder| {
        let responder = if in_task {
            responder.start_task()
        } else {
            responder
        };
        let id = request::next_number();
        if crate::stdio::call_here(key, id, ctx.params()) {
            request::park(id, ctx, responder, true);
            return;
        }
        let (params, strings) = request::params_json(&ctx);
        request::park(id, ctx, responder, false);
        // When Node is shutting down the call is refused; the request is dropped, which answers
        // it with an internal error.
        let status = tsfn.call(
            FnArgs::from((id as f64, JsText(params), strings.map(JsStrings))),
            ThreadsafeFunctionCallMode::NonBlocking,
        );
        if status != napi::Status::Ok {
            request::abandon(id);
        }
    });
    Ok((handler, key))
}

#[napi]
impl NativeServer {
    /// A server from its implementation object (`{name, version, title?, ...}`, JSON text),
    /// optional instructions, optional task options (`{ttlMs?, pollIntervalMs?, maxTasks?}`, JSON
    /// text) with `taskStore`, the JS task store (see `task_store.rs`), optional skills (JSON text,
    /// see `skills.rs`) and an optional Redis URL whose stores keep tasks, the `requestState` keys
    /// and list changes shared with other instances (see `redis.rs`): this waits for Redis to
    /// answer once, and fails with a transport error when it does not. Last, optional limits
    /// (JSON text, see `limits.rs`).
    #[napi(constructor)]
    pub fn new(
        info: String,
        instructions: Option<String>,
        tasks: Option<String>,
        task_store: Option<Function<String, Promise<String>>>,
        skills: Option<String>,
        redis: Option<String>,
        limits: Option<String>,
    ) -> napi::Result<Self> {
        let Value::Object(info) = parse("server info", &info)? else {
            return Err(invalid("server info must be an object"));
        };
        let field = |k: &str| info.get(k).and_then(Value::as_str).unwrap_or_default();
        let mut builder = Server::builder(field("name"), field("version"));
        for (k, v) in info.iter().filter(|(k, _)| *k != "name" && *k != "version") {
            builder = builder.info_field(k, v.clone());
        }
        if let Some(text) = instructions {
            builder = builder.instructions(text);
        }
        let tasks = tasks.map(|t| parse("tasks options", &t)).transpose()?;
        let own_store =
            task_store.is_some() || tasks.as_ref().is_some_and(|t| !t["maxTasks"].is_null());
        if redis.is_some() && own_store {
            return Err(invalid(
                "redis keeps the tasks itself: give neither tasks.store nor tasks.maxTasks with it",
            ));
        }
        let mut config = ServerConfig::default();
        if let Some(text) = limits {
            limits::apply(&mut config, &parse("server limits", &text)?)?;
        }
        if let Some(store) = task_store::apply(tasks.as_ref(), task_store, &mut config)? {
            builder = builder.task_store(store);
        }
        libmcp::host::validate_server_config(&config).map_err(|e| {
            invalid(libmcp::host::server_config_message(
                libmcp::host::Host::Node,
                &e,
            ))
        })?;
        builder = builder.config(config);
        if let Some(list) = skills {
            for skill in skills::parse(&parse("skills", &list)?)? {
                builder = builder.skill(skill);
            }
        }
        let redis = redis.as_deref().map(redis::connect).transpose()?;
        if let Some(r) = &redis {
            builder = builder
                .task_store(r.task_store())
                .state_sealer(redis::sealer(r)?);
        }
        let server = builder.build().map_err(engine)?;
        if let Some(r) = &redis {
            redis::fan_out(r, &server)?;
        }
        Ok(NativeServer { server, redis })
    }

    /// Registers (or replaces) a definition (JSON text) with its handler: `kind` is `tool`,
    /// `resource`, `resourceTemplate` or `prompt`. The core checks the definition. A tool whose
    /// `execution.taskSupport` is `optional` or `required` has its handler called inside the task
    /// the request becomes, unless `deferTask` is true: then the handler may gather input first
    /// and starts the task itself (`requestStartTask`). A tool with `inputByHost` (`outputByHost`)
    /// has its arguments (its `structuredContent`) checked by the JS layer with the Zod schema it
    /// was registered with, not by the engine against the JSON Schema listed (see
    /// `Server::add_tool_validated_by_host`). Returns the handler's number (see `js_handler`).
    #[napi]
    pub fn add(
        &self,
        kind: String,
        definition: String,
        handler: Function<HandlerArgs, ()>,
        defer_task: Option<bool>,
        input_by_host: Option<bool>,
        output_by_host: Option<bool>,
    ) -> napi::Result<u32> {
        let def = parse(&format!("{kind} definition"), &definition)?;
        let tasks = kind == "tool"
            && TaskSupport::of_definition(&def).map_err(invalid)? != TaskSupport::Forbidden;
        let (h, key) = js_handler(&handler, tasks && defer_task != Some(true))?;
        match kind.as_str() {
            "tool" => {
                let by_host = ValidatedByHost {
                    input: input_by_host == Some(true),
                    output: output_by_host == Some(true),
                };
                if by_host == ValidatedByHost::default() {
                    self.server.add_tool(def, h)
                } else {
                    self.server.add_tool_validated_by_host(def, h, by_host)
                }
            }
            "resource" => self.server.add_resource(def, h),
            "resourceTemplate" => self.server.add_resource_template(def, h),
            "prompt" => self.server.add_prompt(def, h),
            other => return Err(invalid(format!("unknown registration kind {other:?}"))),
        }
        .map_err(engine)?;
        Ok(key)
    }

    /// Sets the `completion/complete` handler; returns its number (see `js_handler`).
    #[napi]
    pub fn set_completion(&self, handler: Function<HandlerArgs, ()>) -> napi::Result<u32> {
        let (h, key) = js_handler(&handler, false)?;
        self.server
            .set_completion_handler(Some(h))
            .map_err(engine)?;
        Ok(key)
    }

    /// Sets the host's own handler of a request method (see `Server::set_method_handler`: a
    /// method the specification does not define, or a feature method a host may own such as
    /// `tools/call` or `tasks/get`; any other is refused with an InvalidArgumentError naming
    /// why); returns its number (see `js_handler`).
    #[napi]
    pub fn set_method_handler(
        &self,
        method: String,
        handler: Function<HandlerArgs, ()>,
    ) -> napi::Result<u32> {
        let (h, key) = js_handler(&handler, false)?;
        self.server
            .set_method_handler(&method, Some(h))
            .map_err(engine)?;
        Ok(key)
    }

    /// Removes the handler of a custom method; unknown methods are a no-op, a method the
    /// specification defines is refused as by `setMethodHandler`.
    #[napi]
    pub fn remove_method_handler(&self, method: String) -> napi::Result<()> {
        self.server
            .set_method_handler(&method, None)
            .map_err(engine)
    }

    /// Sets (or, without a handler, removes) the handler giving the host's own entries of
    /// `resources/list` (`{resources: [...]}`), listed after the registered resources and paged
    /// by the engine (see `Server::set_resource_lister`); returns its number (see `js_handler`).
    #[napi]
    pub fn set_resource_lister(
        &self,
        handler: Option<Function<HandlerArgs, ()>>,
    ) -> napi::Result<Option<u32>> {
        let Some(handler) = handler else {
            self.server.set_resource_lister(None).map_err(engine)?;
            return Ok(None);
        };
        let (h, key) = js_handler(&handler, false)?;
        self.server.set_resource_lister(Some(h)).map_err(engine)?;
        Ok(Some(key))
    }

    /// Declares capabilities of the host's own (JSON text of an object; see
    /// `Server::declare_capabilities`): what the request methods it answers itself need.
    #[napi]
    pub fn declare_capabilities(&self, capabilities: String) -> napi::Result<()> {
        let value = parse("capabilities", &capabilities)?;
        self.server.declare_capabilities(value).map_err(engine)
    }

    /// Removes a registration: `kind` is `tool`, `resource`, `resourceTemplate` or `prompt`, `key`
    /// its name, URI or URI template. `false` if there was none.
    #[napi]
    pub fn remove(&self, kind: String, key: String) -> napi::Result<bool> {
        Ok(match kind.as_str() {
            "tool" => self.server.remove_tool(&key),
            "resource" => self.server.remove_resource(&key),
            "resourceTemplate" => self.server.remove_resource_template(&key),
            "prompt" => self.server.remove_prompt(&key),
            other => return Err(invalid(format!("unknown registration kind {other:?}"))),
        })
    }

    /// Serves (or replaces) a skill given as JSON text `{skillMd, files}` (see `skills.rs`); a
    /// file URI another resource has is refused and nothing changes.
    #[napi]
    pub fn add_skill(&self, skill: String) -> napi::Result<()> {
        let skill = skills::skill(&parse("skill", &skill)?)?;
        self.server.add_skill(skill).map_err(engine)
    }

    /// Stops serving the skill `name`; `false` if there was none.
    #[napi]
    pub fn remove_skill(&self, name: String) -> bool {
        self.server.remove_skill(&name)
    }

    /// Tells subscribers that the resource at `uri` changed.
    #[napi]
    pub fn notify_resource_updated(&self, uri: String) {
        self.server
            .notify(libmcp::server::Change::ResourceUpdated(uri));
    }

    /// Announces that a list changed (`kind`: `tools`, `resources` or `prompts`), for a host that
    /// answers that list itself (the engine announces its own registrations).
    #[napi]
    pub fn notify_list_changed(&self, kind: String) -> napi::Result<()> {
        let change = match kind.as_str() {
            "tools" => libmcp::server::Change::Tools,
            "resources" => libmcp::server::Change::Resources,
            "prompts" => libmcp::server::Change::Prompts,
            other => {
                return Err(invalid(format!(
                    "unknown list {other:?}: tools, resources or prompts"
                )));
            }
        };
        self.server.notify(change);
        Ok(())
    }

    /// A stdio connection on this process's stdout whose input the JS layer reads from stdin
    /// and feeds in (see `stdio.rs`).
    #[napi]
    pub fn open_stdio(&self) -> crate::stdio::NativeStdio {
        crate::stdio::NativeStdio::open(&self.server)
    }
}
