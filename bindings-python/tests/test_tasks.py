"""Tasks (tools that answer with a task handle and finish later), both eras, over stdio and HTTP:
the Python client against the Rust everything-server and the Python one (examples/python), and a
Python server keeping its tasks in a Python task store."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from support import LEGACY, MODERN, ROOT, HttpProcess, run, serving

from libmcp import Client, Context, InputRequired, McpError, ProtocolError, Server, ToolError
from libmcp import sync
from libmcp.types import CallToolResult, Task

RUST = Path(os.environ.get("LIBMCP_BIN_DIR", ROOT / "target" / "debug")) / "everything-server"
PYTHON = str(ROOT / "examples" / "python" / "everything_server.py")


def answer(params: Any) -> dict[str, Any]:
    """Accepts every elicitation of the fixtures: a name is Ada, a confirmation is yes."""
    fields = params.model_dump()["requestedSchema"]["properties"]
    content: dict[str, Any] = {}
    for field, schema in fields.items():
        content[field] = True if schema.get("type") == "boolean" else "Ada"
    return {"action": "accept", "content": content}


def peer_command(peer: str) -> list[str]:
    if peer == "rust":
        if not RUST.is_file():
            pytest.fail(f"{RUST} is missing: build it with `cargo build -p libmcp-examples`")
        return [str(RUST)]
    return [sys.executable, PYTHON]


@pytest.fixture(scope="module", params=["rust", "python"])
def peer(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def http_url(peer: str) -> Iterator[str]:
    p = HttpProcess(command=[*peer_command(peer), "--http", "127.0.0.1:0"])
    yield p.url
    p.stop()


async def exercise(c: Client, version: str) -> None:
    """What every peer's task tools do, in either era."""
    # Created, then followed to its end at the server's poll interval.
    task = await c.call_tool_as_task("slow_compute", {"seconds": 0.2, "label": "pi"})
    assert isinstance(task, Task), task
    assert task.status == "working" and task.task_id
    assert isinstance(task.poll_interval_ms, int) and task.poll_interval_ms > 0
    result = await c.task_result(task)
    assert result.text() == "Computed pi after 0.2 s"
    done = await c.get_task(task.task_id)
    assert done.status == "completed" and done.is_terminal
    if version == MODERN:
        assert done.result is not None and done.result.text() == "Computed pi after 0.2 s"
    # Status changes pushed: a subscription by task id (a listen stream declaring the tasks
    # extension, or the 2025-11-25 session's notifications), each read as a Task.
    watched = await c.call_tool_as_task("slow_compute", {"seconds": 0.3, "label": "watched"})
    assert isinstance(watched, Task)
    async with await c.subscribe(task_ids=[watched.task_id]) as sub:
        assert sub.acknowledged.model_dump()["taskIds"] == [watched.task_id]
        note = await asyncio.wait_for(sub.__anext__(), 10)
        assert note.method == ("notifications/tasks" if version == MODERN else "notifications/tasks/status")
        assert note.task is not None
        assert note.task.task_id == watched.task_id and note.task.status == "completed"
    # Input inside the task: answered by the elicitation handler (modern: tasks/update).
    deleted = await c.call_tool_task("confirm_delete", {"filename": "notes.txt"})
    assert deleted.text() == "Deleted notes.txt"
    both = await c.call_tool_task("multi_input")
    assert both.text() == "name=Ada, confirm=true"
    # Input before the task exists (MRTR), then the task.
    greeted = await c.call_tool_task("test_tool_with_task")
    assert greeted.text() == "Hello, Ada! (from the task)"
    # A tool error completes the task with an isError result; a protocol error fails it.
    failed = await c.call_tool_task("failing_job")
    assert failed.is_error and failed.text() == "failing_job always fails"
    with pytest.raises(ProtocolError) as e:
        await c.call_tool_task("protocol_error_job")
    assert e.value.code == -32603 and "protocol_error_job" in e.value.message
    # A sync-only tool is answered at once: the server decides.
    greet = await c.call_tool_as_task("greet", {"name": "Bo"})
    assert isinstance(greet, CallToolResult) and greet.text() == "Hello, Bo!"
    # A task-required tool called without a task is refused before it runs.
    with pytest.raises(ProtocolError):
        await c.call_tool("failing_job")
    # Cancelled while working: the status says so and its result is an error.
    long = await c.call_tool_as_task("slow_compute", {"seconds": 600})
    assert isinstance(long, Task)
    await c.cancel_task(long.task_id)
    assert (await c.get_task(long.task_id)).status == "cancelled"
    with pytest.raises(McpError):
        await c.task_result(long)
    # An unknown id is an invalid-params error on every method.
    with pytest.raises(ProtocolError) as e:
        await c.get_task("no-such-task")
    assert e.value.code == -32602


async def legacy_extras(c: Client, notes: list[Any]) -> None:
    """2025-11-25 only: tasks/list, and the status notifications of the session's tasks."""
    task = await c.call_tool_as_task("slow_compute", {"seconds": 0, "label": "listed"})
    assert isinstance(task, Task)
    await c.task_result(task)
    page = await c.list_tasks()
    assert task.task_id in {t.task_id for t in page.tasks}
    while not any(n.task_id == task.task_id and n.status == "completed" for n in notes):
        await asyncio.sleep(0.01)


