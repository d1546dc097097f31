"""A small MCP server on libmcp: one tool with structured output, one resource template, one prompt.

Run it with ``python quickstart.py`` (stdio) or ``python quickstart.py http`` (Streamable HTTP on
127.0.0.1:8000); any MCP client of either protocol era can use it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from libmcp import Context, Server

server = Server("quickstart", "1.0.0", instructions="Adds numbers and greets people.")


@dataclass
class Sum:
    """The result of an addition."""

    total: int
    terms: int


@server.tool()
def add(numbers: list[int], ctx: Context) -> Sum:
    """Adds numbers.

    Args:
        numbers: The numbers to add.
    """
    ctx.info(f"adding {len(numbers)} numbers")
    return Sum(total=sum(numbers), terms=len(numbers))


@server.resource("greeting://{name}")
def greeting(name: str) -> str:
    """A greeting for someone."""
    return f"Hello, {name}!"


@server.prompt()
def review(code: str) -> str:
    """Asks for a code review.

    Args:
        code: The code to review.
    """
    return f"Please review this code:\n\n{code}"


if __name__ == "__main__":
    server.run("http" if sys.argv[1:] == ["http"] else "stdio")
