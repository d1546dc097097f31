"""The server and the client under trio, as the official SDK runs there (anyio's trio backend):
stdio, Streamable HTTP on its own port and the in-memory client; ``async def`` handlers on the
trio run, cancellation both ways, the official SDK's client under trio."""

from __future__ import annotations

import sys
from typing import Any

import anyio
import pytest
import trio
from support import HERE, LEGACY, MODERN

from libmcp import Client, Context, Server

TRIO_SERVER = str(HERE / "servers" / "trio_server.py")


def run_trio(main: Any) -> None:
    """Runs ``main()`` under anyio's trio backend, bounded by 30 s."""

    async def bounded() -> None:
        with trio.fail_after(30):
            await main()

    anyio.run(bounded, backend="trio")


def test_stdio_server_and_client_under_trio(version: str) -> None:
    async def main() -> None:
        steps: list[float] = []
        async with Client.stdio(sys.executable, [TRIO_SERVER], protocol_version=version) as c:
            assert c.server.server_info.name == "trio-server"
            nap = await c.call_tool("nap", {"seconds": 0.01})
            assert nap.content[0].text == "slept under trio"
            assert (await c.call_tool("double", {"n": 21})).structured_content == {"result": 42}
            done = await c.call_tool("progress", {"steps": 3}, progress=lambda p, t, m: steps.append(p))
            assert done.structured_content == {"result": 3}
            # Progress callbacks run on the trio run; the last may still be on its way.
            with trio.fail_after(5):
                while len(steps) < 3:
                    await trio.sleep(0.01)
            assert steps == [1.0, 2.0, 3.0]

    run_trio(main)


def test_official_sdk_client_under_trio() -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def main() -> None:
        params = StdioServerParameters(command=sys.executable, args=[TRIO_SERVER])
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("nap", {"seconds": 0})
            assert result.content[0].text == "slept under trio"  # type: ignore[union-attr]

    run_trio(main)


def _server(seen: list[str]) -> Server:
    server = Server("in-process")

    @server.tool()
    async def hang(ctx: Context) -> str:
        try:
            await trio.sleep(60)
        except trio.Cancelled:
            seen.append(f"cancelled {ctx.request_id}")
            raise
        return "never"

    @server.tool()
    async def echo(text: str) -> str:
        await trio.sleep(0.01)
        return text

    return server


def test_memory_client_under_trio() -> None:
    server = _server([])

    async def main() -> None:
        results: list[str] = []
        async with Client(server) as c:

            async def one(i: int) -> None:
                results.append((await c.call_tool("echo", {"text": f"t{i}"})).content[0].text)

            async with trio.open_nursery() as nursery:
                for i in range(8):
                    nursery.start_soon(one, i)
        assert sorted(results) == [f"t{i}" for i in range(8)]
        assert (await server.call_tool("echo", {"text": "own"})).content[0].text == "own"

    run_trio(main)


@pytest.mark.parametrize("protocol", [MODERN, LEGACY])
def test_http_under_trio_and_cancellation(protocol: str) -> None:
    """The own-port server serves from a trio nursery; a client call abandoned under trio cancels
    the handler's trio task; cancelling the nursery stops the server."""
    seen: list[str] = []
    server = _server(seen)

    async def main() -> None:
        urls: list[str] = []
        listening = trio.Event()

        def ready(url: str) -> None:
            urls.append(url)
            listening.set()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(lambda: server.serve_async("http", "127.0.0.1", 0, ready=ready))
            await listening.wait()
            async with Client.http(urls[0], protocol_version=protocol) as c:
                assert (await c.call_tool("echo", {"text": "over http"})).content[0].text == "over http"
                with trio.move_on_after(0.3) as abandoned:
                    await c.call_tool("hang", {})
                assert abandoned.cancelled_caught
                with trio.fail_after(10):
                    while not seen:
                        await trio.sleep(0.02)
            nursery.cancel_scope.cancel()
        assert len(seen) == 1 and seen[0].startswith("cancelled")

    run_trio(main)


def test_asgi_app_under_trio_says_it_needs_asyncio() -> None:
    """The mounted endpoint runs on asyncio ASGI servers only: under trio (hypercorn's trio
    worker) a request fails with an error that says so, not with asyncio's own."""
    app = _server([]).asgi_app()
    scope = {"type": "http", "method": "POST", "path": "/mcp", "headers": [], "query_string": b""}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        raise AssertionError(f"nothing is sent: {message}")

    with pytest.raises(RuntimeError, match="runs on asyncio .* not on trio"):
        trio.run(app, scope, receive, send)
