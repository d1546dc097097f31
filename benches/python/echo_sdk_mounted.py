"""The official SDK's echo server (echo_sdk.py) mounted in a FastAPI application under uvicorn as
the SDK documents it: its ``streamable_http_app()`` mounted at ``/`` (it routes ``/mcp`` itself),
with the SDK's session manager run from the app's lifespan, beside a route of the app's own; with
``--http ADDR`` (see _harness.py)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator

from _harness import http_address
from _uvicorn import serve_app
from echo_sdk import server
from fastapi import FastAPI

address = http_address(sys.argv)
if address is None:
    sys.exit("usage: echo_sdk_mounted.py --http HOST:PORT")
sdk_app = server.streamable_http_app(host=address[0], max_sessions=None)


@contextlib.asynccontextmanager
async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
    async with server.session_manager.run():
        yield


app = FastAPI(lifespan=lifespan)


@app.get("/health")
async def health() -> dict[str, bool]:
    return {"ok": True}


app.mount("/", sdk_app)
serve_app(app, *address)
