"""Echo server on libmcp (a sync handler, or with ``--async`` an ``async def`` one): stdio without
arguments, Streamable HTTP with ``--http ADDR`` (see _harness.py). The arguments go through pydantic
(the package's gate when pydantic is installed), or with ``--no-pydantic`` through the engine's JSON
Schema check of an explicit input schema (run-pydantic.sh compares the two)."""

from __future__ import annotations

import asyncio
import sys

from _harness import announce, http_address, stdin_closed

from libmcp import Server

server = Server("echo-libmcp-python", "1.0.0")

#: Without pydantic: the schema pydantic would give, checked by the engine.
SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]} \
    if "--no-pydantic" in sys.argv else None

if "--async" in sys.argv:

    @server.tool(input_schema=SCHEMA)
    async def echo(text: str) -> str:
        """Returns the text it is given."""
        return text

else:

    @server.tool(input_schema=SCHEMA)
    def echo(text: str) -> str:
        """Returns the text it is given."""
        return text


async def serve_http(host: str, port: int) -> None:
    def ready(url: str) -> None:
        announce(host, int(url.rsplit(":", 1)[1].split("/")[0]))

    # The Rust echo server lifts the session limit the same way (idle-session measurements).
    serving = asyncio.create_task(server.serve_async("http", host, port, ready=ready, max_sessions=1_000_000))
    await stdin_closed()
    serving.cancel()
    try:
        await serving
    except asyncio.CancelledError:
        pass


if __name__ == "__main__":
    address = http_address(sys.argv)
    if address is None:
        server.run()
    else:
        asyncio.run(serve_http(*address))
