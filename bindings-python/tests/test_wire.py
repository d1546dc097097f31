"""Exact messages on the wire, and every message of a broad session checked against the official schema
of its revision (through tests/interop/wire_tap.py and schema_check.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from support import DEMO, INTEROP, MODERN, run

from libmcp import Client, ProtocolError

sys.path.insert(0, str(INTEROP))
check_wire_tap_log = pytest.importorskip("schema_check").check_wire_tap_log


def test_exact_tool_call_exchange(version: str) -> None:
    log: list[tuple[str, dict[str, Any]]] = []

    async def main() -> None:
        async with Client.stdio(
            sys.executable, [DEMO], protocol_version=version, name="wire-client", version="9.9",
            on_wire=lambda d, b: log.append((d, json.loads(b))),
        ) as c:
            await c.call_tool("echo", {"text": "hi"})

    run(main())
    sent = [m for d, m in log if d == "sent" and m.get("method") == "tools/call"]
    assert len(sent) == 1
    request = sent[0]
    answer = next(m for d, m in log if d == "received" and m.get("id") == request["id"])
    if version == MODERN:
        assert request["params"] == {
            "name": "echo",
            "arguments": {"text": "hi"},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "wire-client", "version": "9.9"},
                # The engine's client asks for progress on every call (progress resets its timeout).
                "progressToken": request["id"],
            },
        }
        assert answer == {
            "jsonrpc": "2.0",
            "id": request["id"],
            "result": {
                "content": [{"type": "text", "text": "hi"}],
                "resultType": "complete",
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "demo-server", "version": "1.2.3", "title": "Demo"}},
            },
        }
    else:
        assert request["params"] == {"name": "echo", "arguments": {"text": "hi"}, "_meta": {"progressToken": request["id"]}}
        assert answer == {"jsonrpc": "2.0", "id": request["id"], "result": {"content": [{"type": "text", "text": "hi"}]}}


def test_every_message_of_a_session_is_schema_valid(version: str, tmp_path: Path) -> None:
    log = tmp_path / "wire.log"

    async def main() -> None:
        async with Client.stdio(
            sys.executable, [str(INTEROP / "wire_tap.py"), str(log), "--", sys.executable, DEMO],
            protocol_version=version, log_level="debug",
            elicitation=lambda p: {"action": "accept", "content": {"name": "Ada"}},
            sampling=lambda p: {"role": "assistant", "content": {"type": "text", "text": "4"}, "model": "m"},
            roots=[{"uri": "file:///tmp", "name": "tmp"}],
        ) as c:
            await c.list_tools()
            await c.list_resources()
            await c.list_resource_templates()
            await c.list_prompts()
            for name, args in [
                ("echo", {"text": "x"}), ("add", {"a": 1}), ("stats", {"values": [1.5]}),
                ("mirror", {"point": {"x": 1, "y": 1}, "color": "blue"}), ("content_kinds", {}),
                ("fail_tool", {"kind": "tool"}), ("ask_name", {}), ("ask_async", {}),
                ("progress_and_log", {"steps": 2}), ("add", {"a": "bad"}),
            ]:
                await c.call_tool(name, args, progress=lambda *a: None)
            with pytest.raises(ProtocolError):
                await c.call_tool("fail_tool", {"kind": "protocol"})
            await c.read_resource("mem://readme")
            await c.read_resource("mem://blob")
            await c.read_resource("mem://items/3")
            await c.get_prompt("greet", {"name": "A"})
            await c.get_prompt("dialogue", {"topic": "t"})
            await c.complete({"type": "ref/prompt", "name": "greet"}, "style", "")

    run(main())
    checked, failures = check_wire_tap_log(log.read_text(encoding="utf-8"))
    assert checked >= 40, checked
    assert not failures, "\n".join(failures)
