"""The official SDK 1.x low-level server (``mcp.server.lowlevel``) on libmcp: ``Server`` with the
``@server.list_tools()``, ``@server.call_tool()``, ... decorators, ``server.request_context`` and
``await server.run(read_stream, write_stream, initialization_options)`` on any of the SDK's
transports (``mcp.server.stdio.stdio_server()``, its SSE and Streamable HTTP session managers), so
that a 1.x low-level server runs by changing ``from mcp.server.lowlevel import ...`` to ``from
libmcp.lowlevel import ...`` (the SDK 2.x removed this API).

The engine answers the protocol. What the list handlers return is registered with it each time
``run()`` starts (and by :meth:`Server.engine`), and calls are routed to the call, read, prompt
and completion handlers; results are the SDK's (see ``call_tool``). ``server.engine()`` is the
libmcp :class:`libmcp.Server` behind it, to serve on the engine's own transports instead."""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import inspect
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from . import _native
from ._bridge import call_native
from .context import Context, RequestContext
from .server import Server as _Engine

__all__ = ["NotificationOptions", "Server"]

log = logging.getLogger("libmcp.server")

F = TypeVar("F", bound=Callable[..., Any])

_request: contextvars.ContextVar[Context] = contextvars.ContextVar("libmcp.lowlevel.request")

#: Handlers the engine's own answers replace, with what it does instead.
_ENGINE_ANSWERS = {
    "set_logging_level": "the engine answers logging/setLevel itself, and ctx.session's log messages honour it",
    "subscribe_resource": "the engine keeps resource subscriptions itself (notify with "
                          "ctx.session.send_resource_updated)",
    "unsubscribe_resource": "the engine keeps resource subscriptions itself",
    "progress_notification": "a server of libmcp is not sent the client's progress notifications",
}


class NotificationOptions:
    """The SDK's notification options: which ``listChanged`` capabilities to declare (the engine
    declares them for what it serves, so these are accepted and not needed)."""

    def __init__(self, prompts_changed: bool = False, resources_changed: bool = False,
                 tools_changed: bool = False) -> None:
        self.prompts_changed = prompts_changed
        self.resources_changed = resources_changed
        self.tools_changed = tools_changed


@contextlib.asynccontextmanager
async def lifespan(_: Any) -> AsyncIterator[dict[str, Any]]:
    """The default lifespan: nothing to set up, ``{}`` as the context."""
    yield {}


