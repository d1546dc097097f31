"""The libmcp echo server (echo_libmcp.py, the sync handler) mounted in a FastAPI application under
uvicorn: ``app.mount("/mcp", server.asgi_app())`` and a route for ``/mcp`` itself, beside a route of
the app's own; with ``--http ADDR`` (see _harness.py)."""

from __future__ import annotations

import sys

from _harness import http_address
from _uvicorn import serve_app
from echo_libmcp import server
from fastapi import FastAPI
from starlette.routing import Route

# The Rust echo server lifts the session limit the same way (idle-session measurements).
mcp = server.asgi_app(max_sessions=1_000_000)
app = FastAPI(lifespan=mcp.lifespan)


@app.get("/health")
async def health() -> dict[str, bool]:
    return {"ok": True}


app.mount("/mcp", mcp)
app.routes.append(Route("/mcp", mcp))

address = http_address(sys.argv)
if address is None:
    sys.exit("usage: echo_mounted.py --http HOST:PORT")
serve_app(app, *address)
