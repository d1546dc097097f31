"""A handler's handle on its legacy session, used after its request was answered: the SDK's
``ctx.session.send_elicit_complete`` and libmcp's ``ctx.session_notifier()``, exact on the wire
over stdio (a raw client writes and reads the JSON lines) and schema-valid, and each refusal as
its typed exception."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from support import INTEROP

sys.path.insert(0, str(INTEROP))

SERVER = '''
import asyncio
from libmcp import Context, FastMCP

mcp = FastMCP("notify")
kept = {}

@mcp.tool()
async def pay(ctx: Context) -> str:
    session = ctx.session

    async def later() -> None:
        await asyncio.sleep(0.2)  # after the answer
        await session.send_elicit_complete("pay-1")

    kept["task"] = asyncio.get_running_loop().create_task(later())
    return "started"

@mcp.tool()
def keep(ctx: Context) -> str:
    kept["notifier"] = ctx.session_notifier()
    return ctx.protocol_version

@mcp.tool()
def send(method: str, params: dict | None = None, complete: str | None = None) -> str:
    notifier = kept["notifier"]
    try:
        if complete is not None:
            notifier.elicitation_complete(complete)
        else:
            notifier.notify(method, params)
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    return f"sent, open={notifier.is_open}"

mcp.run()
'''

MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
}


class Raw:
    """A client writing and reading JSON lines on the server's stdio."""

    def __init__(self, script: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()

    def line(self) -> str:
        assert self.proc.stdout
        return self.proc.stdout.readline().rstrip("\n")

    def init(self, caps: dict[str, Any]) -> None:
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": caps, "clientInfo": {"name": "raw", "version": "1"}}})
        assert json.loads(self.line())["result"]["protocolVersion"] == "2025-11-25"
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call(self, id: int, name: str, args: dict[str, Any], meta: dict[str, Any] | None = None) -> Any:
        params: dict[str, Any] = {"name": name, "arguments": args}
        if meta:
            params["_meta"] = meta
        self.send({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
        answer = json.loads(self.line())
        assert answer["id"] == id, answer
        return answer["result"]

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        assert self.proc.wait(15) == 0


def _check(message: dict[str, Any]) -> None:
    """Checks a server message against the 2025-11-25 schema (its method's definition)."""
    from schema_check import WireChecker

    checker = WireChecker()
    checker.feed("<-", "2025-11-25", message)
    assert checker.checked == 1 and checker.failures == [], checker.failures


def test_send_elicit_complete_after_the_answer(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    c = Raw(script)
    c.init({"elicitation": {"url": {}}})
    assert c.call(1, "pay", {})["content"] == [{"type": "text", "text": "started"}]
    line = c.line()
    assert line == ('{"jsonrpc":"2.0","method":"notifications/elicitation/complete",'
                    '"params":{"elicitationId":"pay-1"}}')
    _check(json.loads(line))
    c.close()


def test_the_native_notifier_and_its_refusals(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    c = Raw(script)
    c.init({"elicitation": {}})
    assert c.call(1, "keep", {})["content"][0]["text"] == "2025-11-25"

    def send(id: int, **args: Any) -> str:
        text: str = c.call(id, "send", args)["content"][0]["text"]
        return text

    # Sent after the request that took it was answered, while another request runs: the
    # notification, then the answer to `send`.
    c.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "send", "arguments": {
        "method": "notifications/message", "params": {"level": "info", "data": "paid"}}}})
    line = c.line()
    assert line == '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"paid","level":"info"}}'
    _check(json.loads(line))
    answer = json.loads(c.line())
    assert answer["id"] == 2 and answer["result"]["content"][0]["text"] == "sent, open=True"
    assert send(3, method="notifications/nope") == (
        "InvalidArgument: notifications/nope is not a server notification of protocol revision 2025-11-25")
    assert send(4, method="notifications/elicitation/complete", params={"elicitationId": 5}) == (
        "InvalidArgument: invalid params: the notification notifications/elicitation/complete cannot be "
        "expressed in protocol revision 2025-11-25: params.elicitationId: must be of type string, not number")
    assert send(5, method="x", complete="e") == (
        "InvalidArgument: the client did not declare the elicitation.url capability")
    # A 2026-07-28 request has no session.
    refused = c.call(6, "keep", {}, MODERN_META)
    assert refused["isError"] is True
    assert refused["content"][0]["text"] == (
        "Error executing tool keep: no session to notify: protocol revision 2026-07-28 has no sessions; "
        "a request's notifications travel only in its own response stream")
    c.close()
