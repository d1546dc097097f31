"""The official SDK's ``@server.custom_route(path, methods)``: HTTP routes of the application's own
beside the MCP endpoint (a health check, an OAuth callback). They are Starlette routes, as in the
SDK, so a server that has any is served as a Starlette app (its routes first, every other path the
MCP endpoint) under uvicorn, the SDK's own web server; the engine's HTTP server serves the endpoint
alone."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from .asgi import AsgiApp
from .errors import TransportError

__all__ = ["CustomRoutes"]

log = logging.getLogger("libmcp.server")

#: A custom route's handler: ``async def handler(request: Request) -> Response`` (Starlette's).
RouteHandler = Callable[[Any], Awaitable[Any]]


def _starlette(what: str) -> Any:
    try:
        import starlette.applications
        import starlette.routing
    except ImportError as e:  # pragma: no cover - the test venv has starlette (the SDK needs it)
        raise ImportError(f"{what} needs Starlette, as in the official SDK: pip install starlette") from e
    return starlette


class CustomRoutes:
    """The routes a server registered with ``custom_route``, and the app and web server that serve
    them beside the MCP endpoint."""

    def __init__(self) -> None:
        self.routes: list[Any] = []

    def add(self, path: str, methods: list[str], name: str | None,
            include_in_schema: bool) -> Callable[[RouteHandler], RouteHandler]:
        """The decorator ``custom_route`` returns (the handler is registered unchanged)."""
        starlette = _starlette("custom_route")
        if not path.startswith("/"):
            raise ValueError(f"custom_route({path!r}): a route's path starts with '/'")
        if isinstance(methods, str) or not methods:
            raise TypeError(f"custom_route({path!r}, methods=...): a list of HTTP methods, e.g. ['GET']")

        def register(handler: RouteHandler) -> RouteHandler:
            self.routes.append(starlette.routing.Route(path, endpoint=handler, methods=methods, name=name,
                                                       include_in_schema=include_in_schema))
            return handler

        return register

    def app(self, endpoint: AsgiApp, debug: bool = False) -> Any:
        """A Starlette app: the custom routes, then the MCP endpoint on every other path (the
        endpoint answers wherever it is mounted, see :class:`AsgiApp`), with the endpoint's
        lifespan."""
        starlette = _starlette("custom_route")
        app = starlette.applications.Starlette(debug=debug, routes=self.routes, lifespan=endpoint.lifespan)
        # The router's default, not a catch-all route: a custom route's path asked with another
        # method is still that route's 405.
        app.router.default = endpoint
        return app

    async def serve(self, app: Any, host: str, port: int, path: str, log_level: str) -> None:
        """Serves ``app`` under uvicorn until cancelled (Ctrl-C under ``run()``); logs
        ``listening on URL`` with the port bound (``port=0`` picks one)."""
        try:
            import uvicorn
        except ImportError as e:  # pragma: no cover - the test venv has uvicorn (the SDK needs it)
            raise ImportError("a server with custom routes is served by uvicorn, as in the official SDK: "
                              "pip install uvicorn") from e
        sock = _listen(host, port)
        server = uvicorn.Server(uvicorn.Config(app, log_level=log_level.lower(), lifespan="on"))
        serving = asyncio.ensure_future(server.serve(sockets=[sock]))
        try:
            while not server.started:
                if serving.done():
                    serving.result()
                    raise TransportError(f"uvicorn stopped before serving on {host}:{port}")
                await asyncio.sleep(0.01)
            log.info("listening on http://%s:%d%s", host, sock.getsockname()[1], path)
            await asyncio.shield(serving)
        finally:
            if not serving.done():
                server.should_exit = True
                await serving
            sock.close()


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a busy port is the same OSError as the engine's
    server gives (its ``errno`` and the address), not uvicorn's exit."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(1024)
    except OSError as e:
        sock.close()
        raise TransportError(e.errno, f"cannot listen on {host}:{port}: {os.strerror(e.errno or 0)}") from e
    return sock
