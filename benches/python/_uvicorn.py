"""Serving an ASGI application under uvicorn for the driver: announces the bound address, stops
when stdin closes (see _harness.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from _harness import announce, stdin_closed


async def _serve(app: Any, host: str, port: int) -> None:
    web = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    serving = asyncio.create_task(web.serve())
    while not web.started:
        if serving.done():
            serving.result()
            return
        await asyncio.sleep(0.01)
    announce(host, web.servers[0].sockets[0].getsockname()[1])
    await stdin_closed()
    web.should_exit = True
    await serving


def serve_app(app: Any, host: str, port: int) -> None:
    """Serves ``app`` on ``host:port`` (0: any free port) until stdin closes."""
    asyncio.run(_serve(app, host, port))
