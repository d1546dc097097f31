"""Helpers of the mount tests: a FastAPI application with its own route and middleware that mounts
a libmcp server's endpoint, served by a real uvicorn or hypercorn server on a thread of its own
(its own event loop, as in production: the tests' clients run on another loop)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any

from fastapi import FastAPI
from starlette.routing import Route

from libmcp import AsgiApp, Server


class Principal:
    """The application's own authentication middleware (plain ASGI): ``x-api-key: k1`` is the user
    ``alice``; every request gets ``state.tenant`` and is counted."""

    #: Requests seen by every instance (the tests' apps are served one at a time).
    seen = 0

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            Principal.seen += 1
            key = dict(scope["headers"]).get(b"x-api-key")
            scope["user"] = {"name": "alice"} if key == b"k1" else None
            scope.setdefault("state", {})["tenant"] = "acme"
        await self.app(scope, receive, send)


def make_app(server: Server, **options: Any) -> FastAPI:
    """The application: ``GET /health`` of its own, the middleware, and the MCP endpoint at
    ``/mcp`` with the endpoint's lifespan chained into the app's."""
    mcp: AsgiApp = server.asgi_app(**options)
    app = FastAPI(lifespan=mcp.lifespan)
    app.add_middleware(Principal)

    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {"ok": True}

    app.state.mcp = mcp
    app.routes.append(Route("/mcp", mcp))  # /mcp itself: Starlette's Mount matches only below it
    app.mount("/mcp", mcp)  # /mcp/ and every path below
    return app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Host:
    """``app`` served by ``kind`` (``"uvicorn"`` or ``"hypercorn"``) on 127.0.0.1 until
    :meth:`stop`; ``url`` is the MCP endpoint's, ``base`` the server's."""

    def __init__(self, app: Any, kind: str = "uvicorn", graceful: int = 5, port: int | None = None) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.base}/mcp"
        self._loop = asyncio.new_event_loop()
        self._stop = asyncio.Event()
        self._error: BaseException | None = None
        self._ready = threading.Event()
        self._graceful = graceful
        self._thread = threading.Thread(target=self._run, args=(app, kind), daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not self._ready.is_set():
            if self._error is not None:
                raise self._error
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                self._ready.set()
            except OSError:
                time.sleep(0.02)
        if not self._ready.is_set():
            raise RuntimeError(f"{kind} did not start: {self._error!r}")

    def _run(self, app: Any, kind: str) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve(app, kind))
        except BaseException as e:  # noqa: BLE001 - reported to the test
            self._error = e
        finally:
            self._loop.close()

    async def _serve(self, app: Any, kind: str) -> None:
        if kind == "uvicorn":
            import uvicorn

            config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                    lifespan="on", timeout_graceful_shutdown=self._graceful)
            server = uvicorn.Server(config)
            serving = asyncio.ensure_future(server.serve())
            stop = asyncio.ensure_future(self._stop.wait())
            await asyncio.wait((serving, stop), return_when=asyncio.FIRST_COMPLETED)
            server.should_exit = True
            await serving
        else:
            from hypercorn.asyncio import serve
            from hypercorn.config import Config

            hyper = Config()
            hyper.bind = [f"127.0.0.1:{self.port}"]
            hyper.loglevel = "WARNING"
            hyper.graceful_timeout = self._graceful
            await serve(app, hyper, shutdown_trigger=self._stop.wait)

    def call(self, fn: Any) -> None:
        """Calls ``fn()`` on the server's event loop."""
        self._loop.call_soon_threadsafe(fn)

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(15)
        assert not self._thread.is_alive(), "the ASGI server did not stop"
        if self._error is not None:
            raise self._error
