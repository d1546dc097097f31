"""The client: ``async with Client.stdio(command, args) as client`` or ``Client.http(url)``.

Every result is a typed :class:`~libmcp.model.McpObject` of :mod:`libmcp.types` (typed attributes,
``model_dump()`` for the JSON as sent); lists of tools, resources, templates and prompts are Python
lists of them, or one page at a time with the ``*_page`` methods. Errors are the
exceptions of :mod:`libmcp.errors`.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import os
from types import TracebackType
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Union

from . import _native
from ._bridge import Loop, call_native, running_loop
from ._engine_log import sync_engine_log_level
from .errors import ProtocolError
from .auth import OAuth
from .model import McpObject, wrap
if TYPE_CHECKING:
    from .server import Server
from .types import (
    CallToolResult,
    CompleteResult,
    CreateMessageRequestParams,
    ElicitRequestParams,
    GetPromptResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListRootsRequestParams,
    ListTasksResult,
    ListToolsResult,
    Notification,
    Prompt,
    ReadResourceResult,
    Resource,
    ResourceTemplate,
    ServerInfo,
    SkillEntry,
    Task,
    Tool,
)

__all__ = ["Client", "ElicitationHandler", "InputHandler", "RootsHandler", "SamplingHandler", "Subscription"]

log = logging.getLogger("libmcp.client")

#: Answers an input request: receives its params (an McpObject) and returns the result dict (or an
#: awaitable of it). Raising :class:`ProtocolError` answers with that error.
InputHandler = Callable[[McpObject], Union[dict[str, Any], Awaitable[dict[str, Any]]]]
#: An :data:`InputHandler` for ``elicitation/create``: its params arrive typed.
ElicitationHandler = Callable[[ElicitRequestParams], Union[dict[str, Any], Awaitable[dict[str, Any]]]]
#: An :data:`InputHandler` for ``sampling/createMessage``: its params arrive typed.
SamplingHandler = Callable[[CreateMessageRequestParams], Union[dict[str, Any], Awaitable[dict[str, Any]]]]
#: An :data:`InputHandler` for ``roots/list``: its params arrive typed.
RootsHandler = Callable[[ListRootsRequestParams], Union[dict[str, Any], Awaitable[dict[str, Any]]]]
ProgressHandler = Callable[[float, Union[float, None], Union[str, None]], Any]
NotificationHandler = Callable[[str, McpObject], Any]

INTERNAL_ERROR = -32603


def _input_invoker(loop: Loop, handler: Callable[[Any], Any],
                   params_type: type[McpObject]) -> Callable[[Any, Any], None]:
    async def run(params: Any, reply: _native.InputReply) -> None:
        try:
            result = handler(params_type(params if isinstance(params, dict) else {}))
            if inspect.isawaitable(result):
                result = await result
            if isinstance(result, McpObject):
                result = result.model_dump()
            reply.send(result)
        except ProtocolError as e:
            reply.fail(e.code, e.message, e.data)
        except Exception as e:  # noqa: BLE001 - the server gets an error, not a hung request
            log.error("input handler failed", exc_info=e)
            reply.fail(INTERNAL_ERROR, f"the client's handler failed: {e}")

    def invoke(params: Any, reply: _native.InputReply) -> None:
        loop.call_soon_threadsafe(lambda: loop.create_task(run(params, reply)))

    return invoke


def _on_loop(loop: Loop, fn: Callable[..., Any], wrap_args: bool = False) -> Callable[..., None]:
    def call(*args: Any) -> None:
        def run() -> None:
            try:
                result = fn(*(wrap(a) for a in args) if wrap_args else args)
                if inspect.isawaitable(result):
                    loop.create_task(_swallow(result))
            except Exception as e:  # noqa: BLE001
                log.error("callback failed", exc_info=e)

        loop.call_soon_threadsafe(run)

    return call


async def _swallow(aw: Awaitable[Any]) -> None:
    try:
        await aw
    except Exception as e:  # noqa: BLE001
        log.error("callback failed", exc_info=e)


def _pem(cert: str | bytes | os.PathLike[str]) -> bytes:
    """A root certificate option as PEM bytes: bytes as given, ``str`` PEM text, or a file's content."""
    if isinstance(cert, bytes):
        return cert
    if isinstance(cert, str) and cert.lstrip().startswith("-----BEGIN"):
        return cert.encode()
    if isinstance(cert, (str, os.PathLike)):
        with open(cert, "rb") as f:
            return f.read()
    raise TypeError(f"a root certificate must be PEM bytes, PEM text or a path, not {type(cert).__name__}")


