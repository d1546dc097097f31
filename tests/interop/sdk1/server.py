"""A small MCP server written with the official Python SDK 1.x (mcp 1.30, FastMCP), which speaks only the
legacy era (initialize handshake, 2024-11-05 .. 2025-11-25).

Most MCP servers deployed today are SDK 1.x: the interop tests run libmcp's `mcp` command-line client
against this one over stdio (default), Streamable HTTP (`streamable-http PORT`, endpoint /mcp) and the
2024-11-05 HTTP+SSE transport (`sse PORT`, endpoint /sse). The client must find the legacy era on its
own (auto mode) without waiting out a probe timeout.
"""

import sys

from pydantic import BaseModel

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError

server = FastMCP(
    name="python-sdk1-server",
    instructions="Interop fixture for libmcp on the Python SDK 1.x: tools add, divide, welcome; a resource; a prompt.",
)


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def divide(a: int, b: int) -> float:
    """Divide a by b."""
    if b == 0:
        raise ToolError("cannot divide by zero")
    return a / b


class NameForm(BaseModel):
    name: str


@server.tool()
async def welcome(ctx: Context) -> str:
    """Ask the user's name with elicitation/create, then welcome them."""
    answer = await ctx.elicit("What is your name?", NameForm)
    if answer.action == "accept":
        return f"Welcome, {answer.data.name}!"
    return f"No name given ({answer.action})."


@server.resource("interop://greeting", name="greeting", mime_type="text/plain")
def greeting_resource() -> str:
    """A fixed text resource."""
    return "Greetings from the Python SDK 1.x."


@server.prompt()
def summarize(topic: str) -> str:
    """Ask for a summary of a topic."""
    return f"Please summarize {topic}."


def main() -> None:
    transport = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if transport in ("streamable-http", "sse"):
        server.settings.host = "127.0.0.1"
        server.settings.port = int(sys.argv[2])
        server.settings.log_level = "WARNING"
    server.run(transport)


if __name__ == "__main__":
    main()
