"""A FastMCP server run under trio as the official SDK's runs there
(``anyio.run(mcp.run_stdio_async, backend="trio")``), over stdio; ``async def`` tools that use
trio's own primitives, a sync one, and a lifespan. test_trio.py drives it."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import anyio
import trio

from libmcp import Context, FastMCP


@contextlib.asynccontextmanager
async def lifespan(_server: FastMCP) -> AsyncIterator[dict[str, Any]]:
    await trio.sleep(0)
    yield {"backend": "trio"}


server = FastMCP("trio-server", lifespan=lifespan)


@server.tool()
async def nap(seconds: float, ctx: Context) -> str:
    """Sleeps with trio.sleep and names the backend the lifespan saw."""
    await trio.sleep(seconds)
    return f"slept under {ctx.lifespan_context['backend']}"


@server.tool()
async def progress(steps: int, ctx: Context) -> int:
    """Reports progress between trio checkpoints."""
    for i in range(steps):
        await ctx.report_progress(i + 1, steps)
        await trio.sleep(0)
    return steps


@server.tool()
def double(n: int) -> int:
    """A sync tool (run by the handler workers, as under asyncio)."""
    return n * 2


if __name__ == "__main__":
    anyio.run(server.run_stdio_async, backend="trio")