def _dump(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return dump(mode="json", by_alias=True, exclude_none=True) if callable(dump) else value


async def _awaited(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _takes_request(fn: Callable[..., Any]) -> bool:
    """Whether a list handler takes the request (the SDK's paginated form) rather than nothing."""
    return bool(inspect.signature(fn).parameters)


class Server:
    """The SDK's low-level ``Server(name, version, instructions, website_url, icons, lifespan)``
    on libmcp; libmcp's :class:`libmcp.Server` keywords (``versions=``, ``redis=``, limits, ...)
    are accepted too."""

    def __init__(self, name: str, version: str | None = None, instructions: str | None = None,
                 website_url: str | None = None, icons: list[Any] | None = None,
                 lifespan: Callable[[Any], contextlib.AbstractAsyncContextManager[Any]] = lifespan,
                 **options: Any) -> None:
        self.name = name
        self.version = version
        self.instructions = instructions
        self.website_url = website_url
        self.icons = icons
        self.lifespan = lifespan
        self._options = options
        self._handlers: dict[str, Callable[..., Any]] = {}
        #: Custom request methods (``add_request_handler``): method -> (params type, handler).
        self._methods: dict[str, tuple[type[Any], Callable[[RequestContext, Any], Any]]] = {}
        self._validate_input = True
        self._engine: _Engine | None = None
        #: What is registered with the engine: kind -> key -> definition.
        self._registered: dict[str, dict[str, dict[str, Any]]] = {"tool": {}, "resource": {}, "template": {},
                                                                    "prompt": {}}

    # -- the decorators --------------------------------------------------------------------------

    def _decorator(self, kind: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            if kind in _ENGINE_ANSWERS:
                log.warning("libmcp.lowlevel: the %s handler %s is not called: %s", kind,
                            getattr(fn, "__name__", fn), _ENGINE_ANSWERS[kind])
            self._handlers[kind] = fn
            return fn

        return register

    def list_tools(self) -> Callable[[F], F]:
        """``async def f() -> list[Tool]`` (or ``f(request) -> ListToolsResult``, paginated)."""
        return self._decorator("list_tools")

    def call_tool(self, *, validate_input: bool = True) -> Callable[[F], F]:
        """``async def f(name, arguments)`` returning content blocks, a dict (structured content,
        also sent as its indented JSON text), both as a tuple, or a ``CallToolResult``. With
        ``validate_input`` the engine checks the arguments against the tool's input schema. A
        structured result is checked against the tool's output schema (``jsonschema``, as the
        SDK). An exception is a tool error whose text is its message, as in the SDK."""
        self._validate_input = validate_input
        return self._decorator("call_tool")

    def list_resources(self) -> Callable[[F], F]:
        """``async def f() -> list[Resource]`` (or paginated, as ``list_tools``)."""
        return self._decorator("list_resources")

    def list_resource_templates(self) -> Callable[[F], F]:
        """``async def f() -> list[ResourceTemplate]``."""
        return self._decorator("list_resource_templates")

    def read_resource(self) -> Callable[[F], F]:
        """``async def f(uri)`` returning ``str``, ``bytes`` or ``ReadResourceContents`` items, for
        the listed resources and the URIs of the listed templates."""
        return self._decorator("read_resource")

    def list_prompts(self) -> Callable[[F], F]:
        """``async def f() -> list[Prompt]`` (or paginated, as ``list_tools``)."""
        return self._decorator("list_prompts")

    def get_prompt(self) -> Callable[[F], F]:
        """``async def f(name, arguments) -> GetPromptResult``."""
        return self._decorator("get_prompt")

    def completion(self) -> Callable[[F], F]:
        """``async def f(ref, argument, context) -> Completion | None``."""
        return self._decorator("completion")

    def set_logging_level(self) -> Callable[[F], F]:
        """Accepted and not called (a warning says so): the engine answers ``logging/setLevel``."""
        return self._decorator("set_logging_level")

    def subscribe_resource(self) -> Callable[[F], F]:
        """Accepted and not called (a warning says so): the engine keeps subscriptions."""
        return self._decorator("subscribe_resource")

    def unsubscribe_resource(self) -> Callable[[F], F]:
        """Accepted and not called (a warning says so): the engine keeps subscriptions."""
        return self._decorator("unsubscribe_resource")

    def progress_notification(self) -> Callable[[F], F]:
        """Accepted and not called (a warning says so)."""
        return self._decorator("progress_notification")

    def add_request_handler(self, method: str, params_type: type[Any],
                            handler: Callable[[RequestContext, Any], Any]) -> None:
        """The SDK 2.x's custom request methods: ``handler(ctx, params)`` (plain or ``async``)
        serves ``method``, a request method the specification does not define, in both eras
        (the engine's ``set_method_handler``). ``params`` is the request's params validated by
        ``params_type`` (a pydantic model; ``{}`` without params), a refusal answered -32602
        with pydantic's message; ``ctx`` is :attr:`request_context`. The result is a pydantic
        model (dumped by alias) or a dict, ``None`` for ``{}``. Unlike the SDK's, a method the
        specification defines is refused (``InvalidArgument``, naming why): the engine answers
        those. Takes effect at the next ``run()``/``engine()``, or at once when one ran."""
        if self._engine is not None:
            self._engine._native.set_method_handler(method, self._method(params_type, handler), on_loop=True)
        else:
            # The engine's rule, at registration: a scratch server refuses what the engine would.
            _native.Server(self.name, "0").set_method_handler(method, None)
        self._methods[method] = (params_type, handler)

    @property
    def experimental(self) -> Any:
        """The SDK's experimental tasks API is not provided."""
        raise NotImplementedError("libmcp.lowlevel: the SDK's experimental tasks API is not provided; "
                                  "libmcp.Server runs tools as tasks with @server.tool(task='optional')")

    @property
    def request_context(self) -> RequestContext:
        """The request being handled (``lifespan_context``, ``request_id``, ``meta``, ``session``,
        ``request``); a LookupError outside a handler, as in the SDK."""
        return _request.get().request_context

    # -- what the SDK's run() is given -----------------------------------------------------------

    def get_capabilities(self, notification_options: NotificationOptions,
                         experimental_capabilities: dict[str, dict[str, Any]]) -> Any:
        """The SDK's ``ServerCapabilities`` for the registered handlers (the engine declares its
        own when it serves)."""
        from mcp import types

        has = self._handlers.__contains__
        n = notification_options
        return types.ServerCapabilities.model_validate({
            key: value for key, value in {
                "prompts": {"listChanged": n.prompts_changed} if has("list_prompts") else None,
                "resources": {"subscribe": False, "listChanged": n.resources_changed}
                if has("list_resources") else None,
                "tools": {"listChanged": n.tools_changed} if has("list_tools") else None,
                "completions": {} if has("completion") else None,
                "experimental": experimental_capabilities,
            }.items() if value is not None})

    def create_initialization_options(self, notification_options: NotificationOptions | None = None,
                                      experimental_capabilities: dict[str, dict[str, Any]] | None = None) -> Any:
        """The SDK's ``InitializationOptions`` of this server."""
        from mcp.server.models import InitializationOptions

        return InitializationOptions(
            server_name=self.name, server_version=self.version or _sdk_version(),
            capabilities=self.get_capabilities(notification_options or NotificationOptions(),
                                               experimental_capabilities or {}),
            instructions=self.instructions, website_url=self.website_url, icons=self.icons)

    # -- serving ---------------------------------------------------------------------------------

    async def engine(self, initialization_options: Any = None) -> _Engine:
        """The libmcp server behind this one, with what the list handlers return now registered:
        ``await (await server.engine()).serve_async("http", port=8000)`` serves it on the
        engine's own HTTP server. ``initialization_options`` (the SDK's) name the server the
        first time (else this server's name and version)."""
        if self._engine is None:
            opts = initialization_options
            name = getattr(opts, "server_name", None) or self.name
            version = getattr(opts, "server_version", None) or self.version or _sdk_version()
            instructions = getattr(opts, "instructions", None) or self.instructions
            website_url = getattr(opts, "website_url", None) or self.website_url
            icons = getattr(opts, "icons", None) or self.icons
            self._engine = _Engine(name, version, instructions, website_url=website_url,
                                   icons=[_dump(i) for i in icons] if icons else None,
                                   lifespan=lambda _engine: self.lifespan(self), **self._options)
            if "completion" in self._handlers:
                self._engine._native.set_completion(self._complete, on_loop=True)
            for method, (params_type, handler) in self._methods.items():
                self._engine._native.set_method_handler(method, self._method(params_type, handler), on_loop=True)
        await self._sync()
        return self._engine

    async def run(self, read_stream: Any, write_stream: Any, initialization_options: Any,
                  raise_exceptions: bool = False, stateless: bool = False) -> None:
        """Serves one connection of the SDK's transports (their ``SessionMessage`` streams) through
        the engine, until the read stream ends. ``raise_exceptions`` is accepted (handlers'
        exceptions are answers, and logged)."""
        if stateless:
            raise NotImplementedError(
                "libmcp.lowlevel: run(stateless=True) (the SDK's stateless Streamable HTTP) is not provided; "
                "serve the engine's own HTTP server instead, whose 2026-07-28 requests are stateless: "
                "await (await server.engine()).serve_async('http', port=...)")
        import anyio
        from mcp.shared.message import SessionMessage
        from mcp.types import JSONRPCMessage
        from pydantic import TypeAdapter

        # A RootModel in mcp 1.x, a union in 2.x: an adapter reads both.
        message_of = TypeAdapter(JSONRPCMessage).validate_json
        engine = await self.engine(initialization_options)
        pipe = _native.serve_pipe(engine._native)

        async def answers() -> None:
            while (line := await call_native(pipe.recv)) is not None:
                await write_stream.send(SessionMessage(message_of(line)))

        async with engine._in_process(), anyio.create_task_group() as tg:
            tg.start_soon(answers)
            try:
                async with read_stream:
                    async for item in read_stream:
                        if isinstance(item, Exception):
                            log.warning("libmcp.lowlevel: the transport reported %s", item)
                            continue
                        message = item.message.model_dump_json(by_alias=True, exclude_none=True)
                        await call_native(pipe.send, message.encode())
            finally:
                await call_native(pipe.close)

    # -- registration with the engine ------------------------------------------------------------

    async def _listed(self, kind: str, request_type: str, key: str) -> list[dict[str, Any]]:
        fn = self._handlers.get(kind)
        if fn is None:
            return []
        if not _takes_request(fn):
            result = await _awaited(fn())
            items = getattr(result, key, result)
            return [_dump(i) for i in items]
        from mcp import types

        items, cursor = [], None
        while True:
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            page = await _awaited(fn(getattr(types, request_type)(params=params)))
            items.extend(_dump(i) for i in getattr(page, key))
            cursor = _dump(page).get("nextCursor")
            if not cursor:
                return items

    async def _sync(self) -> None:
        """Registers what the list handlers return now; what they no longer return is removed."""
        assert self._engine is not None
        native = self._engine._native
        listed = {
            "tool": {d["name"]: d for d in await self._listed("list_tools", "ListToolsRequest", "tools")},
            "resource": {d["uri"]: d for d in await self._listed("list_resources", "ListResourcesRequest",
                                                                  "resources")},
            "template": {d["uriTemplate"]: d for d in await self._listed(
                "list_resource_templates", "ListResourceTemplatesRequest", "resourceTemplates")},
            "prompt": {d["name"]: d for d in await self._listed("list_prompts", "ListPromptsRequest", "prompts")},
        }
        remove = {"tool": native.remove_tool, "resource": native.remove_resource,
                  "template": native.remove_template, "prompt": native.remove_prompt}
        for kind, now in listed.items():
            before = self._registered[kind]
            for key in [k for k, d in before.items() if now.get(k) != d]:
                remove[kind](key)
                del before[key]
            for key, definition in now.items():
                if key in before:
                    continue
                if kind == "tool":
                    native.add_tool(definition, self._tool(definition), on_loop=True, check_input=self._validate_input)
                elif kind == "prompt":
                    native.add_prompt(definition, self._prompt, on_loop=True)
                elif kind == "resource":
                    native.add_resource(definition, self._read, on_loop=True)
                else:
                    native.add_template(definition, self._read, on_loop=True)
                before[key] = definition

    def _start(self, request: _native.Request, call: Callable[[], Awaitable[Any]],
               answer: Callable[[Any], None], fail: Callable[[BaseException], None]) -> None:
        assert self._engine is not None
        ctx = self._engine._context(request)

        async def run() -> Any:
            token = _request.set(ctx)
            try:
                return await call()
            finally:
                _request.reset(token)

        self._engine._start(request, run, answer, fail, True)

    def _tool(self, definition: dict[str, Any]) -> Callable[[_native.Request], None]:
        name, output_schema = definition["name"], definition.get("outputSchema")

        def invoke(request: _native.Request) -> None:
            fn = self._handlers.get("call_tool")
            if fn is None:
                request.reply_error(-32601, "Method not found: the server has no call_tool handler")
                return

            async def call() -> dict[str, Any]:
                try:
                    return _tool_result(await _awaited(fn(name, request.arguments or {})), output_schema)
                except Exception as e:  # noqa: BLE001 - the SDK's rule: every failure is a tool error
                    log.info("tool %s: %s", name, e, exc_info=e)
                    return {"content": [{"type": "text", "text": str(e)}], "isError": True}

            self._start(request, call, request.reply_result, lambda e: _reply_failure(request, e))

        return invoke

    def _read(self, request: _native.Request) -> None:
        fn = self._handlers.get("read_resource")
        uri = str(request.params.get("uri", ""))
        if fn is None:
            request.reply_error(-32601, "Method not found: the server has no read_resource handler")
            return

        async def call() -> dict[str, Any]:
            from pydantic import AnyUrl

            return {"contents": _resource_contents(uri, await _awaited(fn(AnyUrl(uri))))}

        self._start(request, call, request.reply_result, lambda e: _reply_failure(request, e))

    def _prompt(self, request: _native.Request) -> None:
        fn = self._handlers.get("get_prompt")
        if fn is None:
            request.reply_error(-32601, "Method not found: the server has no get_prompt handler")
            return
        params = request.params

        async def call() -> Any:
            return _dump(await _awaited(fn(params.get("name"), params.get("arguments"))))

        self._start(request, call, request.reply_result, lambda e: _reply_failure(request, e))

    def _method(self, params_type: type[Any],
                handler: Callable[[RequestContext, Any], Any]) -> Callable[[_native.Request], None]:
        def invoke(request: _native.Request) -> None:
            from pydantic import ValidationError

            params = dict(request.params)
            try:
                typed = params_type.model_validate(params)
            except ValidationError as e:
                request.reply_error(-32602, f"Invalid request parameters: {e}")
                return

            async def call() -> Any:
                result = await _awaited(handler(self.request_context, typed))
                return {} if result is None else _dump(result)

            self._start(request, call, request.reply_result, lambda e: _reply_failure(request, e))

        return invoke

    def _complete(self, request: _native.Request) -> None:
        from mcp import types

        fn = self._handlers["completion"]
        params = request.params
        ref = params.get("ref") or {}
        ref_type = types.PromptReference if ref.get("type") == "ref/prompt" else types.ResourceTemplateReference
        context = params.get("context")

        async def call() -> dict[str, Any]:
            completion = await _awaited(fn(ref_type.model_validate(ref),
                                           types.CompletionArgument.model_validate(params.get("argument")),
                                           types.CompletionContext.model_validate(context) if context else None))
            return {"completion": _dump(completion) if completion is not None else {"values": []}}

        self._start(request, call, request.reply_result, lambda e: _reply_failure(request, e))


def _sdk_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mcp")
    except PackageNotFoundError:
        return "unknown"


def _reply_failure(request: _native.Request, e: BaseException) -> None:
    """A handler's exception outside a tool call: the SDK's ``McpError`` as its JSON-RPC error,
    anything else as an internal error with its message (the SDK answers those with code 0)."""
    from ._tool import protocol_error_of

    rpc = protocol_error_of(e)
    if rpc is not None:
        request.reply_error(*rpc)
        return
    log.error("a low-level handler failed", exc_info=e)
    request.reply_error(-32603, str(e))


def _tool_result(result: Any, output_schema: dict[str, Any] | None) -> dict[str, Any]:
    """A call handler's return value as the SDK's low-level server makes it a CallToolResult."""
    if type(result).__name__ in ("CallToolResult", "CreateTaskResult") and hasattr(result, "model_dump"):
        dumped: dict[str, Any] = _dump(result)
        return dumped
    if isinstance(result, tuple) and len(result) == 2:
        unstructured, structured = result
    elif isinstance(result, dict):
        unstructured, structured = [{"type": "text", "text": json.dumps(result, indent=2)}], result
    elif hasattr(result, "__iter__") and not isinstance(result, (str, bytes)):
        unstructured, structured = result, None
    else:
        return _error(f"Unexpected return type from tool: {type(result).__name__}")
    if output_schema is not None:
        if structured is None:
            return _error("Output validation error: outputSchema defined but no structured output returned")
        jsonschema = importlib.import_module("jsonschema")  # the SDK's dependency, as it checks outputs
        try:
            jsonschema.validate(instance=structured, schema=output_schema)
        except jsonschema.ValidationError as e:
            return _error(f"Output validation error: {e.message}")
    out: dict[str, Any] = {"content": [_dump(block) for block in unstructured]}
    if structured is not None:
        out["structuredContent"] = structured
    out["isError"] = False
    return out


def _error(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}


def _resource_contents(uri: str, result: Any) -> list[dict[str, Any]]:
    """``read_resource``'s ``str``, ``bytes`` or ``ReadResourceContents`` items as contents (text
    defaults to ``text/plain``, bytes to ``application/octet-stream``, as in the SDK)."""
    import base64

    def item(data: Any, mime_type: str | None, meta: Any = None) -> dict[str, Any]:
        out: dict[str, Any] = {"uri": uri}
        if isinstance(data, bytes):
            out["mimeType"] = mime_type or "application/octet-stream"
            out["blob"] = base64.b64encode(data).decode("ascii")
        elif isinstance(data, str):
            out["mimeType"] = mime_type or "text/plain"
            out["text"] = data
        else:
            raise ValueError(f"Unexpected return type from read_resource: {type(data)}")
        if meta is not None:
            out["_meta"] = meta
        return out

    if isinstance(result, (str, bytes)):
        return [item(result, None)]
    return [item(c.content, c.mime_type, getattr(c, "meta", None)) for c in result]
