"""Input requests from sync and async handlers: served as MRTR (InputRequiredResult and a retry) to
modern clients and as real server-to-client requests to legacy ones; checked on the wire."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from support import LEGACY, MODERN, demo_client, run

from libmcp.types import CreateMessageRequestParams, ElicitRequestParams, ListRootsRequestParams, TextContent


def _wire() -> tuple[list[dict[str, Any]], Any]:
    log: list[dict[str, Any]] = []

    def tap(direction: str, data: bytes) -> None:
        log.append({"dir": direction, **json.loads(data)})

    return log, tap


def test_elicitation_from_a_sync_handler(version: str) -> None:
    asked: list[Any] = []
    log, tap = _wire()

    def elicit(params: Any) -> dict[str, Any]:
        assert isinstance(params, ElicitRequestParams)
        assert params.mode == "form" and params.url is None
        assert params.requested_schema is not None and params.requested_schema["required"] == ["name"]
        asked.append(params.model_dump())
        return {"action": "accept", "content": {"name": "Ada"}}

    async def main() -> Any:
        async with demo_client(protocol_version=version, elicitation=elicit, on_wire=tap) as c:
            return await c.call_tool("ask_name")

    r = run(main())
    era = "modern" if version == MODERN else "legacy"
    # A modern retry is a new request (no round before it on this server); a legacy handler is
    # invoked again after its first round.
    round_ = 0 if version == MODERN else 1
    assert r.content[0].text == f"Hello, Ada! state=round-1 era={era} round={round_}"
    assert asked[0]["message"] == "Your name?"
    assert asked[0]["requestedSchema"]["required"] == ["name"]
    calls = [m for m in log if m.get("method") == "tools/call"]
    if version == MODERN:
        # MRTR: the first call answers input_required, the retry carries the answer and the state.
        assert len(calls) == 2
        first = next(m for m in log if m["dir"] == "received" and m.get("id") == calls[0]["id"])
        assert first["result"]["resultType"] == "input_required"
        assert set(first["result"]["inputRequests"]) == {"name"}
        retry = calls[1]["params"]
        assert retry["inputResponses"] == {"name": {"action": "accept", "content": {"name": "Ada"}}}
        assert retry["requestState"] == first["result"]["requestState"]
        assert not any(m.get("method") == "elicitation/create" for m in log)
    else:
        # Legacy: one call, and a real elicitation/create request from the server meanwhile.
        assert len(calls) == 1
        assert [m["dir"] for m in log if m.get("method") == "elicitation/create"] == ["received"]


def test_declined_elicitation_reaches_the_handler(version: str) -> None:
    async def main() -> Any:
        async with demo_client(protocol_version=version, elicitation=lambda p: {"action": "decline"}) as c:
            return await c.call_tool("ask_name")

    assert run(main()).content[0].text == "declined (decline)"


def test_sampling_and_roots_from_an_async_handler(version: str) -> None:
    async def sample(params: Any) -> dict[str, Any]:
        await asyncio.sleep(0)
        assert isinstance(params, CreateMessageRequestParams)
        assert params.max_tokens == 10 and params.tools == [] and params.stop_sequences == []
        assert params.messages[0].role == "user"
        assert params.messages[0].content.text == "2+2?"
        assert [b.text for b in params.messages[0].blocks if isinstance(b, TextContent)] == ["2+2?"]
        return {"role": "assistant", "content": {"type": "text", "text": "4"}, "model": "m", "stopReason": "endTurn"}

    async def main() -> Any:
        async with demo_client(
            protocol_version=version, sampling=sample, roots=[{"uri": "file:///work", "name": "work"}]
        ) as c:
            return await c.call_tool("ask_async")

    assert run(main()).content[0].text == "4 / ['file:///work']"


def test_a_roots_handler_gets_typed_params(version: str) -> None:
    seen: list[Any] = []

    def roots(params: ListRootsRequestParams) -> dict[str, Any]:
        seen.append(params)
        return {"roots": [{"uri": "file:///typed"}]}

    async def sample(params: CreateMessageRequestParams) -> dict[str, Any]:
        return {"role": "assistant", "content": {"type": "text", "text": "4"}, "model": "m"}

    async def main() -> Any:
        async with demo_client(protocol_version=version, sampling=sample, roots=roots) as c:
            return await c.call_tool("ask_async")

    assert run(main()).content[0].text == "4 / ['file:///typed']"
    assert seen and all(isinstance(p, ListRootsRequestParams) for p in seen)


def test_a_failing_client_handler_is_an_error_not_a_hang(version: str) -> None:
    def elicit(params: Any) -> dict[str, Any]:
        raise RuntimeError("no user here")

    async def main() -> Any:
        async with demo_client(protocol_version=version, elicitation=elicit) as c:
            try:
                return await c.call_tool("ask_name")
            except Exception as e:  # noqa: BLE001
                return e

    out = run(main())
    # Legacy: the server's request failed, so its tool call fails; modern: the client gives up.
    if version == LEGACY:
        assert "no user here" in str(out.model_dump() if hasattr(out, "model_dump") else out)
    else:
        from libmcp import McpError

        assert isinstance(out, McpError), out
