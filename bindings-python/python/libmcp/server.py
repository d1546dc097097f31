"""The server: decorators that register Python functions with the engine, and the transports.

Shaped like the official SDK's ``MCPServer``/``FastMCP``: ``@server.tool()``, ``@server.resource(uri)``,
``@server.prompt()``, ``@server.completion()``, ``server.run()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import types
import typing
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

from . import _native
from . import _pydantic
from . import schema as _schema
from ._bridge import (Loop, call_native, is_cancellation, running_loop, running_loop_or_none, shielded,
                      sleep_forever, submit)
from ._engine_log import sync_engine_log_level
from .auth import ResourceServer
from .asgi import AsgiApp
from ._functions import Function
from ._tool import Tool, ToolResult, output_of, protocol_error_of
from .content import to_content
from .context import Context
from .errors import TransportError
from .model import wrap

__all__ = ["Server", "ToolResult", "Message", "Skill", "TaskStore", "TaskSupport"]

log = logging.getLogger("libmcp.server")

F = TypeVar("F", bound=Callable[..., Any])

INTERNAL_ERROR = -32603

#: ``execution.taskSupport`` of a tool: whether it may (``"optional"``) or must (``"required"``)
#: run as a task; ``"forbidden"`` (the default) never does.
TaskSupport = Literal["forbidden", "optional", "required"]


@dataclass(frozen=True)
class Skill:
    """A skill to serve (the skills extension, SEP-2640; ``Server(skills=[...])``): the text of its
    ``SKILL.md``, whose frontmatter names and describes it, and its other files by relative path as
    ``(mime_type, content)``. The engine lists them with their digests and serves them as
    resources under ``skill://NAME/``."""

    skill_md: str
    files: dict[str, tuple[str, bytes | str]] = field(default_factory=dict)

    def _native(self) -> tuple[str, list[tuple[str, str, bytes]]]:
        return self.skill_md, [(path, mime, content.encode() if isinstance(content, str) else content)
                               for path, (mime, content) in self.files.items()]


class TaskStore(Protocol):
    """Where a server keeps task state instead of its memory (``Server(task_store=...)``), e.g. a
    database several server instances share. Records are dicts of JSON (``id``, ``status``,
    ``createdMs``, ``ttlMs``, ``result``, ...) to be stored and given back unchanged. The methods
    are called from engine threads (not the event loop) and may block; an exception fails the
    operation (the client gets an internal error). Records whose TTL ran out are never served,
    whatever ``get`` and ``list`` return; a store should drop them."""

    def create(self, record: dict[str, Any]) -> None:
        """Stores a new record (readable by ``get`` once this returns)."""

    def put(self, record: dict[str, Any]) -> None:
        """Replaces the record with the same ``id``."""

    def get(self, task_id: str) -> dict[str, Any] | None:
        """The record with this id, or None."""

    def list(self) -> list[dict[str, Any]]:
        """Every record (for 2025-11-25 ``tasks/list``)."""


@dataclass
class Message:
    """A prompt message: ``role`` is ``"user"`` or ``"assistant"``; ``content`` is one content value."""

    role: str
    content: Any

    def to_json(self) -> dict[str, Any]:
        """The PromptMessage object."""
        blocks = to_content(self.content)
        if len(blocks) != 1:
            raise ValueError("a prompt message holds exactly one content block")
        return {"role": self.role, "content": blocks[0]}


