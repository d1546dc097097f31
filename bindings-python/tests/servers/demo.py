"""The server the tests drive: one tool, resource or prompt per behaviour they check.

Run as ``python demo.py`` (stdio) or ``python demo.py http`` (prints ``listening on URL`` to stderr).
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import os
import sys
import threading
import time
from typing import Annotated, Literal, Optional, TypedDict

from libmcp import (
    Audio,
    Context,
    EmbeddedResource,
    Image,
    InputRequired,
    Message,
    ProtocolError,
    ResourceLink,
    Server,
    ToolError,
    ToolResult,
)

server = Server("demo-server", "1.2.3", instructions="Test server.", title="Demo")


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclasses.dataclass
class Point:
    x: float
    y: float


class Stats(TypedDict):
    count: int
    mean: float


@server.tool()
def echo(text: str) -> str:
    """Echoes the text."""
    return text


@server.tool()
def add(a: int, b: int = 2) -> int:
    """Adds two integers.

    Args:
        a: The first.
        b: The second.
    """
    return a + b


@server.tool()
async def async_echo(text: str) -> str:
    """Echoes after yielding to the loop."""
    await asyncio.sleep(0.01)
    return text


@server.tool()
def stats(values: list[float]) -> Stats:
    """Count and mean."""
    return {"count": len(values), "mean": sum(values) / len(values)}


@server.tool()
def mirror(point: Point, color: Color, mode: Literal["a", "b"] = "a") -> Point:
    """Mirrors a point; checks coercion to dataclass and enum."""
    assert isinstance(point, Point) and isinstance(color, Color)
    return Point(x=-point.x, y=-point.y)


@server.tool()
def content_kinds() -> list:
    """One block of every kind."""
    return [
        "text",
        Image(data=b"\x89PNG", mime_type="image/png"),
        Audio(data=b"RIFF", mime_type="audio/wav"),
        ResourceLink(uri="mem://doc", name="doc"),
        EmbeddedResource(uri="mem://doc", text="embedded", mime_type="text/plain"),
    ]


@server.tool()
def fail_tool(kind: str) -> str:
    """Raises: tool (ToolError), protocol (ProtocolError), other (ValueError)."""
    if kind == "tool":
        raise ToolError("the model sees this")
    if kind == "protocol":
        raise ProtocolError(-32042, "custom", {"why": "testing"})
    raise ValueError("boom")


@server.tool()
def bad_result() -> ToolResult:
    """Returns something that is not JSON."""
    return ToolResult(content=[object()])


@server.tool()
def ask_name(ctx: Context) -> str:
    """Elicits a name (MRTR), then greets with the verified state."""
    answer = ctx.input_response("name")
    if answer is None:
        return InputRequired(state="round-1").elicit(
            "name", "Your name?", {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
        )
    if answer.action != "accept":
        return f"declined ({answer.action})"
    return f"Hello, {answer.content['name']}! state={ctx.request_state} era={ctx.era} round={ctx.round}"


@server.tool()
async def ask_async(ctx: Context) -> str:
    """Samples and lists roots from an async handler."""
    sample = ctx.input_response("sample")
    roots = ctx.input_response("roots")
    if sample is None or roots is None:
        return (
            InputRequired()
            .sample("sample", {"messages": [{"role": "user", "content": {"type": "text", "text": "2+2?"}}], "maxTokens": 10})
            .list_roots("roots")
        )
    await asyncio.sleep(0)
    return f"{sample.content.text} / {[r.uri for r in roots.roots]}"


@server.tool()
def progress_and_log(ctx: Context, steps: int = 3) -> str:
    """Reports progress and logs."""
    for i in range(1, steps + 1):
        ctx.report_progress(i, steps, f"step {i}")
    ctx.info("info message", logger="demo")
    ctx.debug("debug message")
    return "done"


@server.tool()
async def wait_for_cancel(marker: str) -> str:
    """Sleeps until cancelled; writes `marker` when the cancellation arrives."""
    try:
        await asyncio.sleep(30)
    except asyncio.CancelledError:
        with open(marker, "w") as f:
            f.write("cancelled")
        raise
    return "not cancelled"


@server.tool()
def sync_wait_for_cancel(marker: str, ctx: Context) -> str:
    """Polls the cancellation flag (sync handler); writes `marker` when set."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if ctx.is_cancelled:
            with open(marker, "w") as f:
                f.write("cancelled")
            return "cancelled"
        time.sleep(0.01)
    return "not cancelled"


