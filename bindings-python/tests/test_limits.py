"""Server limits from Python: each is set through its keyword and checked by the engine (a zero,
negative or wrongly typed value is a ValueError naming it), and a breach is answered with its own
error while the session serves on (here: requests beyond ``max_in_flight`` on a legacy session)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from support import run, serving

from libmcp import Client, ProtocolError, Server

LEGACY = "2025-11-25"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_in_flight": 0}, "max_in_flight: must not be zero"),
        ({"max_message_bytes": 0}, "max_message_bytes: must not be zero"),
        ({"max_input_rounds": 0}, "max_input_rounds: must not be zero"),
        ({"max_in_flight": -1}, "max_in_flight must not be negative"),
        ({"max_in_flight": "many"}, "max_in_flight must be an int"),
        ({"state_ttl": -1.0}, "state_ttl must be a non-negative number of seconds"),
        ({"client_request_timeout": 0}, "client_request_timeout: must not be zero"),
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
