"""The official SDK's FastMCP/MCPServer settings on libmcp: each does what the SDK's does, seen on the
wire (``json_response``, ``stateless_http``, ``retry_interval``, the limits), or is refused by name."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx
import pytest

from libmcp import Context, FastMCP, MCPServer
from support import LEGACY, run, serving

JSON_AND_SSE = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def notifying_server(**settings: Any) -> FastMCP:
    """A FastMCP server whose tool reports progress before its result (an SSE stream unless the
    server answers with one JSON body)."""
    s = FastMCP("settings", **settings)

    @s.tool()
    async def slow(ctx: Context) -> str:
        await ctx.report_progress(1, 2)
        return "done"

    return s


def legacy_post(url: str, body: dict[str, Any], session: str | None = None) -> httpx.Response:
    headers = {**JSON_AND_SSE, "MCP-Protocol-Version": LEGACY}
    if session is not None:
        headers["Mcp-Session-Id"] = session
    return httpx.post(url, json={"jsonrpc": "2.0", **body}, headers=headers, timeout=10)


INITIALIZE = {"id": 1, "method": "initialize", "params": {
    "protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}
CALL = {"id": 2, "method": "tools/call", "params": {"name": "slow", "arguments": {}, "_meta": {"progressToken": 7}}}


async def exchange(server: FastMCP, then: Any) -> Any:
    """Serves ``server`` with the engine options its settings give, and runs ``then(url)`` on a thread."""
    _, _, options = server._http_options("streamable-http", {})
    options.pop("path")
    async with serving(server, **options) as url:
        return await asyncio.to_thread(then, url)


def initialized(url: str) -> str | None:
    init = legacy_post(url, INITIALIZE)
    assert init.status_code == 200, init.text
    session = init.headers.get("mcp-session-id")
    legacy_post(url, {"method": "notifications/initialized"}, session)
    return session


@pytest.mark.parametrize("json_response", [False, True])
def test_json_response_answers_with_one_json_body(json_response: bool) -> None:
    def call(url: str) -> httpx.Response:
        return legacy_post(url, CALL, initialized(url))

    answer = run(exchange(notifying_server(json_response=json_response), call))
    assert answer.status_code == 200
    if json_response:  # the progress notification is dropped, as the SDK's JSON mode does
        assert answer.headers["content-type"].startswith("application/json")
        assert answer.json()["result"]["content"][0]["text"] == "done"
    else:
        assert answer.headers["content-type"].startswith("text/event-stream")
        assert "notifications/progress" in answer.text and '"done"' in answer.text


def test_stateless_http_keeps_no_session() -> None:
    def calls(url: str) -> tuple[str | None, httpx.Response, int]:
        session = initialized(url)
        answer = legacy_post(url, {**CALL, "params": {"name": "slow", "arguments": {}}})
        listen = httpx.get(url, headers={"Accept": "text/event-stream", "MCP-Protocol-Version": LEGACY}, timeout=10)
        return session, answer, listen.status_code

    session, answer, get_status = run(exchange(notifying_server(stateless_http=True), calls))
    assert session is None  # no Mcp-Session-Id, as the SDK's stateless transport
    assert answer.status_code == 200 and '"done"' in answer.text  # served without a session
    assert get_status == 405

    def stateful(url: str) -> str | None:
        return initialized(url)

    assert run(exchange(notifying_server(), stateful))  # the default keeps sessions


def test_retry_interval_is_the_sse_retry_field() -> None:
    def call(url: str) -> str:
        return legacy_post(url, CALL, initialized(url)).text

    assert "retry: 2500\n" in run(exchange(notifying_server(retry_interval=2500), call))
    assert "retry: 1000\n" in run(exchange(notifying_server(), call))  # the engine's default
    with pytest.raises(ValueError, match="retry_interval must be a non-negative number of milliseconds"):
        FastMCP("x", retry_interval=-1)._http_options("streamable-http", {})
    _, _, options = MCPServer("y")._http_options("streamable-http", {"retry_interval": 500})
    assert options["sse_retry"] == 0.5


def test_limits_default_as_the_sdk_and_none_is_no_limit() -> None:
    _, _, options = FastMCP("x")._http_options("streamable-http", {})
    assert (options["max_body_bytes"], options["max_sessions"], options["session_idle_timeout"]) \
        == (4 * 1024 * 1024, 10_000, 1800)
    _, _, options = FastMCP("x", max_sessions=None, session_idle_timeout=None)._http_options("streamable-http", {})
    assert options["max_sessions"] >= 2**62 and options["session_idle_timeout"] >= 10**9


def test_mounted_app_takes_the_settings() -> None:
    app = notifying_server(stateless_http=True, json_response=True).streamable_http_app()

    async def main() -> tuple[int, str | None, str]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            headers = {**JSON_AND_SSE, "MCP-Protocol-Version": LEGACY}
            init = await c.post("/mcp", json={"jsonrpc": "2.0", **INITIALIZE}, headers=headers)
            answer = await c.post("/mcp", json={"jsonrpc": "2.0", **CALL}, headers=headers)
            return init.status_code, init.headers.get("mcp-session-id"), answer.headers["content-type"]

    status, session, content_type = run(main())
    assert status == 200 and session is None and content_type.startswith("application/json")


def test_host_must_be_an_address() -> None:
    with pytest.raises(ValueError, match=r"host='example.org': libmcp's HTTP server listens on an IP address"):
        FastMCP("x", host="example.org").run("streamable-http")


def test_warn_on_duplicate_tools_false_keeps_the_first_silently(caplog: pytest.LogCaptureFixture) -> None:
    for warn in (True, False):
        s = MCPServer("dup", warn_on_duplicate_tools=warn, warn_on_duplicate_prompts=warn)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="libmcp.server"):
            s.tool(name="t")(lambda: "first")
            s.tool(name="t")(lambda: "second")
            s.prompt(name="p")(lambda: "first")
            s.prompt(name="p")(lambda: "second")
        assert ("Tool already exists: t" in caplog.text) is warn
        assert ("Prompt already exists: p" in caplog.text) is warn
        assert run(s.call_tool("t", {})).content[0].text == "first"


def test_log_level_is_checked_and_configures_logging_as_the_sdk() -> None:
    with pytest.raises(ValueError, match="log_level must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not 'LOUD'"):
        FastMCP("x", log_level="LOUD")  # type: ignore[arg-type]
    import subprocess
    import sys

    code = ("import logging; from libmcp import FastMCP; FastMCP('x', log_level='DEBUG'); "
            "r = logging.getLogger(); print(logging.getLevelName(r.level), len(r.handlers))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["DEBUG", "1"]