class Server:
    """An MCP server for both protocol eras. Register handlers with the decorators, then ``run()``."""

    def __init__(
        self,
        name: str,
        version: str = "0.1.0",
        instructions: str | None = None,
        *,
        title: str | None = None,
        description: str | None = None,
        website_url: str | None = None,
        icons: list[dict[str, Any] | Any] | None = None,
        versions: list[str] | None = None,
        page_size: int | None = None,
        state_key: bytes | None = None,
        task_ttl: float | None = None,
        task_poll_interval: float | None = None,
        task_store: TaskStore | None = None,
        skills: list[Skill] | None = None,
        redis: str | None = None,
        max_message_bytes: int | None = None,
        max_in_flight: int | None = None,
        max_input_rounds: int | None = None,
        max_request_state_bytes: int | None = None,
        state_ttl: float | None = None,
        client_request_timeout: float | None = None,
        handler_timeout: float | None = None,
        mask_error_details: bool = False,
        lifespan: Callable[[Any], contextlib.AbstractAsyncContextManager[Any]] | None = None,
    ) -> None:
        """``task_ttl`` is how long a task is kept after its creation (seconds; the engine's default is
        an hour), ``task_poll_interval`` how often clients are asked to poll one (seconds, default
        0.5). ``task_store`` keeps task state somewhere else than in memory (see :class:`TaskStore`).
        ``skills`` are served through the skills extension (see :class:`Skill`).

        ``redis`` (a ``redis://host:port/db`` URL) shares this server's state with every instance on
        that Redis, so that any of them serves any client behind a load balancer: legacy HTTP
        sessions and their SSE events, tasks, the ``requestState`` keys, list changes and answers to
        elicitation/sampling/roots requests (then give neither ``task_store`` nor ``state_key``). A
        URL that is not a Redis URL is a ``ValueError``; Redis down never stops serving: requests
        that need it get HTTP 503 until it answers.

        Limits (each has a safe default; 0 or a negative value is a ``ValueError``):
        ``max_message_bytes`` the largest message accepted over stdio (8 MiB; larger ones get
        -32600), ``max_in_flight`` the requests one session may have running (1024; more get -32603
        with ``data.maxInFlight``), ``max_input_rounds`` the input rounds one legacy request may take
        (10), ``max_request_state_bytes`` the largest ``requestState`` a handler may return (bytes
        before sealing, 256 KiB; a larger one fails the request with -32603, a longer token from a
        client gets -32602), ``state_ttl`` how long a sealed ``requestState`` stays valid (seconds, 600),
        ``client_request_timeout`` how long a legacy server-to-client request waits (seconds, 300),
        ``handler_timeout`` the longest a handler may take to answer (seconds; no limit by default):
        when it passes first, the request is answered with -32603 and ``data.handlerTimeoutMs``, the
        handler's context reports it cancelled (an ``async def`` handler is cancelled as a task) and
        its later answer is dropped.

        ``mask_error_details``: when a tool raises anything but a :class:`ToolError` (or a
        protocol error), the client gets only ``Error executing tool NAME``, not the exception's
        message; the traceback is logged (logger ``libmcp.server``) either way.

        ``lifespan(server)``: an async context manager entered before serving starts
        (``run``/``serve_async``, an in-memory :class:`Client`, the ASGI app's lifespan) and left
        when it ends; what it yields is ``ctx.lifespan_context`` in handlers."""
        info: dict[str, Any] = {}
        if title is not None:
            info["title"] = title
        if description is not None:
            info["description"] = description
        if website_url is not None:
            info["websiteUrl"] = website_url
        if icons:
            info["icons"] = [_plain(i) for i in icons]
        limits = {k: v for k, v in {
            "max_message_bytes": max_message_bytes, "max_in_flight": max_in_flight,
            "max_input_rounds": max_input_rounds, "max_request_state_bytes": max_request_state_bytes,
            "state_ttl": state_ttl,
            "client_request_timeout": client_request_timeout,
            "handler_timeout": handler_timeout}.items() if v is not None}
        self.name = name
        self._mask_error_details = mask_error_details
        if lifespan is not None and not callable(lifespan):
            raise TypeError("lifespan must be a callable taking the server and returning an async context manager")
        self._lifespan = lifespan
        self._lifespan_value: Any = {}
        self._lifespan_depth = 0
        self._lifespan_exit: contextlib.AsyncExitStack | None = None
        self._self_client: Any = None
        self._native = _native.Server(name, version, instructions, info or None, versions, page_size, state_key,
                                      task_ttl, task_poll_interval, task_store,
                                      [s._native() for s in skills] if skills else None, redis, limits or None)
        self._loop: Loop | None = None
        self._tasks: set[Any] = set()
        self._names: dict[str, set[str]] = {"tool": set(), "resource": set(), "template": set(), "prompt": set()}
        self._tool_scopes: dict[str, list[str]] = {}

    # -- registration ---------------------------------------------------------------------------

    #: Results as the official SDK gives them (``FastMCP``/``MCPServer``): ``str``, ``None`` and
    #: lists structured as ``{"result": ...}``, text content as indented JSON, a raised tool's
    #: message after ``Error executing tool NAME:`` (libmcp's own: the message alone), descriptions
    #: the raw docstring.
    #: 0 for libmcp's own rules, else the SDK's major version whose rules apply (1 FastMCP, 2 MCPServer).
    _sdk_results = 0

    def _inspect(self, fn: Callable[..., Any], name: str | None, description: str | None, kind: str) -> Function:
        f = Function.inspect(fn, name, description, kind)
        if self._sdk_results and description is None:
            f.description = getattr(fn, "__doc__", None) or None
        return f

    def _input_schema(self, f: Function) -> dict[str, Any]:
        schema = f.input_schema()
        if f.arguments is not None and not self._sdk_results:
            schema = _pydantic.strip_titles(schema)
            # The docstring's ``Args:`` describe the parameters pydantic has no description of.
            props = schema.get("properties", {})
            for pname, doc in f.param_docs.items():
                if pname in props and "description" not in props[pname]:
                    props[pname]["description"] = doc
        return schema

    def _context(self, request: _native.Request) -> Context:
        return Context(request, self)

    def _claim(self, kind: str, key: str) -> bool:
        """Whether to register ``key``: a second registration of a name is a DefinitionError, or
        with the SDK's rules (``FastMCP``/``MCPServer``) a warning, and the first stays."""
        if key in self._names[kind]:
            if self._sdk_results:
                log.warning("%s already exists: %s (the first registration stays)", kind.capitalize(), key)
                return False
            from .errors import DefinitionError

            raise DefinitionError(f"{kind} {key!r} is registered already (remove it first)")
        return True

    def tool(
        self,
        name: str | None = None,
        *,
        title: str | None = None,
        description: str | None = None,
        input_schema: dict[str, Any] | None = None,
        output_schema: dict[str, Any] | None = None,
        structured_output: bool | None = None,
        annotations: dict[str, Any] | Any | None = None,
        icons: list[dict[str, Any] | Any] | None = None,
        meta: dict[str, Any] | None = None,
        scopes: list[str] | None = None,
        task: TaskSupport | None = None,
        defer_task: bool = False,
    ) -> Callable[[F], F]:
        """Registers the decorated function as a tool. Its parameters (type hints, defaults, the
        docstring's ``Args:``) give the input schema unless ``input_schema`` is given; the return
        annotation gives the output schema (see :func:`_output_schema`). ``scopes`` are the OAuth
        scopes a call needs when served over HTTP with ``auth=ResourceServer(...)``.

        ``task`` lets the tool run as a task (``execution.taskSupport``): ``"optional"`` when the
        client can take one, ``"required"`` only as one (other clients get an error before the
        function runs). The task starts before the function runs; with ``defer_task=True`` the
        function starts it itself with :meth:`Context.start_task` (after gathering input first)."""

        def register(fn: F) -> F:
            self.add_tool(
                fn,
                name=name,
                title=title,
                description=description,
                input_schema=input_schema,
                output_schema=output_schema,
                structured_output=structured_output,
                annotations=annotations,
                icons=icons,
                meta=meta,
                scopes=scopes,
                task=task,
                defer_task=defer_task,
            )
            return fn

        if callable(name):
            raise TypeError("use @server.tool() with parentheses")
        return register

    def add_tool(
        self,
        fn: Callable[..., Any],
        name: str | None = None,
        *,
        title: str | None = None,
        description: str | None = None,
        input_schema: dict[str, Any] | None = None,
        output_schema: dict[str, Any] | None = None,
        structured_output: bool | None = None,
        annotations: dict[str, Any] | Any | None = None,
        icons: list[dict[str, Any] | Any] | None = None,
        meta: dict[str, Any] | None = None,
        scopes: list[str] | None = None,
        task: TaskSupport | None = None,
        defer_task: bool = False,
    ) -> None:
        """Registers ``fn`` as a tool (at any time; connected clients are told the list changed).
        ``scopes``, ``task`` and ``defer_task``: see :meth:`tool` (scopes take effect when the HTTP
        server starts)."""
        if task not in (None, "forbidden", "optional", "required"):
            raise ValueError(f"task must be 'optional', 'required' or 'forbidden', not {task!r}")
        f = self._inspect(fn, name, description, "tool")
        validated = input_schema is None and f.validate_with_pydantic()
        output = output_of(f, output_schema, structured_output, self._sdk_results)
        definition: dict[str, Any] = {"name": f.name, "inputSchema": input_schema or self._input_schema(f)}
        if title is not None:
            definition["title"] = title
        if f.description or self._sdk_results:
            definition["description"] = f.description or ""
        if output.schema is not None:
            definition["outputSchema"] = output.schema
        if annotations:
            definition["annotations"] = _plain(annotations)
        if icons:
            definition["icons"] = [_plain(i) for i in icons]
        if meta:
            definition["_meta"] = meta
        if task is not None:
            definition["execution"] = {"taskSupport": task}
        if not self._claim("tool", f.name):
            return
        tool = Tool(self, f, output, task not in (None, "forbidden") and not defer_task)
        self._native.add_tool(definition, tool.invoke, on_loop=f.is_async, check_input=not validated)
        self._names["tool"].add(f.name)
        if scopes:
            self._tool_scopes[f.name] = list(scopes)

    def remove_tool(self, name: str) -> bool:
        """Removes a tool; False if there was none."""
        self._names["tool"].discard(name)
        self._tool_scopes.pop(name, None)
        return self._native.remove_tool(name)

    def resource(
        self,
        uri: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        mime_type: str | None = None,
        size: int | None = None,
        annotations: dict[str, Any] | Any | None = None,
        icons: list[dict[str, Any] | Any] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Callable[[F], F]:
        """Registers the decorated function as the resource at ``uri``, or as a resource template
        when ``uri`` has ``{variables}`` (RFC 6570), whose values are passed as keyword arguments.
        The function returns ``str`` (text), ``bytes`` (a blob), a list of these, or a full
        ReadResourceResult ``dict``."""

        def register(fn: F) -> F:
            self.add_resource(
                fn, uri, name=name, title=title, description=description, mime_type=mime_type,
                size=size, annotations=annotations, icons=icons, meta=meta,
            )
            return fn

        return register

    def add_resource(
        self,
        fn: Callable[..., Any],
        uri: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        mime_type: str | None = None,
        size: int | None = None,
        annotations: dict[str, Any] | Any | None = None,
        icons: list[dict[str, Any] | Any] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        """Registers ``fn`` as a resource or a resource template (see :meth:`resource`)."""
        f = self._inspect(fn, name, description, "resource")
        f.validate_with_pydantic()
        templated = "{" in uri
        definition: dict[str, Any] = {"uriTemplate" if templated else "uri": uri, "name": f.name}
        for key, value in (("title", title), ("description", f.description), ("mimeType", mime_type),
                           ("annotations", _plain(annotations)), ("icons", _plain_list(icons)), ("_meta", meta)):
            if value:
                definition[key] = value
        if size is not None and not templated:
            definition["size"] = size
        if self._sdk_results:
            # The SDK's defaults: an empty description, text/plain.
            definition.setdefault("description", "")
            definition.setdefault("mimeType", "text/plain")
            mime_type = definition["mimeType"]
        resource = _Resource(self, f, mime_type)
        if templated:
            if not self._claim("template", uri):
                return
            self._native.add_template(definition, resource.invoke, on_loop=f.is_async)
            self._names["template"].add(uri)
        else:
            if not self._claim("resource", uri):
                return
            self._native.add_resource(definition, resource.invoke, on_loop=f.is_async)
            self._names["resource"].add(uri)

    def remove_resource(self, uri: str) -> bool:
        """Removes a resource or resource template by its URI (template); False if there was none."""
        self._names["resource"].discard(uri)
        self._names["template"].discard(uri)
        return self._native.remove_resource(uri) or self._native.remove_template(uri)

    def add_skill(self, skill: Skill) -> None:
        """Serves ``skill`` from now on (replacing a skill of the same name) and tells clients the
        resource list changed. A ``SKILL.md`` or file path the engine refuses is a ``ValueError``;
        a file whose URI another resource has is a :class:`DefinitionError`, and nothing changes."""
        if not isinstance(skill, Skill):
            raise TypeError(f"add_skill takes a libmcp.Skill, not {type(skill).__name__}")
        skill_md, files = skill._native()
        self._native.add_skill(skill_md, files)

    def remove_skill(self, name: str) -> bool:
        """Stops serving the skill ``name`` (its files go with it); False if there was none."""
        return self._native.remove_skill(name)

    def notify_resource_updated(self, uri: str) -> None:
        """Tells clients subscribed to ``uri`` that it changed."""
        self._native.notify_resource_updated(uri)

    def prompt(
        self,
        name: str | None = None,
        *,
        title: str | None = None,
        description: str | None = None,
        icons: list[dict[str, Any] | Any] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Callable[[F], F]:
        """Registers the decorated function as a prompt; its parameters are the prompt's arguments
        (strings; required unless they have a default). It returns a ``str`` (one user message), a
        :class:`Message`, a list of messages or strings, or a full GetPromptResult ``dict``."""

        def register(fn: F) -> F:
            self.add_prompt(fn, name, title=title, description=description, icons=icons, meta=meta)
            return fn

        if callable(name):
            raise TypeError("use @server.prompt() with parentheses")
        return register

    def add_prompt(
        self,
        fn: Callable[..., Any],
        name: str | None = None,
        *,
        title: str | None = None,
        description: str | None = None,
        icons: list[dict[str, Any] | Any] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        """Registers ``fn`` as a prompt (see :meth:`prompt`)."""
        f = self._inspect(fn, name, description, "prompt")
        f.validate_with_pydantic()
        arguments = []
        for pname, p in f.params.items():
            arg: dict[str, Any] = {"name": pname}
            if pname in f.param_docs:
                arg["description"] = f.param_docs[pname]
            arg["required"] = p.default is p.empty
            arguments.append(arg)
        definition: dict[str, Any] = {"name": f.name}
        if arguments:
            definition["arguments"] = arguments
        for key, value in (("title", title), ("description", f.description), ("icons", _plain_list(icons)),
                           ("_meta", meta)):
            if value:
                definition[key] = value
        if self._sdk_results:
            definition.setdefault("description", "")
        if not self._claim("prompt", f.name):
            return
        self._native.add_prompt(definition, _Prompt(self, f).invoke, on_loop=f.is_async)
        self._names["prompt"].add(f.name)

    def remove_prompt(self, name: str) -> bool:
        """Removes a prompt; False if there was none."""
        self._names["prompt"].discard(name)
        return self._native.remove_prompt(name)

    def completion(self) -> Callable[[F], F]:
        """Registers the decorated function as the ``completion/complete`` handler. It is called
        with ``(ref, argument, context)`` (objects with attribute access: ``ref.type``, ``ref.uri`` or
        ``ref.name``, ``argument.name``, ``argument.value``, ``context.arguments`` or None) and returns
        a list of values, a Completion ``dict`` (``values``, ``total``, ``hasMore``) or None."""

        def register(fn: F) -> F:
            f = Function.inspect(fn, None, None, "completion")
            self._native.set_completion(_Completion(self, f).invoke, on_loop=f.is_async)
            return fn

        return register

    def request_handler(self, method: str) -> Callable[[F], F]:
        """Registers the decorated function as the handler of ``method``, in both eras; it
        replaces the handler set before. ``method`` is a request method the specification does
        not define (``"acme/search"``; no capability is declared for it), or a feature method it
        lets a host answer itself (``tools/list``, ``tools/call``, ``resources/list``,
        ``resources/templates/list``, ``resources/read``, ``prompts/list``, ``prompts/get``,
        ``completion/complete``, ``tasks/get``, ``tasks/result``, ``tasks/list``,
        ``tasks/cancel``), whose capability :meth:`declare_capabilities` must declare first: the
        engine checks such a request against the revision's schema before the handler runs
        (-32602) and its result after (-32603, never sent), and refuses owning it beside the
        registrations it would answer it for (``InvalidArgument`` naming both). It is called
        with the request's params (a ``dict``, ``{}`` without any) and, when it has a parameter
        annotated ``Context``, the context; it returns the result (a ``dict``, or a pydantic
        model, dumped by alias) or an ``InputRequired``. A ``ProtocolError`` it raises is sent as
        that JSON-RPC error, any other exception as an internal error (-32603) with its message.
        Any other method the specification defines (``initialize``, ``ping``, ...), one under
        ``notifications/`` and one beginning with ``rpc.`` are refused with ``InvalidArgument``
        naming why: the engine answers those."""

        def register(fn: F) -> F:
            f = Function.inspect(fn, method, None, "request handler")
            self._native.set_method_handler(method, _Method(self, f).invoke, on_loop=f.is_async)
            return fn

        return register

    def declare_capabilities(self, capabilities: dict[str, Any]) -> None:
        """Declares capabilities of the server's own (as ``initialize`` carries them): each key
        given is advertised as given, over what the engine would declare for it. The methods
        :meth:`request_handler` answers among the specification's need theirs declared
        (``tools``, ``resources``, ``prompts``, ``completions``, ``tasks``)."""
        self._native.declare_capabilities(json.dumps(capabilities))

    def remove_request_handler(self, method: str) -> None:
        """Removes the handler of ``method`` (its requests are answered -32601 again); a method
        the specification defines is refused as by :meth:`request_handler`."""
        self._native.set_method_handler(method, None)

    def resource_lister(self) -> Callable[[F], F]:
        """Registers the decorated function as the source of more ``resources/list`` entries: it
        is called (with the ``Context`` when it has a parameter annotated so) for each
        ``resources/list`` request and returns every entry each time, as a list of ``dict``s
        (``uri`` and ``name`` required) or of the official SDK's ``Resource`` models. They are
        listed after the registered resources and paged by the engine. Reading such a URI needs a
        registered resource or a template that matches it. ``remove_resource_lister()`` removes it."""

        def register(fn: F) -> F:
            f = Function.inspect(fn, "resource lister", None, "resource lister")
            if f.params:
                raise TypeError(f"a resource lister takes no parameters but the Context, got {list(f.params)}")
            self._native.set_resource_lister(_Lister(self, f).invoke, on_loop=f.is_async)
            return fn

        return register

    def remove_resource_lister(self) -> None:
        """Removes the resource lister: ``resources/list`` gives the registered resources only."""
        self._native.set_resource_lister(None)

    # -- serving --------------------------------------------------------------------------------

    def run(self, transport: str = "stdio", host: str = "127.0.0.1", port: int = 8000, **http: Any) -> None:
        """Serves until stdin closes (``"stdio"``) or until interrupted (``"http"``,
        ``"streamable-http"``). Ctrl-C stops it cleanly."""
        try:
            asyncio.run(self.serve_async(transport, host, port, **http))
        except KeyboardInterrupt:
            pass

    async def serve_async(
        self,
        transport: str = "stdio",
        host: str = "127.0.0.1",
        port: int = 8000,
        *,
        ready: Callable[[str], Any] | None = None,
        auth: ResourceServer | None = None,
        **http: Any,
    ) -> None:
        """Serves on the running event loop (``async def`` handlers run on it): asyncio's, or trio's
        (``trio.run(server.serve_async)``, ``anyio.run(..., backend="trio")``). For HTTP, ``ready``
        is called with the endpoint URL once the server listens; the keyword options are those of
        the engine's HTTP server (``path``, ``legacy_sessions``, ``http_sse``,
        ``dns_rebinding_protection``, ``allowed_hosts``, ``allowed_origins``, ``max_body_bytes``,
        ``max_header_bytes`` (the request head, 64 KiB, at least 8192; a larger one gets HTTP 431),
        ``max_headers`` (header fields per request, 100; more get 431), ``max_sessions``,
        ``session_idle_timeout``, ``sse_keepalive``, ``sse_retry`` (the SSE ``retry`` field
        sent to clients, seconds), ``json_response`` (answer every request with one JSON body,
        never an SSE stream: the handler's notifications are dropped and its legacy requests to
        the client fail), ``legacy_stateless`` (2025-era requests served without sessions: no
        ``Mcp-Session-Id``, GET and DELETE get 405, a handler's requests to the client fail));
        a value the engine refuses is a
        ``ValueError`` naming it. ``auth`` makes it an OAuth 2.1 resource server
        (:class:`libmcp.auth.ResourceServer`)."""
        loop = running_loop()
        sync_engine_log_level()
        async with self._lifespan_scope():
            self._loop = loop
            with self._loop_queue(loop):
                await self._serve(loop, transport, host, port, ready, auth, http)

    @contextlib.asynccontextmanager
    async def _lifespan_scope(self) -> AsyncIterator[None]:
        """The ``lifespan`` context, entered by the first of the nested scopes that serve."""
        self._lifespan_depth += 1
        try:
            if self._lifespan_depth == 1 and self._lifespan is not None:
                async with self._lifespan(self) as value:
                    self._lifespan_value = value
                    try:
                        yield
                    finally:
                        self._lifespan_value = {}
            else:
                yield
        finally:
            self._lifespan_depth -= 1

    @contextlib.asynccontextmanager
    async def _in_process(self) -> AsyncIterator[None]:
        """Serving in-process clients (see :class:`Client`) on the running loop: the lifespan,
        and ``async def`` handlers on this loop unless the server is served on it already."""
        loop = running_loop()
        async with self._lifespan_scope():
            if self._loop is loop:
                yield
                return
            previous = self._loop
            try:
                with self._serving_on(loop):
                    yield
            finally:
                self._loop = previous

    async def _self(self) -> Any:
        """A client of this server over an in-memory pipe, for the server-side calls
        (:meth:`call_tool`, ...); made on first use."""
        from .client import Client

        if self._self_client is None:
            client = Client.memory(self)
            # Not a serving scope of its own: each call runs in one (see _local).
            client._server = None
            self._self_client = await client.connect()
        return self._self_client

    async def _local(self, method: str, *args: Any) -> Any:
        client = await self._self()
        loop = running_loop()
        if self._loop is loop and not self._loop.is_closed():
            return await getattr(client, method)(*args)
        previous = self._loop
        try:
            with self._serving_on(loop):
                return await getattr(client, method)(*args)
        finally:
            self._loop = previous

    async def list_tools(self) -> list[Any]:
        """The tools as a client lists them (through the engine, in this process)."""
        return list(await self._local("list_tools"))

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None) -> Any:
        """Calls a tool as a client would (through the engine, in this process): the
        :class:`libmcp.types.CallToolResult` (a tool error is a result with ``is_error``)."""
        return await self._local("call_tool", name, arguments or {})

    async def list_resources(self) -> list[Any]:
        """The resources as a client lists them."""
        return list(await self._local("list_resources"))

    async def list_resource_templates(self) -> list[Any]:
        """The resource templates as a client lists them."""
        return list(await self._local("list_resource_templates"))

    async def read_resource(self, uri: str) -> list[dict[str, Any]]:
        """Reads a resource as a client would: its ``contents`` items (dicts of ``uri``,
        ``mimeType``, ``text`` or ``blob``)."""
        result = await self._local("read_resource", uri)
        return list(result.model_dump()["contents"])

    async def list_prompts(self) -> list[Any]:
        """The prompts as a client lists them."""
        return list(await self._local("list_prompts"))

    async def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> Any:
        """Gets a prompt as a client would."""
        return await self._local("get_prompt", name, arguments)

    @contextlib.contextmanager
    def _serving_on(self, loop: Loop) -> Iterator[None]:
        """Runs ``async def`` handlers on ``loop`` (a mounted endpoint's: the ASGI server's loop)."""
        self._loop = loop
        with self._loop_queue(loop):
            yield

    @contextlib.contextmanager
    def _loop_queue(self, loop: Loop) -> Iterator[None]:
        """While serving, calls of ``async def`` handlers are queued for ``loop`` and started there
        in batches (one wake-up of the loop for all calls queued meanwhile), not one by one from a
        worker thread. A loop without ``add_reader`` gets them from the workers."""
        queue = _native.LoopQueue()
        try:
            loop.add_reader(queue.fileno(), queue.drain)
        except NotImplementedError:
            yield
            return
        self._native.set_loop_queue(queue)
        try:
            yield
        finally:
            self._native.set_loop_queue(None)
            loop.remove_reader(queue.fileno())
            queue.close()

    async def _serve(self, loop: Loop, transport: str, host: str, port: int,
                     ready: Callable[[str], Any] | None, auth: ResourceServer | None, http: dict[str, Any]) -> None:
        if transport == "stdio":
            fut: asyncio.Future[Any] = loop.create_future()
            stopper = self._native.serve_stdio(_done_for(loop, fut))
            try:
                await (asyncio.shield(fut) if isinstance(loop, asyncio.AbstractEventLoop) else fut)
            except BaseException as e:
                if not is_cancellation(e):
                    raise
                stopper.stop()
                await shielded(fut)
                raise
            return
        if transport not in ("http", "streamable-http"):
            raise ValueError(f"unknown transport {transport!r} (stdio, http)")
        if auth is not None:
            http["auth"] = self._auth_options(auth, lambda: loop)
        try:
            handle = await call_native(self._native.serve_http, host, port, http)
        except TransportError as e:
            raise _listen_error(e, host, port) from e
        url = f"http://{host}:{handle.port}{http.get('path', '/mcp')}"
        log.info("listening on %s", url)
        if ready is not None:
            ready(url)
        try:
            await sleep_forever()
        finally:
            await shielded(call_native(handle.shutdown))

    def asgi_app(
        self,
        *,
        allowed_hosts: list[str] | None = None,
        allowed_origins: list[str] | None = None,
        dns_rebinding_protection: bool | None = None,
        legacy_sessions: bool | None = None,
        assume_2025_03_26: bool | None = None,
        http_sse: bool | None = None,
        max_body_bytes: int | None = None,
        max_sessions: int | None = None,
        session_idle_timeout: float | None = None,
        sse_keepalive: float | None = None,
        sse_retry: float | None = None,
        json_response: bool | None = None,
        legacy_stateless: bool | None = None,
        auth: ResourceServer | None = None,
    ) -> AsgiApp:
        """The MCP endpoint as an ASGI 3 application, to mount in the application's own
        Starlette/FastAPI app: ``app.mount("/mcp", server.asgi_app())`` (see :class:`AsgiApp`,
        also for its lifespan). Handlers see the HTTP request as ``ctx.request`` and
        ``ctx.headers``.

        The options are those of ``run("http")`` that a mounted endpoint has (the path is where
        the application mounts it; the request head is its web server's). Host/Origin checking
        (DNS-rebinding protection) is off by default, since the application or its proxy decides
        which names reach it; giving ``allowed_hosts`` or ``allowed_origins`` turns it on (unless
        ``dns_rebinding_protection=False``), and a refused request's error names the header and
        the option to set. A value the engine refuses is a ``ValueError`` naming it."""
        options: dict[str, Any] = {
            "allowed_hosts": allowed_hosts, "allowed_origins": allowed_origins,
            "dns_rebinding_protection": dns_rebinding_protection, "legacy_sessions": legacy_sessions,
            "assume_2025_03_26": assume_2025_03_26, "http_sse": http_sse, "max_body_bytes": max_body_bytes,
            "max_sessions": max_sessions, "session_idle_timeout": session_idle_timeout,
            "sse_keepalive": sse_keepalive, "sse_retry": sse_retry, "json_response": json_response,
            "legacy_stateless": legacy_stateless,
        }
        if auth is not None:
            options["auth"] = self._auth_options(auth, lambda: self._loop)
        return AsgiApp(self._native.endpoint(options), self._serving_on, self._lifespan_scope)

    def streamable_http_app(self, **options: Any) -> AsgiApp:
        """:meth:`asgi_app` under the official SDK's name. Unlike the SDK's, the returned app is the
        endpoint itself (mount it where the endpoint should answer), takes the options of
        :meth:`asgi_app`, needs no lifespan to serve, and checks Host/Origin only when told to."""
        return self.asgi_app(**options)

    def _auth_options(self, auth: ResourceServer,
                      loop: Callable[[], Loop | None]) -> dict[str, Any]:
        if not isinstance(auth, ResourceServer):
            raise TypeError(f"auth must be a libmcp.auth.ResourceServer, not {type(auth).__name__}")
        return auth._options(loop, self._tool_scopes)

    # -- dispatch helpers -------------------------------------------------------------------------

    def _handle(self, request: _native.Request, run: Callable[[], Any], answer: Callable[[Any], None],
                what: str, is_async: bool) -> None:
        """:meth:`_start` for a handler whose failure is a JSON-RPC error (a ``ProtocolError`` as
        itself, anything else an internal error naming ``what``)."""
        self._start(request, run, answer, lambda e: _protocol_error(request, e, what),
                    is_async)

    def _start(self, request: _native.Request, run: Callable[[], Any], answer: Callable[[Any], None],
               fail: Callable[[BaseException], None], is_async: bool) -> None:
        """Runs a handler: sync ones here (a handler worker, GIL held), async ones on the serving loop
        (here too when the loop drained them from its queue, else scheduled onto it)."""
        if not is_async:
            try:
                result = run()
            except BaseException as e:  # noqa: BLE001 - every failure becomes an answer
                fail(e)
                return
            _answer_safely(request, answer, result, fail)
            return
        loop = self._loop
        if loop is None or loop.is_closed():
            request.reply_error(INTERNAL_ERROR, "async handlers need the server to be served with serve_async/run")
            return

        async def main() -> None:
            try:
                result = await run()
            except BaseException as e:  # noqa: BLE001
                if is_cancellation(e):
                    request.reply_error(INTERNAL_ERROR, "cancelled")
                else:
                    fail(e)
                return
            _answer_safely(request, answer, result, fail)

        if running_loop_or_none() is loop:
            # Queued for the loop and drained there (_loop_queue). The set keeps the task alive.
            task = loop.create_task(main())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            request.on_cancel(lambda: loop.call_soon_threadsafe(task.cancel))
            return
        future = submit(loop, main())
        request.on_cancel(future.cancel)


def _listen_error(e: TransportError, host: str, port: int) -> TransportError:
    """A failure to listen as an OSError with its ``errno`` (``EADDRINUSE``, ``EACCES``, ...) and
    the address in its message (a TransportError, which is an OSError)."""
    import os
    import re

    found = re.search(r"\(os error (\d+)\)", str(e))
    if found is None:
        return e
    code = int(found.group(1))
    return TransportError(code, f"cannot listen on {host}:{port}: {os.strerror(code)}")


def _plain(value: Any) -> Any:
    """An object of the official SDK's types (pydantic models such as ``ToolAnnotations`` and
    ``Icon``) as its JSON dict; anything else as it is."""
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, type):
        return dump(mode="json", by_alias=True, exclude_none=True)
    return value


def _plain_list(values: list[Any] | None) -> list[Any] | None:
    return [_plain(v) for v in values] if values else None




def _answer_safely(request: _native.Request, answer: Callable[[Any], None], result: Any,
                   fail: Callable[[BaseException], None]) -> None:
    try:
        answer(result)
    except BaseException as e:  # noqa: BLE001 - a result that does not convert
        if not request.answered:
            fail(e)


def _done_for(loop: Loop, fut: asyncio.Future[Any]) -> Callable[[bool, Any], None]:
    from ._bridge import settle

    def done(ok: bool, value: Any) -> None:
        loop.call_soon_threadsafe(settle, fut, ok, value)

    return done


def _protocol_error(request: _native.Request, e: BaseException, what: str) -> None:
    rpc = protocol_error_of(e)
    if rpc is not None:
        request.reply_error(*rpc)
    else:
        log.error("%s failed", what, exc_info=e)
        request.reply_error(INTERNAL_ERROR, f"{what} failed: {e}")


def _resource_contents(uri: str, mime_type: str | None, value: Any) -> list[dict[str, Any]]:
    import base64

    if isinstance(value, (list, tuple)):
        return [c for v in value for c in _resource_contents(uri, mime_type, v)]
    item: dict[str, Any] = {"uri": uri}
    if isinstance(value, bytes):
        item["mimeType"] = mime_type or "application/octet-stream"
        item["blob"] = base64.b64encode(value).decode("ascii")
        return [item]
    if mime_type:
        item["mimeType"] = mime_type
    item["text"] = value if isinstance(value, str) else json.dumps(_schema.jsonable(value), ensure_ascii=False)
    return [item]


_SCALARS: dict[Any, Callable[[str], Any]] = {int: int, float: float}


class _Resource:
    def __init__(self, server: Server, f: Function, mime_type: str | None) -> None:
        self.server, self.f, self.mime_type = server, f, mime_type

    def args(self, request: _native.Request, ctx: Context) -> dict[str, Any]:
        variables = request.template_vars or {}
        out = {}
        for k, v in variables.items():
            conv = _SCALARS.get(self.f.hints.get(k, str))
            out[k] = conv(v) if conv and isinstance(v, str) else v
        return self.f.call_args(out, ctx)

    def invoke(self, request: _native.Request) -> None:
        ctx = self.server._context(request)
        uri = request.params.get("uri", "")
        self.server._start(
            request,
            lambda: self.f.fn(**self.args(request, ctx)),
            lambda result: self.answer(request, uri, result),
            lambda e: _protocol_error(request, e, f"reading {uri}"),
            self.f.is_async,
        )

    def answer(self, request: _native.Request, uri: str, result: Any) -> None:
        if isinstance(result, _native.InputRequired):
            request.reply_input_required(result)
        elif isinstance(result, dict) and "contents" in result:
            request.reply_result(_schema.jsonable(result))
        elif self.server._sdk_results and not isinstance(result, (str, bytes)):
            # The SDK reads anything but text and bytes as its indented JSON.
            text = _pydantic.to_text(result) if _pydantic.AVAILABLE else json.dumps(
                _schema.jsonable(result), ensure_ascii=False, indent=2)
            request.reply_result({"contents": _resource_contents(uri, self.mime_type, text)})
        else:
            request.reply_result({"contents": _resource_contents(uri, self.mime_type, result)})


class _Prompt:
    def __init__(self, server: Server, f: Function) -> None:
        self.server, self.f = server, f

    def invoke(self, request: _native.Request) -> None:
        ctx = self.server._context(request)
        self.server._handle(request, lambda: self.f.fn(**self.f.call_args(request.arguments, ctx)),
                            lambda result: self.answer(request, result), f"prompt {self.f.name}", self.f.is_async)

    def answer(self, request: _native.Request, result: Any) -> None:
        if isinstance(result, _native.InputRequired):
            request.reply_input_required(result)
            return
        if isinstance(result, dict) and "messages" in result:
            request.reply_result(_schema.jsonable(result))
            return
        items = result if isinstance(result, (list, tuple)) else [result]
        messages = []
        for item in items:
            if isinstance(item, Message):
                messages.append(item.to_json())
            elif isinstance(item, dict) and "role" in item:
                messages.append(item)
            elif isinstance(getattr(item, "role", None), str) and hasattr(item, "content"):
                # The official SDK's prompt messages (UserMessage, AssistantMessage, Message).
                messages.append(Message(item.role, item.content).to_json())
            else:
                messages.append(Message("user", item).to_json())
        out: dict[str, Any] = {"messages": messages}
        if self.f.description or self.server._sdk_results:
            out["description"] = self.f.description or ""
        request.reply_result(out)


class _Completion:
    def __init__(self, server: Server, f: Function) -> None:
        self.server, self.f = server, f

    def invoke(self, request: _native.Request) -> None:
        params = request.params
        args = (wrap(params.get("ref")), wrap(params.get("argument")), wrap(params.get("context")))
        self.server._start(
            request,
            lambda: self.f.fn(*args),
            lambda result: self.answer(request, result),
            lambda e: _protocol_error(request, e, "completion"),
            self.f.is_async,
        )

    def answer(self, request: _native.Request, result: Any) -> None:
        if result is None:
            completion: dict[str, Any] = {"values": []}
        elif isinstance(result, dict):
            completion = result
        else:
            completion = {"values": [str(v) for v in result]}
        request.reply_result({"completion": completion})


class _Method:
    """A custom request method's handler: ``fn(params[, ctx])``, answered with the dict it returns."""

    #: What the handler is, for messages.
    what = "the request handler"

    def __init__(self, server: Server, f: Function) -> None:
        self.server, self.f = server, f

    def args(self, request: _native.Request) -> tuple[Any, ...]:
        return (dict(request.params),)

    def invoke(self, request: _native.Request) -> None:
        extra = {self.f.context_param: self.server._context(request)} if self.f.context_param else {}
        args = self.args(request)
        self.server._handle(request, lambda: self.f.fn(*args, **extra), lambda result: self.answer(request, result),
                            f"{self.what} of {self.f.name}", self.f.is_async)

    def answer(self, request: _native.Request, result: Any) -> None:
        if isinstance(result, _native.InputRequired):
            request.reply_input_required(result)
            return
        result = _plain(result)
        if not isinstance(result, dict):
            raise TypeError(f"{self.what} of {self.f.name} returned {type(result).__name__}; a result is a dict")
        request.reply_result(_schema.jsonable(result))


class _Lister(_Method):
    """The resource lister: ``fn([ctx])`` returning the extra entries of ``resources/list``."""

    what = "the resource lister"

    def args(self, request: _native.Request) -> tuple[Any, ...]:
        return ()

    def answer(self, request: _native.Request, result: Any) -> None:
        request.reply_result({"resources": [_plain(r) for r in result]})
