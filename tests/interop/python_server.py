"""A small MCP server written with the official Python SDK (mcp 2.x, high-level MCPServer API).

Run over stdio by the interop tests, with libmcp's `mcp` command-line client driving it, or over HTTP
(`streamable-http PORT`: http://127.0.0.1:PORT/mcp; `sse PORT`: the 2024-11-05 HTTP+SSE transport at
http://127.0.0.1:PORT/sse). MCPServer serves both eras on one stdio connection: the client's first request decides (`initialize` -> legacy handshake,
a request carrying `_meta` protocolVersion such as `server/discover` -> 2026-07-28).
"""

from typing import Annotated

from pydantic import BaseModel

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve

server = MCPServer(
    name="python-interop-server",
    version="1.0.0",
    instructions="Interop fixture for libmcp: tools add, greet and welcome, one resource, one prompt.",
)


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def greet(name: str) -> str:
    """Greet someone by name."""
    return f"Hello, {name}!"


class NameForm(BaseModel):
    name: str


def ask_name() -> Elicit[NameForm]:
    return Elicit("What is your name?", NameForm)


@server.tool()
def welcome(answer: Annotated[ElicitationResult[NameForm], Resolve(ask_name)]) -> str:
    """Ask the user's name (elicitation), then welcome them.

    The SDK asks with an elicitation/create request in the legacy era and with an input_required result
    (MRTR) in the modern one.
    """
    if answer.action == "accept":
        return f"Welcome, {answer.data.name}!"
    return f"No name given ({answer.action})."


@server.resource("interop://greeting", name="greeting", mime_type="text/plain")
def greeting_resource() -> str:
    """A fixed text resource."""
    return "Greetings from the Python SDK."


@server.prompt()
def summarize(topic: str) -> str:
    """Ask for a summary of a topic."""
    return f"Please summarize {topic}."


if __name__ == "__main__":
    import sys

    match sys.argv[1:]:
        case []:
            server.run("stdio")
        case ["streamable-http", port]:
            server.run("streamable-http", port=int(port))
        case ["sse", port]:
            server.run("sse", port=int(port))
        case _:
            sys.exit("usage: python_server.py [streamable-http PORT | sse PORT]")
