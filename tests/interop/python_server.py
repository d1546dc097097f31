"""A small MCP server written with the official Python SDK (mcp 2.x, high-level MCPServer API).

Run by the interop tests with libmcp's `mcp` command-line client driving it: over stdio by default, or
over HTTP (`streamable-http PORT`: http://127.0.0.1:PORT/mcp; `sse PORT`: the 2024-11-05 HTTP+SSE
transport at http://127.0.0.1:PORT/sse). MCPServer serves both eras on one connection: the client's first
request decides (`initialize` -> legacy handshake, a request carrying `_meta` protocolVersion such as
`server/discover` -> 2026-07-28).
"""

from typing import Annotated, Any

from mcp_types import Completion, PromptReference

from pydantic import BaseModel

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer(
    name="python-interop-server",
    version="1.0.0",
    instructions="Interop fixture for libmcp: tools add, divide, greet and welcome, one resource, one prompt.",
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


@server.tool()
def divide(a: int, b: int) -> float:
    """Divide a by b."""
    if b == 0:
        raise ToolError("cannot divide by zero")
    return a / b


TOPICS = ["MCP", "Mars", "Music", "Python"]


@server.completion()
async def complete_topic(ref: Any, argument: Any, context: Any) -> Completion | None:
    """Completes the `topic` argument of the `summarize` prompt from a fixed list, by prefix."""
    if isinstance(ref, PromptReference) and ref.name == "summarize" and argument.name == "topic":
        values = [t for t in TOPICS if t.startswith(argument.value)]
        return Completion(values=values, total=len(values), has_more=False)
    return None


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