class Client:
    """A connection to one MCP server. Create it with :meth:`stdio` or :meth:`http` and use it as an
    async context manager; calls may run concurrently."""

    def __init__(self, connect: Callable[[dict[str, Any]], Awaitable[Any]] | Server,
                 options: dict[str, Any] | None = None, **memory_options: Any) -> None:
        """``Client(server, **options)`` is :meth:`memory`: a client of a server object of this
        process (the other constructors are :meth:`stdio` and :meth:`http`)."""
        self._native: _native.Client | None = None
        self._scope: contextlib.AbstractAsyncContextManager[None] | None = None
        self._server: Server | None = None
        self._connect: Callable[[dict[str, Any]], Awaitable[Any]]
        self._options: dict[str, Any]
        if not callable(connect):
            made = Client.memory(connect, **memory_options)
            self._connect, self._options, self._server = made._connect, made._options, made._server
            return
        if options is None or memory_options:
            raise TypeError("Client(connect, options) is internal: use Client(server), Client.stdio or Client.http")
        self._connect = connect
        self._options = options

    #: The connection options every constructor takes, with their defaults (see :meth:`stdio`).
    _COMMON: dict[str, Any] = {"name": "libmcp-python", "version": "0.1.0", "protocol_version": None, "elicitation": None,
               "elicitation_url": False, "sampling": None, "roots": None, "on_notification": None,
               "on_wire": None, "request_timeout": None, "log_level": None}

    @classmethod
    def memory(cls, server: Server, **options: Any) -> Client:
        """A client of ``server``, a server object of this process, over an in-memory pipe
        through the engine on both sides (no subprocess, no socket): for tests. The options are
        those of :meth:`stdio` after ``on_stderr`` (``protocol_version="2025-11-25"`` for the
        legacy era). While it is connected, the server's lifespan is entered and its ``async def``
        handlers run on the client's event loop (unless the server is served on that loop
        already)."""
        from .server import Server

        if not isinstance(server, Server):
            raise TypeError(f"Client(server) takes a libmcp server (Server, FastMCP, MCPServer), "
                            f"not {type(server).__name__}")
        unknown = sorted(set(options) - set(cls._COMMON))
        if unknown:
            raise TypeError(f"Client.memory() got unexpected keyword arguments {unknown}")
        merged: dict[str, Any] = {key: options.get(key, default) for key, default in cls._COMMON.items()}

        async def connect(opts: dict[str, Any]) -> Any:
            return await call_native(_native.connect_memory, opts, server._native)

        client = cls(connect, cls._make_options(**merged))
        client._server = server
        return client

    @staticmethod
    def _make_options(
        name: str,
        version: str,
        protocol_version: str | None,
        elicitation: ElicitationHandler | None,
        elicitation_url: bool,
        sampling: SamplingHandler | None,
        roots: RootsHandler | list[dict[str, Any]] | None,
        on_notification: NotificationHandler | None,
        on_wire: Callable[[str, bytes], None] | None,
        request_timeout: float | None,
        log_level: str | None,
    ) -> dict[str, Any]:
        return {
            "name": name, "version": version, "protocol_version": protocol_version,
            "elicitation": elicitation, "elicitation_url": elicitation_url, "sampling": sampling,
            "roots": roots, "on_notification": on_notification, "on_wire": on_wire,
            "request_timeout": request_timeout, "log_level": log_level,
        }

    @classmethod
    def stdio(
        cls,
        command: str,
        args: list[str] | None = None,
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        on_stderr: Callable[[str], None] | None = None,
        name: str = "libmcp-python",
        version: str = "0.1.0",
        protocol_version: str | None = None,
        elicitation: ElicitationHandler | None = None,
        elicitation_url: bool = False,
        sampling: SamplingHandler | None = None,
        roots: RootsHandler | list[dict[str, Any]] | None = None,
        on_notification: NotificationHandler | None = None,
        on_wire: Callable[[str, bytes], None] | None = None,
        request_timeout: float | None = None,
        log_level: str | None = None,
    ) -> Client:
        """A client of the server started as ``command args...`` (stdin/stdout). ``protocol_version``
        pins a revision (``"2025-11-25"`` forces the legacy handshake); by default the client probes
        and uses the modern era when the server has it. ``elicitation``, ``sampling`` and ``roots``
        answer the server's input requests (``roots`` may be a fixed list of ``{uri, name}``)."""
        options = cls._make_options(name, version, protocol_version, elicitation, elicitation_url, sampling,
                                    roots, on_notification, on_wire, request_timeout, log_level)
        env_list = list(env.items()) if env else None

        async def connect(opts: dict[str, Any]) -> Any:
            stderr = _on_loop(running_loop(), on_stderr) if on_stderr else None
            return await call_native(_native.connect_stdio, opts, command, list(args or []), env_list, cwd, stderr)

        return cls(connect, options)

    @classmethod
    def http(
        cls,
        url: str,
        *,
        headers: dict[str, str] | None = None,
        auth: OAuth | None = None,
        root_certificates: list[str | bytes | os.PathLike[str]] | None = None,
        skip_default_roots: bool = False,
        name: str = "libmcp-python",
        version: str = "0.1.0",
        protocol_version: str | None = None,
        elicitation: ElicitationHandler | None = None,
        elicitation_url: bool = False,
        sampling: SamplingHandler | None = None,
        roots: RootsHandler | list[dict[str, Any]] | None = None,
        on_notification: NotificationHandler | None = None,
        on_wire: Callable[[str, bytes], None] | None = None,
        request_timeout: float | None = None,
        log_level: str | None = None,
    ) -> Client:
        """A client of the Streamable HTTP endpoint at ``url`` (other options as in :meth:`stdio`).

        ``auth`` authorizes with OAuth 2.1 (:class:`libmcp.auth.OAuth`). ``root_certificates`` are
        trusted for ``https://`` URLs (the MCP server's and the authorization servers') besides the
        bundled Mozilla roots, or instead of them with ``skip_default_roots``: each a PEM bundle as
        ``bytes`` or as ``str`` text, or the path of a PEM file."""
        options = cls._make_options(name, version, protocol_version, elicitation, elicitation_url, sampling,
                                    roots, on_notification, on_wire, request_timeout, log_level)
        header_list = list(headers.items()) if headers else None
        roots_pem = [_pem(c) for c in root_certificates] if root_certificates else None
        if auth is not None and not isinstance(auth, OAuth):
            raise TypeError(f"auth must be a libmcp.auth.OAuth, not {type(auth).__name__}")

        async def connect(opts: dict[str, Any]) -> Any:
            native_auth = auth._bind(running_loop()) if auth is not None else None
            return await call_native(_native.connect_http, opts, url, header_list, native_auth, roots_pem,
                                     skip_default_roots)

        return cls(connect, options)

    async def connect(self) -> Client:
        """Connects (``async with`` does this)."""
        if self._native is not None:
            return self
        loop = running_loop()
        sync_engine_log_level()
        opts = dict(self._options)
        for key, params_type in (("elicitation", ElicitRequestParams), ("sampling", CreateMessageRequestParams)):
            if opts[key] is not None:
                opts[key] = _input_invoker(loop, opts[key], params_type)
        roots = opts["roots"]
        if isinstance(roots, list):
            fixed = {"roots": list(roots)}
            opts["roots"] = _input_invoker(loop, lambda _params: fixed, ListRootsRequestParams)
        elif roots is not None:
            opts["roots"] = _input_invoker(loop, roots, ListRootsRequestParams)
        if opts["on_notification"] is not None:
            opts["on_notification"] = _on_loop(loop, opts["on_notification"], wrap_args=True)
        if self._server is not None and self._scope is None:
            scope = self._server._in_process()
            await scope.__aenter__()
            self._scope = scope
        try:
            self._native = await self._connect(opts)
        except BaseException:
            await self._leave_scope()
            raise
        return self

    async def _leave_scope(self) -> None:
        if self._scope is not None:
            scope, self._scope = self._scope, None
            await scope.__aexit__(None, None, None)

    async def close(self) -> None:
        """Closes the connection (a spawned server is stopped)."""
        if self._native is not None:
            native, self._native = self._native, None
            try:
                await call_native(native.close)
            finally:
                await self._leave_scope()

    async def __aenter__(self) -> Client:
        return await self.connect()

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    @property
    def _conn(self) -> _native.Client:
        if self._native is None:
            from .errors import ConnectionClosed

            raise ConnectionClosed("the client is not connected (use `async with`)")
        return self._native

    @property
    def server(self) -> ServerInfo:
        """What the client learned at connect: ``era``, ``protocol_version``, ``supported_versions``,
        ``capabilities``, ``server_info``, ``instructions``."""
        return ServerInfo(self._conn.server)

    @property
    def era(self) -> str:
        """``"modern"`` or ``"legacy"``."""
        era: str = self._conn.server["era"]
        return era

    @property
    def protocol_version(self) -> str:
        """The protocol revision in use."""
        v: str = self._conn.server["protocolVersion"]
        return v

    def _progress(self, progress: ProgressHandler | None) -> Callable[..., None] | None:
        return _on_loop(running_loop(), progress) if progress else None

    async def list_tools(self) -> list[Tool]:
        """Every tool (all pages)."""
        return [Tool(t) for t in await call_native(self._conn.list_all, "tools/list")]

    async def list_resources(self) -> list[Resource]:
        """Every resource (all pages)."""
        return [Resource(t) for t in await call_native(self._conn.list_all, "resources/list")]

    async def list_resource_templates(self) -> list[ResourceTemplate]:
        """Every resource template (all pages)."""
        return [ResourceTemplate(t) for t in await call_native(self._conn.list_all, "resources/templates/list")]

    async def list_prompts(self) -> list[Prompt]:
        """Every prompt (all pages)."""
        return [Prompt(t) for t in await call_native(self._conn.list_all, "prompts/list")]

    async def _page(self, method: str, cursor: str | None) -> Any:
        return await call_native(self._conn.call, method, {"cursor": cursor} if cursor is not None else None)

    async def list_tools_page(self, cursor: str | None = None) -> ListToolsResult:
        """One page of ``tools/list``: ``page.tools``, and ``page.next_cursor`` for the next (None at
        the end)."""
        return ListToolsResult(await self._page("tools/list", cursor))

    async def list_resources_page(self, cursor: str | None = None) -> ListResourcesResult:
        """One page of ``resources/list``."""
        return ListResourcesResult(await self._page("resources/list", cursor))

    async def list_resource_templates_page(self, cursor: str | None = None) -> ListResourceTemplatesResult:
        """One page of ``resources/templates/list``."""
        return ListResourceTemplatesResult(await self._page("resources/templates/list", cursor))

    async def list_prompts_page(self, cursor: str | None = None) -> ListPromptsResult:
        """One page of ``prompts/list``."""
        return ListPromptsResult(await self._page("prompts/list", cursor))

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None, *,
                        timeout: float | None = None, progress: ProgressHandler | None = None) -> CallToolResult:
        """Calls a tool; input requests are answered by the handlers. A tool error comes back as a
        result with ``is_error`` true; protocol errors raise :class:`ProtocolError`."""
        result = await call_native(self._conn.call_tool, name, arguments, timeout, self._progress(progress))
        return CallToolResult(result)

    # -- skills (SEP-2640) ---------------------------------------------------------------------------

    async def list_skills(self) -> list[SkillEntry]:
        """Every skill the server offers (``skills/list``, all pages)."""
        return [SkillEntry(e) for e in await call_native(self._conn.list_skills)]

    async def get_skill(self, uri: str) -> SkillEntry:
        """``skills/get``: the entry of the skill whose ``SKILL.md`` is at ``uri``."""
        return SkillEntry(await call_native(self._conn.get_skill, uri))

    async def read_skill_file(self, entry: SkillEntry, uri: str | None = None) -> bytes:
        """Reads one file of a skill (its ``SKILL.md`` when ``uri`` is None) and returns its bytes once
        they match the entry: size, digest, and for ``SKILL.md`` the frontmatter. A mismatch raises
        :class:`~libmcp.errors.ProtocolViolation` and the content is dropped."""
        data: bytes = await call_native(self._conn.read_skill_file, entry.model_dump(), uri or entry.uri)
        return data

    # -- tasks --------------------------------------------------------------------------------------

    async def call_tool_as_task(self, name: str, arguments: dict[str, Any] | None = None) -> Task | CallToolResult:
        """Calls a tool offering to run it as a task: a :class:`~libmcp.types.Task` when the server
        made one (follow it with :meth:`task_result`, :meth:`get_task`, :meth:`cancel_task`), else the
        result at once (the server decides, call by call). Input the server needs before the task
        exists is answered first by the handlers."""
        out = await call_native(self._conn.call_tool_as_task, name, arguments)
        if "task" in out:
            return Task(out["task"])
        return CallToolResult(out["result"])

    async def call_tool_task(self, name: str, arguments: dict[str, Any] | None = None) -> CallToolResult:
        """Calls a tool as a task (when the server makes one) and waits for its result."""
        first = await self.call_tool_as_task(name, arguments)
        if isinstance(first, Task):
            return await self.task_result(first)
        return first

    async def get_task(self, task_id: str) -> Task:
        """``tasks/get``: the task's current state (at 2026-07-28 with its result or error once
        terminal, and its ``input_requests`` while ``input_required``)."""
        return Task(await call_native(self._conn.get_task, task_id))

    async def cancel_task(self, task_id: str) -> None:
        """``tasks/cancel``. Cancellation is cooperative: the task is ``cancelled`` unless it had
        ended already."""
        await call_native(self._conn.cancel_task, task_id)

    async def task_result(self, task: Task | str) -> CallToolResult:
        """Follows a task to its end and returns the tool's result: polls at the server's interval
        answering the task's input requests with the handlers (2026-07-28), or waits on
        ``tasks/result`` (2025-11-25). A failed task raises its :class:`ProtocolError`; a cancelled
        one :class:`~libmcp.errors.Cancelled`."""
        task_id = task.task_id if isinstance(task, Task) else task
        return CallToolResult(await call_native(self._conn.task_result, task_id))

    async def list_tasks(self, cursor: str | None = None) -> ListTasksResult:
        """One page of ``tasks/list`` (2025-11-25; the 2026-07-28 extension has no listing)."""
        return ListTasksResult(await self._page("tasks/list", cursor))

    async def read_resource(self, uri: str) -> ReadResourceResult:
        """Reads a resource: ``result.contents``."""
        return ReadResourceResult(await call_native(self._conn.read_resource, uri))

    async def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> GetPromptResult:
        """Gets a prompt: ``result.messages``."""
        return GetPromptResult(await call_native(self._conn.get_prompt, name, arguments))

    async def complete(self, ref: dict[str, Any], argument: str, value: str,
                       context: dict[str, str] | None = None) -> CompleteResult:
        """``completion/complete`` for a ``{"type": "ref/prompt", "name": ...}`` or
        ``{"type": "ref/resource", "uri": ...}`` reference: ``result.completion.values``."""
        return CompleteResult(await call_native(self._conn.complete, ref, argument, value, context))

    async def request(self, method: str, params: dict[str, Any] | None = None, *,
                      timeout: float | None = None, progress: ProgressHandler | None = None) -> McpObject:
        """Any request (input rounds answered by the handlers); the result as sent."""
        return McpObject(await call_native(self._conn.call, method, params, timeout, self._progress(progress)))

    async def subscribe(
        self,
        *,
        tools_list_changed: bool = False,
        prompts_list_changed: bool = False,
        resources_list_changed: bool = False,
        resource_subscriptions: list[str] | None = None,
        task_ids: list[str] | None = None,
    ) -> Subscription:
        """Subscribes to change notifications, in either era (a ``subscriptions/listen`` stream, or
        the legacy session's notifications plus ``resources/subscribe``).

        ``task_ids`` follows tasks' status changes: ``notifications/tasks`` on a 2026-07-28 server
        (the listen request declares the tasks extension), ``notifications/tasks/status`` on a
        2025-11-25 session; a notification's ``task`` reads either as a :class:`~libmcp.types.Task`. A change
        made before the subscription exists is not repeated: read the task's state with
        :meth:`get_task` after subscribing."""
        f: dict[str, Any] = {}
        if tools_list_changed:
            f["toolsListChanged"] = True
        if prompts_list_changed:
            f["promptsListChanged"] = True
        if resources_list_changed:
            f["resourcesListChanged"] = True
        if resource_subscriptions:
            f["resourceSubscriptions"] = list(resource_subscriptions)
        if task_ids:
            f["taskIds"] = list(task_ids)
        return Subscription(await call_native(self._conn.subscribe, f))

    async def ping(self) -> None:
        """``ping`` (legacy era; the modern era has none)."""
        await call_native(self._conn.ping)


class Subscription:
    """Change notifications from the server: ``async for note in sub`` yields
    :class:`~libmcp.types.Notification` objects with
    ``method`` and ``params``; use it as an async context manager (or call :meth:`close`)."""

    def __init__(self, native: _native.Subscription) -> None:
        self._native = native

    @property
    def acknowledged(self) -> McpObject:
        """What the server agreed to deliver."""
        return McpObject(self._native.acknowledged)

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Notification:
        note = await call_native(self._native.next)
        if note is None:
            raise StopAsyncIteration
        return Notification(note)

    async def close(self) -> None:
        """Ends the subscription."""
        await call_native(self._native.close)

    async def __aenter__(self) -> Subscription:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()