@server.tool()
def sleep_sync(seconds: float) -> str:
    """Blocks its thread (concurrency check: calls overlap)."""
    time.sleep(seconds)
    return threading.current_thread().name


_rendezvous: dict[int, threading.Barrier] = {}
_rendezvous_lock = threading.Lock()


@server.tool()
def rendezvous(parties: int) -> str:
    """Blocks until `parties` calls of it are running at once (10 s at most): proves that blocked
    sync handlers do not hold up the others."""
    with _rendezvous_lock:
        barrier = _rendezvous.setdefault(parties, threading.Barrier(parties, timeout=10))
    try:
        barrier.wait()
    except threading.BrokenBarrierError:
        raise ToolError(f"only some of the {parties} calls ran at once") from None
    return "met"


_gathering: dict[int, tuple[list[int], asyncio.Event]] = {}


@server.tool()
async def async_rendezvous(parties: int) -> str:
    """Waits until `parties` calls of it are waiting at once (10 s at most), on the serving loop's
    thread: names that thread."""
    arrived, all_here = _gathering.setdefault(parties, ([], asyncio.Event()))
    arrived.append(1)
    if len(arrived) == parties:
        del _gathering[parties]
        all_here.set()
    try:
        await asyncio.wait_for(all_here.wait(), 10)
    except asyncio.TimeoutError:
        raise ToolError(f"only {len(arrived)} of the {parties} calls were waiting at once") from None
    return threading.current_thread().name


@server.tool()
def whoami(ctx: Context) -> dict:
    """The request as the handler sees it."""
    return {
        "version": ctx.protocol_version,
        "era": ctx.era,
        "client": (ctx.client_info or {}).get("name"),
        "elicitation": ctx.has_client_capability("elicitation"),
    }


@server.tool()
def add_tool(name: str) -> str:
    """Registers a tool at runtime."""

    def dynamic(x: int) -> int:
        return x * 10

    server.add_tool(dynamic, name=name, description="added at runtime")
    return "added"


@server.tool()
def touch(uri: str) -> str:
    """Tells subscribers that `uri` changed."""
    server.notify_resource_updated(uri)
    return "touched"


@server.tool()
def remove_tool(name: str) -> bool:
    """Removes a tool at runtime."""
    return server.remove_tool(name)


@server.tool()
def described(
    query: Annotated[str, "What to look for"],
    limit: Optional[int] = None,
) -> str:
    """Searches."""
    return f"{query}:{limit}"


@server.tool()
def pid() -> int:
    """The server's process id."""
    return os.getpid()


@server.resource("mem://readme", mime_type="text/markdown", description="The readme.")
def readme() -> str:
    return "# Readme"


@server.resource("mem://blob")
def blob() -> bytes:
    return b"\x00\x01\x02"


@server.resource("mem://items/{item_id}")
async def item(item_id: int) -> dict:
    """An item by id."""
    return {"id": item_id, "double": item_id * 2}


@server.prompt()
def greet(name: str, style: str = "plain") -> str:
    """Greets someone.

    Args:
        name: Who to greet.
        style: How.
    """
    return f"Hello, {name} ({style})"


@server.prompt()
def dialogue(topic: str) -> list:
    """A short exchange."""
    return [Message("user", f"Tell me about {topic}"), Message("assistant", "Gladly.")]


@server.completion()
def complete(ref, argument, context):  # type: ignore[no-untyped-def]
    if argument.name == "style":
        return [s for s in ("plain", "poetic", "pirate") if s.startswith(argument.value)]
    return None


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "http":
        def ready(url: str) -> None:
            print(f"listening on {url}", file=sys.stderr, flush=True)

        try:
            asyncio.run(server.serve_async("http", "127.0.0.1", 0, ready=ready))
        except KeyboardInterrupt:
            pass
    else:
        server.run()
