"""Server limits from Python: each is set through its keyword and checked by the engine (a zero,
negative or wrongly typed value is a ValueError naming it), and a breach is answered with its own
error while the session serves on (here: requests beyond ``max_in_flight`` on a legacy session)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from support import run, serving

from libmcp import Client, Context, InputRequired, ProtocolError, Server

LEGACY = "2025-11-25"
MODERN = "2026-07-28"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_in_flight": 0}, "max_in_flight: must not be zero"),
        ({"max_message_bytes": 0}, "max_message_bytes: must not be zero"),
        ({"max_input_rounds": 0}, "max_input_rounds: must not be zero"),
        ({"max_request_state_bytes": 0}, "max_request_state_bytes: must not be zero"),
        ({"max_in_flight": -1}, "max_in_flight must not be negative"),
        ({"max_in_flight": "many"}, "max_in_flight must be an int"),
        ({"state_ttl": -1.0}, "state_ttl must be a non-negative number of seconds"),
        ({"client_request_timeout": 0}, "client_request_timeout: must not be zero"),
        ({"handler_timeout": 0}, "handler_timeout: must not be zero"),
        ({"handler_timeout": "soon"}, "handler_timeout must be a number of seconds"),
    ],
)
def test_bad_limits_are_value_errors(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Server("limits", **options)


def test_requests_beyond_max_in_flight_are_refused_and_the_session_serves_on() -> None:
    server = Server("limits", max_in_flight=2, max_message_bytes=1 << 20, max_input_rounds=3,
                    state_ttl=60, client_request_timeout=5)
    release = asyncio.Event()

    @server.tool()
    async def hold() -> str:
        await release.wait()
        return "released"

    @server.tool()
    def echo(text: str) -> str:
        return text

    async def main() -> tuple[list[Any], str]:
        async with serving(server) as url, Client.http(url, protocol_version=LEGACY) as c:
            held = [asyncio.create_task(c.call_tool("hold")) for _ in range(2)]
            await asyncio.sleep(0.3)  # both are running on the server before the third is sent
            with pytest.raises(ProtocolError) as refused:
                await c.call_tool("echo", {"text": "third"})
            release.set()
            results = await asyncio.gather(*held)
            after = await c.call_tool("echo", {"text": "after"})
            e = refused.value
            assert (e.code, e.data) == (-32603, {"maxInFlight": 2})
            assert "too many requests in flight on this session (limit 2)" in e.message
            return [r.content[0].text for r in results], after.content[0].text

    held, after = run(main())
    assert held == ["released", "released"]
    assert after == "after"


def test_a_request_state_beyond_max_request_state_bytes_fails_its_request_only() -> None:
    server = Server("limits", max_request_state_bytes=64)

    @server.tool()
    def ask(size: int, ctx: Context) -> str:
        answer = ctx.input_response("name")
        if answer is None:
            schema = {"type": "object", "properties": {"name": {"type": "string"}}}
            return InputRequired(state="x" * size).elicit("name", "Name?", schema)
        return f"{answer.content['name']} with {len(ctx.request_state or '')} bytes of state"

    def elicit(params: Any) -> dict[str, Any]:
        return {"action": "accept", "content": {"name": "Ada"}}

    async def main() -> tuple[str, ProtocolError, str]:
        async with serving(server) as url, Client.http(url, protocol_version=MODERN, elicitation=elicit) as c:
            at_limit = await c.call_tool("ask", {"size": 64})
            with pytest.raises(ProtocolError) as refused:
                await c.call_tool("ask", {"size": 65})
            after = await c.call_tool("ask", {"size": 1})
            return at_limit.content[0].text, refused.value, after.content[0].text

    at_limit, e, after = run(main())
    assert at_limit == "Ada with 64 bytes of state"
    assert e.code == -32603
    assert "requestState is 65 bytes, more than max_request_state_bytes (64)" in e.message
    assert after == "Ada with 1 bytes of state"


def _post_initialize(url: str, extra: dict[str, str]) -> int:
    """POSTs a legacy ``initialize`` with ``extra`` headers on a fresh connection; its status.

    The request goes out in one write: a server refusing the head (431) closes the connection
    without reading on, so a body sent after the head could meet a closed socket."""
    import json
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).encode()
    headers = {"Host": f"{parts.hostname}:{parts.port}", "Content-Type": "application/json",
               "Accept": "application/json, text/event-stream", "Content-Length": str(len(body)),
               "Connection": "close", **extra}
    head = f"POST {parts.path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        try:
            sock.sendall(head.encode() + body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before all of it was read; the answer is already on its way
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    status_line = answer.split(b"\r\n", 1)[0].decode()
    assert status_line.startswith("HTTP/1.1 "), f"no HTTP answer: {answer!r}"
    return int(status_line.split()[1])


def test_http_head_limits_are_checked_and_a_breach_gets_431() -> None:
    server = Server("limits")

    @server.tool()
    def echo(text: str) -> str:
        return text

    async def refused(**options: Any) -> str:
        with pytest.raises(ValueError) as e:
            await server.serve_async("http", port=0, **options)
        return str(e.value)

    assert run(refused(max_header_bytes=100)) == (
        "max_header_bytes: 100 is below the least request head accepted (8192 bytes)")
    assert run(refused(max_headers=0)) == "max_headers: must not be zero"

    async def main() -> tuple[list[int], str]:
        async with serving(server, max_header_bytes=8192, max_headers=20) as url:
            statuses = [await asyncio.to_thread(_post_initialize, url, extra) for extra in (
                {"x-padding": "a" * 9000},
                {f"x-pad-{i}": "1" for i in range(30)},
                {"x-padding": "a" * 4000},
            )]
            async with Client.http(url) as c:
                echoed = await c.call_tool("echo", {"text": "after"})
            return statuses, echoed.content[0].text

    statuses, echoed = run(main())
    assert statuses == [431, 431, 200]
    assert echoed == "after"


def test_a_handler_past_handler_timeout_is_answered_by_the_engine_and_cancelled(version: str) -> None:
    server = Server("limits", handler_timeout=0.3)
    cancelled: list[str] = []

    @server.tool()
    async def slow() -> str:
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            cancelled.append("slow")
            raise
        return "too late"

    @server.tool()
    def echo(text: str) -> str:
        return text

    async def main() -> tuple[ProtocolError, str]:
        async with serving(server) as url, Client.http(url, protocol_version=version) as c:
            with pytest.raises(ProtocolError) as timed_out:
                await c.call_tool("slow")
            after = await c.call_tool("echo", {"text": "after"})
            for _ in range(100):
                if cancelled:
                    break
                await asyncio.sleep(0.02)
            return timed_out.value, after.content[0].text

    e, after = run(main())
    assert (e.code, e.data) == (-32603, {"handlerTimeoutMs": 300})
    assert "the handler did not answer within 300 ms (the server's handler_timeout)" in e.message
    assert after == "after"
    assert cancelled == ["slow"]
