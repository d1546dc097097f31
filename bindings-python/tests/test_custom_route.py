"""``@server.custom_route(path, methods)`` of the official SDK's FastMCP and MCPServer: the routes
answer beside the MCP endpoint under ``run("streamable-http")`` (uvicorn), in
``streamable_http_app()``, and a busy port is the package's OSError."""

from __future__ import annotations

import asyncio
import errno
import logging
import re
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from libmcp import AuthInfo, Client, Context, FastMCP, MCPServer, ResourceServer, TransportError
from support import run

KINDS = [FastMCP, MCPServer]


def make(cls: type[FastMCP] | type[MCPServer]) -> FastMCP | MCPServer:
    @asynccontextmanager
    async def lifespan(server: Any) -> AsyncIterator[dict[str, str]]:
        yield {"db": "connected"}

    mcp = cls("routes", lifespan=lifespan)

    @mcp.custom_route("/health", methods=["GET"])
    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "query": request.query_params.get("q")})

    @mcp.custom_route("/echo/{word}", methods=["POST"], name="echo")
    async def echo(request: Request) -> Response:
        return PlainTextResponse(request.path_params["word"] + ":" + (await request.body()).decode())

    @mcp.tool()
    def db(ctx: Context) -> str:
        return str(ctx.lifespan_context["db"])

    return mcp


class _Url(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.url = ""

    def emit(self, record: logging.LogRecord) -> None:
        found = re.search(r"listening on (http://\S+)", record.getMessage())
        if found:
            self.url = found.group(1)


@asynccontextmanager
async def serving(mcp: FastMCP | MCPServer, **options: Any) -> AsyncIterator[str]:
    """``run_streamable_http_async`` on port 0 for the body; yields the URL it logs."""
    seen = _Url()
    logger = logging.getLogger("libmcp.server")
    logger.addHandler(seen)
    level = logger.level
    logger.setLevel(logging.INFO)
    mcp.settings.port = 0
    task = asyncio.ensure_future(mcp.run_streamable_http_async(**options))
    try:
        while not seen.url:
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
        yield seen.url
    finally:
        logger.removeHandler(seen)
        logger.setLevel(level)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


@pytest.mark.parametrize("cls", KINDS)
def test_routes_answer_beside_the_mcp_endpoint(cls: type[FastMCP] | type[MCPServer]) -> None:
    async def main() -> None:
        async with serving(make(cls)) as url:
            assert url.endswith("/mcp")
            base = url.removesuffix("/mcp")
            async with httpx.AsyncClient() as http:
                health = await http.get(base + "/health?q=1")
                assert health.status_code == 200 and health.json() == {"status": "ok", "query": "1"}
                assert (await http.post(base + "/health")).status_code == 405  # only the methods given
                said = await http.post(base + "/echo/hi", content=b"there")
                assert said.status_code == 200 and said.text == "hi:there"
            for version in ("2026-07-28", "2025-11-25"):
                async with Client.http(url, protocol_version=version) as c:
                    result = await c.call_tool("db", {})
                    assert result.structured_content == {"result": "connected"}  # the lifespan ran

    run(main())


def test_the_app_has_the_routes_and_the_endpoint() -> None:
    async def main() -> None:
        app = make(FastMCP).streamable_http_app()
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            assert (await http.get("/health")).json() == {"status": "ok", "query": None}
            # Every other path is the engine's endpoint: a malformed body gets its parse error.
            refused = await http.post("/mcp", content=b"{", headers={
                "content-type": "application/json", "accept": "application/json, text/event-stream"})
            assert refused.json()["error"]["code"] == -32700, refused.text

    run(main())
    plain = FastMCP("no-routes")
    assert type(plain.streamable_http_app()).__name__ == "AsgiApp"  # without routes: the endpoint itself


def test_a_busy_port_is_an_oserror_naming_the_address() -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    mcp = make(FastMCP)
    mcp.settings.port = port
    try:
        with pytest.raises(TransportError) as caught:
            run(mcp.run_streamable_http_async())
    finally:
        taken.close()
    assert caught.value.errno == errno.EADDRINUSE and f"127.0.0.1:{port}" in str(caught.value)


def test_bad_routes_are_refused() -> None:
    mcp = FastMCP("x")
    with pytest.raises(TypeError, match=r"a list of HTTP methods"):
        mcp.custom_route("/a", methods="GET")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"starts with '/'"):
        mcp.custom_route("health", methods=["GET"])


@pytest.mark.parametrize("routes", [False, True])
def test_run_takes_a_resource_server_and_routes_stay_open(routes: bool) -> None:
    def verify(token: str) -> AuthInfo | None:
        return AuthInfo(subject="ada", audience=("http://127.0.0.1/mcp",)) if token == "good" else None

    mcp = make(MCPServer) if routes else MCPServer("plain")

    async def main() -> None:
        auth = ResourceServer("http://127.0.0.1/mcp", ["https://as.example"], verify)
        async with serving(mcp, auth=auth) as url:
            base = url.removesuffix("/mcp")
            async with httpx.AsyncClient() as http:
                refused = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
                assert refused.status_code == 401 and "resource_metadata" in refused.headers["www-authenticate"]
                metadata = await http.get(base + "/.well-known/oauth-protected-resource/mcp")
                assert metadata.json()["authorization_servers"] == ["https://as.example"]
                if routes:  # as the SDK's: custom routes are not behind the token check
                    assert (await http.get(base + "/health")).status_code == 200

    run(main())