def test_tasks_over_stdio(peer: str, version: str) -> None:
    notes: list[Any] = []

    def on_note(method: str, params: Any) -> None:
        if method == "notifications/tasks/status":
            notes.append(params)

    async def main() -> None:
        command = peer_command(peer)
        async with Client.stdio(command[0], command[1:], protocol_version=version, elicitation=answer,
                                on_notification=on_note) as c:
            await exercise(c, version)
            if version == LEGACY:
                await legacy_extras(c, notes)

    run(main(), timeout=60)


def test_tasks_over_http(http_url: str, version: str) -> None:
    notes: list[Any] = []

    def on_note(method: str, params: Any) -> None:
        if method == "notifications/tasks/status":
            notes.append(params)

    async def main() -> None:
        async with Client.http(http_url, protocol_version=version, elicitation=answer, on_notification=on_note) as c:
            await exercise(c, version)
            if version == LEGACY:
                await legacy_extras(c, notes)

    run(main(), timeout=60)


def test_tasks_with_the_blocking_client(version: str) -> None:
    command = peer_command("python")
    with sync.Client.stdio(command[0], command[1:], protocol_version=version, elicitation=answer) as c:
        task = c.call_tool_as_task("slow_compute", {"seconds": 0, "label": "sync"})
        assert isinstance(task, Task)
        assert c.task_result(task.task_id).text() == "Computed sync after 0 s"
        assert c.get_task(task.task_id).status == "completed"
        assert c.call_tool_task("confirm_delete", {"filename": "x"}).text() == "Deleted x"
        long = c.call_tool_as_task("slow_compute", {"seconds": 600})
        assert isinstance(long, Task)
        c.cancel_task(long.task_id)
        assert c.get_task(long.task_id).status == "cancelled"
        if version == LEGACY:
            assert task.task_id in {t.task_id for t in c.list_tasks().tasks}


class DictStore:
    """A task store in a dict, as a shared backend would hold records."""

    def __init__(self) -> None:
        self.records: dict[str, dict[str, Any]] = {}
        self.broken = False

    def create(self, record: dict[str, Any]) -> None:
        if self.broken:
            raise OSError("the backend is down")
        self.records[record["id"]] = record

    def put(self, record: dict[str, Any]) -> None:
        self.records[record["id"]] = record

    def get(self, task_id: str) -> dict[str, Any] | None:
        return self.records.get(task_id)

    def list(self) -> list[dict[str, Any]]:
        return list(self.records.values())


def store_server(store: DictStore) -> Server:
    server = Server("store-server", task_poll_interval=0.02, task_ttl=60, task_store=store)
    gate = asyncio.Event()

    @server.tool(task="optional")
    async def wait_for_gate(ctx: Context) -> str:
        await gate.wait()
        return f"opened in task {ctx.task_id}"

    @server.tool(task="optional")
    def open_gate() -> str:
        # Runs on an engine thread: the gate belongs to the serving loop.
        loop = server._loop
        assert loop is not None
        loop.call_soon_threadsafe(gate.set)
        return "opened"

    @server.tool(task="required", defer_task=True)
    def deferred(ctx: Context) -> str | InputRequired:
        if ctx.input_response("ok") is None:
            assert ctx.task_id is None and ctx.can_run_as_task
            return InputRequired().elicit("ok", "Go?", {"type": "object", "properties": {}})
        assert ctx.start_task() and ctx.task_id is not None
        return "went"

    @server.tool(task="optional")
    def broken() -> str:
        raise ToolError("never reached")

    return server


@asynccontextmanager
async def store_client(store: DictStore, version: str) -> AsyncIterator[Client]:
    async with serving(store_server(store)) as url:
        async with Client.http(url, protocol_version=version,
                               elicitation=lambda p: {"action": "accept", "content": {}}) as c:
            yield c


def test_a_python_task_store_holds_the_tasks(version: str) -> None:
    store = DictStore()

    async def main() -> None:
        async with store_client(store, version) as c:
            task = await c.call_tool_as_task("wait_for_gate")
            assert isinstance(task, Task) and task.poll_interval_ms == 20
            assert store.records[task.task_id]["status"] == "working"
            assert store.records[task.task_id]["ttlMs"] == 60_000
            opened = await c.call_tool_as_task("open_gate")
            assert isinstance(opened, Task)
            assert (await c.task_result(opened)).text() == "opened"
            assert (await c.task_result(task)).text() == f"opened in task {task.task_id}"
            assert store.records[task.task_id]["status"] == "completed"
            assert (await c.call_tool_task("deferred")).text() == "went"
            # A store that fails refuses the task with an internal error, and the server goes on.
            store.broken = True
            with pytest.raises(ProtocolError) as e:
                await c.call_tool_as_task("broken")
            assert e.value.code == -32603 and "the backend is down" in e.value.message
            store.broken = False
            assert (await c.get_task(task.task_id)).status == "completed"

    run(main())


def test_task_options_are_checked() -> None:
    with pytest.raises(ValueError, match="task_poll_interval"):
        Server("bad", task_poll_interval=-1)
    with pytest.raises(ValueError, match="task_ttl"):
        Server("bad", task_ttl=0)
    server = Server("bad")
    with pytest.raises(ValueError, match="task must be"):
        server.add_tool(lambda: "x", "t", task="sometimes")  # type: ignore[arg-type]
    server.add_tool(lambda: "x", "t", task="required")
    assert server._native.tool_definition("t")["execution"] == {"taskSupport": "required"}
