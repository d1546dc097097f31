"""``python -m libmcp run FILE[:OBJECT]``: the server object a file defines, over stdio and HTTP."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from libmcp import Client
from support import HttpProcess, run

SOURCE = '''
from libmcp import FastMCP, Server

mcp = FastMCP("cli-demo")
other = Server("other")

@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b

@other.tool()
def which() -> str:
    return "other"
'''


@pytest.fixture
def script(tmp_path: Path) -> str:
    path = tmp_path / "served.py"
    path.write_text(SOURCE)
    return str(path)


async def call(client: Client, name: str, args: dict[str, Any]) -> Any:
    async with client as c:
        result = await c.call_tool(name, args)
        return result.structured_content or result.content[0].text


def test_run_over_stdio_finds_mcp_or_the_named_object(script: str) -> None:
    stdio = Client.stdio(sys.executable, ["-m", "libmcp", "run", script])
    assert run(call(stdio, "add", {"a": 1, "b": "2"})) == {"result": 3}
    named = Client.stdio(sys.executable, ["-m", "libmcp", "run", f"{script}:other"])
    assert run(call(named, "which", {})) == "other"  # a plain Server leaves str unstructured


def test_run_over_http(script: str) -> None:
    proc = HttpProcess(command=[sys.executable, "-m", "libmcp", "run", script, "--http", "127.0.0.1:0"])
    try:
        assert run(call(Client.http(proc.url), "add", {"a": 2, "b": 3})) == {"result": 5}
    finally:
        proc.stop()


def test_a_missing_object_is_named(script: str) -> None:
    out = subprocess.run([sys.executable, "-m", "libmcp", "run", f"{script}:nope"], capture_output=True, text=True)
    assert out.returncode != 0 and "has no libmcp server named 'nope'" in out.stderr
