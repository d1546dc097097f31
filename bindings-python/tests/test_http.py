"""The demo server over Streamable HTTP (``serve_async("http")``), driven by the Python client in both
eras, and stopped by Ctrl-C."""

from __future__ import annotations

from typing import Any

from support import MODERN, HttpProcess, run

from libmcp import Client, ProtocolError


def test_http_both_eras(http_server: HttpProcess, version: str) -> None:
    async def main() -> tuple[Any, ...]:
        async with Client.http(
            http_server.url, protocol_version=version, elicitation=lambda p: {"action": "accept", "content": {"name": "Bo"}}
        ) as c:
            tools = {t.name for t in await c.list_tools()}
            add = await c.call_tool("add", {"a": 1, "b": 2})
            ask = await c.call_tool("ask_name")
            item = await c.read_resource("mem://items/5")
            try:
                await c.call_tool("fail_tool", {"kind": "protocol"})
            except ProtocolError as e:
                err = e
            return c.protocol_version, tools, add, ask, item, err

    negotiated, tools, add, ask, item, err = run(main())
    assert negotiated == version
    assert {"add", "echo", "ask_name"} <= tools
    assert add.structured_content == {"result": 3}
    era = "modern" if version == MODERN else "legacy"
    assert ask.content[0].text.startswith(f"Hello, Bo! state=round-1 era={era}")
    assert '"double": 10' in item.contents[0].text
    assert err.code == -32042


def test_ctrl_c_stops_the_http_server() -> None:
    p = HttpProcess()

    async def ping() -> str:
        async with Client.http(p.url) as c:
            return str((await c.call_tool("echo", {"text": "up"})).content[0].text)

    assert run(ping()) == "up"
    assert p.stop() == 0
