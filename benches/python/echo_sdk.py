"""The same echo server on the official SDK's MCPServer: stdio without arguments, Streamable HTTP
(uvicorn, the SDK's own app) with ``--http ADDR`` (see _harness.py)."""

from __future__ import annotations

import sys

from _harness import http_address
from _uvicorn import serve_app
from mcp.server.mcpserver import MCPServer

server = MCPServer(name="echo-sdk", version="1.0.0")


@server.tool()
def echo(text: str) -> str:
    """Returns the text it is given."""
    return text


if __name__ == "__main__":
    address = http_address(sys.argv)
    if address is None:
        server.run()
    else:
        serve_app(server.streamable_http_app(host=address[0], max_sessions=None), *address)
