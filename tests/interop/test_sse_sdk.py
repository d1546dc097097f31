"""The official Python SDK's 2024-11-05 HTTP+SSE client (`mcp.client.sse.sse_client`) against libmcp's
everything-server started with `--http --http-sse`: the SDK opens GET /sse, reads the `endpoint` event
and POSTs every message to `/messages?sessionId=...`; every answer, notification and server request
comes back on the stream.

One server for the module, behind http_tap.py; every message of every test is checked against the
schema of its revision (schema_check.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
import pytest
from http_fixtures import HttpService, start_http_service
from mcp import Client, ClientSession
from mcp.client.sse import sse_client
from test_interop import CLIENT_INFO, CONFORMANCE_TOOLS, STEP_TIMEOUT, _binary, _elicit, _sample, _texts

Wire = list[tuple[str, dict[str, Any]]]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def everything_sse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpService]:
    service = start_http_service(
        [str(_binary("everything-server")), "--http", "127.0.0.1:{port}", "--http-sse"],
        "/sse",
        tmp_path_factory.mktemp("everything-sse") / "wire.jsonl",
    )
    yield service
    service.stop()


@asynccontextmanager
async def sse_sdk_client(service: HttpService, wire: Wire, **client_options: Any) -> AsyncIterator[Client]:
    """The SDK's high-level Client (initialize handshake at its newest legacy version) over HTTP+SSE; the
    exchange is schema-checked and appended to `wire` when the block ends."""
    with service.checked() as seen:
        async with Client(
            sse_client(service.url),
            mode="legacy",
            client_info=CLIENT_INFO,
            read_timeout_seconds=STEP_TIMEOUT,
            **client_options,
        ) as client:
            yield client
    wire.extend(seen)


pytestmark = [pytest.mark.anyio, pytest.mark.timeout(60)]


async def test_sse_handshake_tools_and_calls(everything_sse: HttpService) -> None:
    wire: Wire = []
    with anyio.fail_after(STEP_TIMEOUT):
        async with sse_sdk_client(everything_sse, wire) as client:
            assert client.protocol_version == "2025-11-25"
            info = client.server_info
            assert info is not None and (info.name, info.version) == ("libmcp-everything-server", "0.1.0")
            listed = await client.list_tools()
            simple = await client.call_tool("test_simple_text", {})
            failing = await client.call_tool("test_error_handling", {})
            read = await client.read_resource("test://static-text")
    assert CONFORMANCE_TOOLS <= {t.name for t in listed.tools}
    assert _texts(simple) == ["This is a simple text response for testing."]
    assert failing.is_error is True
    assert _texts(failing) == ["This tool intentionally returns an error for testing"]
    assert [getattr(c, "text", None) for c in read.contents] == ["This is the content of the static text resource."]
    sent = [m.get("method") for arrow, m in wire if arrow == "->"]
    assert sent[:2] == ["initialize", "notifications/initialized"]
    assert "server/discover" not in sent


async def test_sse_handshake_at_2024_11_05(everything_sse: HttpService) -> None:
    """A bare ClientSession asking for the transport's own revision gets it."""
    with everything_sse.checked() as wire, anyio.fail_after(STEP_TIMEOUT):
        async with sse_client(everything_sse.url) as (read, write), ClientSession(read, write) as session:
            result = await session.send_request(
                types.InitializeRequest(
                    params=types.InitializeRequestParams(
                        protocol_version="2024-11-05", capabilities=types.ClientCapabilities(), client_info=CLIENT_INFO
                    )
                ),
                types.InitializeResult,
            )
            session.adopt(result)
            await session.send_notification(types.InitializedNotification())
            called = await session.call_tool("test_simple_text", {})
    assert result.protocol_version == "2024-11-05"
    assert _texts(called) == ["This is a simple text response for testing."]
    answers = [m for arrow, m in wire if arrow == "<-" and "result" in m]
    assert answers[0]["result"]["protocolVersion"] == "2024-11-05"


async def test_sse_progress(everything_sse: HttpService) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    wire: Wire = []
    with anyio.fail_after(STEP_TIMEOUT):
        async with sse_sdk_client(everything_sse, wire) as client:
            result = await client.call_tool("test_tool_with_progress", {}, progress_callback=on_progress)
    assert _texts(result) == ["Tool with progress executed successfully"]
    assert seen == [(0.0, 100.0, None), (50.0, 100.0, None), (100.0, 100.0, None)]
    progress = [m for arrow, m in wire if arrow == "<-" and m.get("method") == "notifications/progress"]
    assert [m["params"]["progress"] for m in progress] == [0, 50, 100]


async def test_sse_elicitation_and_sampling(everything_sse: HttpService) -> None:
    """Server-to-client requests arrive on the event stream; the SDK POSTs its answers to the endpoint."""
    wire: Wire = []
    with anyio.fail_after(STEP_TIMEOUT):
        async with sse_sdk_client(everything_sse, wire, elicitation_callback=_elicit, sampling_callback=_sample) as client:
            elicited = await client.call_tool("test_elicitation", {"message": "Your name?"})
            sampled = await client.call_tool("test_sampling", {"prompt": "What is the capital of France?"})
    assert _texts(elicited) == ['User response: action=accept, content={"response":"Ada"}']
    assert _texts(sampled) == ["LLM response: Paris"]
    server_requests = [m for arrow, m in wire if arrow == "<-" and "method" in m and "id" in m]
    assert [m["method"] for m in server_requests] == ["elicitation/create", "sampling/createMessage"]
    for asked in server_requests:
        answers = [m for arrow, m in wire if arrow == "->" and "method" not in m and m.get("id") == asked["id"]]
        assert len(answers) == 1 and "result" in answers[0], answers
    assert server_requests[0]["params"]["message"] == "Your name?"
