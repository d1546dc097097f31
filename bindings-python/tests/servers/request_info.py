"""A server whose tools report the HTTP request they serve (``ctx.request``, ``ctx.headers``), for
the mount tests (imported, then mounted in an ASGI app or served on its own port) and over stdio
(run as a script)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from libmcp import Context, Server

server = Server("request-info", "1.0.0")

#: Set when ``wait`` starts, and when it is cancelled.
started = threading.Event()
cancelled = threading.Event()


@server.tool()
def whoami(ctx: Context) -> dict[str, Any]:
    """What the handler sees of the HTTP request."""
    request = ctx.request
    if request is None:
        return {"http": False, "headers": len(ctx.headers)}
    user = request.user
    return {
        "http": True,
        "user": user["name"] if isinstance(user, dict) else None,
        "tenant": request.state.get("tenant"),
        "tag": ctx.headers.get("X-Client-Tag"),
        "tags": ctx.headers.get_list("x-client-tag"),
        "method": request.method,
        "path": request.path,
        "session": request.session_id,
        "scope": request.scope is not None,
        "subject": ctx.auth.subject if ctx.auth is not None else None,
    }


@server.tool()
async def wait(ctx: Context) -> str:
    """Waits until cancelled (or 30 s)."""
    started.set()
    try:
        await asyncio.sleep(30)
    except asyncio.CancelledError:
        cancelled.set()
        raise
    return "finished"


@server.tool()
async def steps(ctx: Context, n: int = 3) -> str:
    """Reports ``n`` progress steps, then answers."""
    for i in range(n):
        await ctx.report_progress(i + 1, n)
        await asyncio.sleep(0.01)
    return f"{n} steps"


@server.tool()
def echo(text: str) -> str:
    """Echoes ``text``."""
    return text


if __name__ == "__main__":
    server.run()
