"""Interop: the official MCP Python SDK (``mcp`` 2.x) as a client of the libmcp Python demo server,
over stdio (behind tests/interop/wire_tap.py, every message checked against its revision's schema)
and Streamable HTTP, in both eras."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from support import DEMO, INTEROP, HttpProcess, run

mcp = pytest.importorskip("mcp")
types = pytest.importorskip("mcp_types")
sys.path.insert(0, str(INTEROP))
from schema_check import check_wire_tap_log  # noqa: E402

from mcp import Client, StdioServerParameters  # noqa: E402

# The SDK's connection modes and the version each must end up with.
MODES = {"auto": "2026-07-28", "legacy": "2025-11-25"}


async def _elicit(_ctx: Any, params: Any) -> Any:
    return types.ElicitResult(action="accept", content={"name": "Ada"})


async def _drive(server: Any, mode: str) -> dict[str, Any]:
    async with Client(server, mode=mode, elicitation_callback=_elicit, read_timeout_seconds=20) as c:
        tools = await c.list_tools()
        add = await c.call_tool("add", {"a": 2, "b": 3})
        echo = await c.call_tool("async_echo", {"text": "sdk"})
        ask = await c.call_tool("ask_name", {})
        bad = await c.call_tool("add", {"a": "x"})
        resource = await c.read_resource("mem://readme")
        prompt = await c.get_prompt("greet", {"name": "Sdk"})
        return {
            "version": c.protocol_version,
            "tools": {t.name for t in tools.tools},
            "add": add.structured_content,
            "echo": echo.content[0].text,
            "ask": ask.content[0].text,
            "bad": bad.is_error,
            "resource": resource.contents[0].text,
            "prompt": prompt.messages[0].content.text,
        }


def _check(out: dict[str, Any], mode: str) -> None:
    assert out["version"] == MODES[mode]
    assert {"add", "echo", "ask_name", "content_kinds"} <= out["tools"]
    assert out["add"] == {"result": 5}
    assert out["echo"] == "sdk"
    assert out["ask"].startswith("Hello, Ada! state=round-1")
    assert out["bad"] is True
    assert out["resource"] == "# Readme"
    assert out["prompt"] == "Hello, Sdk (plain)"


@pytest.mark.parametrize("mode", list(MODES))
def test_sdk_client_over_stdio(mode: str, tmp_path: Path) -> None:
    log = tmp_path / "wire.log"
    params = StdioServerParameters(command=sys.executable, args=[str(INTEROP / "wire_tap.py"), str(log), "--", sys.executable, DEMO])
    _check(run(_drive(params, mode)), mode)
    checked, failures = check_wire_tap_log(log.read_text(encoding="utf-8"))
    assert checked > 10
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("mode", list(MODES))
def test_sdk_client_over_http(mode: str, http_server: HttpProcess) -> None:
    _check(run(_drive(http_server.url, mode)), mode)


def test_sdk_sees_every_content_kind() -> None:
    async def main() -> list[str]:
        params = StdioServerParameters(command=sys.executable, args=[DEMO])
        async with Client(params, mode="auto") as c:
            r = await c.call_tool("content_kinds", {})
            return [b.type for b in r.content]

    assert asyncio.run(main()) == ["text", "image", "audio", "resource_link", "resource"]
