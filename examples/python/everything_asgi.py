"""The conformance everything-server (everything_server.py) mounted in a FastAPI application of its
own, served by uvicorn: the application has its own route (``GET /health``, which also reports how
many requests its middleware saw) and its own middleware (an ASGI middleware that counts requests
and puts a tenant into the request state, which the MCP handlers can read as ``ctx.request.state``).
The MCP endpoint is at ``/mcp``; Host/Origin checking is on for the loopback names, since the app
listens on loopback.

Usage: python everything_asgi.py [HOST:PORT]   (127.0.0.1:0 by default; prints its MCP URL)
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI
from starlette.routing import Route

sys.path.insert(0, str(Path(__file__).resolve().parent))
from everything_server import server  # noqa: E402


class Tenant:
    """The application's own middleware: counts requests, sets ``state["tenant"]``."""

    seen = 0

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            Tenant.seen += 1
            scope.setdefault("state", {})["tenant"] = "conformance"
        await self.app(scope, receive, send)


mcp = server.asgi_app(allowed_hosts=["localhost", "127.0.0.1", "[::1]"])
app = FastAPI(lifespan=mcp.lifespan)
app.add_middleware(Tenant)


@app.get("/health")
async def health() -> dict[str, Any]:
    return {"ok": True, "requests": Tenant.seen}


# Starlette's Mount matches /mcp/ and below, not /mcp itself: a route serves that.
app.routes.append(Route("/mcp", mcp))
app.mount("/mcp", mcp)


def main(host: str, port: int) -> None:
    # The socket is bound and listening before uvicorn starts, so the port can be printed first.
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    print(f"listening on http://{host}:{sock.getsockname()[1]}/mcp", file=sys.stderr, flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])


if __name__ == "__main__":
    if len(sys.argv) > 2:
        sys.exit(__doc__)
    address, _, port = (sys.argv[1] if len(sys.argv) == 2 else "127.0.0.1:0").rpartition(":")
    try:
        main(address, int(port))
    except KeyboardInterrupt:
        pass
