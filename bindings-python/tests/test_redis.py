"""``Server(redis=URL)``: the shared Redis state of the engine (README "Running many instances").
Two servers on one Redis continue each other's legacy session; that test needs ``REDIS_URL``
(scripts/test.d/60-redis.sh starts a Redis server and sets it). A bad URL, a Redis that does not
answer and a clash with ``task_store`` need no Redis."""

from __future__ import annotations

import asyncio
import json
import os
import urllib.error
import urllib.request
from typing import Any

import pytest
from support import LEGACY, MODERN, run, serving

from libmcp import Server, TaskStore

REDIS_URL = os.environ.get("REDIS_URL")


def _server(redis: str) -> Server:
    server = Server("redis-test", redis=redis)

    @server.tool()
    def echo(text: str) -> str:
        return f"echoed {text}"

    return server


def _post(url: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, dict[str, str], str]:
    h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers}
    req = urllib.request.Request(url, json.dumps(body).encode(), h)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


async def post(url: str, body: dict[str, Any], **headers: str) -> tuple[int, dict[str, str], str]:
    # Off the loop: the servers answer on it.
    return await asyncio.to_thread(_post, url, body, headers)


def _initialize() -> dict[str, Any]:
    params = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "urllib", "version": "1"}}
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}


def _call(id: int, text: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": text}}}


def test_a_bad_url_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="redis must be a redis:// URL"):
        Server("x", redis="http://127.0.0.1:6379/0")


def test_redis_keeps_tasks_itself() -> None:
    class Tasks(TaskStore):
        pass

    with pytest.raises(ValueError, match="neither task_store nor state_key"):
        Server("x", redis="redis://127.0.0.1:6379/0", task_store=Tasks())
    with pytest.raises(ValueError, match="neither task_store nor state_key"):
        Server("x", redis="redis://127.0.0.1:6379/0", state_key=bytes(32))


def test_redis_down_at_start_still_serves() -> None:
    # Port 1 on loopback: nothing listens there, so every connection is refused.
    server = _server("redis://127.0.0.1:1/0")

    async def main() -> tuple[tuple[int, dict[str, str], str], tuple[int, dict[str, str], str]]:
        async with serving(server) as url:
            meta = {"io.modelcontextprotocol/protocolVersion": MODERN,
                    "io.modelcontextprotocol/clientCapabilities": {},
                    "io.modelcontextprotocol/clientInfo": {"name": "urllib", "version": "1"}}
            call = _call(2, "stateless")
            call["params"]["_meta"] = meta
            modern = await post(url, call, **{"Mcp-Protocol-Version": MODERN, "Mcp-Method": "tools/call",
                                              "Mcp-Name": "echo"})
            legacy = await post(url, _initialize())
            return modern, legacy

    modern, legacy = run(main())
    assert modern[0] == 200, modern
    assert "echoed stateless" in modern[2]
    # A legacy session needs the session store: 503 with a JSON-RPC error, the server goes on.
    assert legacy[0] == 503, legacy
    assert json.loads(legacy[2])["error"]["code"] == -32603


@pytest.mark.skipif(REDIS_URL is None, reason="needs a Redis server: set REDIS_URL (scripts/test.d/60-redis.sh does)")
def test_two_servers_on_one_redis_continue_a_legacy_session() -> None:
    assert REDIS_URL is not None
    a, b = _server(REDIS_URL), _server(REDIS_URL)

    async def main() -> list[tuple[int, dict[str, str], str]]:
        async with serving(a) as url_a, serving(b) as url_b:
            status, headers, body = await post(url_a, _initialize())
            assert status == 200, body
            sid = {k.lower(): v for k, v in headers.items()}["mcp-session-id"]
            h = {"Mcp-Session-Id": sid, "Mcp-Protocol-Version": LEGACY}
            initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            out = [await post(url_b, initialized, **h)]
            out.append(await post(url_b, _call(2, "on b"), **h))
            out.append(await post(url_a, _call(3, "on a"), **h))
            ended = await asyncio.to_thread(_delete, url_b, h)
            out.append((ended, {}, ""))
            out.append(await post(url_a, _call(4, "after delete"), **h))
            return out

    initialized, on_b, on_a, deleted, after = run(main())
    assert initialized[0] == 202, initialized
    assert on_b[0] == 200 and "echoed on b" in on_b[2], on_b
    assert on_a[0] == 200 and "echoed on a" in on_a[2], on_a
    assert deleted[0] == 200
    # DELETE on one server ended the session on the other too.
    assert after[0] == 404, after


def _delete(url: str, headers: dict[str, str]) -> int:
    req = urllib.request.Request(url, headers=headers, method="DELETE")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)
