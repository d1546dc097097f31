"""A blocking facade over :class:`libmcp.Client`, for scripts and notebooks::

    from libmcp.sync import Client

    with Client.stdio("python", ["server.py"]) as client:
        print(client.call_tool("add", {"a": 1, "b": 2}).structured_content)

Each client runs its own event loop on a background thread; its methods block the calling thread
(any thread) until the answer arrives. Input handlers given to it run on that background loop.
"""

from __future__ import annotations

import asyncio
import threading
from types import TracebackType
from typing import Any, Coroutine, TypeVar

from . import client as _async
from .model import McpObject
from . import types as t

__all__ = ["Client"]

T = TypeVar("T")


class Client:
    """A connection to one MCP server with blocking methods; see :class:`libmcp.Client`."""

    def __init__(self, inner: _async.Client) -> None:
        self._inner = inner
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="libmcp-sync-client", daemon=True)
        self._thread.start()

    @classmethod
    def stdio(cls, command: str, args: list[str] | None = None, **options: Any) -> Client:
        """A client of ``command args...`` (options as for :meth:`libmcp.Client.stdio`)."""
        return cls(_async.Client.stdio(command, args, **options))

    @classmethod
    def http(cls, url: str, **options: Any) -> Client:
        """A client of a Streamable HTTP endpoint (options as for :meth:`libmcp.Client.http`)."""
        return cls(_async.Client.http(url, **options))

    def _run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        if threading.current_thread() is self._thread:
            coro.close()
            raise RuntimeError("a blocking call from the client's own loop would never return")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def connect(self) -> Client:
        """Connects (``with`` does this)."""
        self._run(self._inner.connect())
        return self

    def close(self) -> None:
        """Closes the connection and stops the background loop."""
        if self._loop.is_closed():
            return
        try:
            self._run(self._inner.close())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()

    def __enter__(self) -> Client:
        return self.connect()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @property
    def server(self) -> t.ServerInfo:
        """What the client learned at connect."""
        return self._inner.server

    @property
    def protocol_version(self) -> str:
        """The protocol revision in use."""
        return self._inner.protocol_version

    def list_tools(self) -> list[t.Tool]:
        """Every tool."""
        return self._run(self._inner.list_tools())

    def list_resources(self) -> list[t.Resource]:
        """Every resource."""
        return self._run(self._inner.list_resources())

    def list_resource_templates(self) -> list[t.ResourceTemplate]:
        """Every resource template."""
        return self._run(self._inner.list_resource_templates())

    def list_prompts(self) -> list[t.Prompt]:
        """Every prompt."""
        return self._run(self._inner.list_prompts())

    def call_tool(self, name: str, arguments: dict[str, Any] | None = None, *, timeout: float | None = None) -> t.CallToolResult:
        """Calls a tool."""
        return self._run(self._inner.call_tool(name, arguments, timeout=timeout))

    def list_skills(self) -> list[t.SkillEntry]:
        """Every skill (``skills/list``)."""
        return self._run(self._inner.list_skills())

    def get_skill(self, uri: str) -> t.SkillEntry:
        """``skills/get``."""
        return self._run(self._inner.get_skill(uri))

    def read_skill_file(self, entry: t.SkillEntry, uri: str | None = None) -> bytes:
        """One file of a skill, verified against its entry."""
        return self._run(self._inner.read_skill_file(entry, uri))

    def call_tool_as_task(self, name: str, arguments: dict[str, Any] | None = None) -> t.Task | t.CallToolResult:
        """Calls a tool offering to run it as a task (see :meth:`libmcp.Client.call_tool_as_task`)."""
        return self._run(self._inner.call_tool_as_task(name, arguments))

    def call_tool_task(self, name: str, arguments: dict[str, Any] | None = None) -> t.CallToolResult:
        """Calls a tool as a task and waits for its result."""
        return self._run(self._inner.call_tool_task(name, arguments))

    def get_task(self, task_id: str) -> t.Task:
        """``tasks/get``."""
        return self._run(self._inner.get_task(task_id))

    def cancel_task(self, task_id: str) -> None:
        """``tasks/cancel``."""
        self._run(self._inner.cancel_task(task_id))

    def task_result(self, task: t.Task | str) -> t.CallToolResult:
        """Waits for a task's end and returns its result."""
        return self._run(self._inner.task_result(task))

    def list_tasks(self, cursor: str | None = None) -> t.ListTasksResult:
        """One page of ``tasks/list`` (2025-11-25)."""
        return self._run(self._inner.list_tasks(cursor))

    def read_resource(self, uri: str) -> t.ReadResourceResult:
        """Reads a resource."""
        return self._run(self._inner.read_resource(uri))

    def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> t.GetPromptResult:
        """Gets a prompt."""
        return self._run(self._inner.get_prompt(name, arguments))

    def complete(self, ref: dict[str, Any], argument: str, value: str, context: dict[str, str] | None = None) -> t.CompleteResult:
        """``completion/complete``."""
        return self._run(self._inner.complete(ref, argument, value, context))

    def list_tools_page(self, cursor: str | None = None) -> t.ListToolsResult:
        """One page of tools."""
        return self._run(self._inner.list_tools_page(cursor))

    def request(self, method: str, params: dict[str, Any] | None = None) -> McpObject:
        """Any request."""
        return self._run(self._inner.request(method, params))
