"""The same echo server on the official SDK's MCPServer: stdio without arguments, Streamable HTTP
(uvicorn, the SDK's own app) with ``--http ADDR`` (see _harness.py)."""

from __future__ import annotations

import asyncio
import sys

from _harness import announce, http_address, stdin_closed
from mcp.server.mcpserver import MCPServer

server = MCPServer(name="echo-sdk", version="1.0.0")


@server.tool()
def echo(text: str) -> str:
    """Returns the text it is given."""
    return text


async def serve_http(host: str, port: int) -> None:
    import uvicorn

    app = server.streamable_http_app(host=host, max_sessions=None)
    web = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    serving = asyncio.create_task(web.serve())
    while not web.started:
        if serving.done():
            serving.result()
        await asyncio.sleep(0.01)
    announce(host, web.servers[0].sockets[0].getsockname()[1])
    await stdin_closed()
    web.should_exit = True
    await serving


address = http_address(sys.argv)
if address is None:
    server.run()
else:
    asyncio.run(serve_http(*address))
