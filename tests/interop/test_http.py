"""libmcp's `mcp` CLI against python_server.py (the official Python SDK's MCPServer) over HTTP:

* Streamable HTTP, in every CLI mode (probe, pinned 2026-07-28, legacy handshakes at 2025-11-25,
  2025-06-18 and 2025-03-26);
* the SDK's 2024-11-05 HTTP+SSE server, reached through the client's fallback (POST initialize answered
  405, then GET for the `endpoint` event).

One server per transport for the module, behind http_tap.py; every message of every CLI run is checked
against the schema of its revision (schema_check.py), and the elicitation tests read the exchange from
the tap.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from http_fixtures import HttpService, start_http_service
from schema_check import WireChecker
from test_interop import CLI_MODES, PYTHON_SERVER, SERVER_INFO, STEP_TIMEOUT, _binary, assert_result_envelope

Wire = list[tuple[str, dict[str, Any]]]


@pytest.fixture(scope="module")
def python_http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpService]:
    service = start_http_service(
        [sys.executable, str(PYTHON_SERVER), "streamable-http", "{port}"],
        "/mcp",
        tmp_path_factory.mktemp("python-http") / "wire.jsonl",
    )
    yield service
    service.stop()


@pytest.fixture(scope="module")
def python_sse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpService]:
    service = start_http_service(
        [sys.executable, str(PYTHON_SERVER), "sse", "{port}"],
        "/sse",
        tmp_path_factory.mktemp("python-sse") / "wire.jsonl",
    )
    yield service
    service.stop()


def cli(service: HttpService, flags: list[str], *args: str, wire: Wire | None = None) -> dict[str, Any]:
    """Runs `mcp --json FLAGS ARGS -- URL`, schema-checks its exchange, returns the parsed output; with
    `wire`, appends the exchange's messages to it."""
    command = [str(_binary("mcp")), "--json", *flags, *args, "--", service.url]
    with service.checked() as seen:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=STEP_TIMEOUT, stdin=subprocess.DEVNULL)
    if wire is not None:
        wire.extend(seen)
    assert proc.returncode == 0, f"{command} exited {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return json.loads(proc.stdout)


http_mode = pytest.mark.parametrize("mode", list(CLI_MODES))
http_mode_per_era = pytest.mark.parametrize("mode", ["auto", "legacy-2025-11-25"])


@http_mode
def test_http_info(mode: str, python_http: HttpService) -> None:
    flags, era, version = CLI_MODES[mode]
    info = cli(python_http, flags, "info")
    assert (info["era"], info["protocolVersion"]) == (era, version)
    assert info["serverInfo"] == SERVER_INFO
    assert {"tools", "resources", "prompts", "completions"} <= set(info["capabilities"])


@http_mode
def test_http_tools_and_structured_content(mode: str, python_http: HttpService) -> None:
    flags = CLI_MODES[mode][0]
    tools = {t["name"]: t for t in cli(python_http, flags, "tools")["tools"]}
    assert sorted(tools) == ["add", "divide", "greet", "welcome"]
    assert tools["add"]["inputSchema"]["required"] == ["a", "b"]
    result = cli(python_http, flags, "call", "add", '{"a":2,"b":3}')
    assert result["content"] == [{"type": "text", "text": "5"}]
    assert result["structuredContent"] == {"result": 5}
    assert_result_envelope(mode, result)


@http_mode_per_era
def test_http_tool_error(mode: str, python_http: HttpService) -> None:
    """A tool that raises is a result with isError (the CLI then exits 1 and still prints it)."""
    flags = CLI_MODES[mode][0]
    command = [str(_binary("mcp")), "--json", *flags, "call", "divide", '{"a":1,"b":0}', "--", python_http.url]
    with python_http.checked():
        proc = subprocess.run(command, capture_output=True, text=True, timeout=STEP_TIMEOUT, stdin=subprocess.DEVNULL)
    assert proc.returncode == 1, proc.stderr
    result = json.loads(proc.stdout)
    assert result["isError"] is True
    assert result["content"] == [{"type": "text", "text": "Error executing tool divide: cannot divide by zero"}]
    assert_result_envelope(mode, result)


@http_mode_per_era
def test_http_resources_prompts_and_completion(mode: str, python_http: HttpService) -> None:
    flags = CLI_MODES[mode][0]
    listed = cli(python_http, flags, "resources")
    assert [(r["uri"], r["name"]) for r in listed["resources"]] == [("interop://greeting", "greeting")]
    read = cli(python_http, flags, "read", "interop://greeting")
    assert read["contents"] == [
        {"uri": "interop://greeting", "mimeType": "text/plain", "text": "Greetings from the Python SDK."}
    ]
    assert_result_envelope(mode, read)
    prompt = cli(python_http, flags, "prompt", "summarize", '{"topic":"MCP"}')
    assert prompt["messages"] == [{"role": "user", "content": {"type": "text", "text": "Please summarize MCP."}}]
    completed = cli(python_http, flags, "complete", "summarize", "topic", "M")
    assert completed["completion"]["values"] == ["MCP", "Mars", "Music"]
    assert completed["completion"]["total"] == 3
    assert_result_envelope(mode, completed)


@http_mode_per_era
@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_http_elicitation(mode: str, answer: str, python_http: HttpService) -> None:
    """Modern: MRTR (input_required, retry with inputResponses and the echoed requestState); legacy: a
    real elicitation/create request from the server, answered by a POST."""
    wire: Wire = []
    flags = [*CLI_MODES[mode][0], *(["--answer", "name=Ada"] if answer == "accept" else ["--decline"])]
    result = cli(python_http, flags, "call", "welcome", wire=wire)
    expected = "Welcome, Ada!" if answer == "accept" else "No name given (decline)."
    assert result["content"] == [{"type": "text", "text": expected}]
    assert_result_envelope(mode, result)
    calls = [m for arrow, m in wire if arrow == "->" and m.get("method") == "tools/call"]
    server_requests = [m for arrow, m in wire if arrow == "<-" and "method" in m and "id" in m]
    reply = {"action": "accept", "content": {"name": "Ada"}} if answer == "accept" else {"action": "decline"}
    if CLI_MODES[mode][1] == "modern":
        assert server_requests == []
        assert len(calls) == 2 and calls[0]["id"] != calls[1]["id"]
        first = next(m for arrow, m in wire if arrow == "<-" and m.get("id") == calls[0]["id"])
        assert first["result"]["resultType"] == "input_required"
        (key,) = first["result"]["inputRequests"]
        assert calls[1]["params"]["inputResponses"] == {key: reply}
        assert calls[1]["params"]["requestState"] == first["result"]["requestState"]
    else:
        assert len(calls) == 1
        assert [m["method"] for m in server_requests] == ["elicitation/create"]
        answered = [m for arrow, m in wire if arrow == "->" and "method" not in m and m.get("id") == server_requests[0]["id"]]
        assert [m.get("result") for m in answered] == [reply]


# The 2024-11-05 HTTP+SSE server: libmcp's client finds it by the fallback, in any legacy mode.
SSE_MODES = {
    "auto": ([], "2025-11-25"),
    "legacy-2025-11-25": (["--legacy", "2025-11-25"], "2025-11-25"),
    "legacy-2024-11-05": (["--legacy", "2024-11-05"], "2024-11-05"),
}
sse_mode = pytest.mark.parametrize("mode", list(SSE_MODES))


@sse_mode
def test_sse_fallback_info_and_tools(mode: str, python_sse: HttpService) -> None:
    flags, version = SSE_MODES[mode]
    wire: Wire = []
    info = cli(python_sse, flags, "info", wire=wire)
    assert (info["era"], info["protocolVersion"]) == ("legacy", version)
    assert info["serverInfo"] == SERVER_INFO
    # The probe's POSTs to the stream URL are refused (405); initialize is sent again, to the endpoint the
    # stream named, and its answer comes back on the stream.
    probe = ["initialize"] if flags else ["server/discover", "initialize"]
    sent = [m.get("method") for arrow, m in wire if arrow == "->"]
    assert sent[: len(probe) + 1] == [*probe, "initialize"]
    answers = [m for arrow, m in wire if arrow == "<-" and "result" in m]
    assert answers[0]["result"]["protocolVersion"] == version
    result = cli(python_sse, flags, "call", "add", '{"a":20,"b":22}')
    assert result["content"] == [{"type": "text", "text": "42"}]
    assert result["structuredContent"] == {"result": 42}


@sse_mode
def test_sse_fallback_resources_prompts_completion(mode: str, python_sse: HttpService) -> None:
    flags, _ = SSE_MODES[mode]
    read = cli(python_sse, flags, "read", "interop://greeting")
    assert read["contents"][0]["text"] == "Greetings from the Python SDK."
    prompt = cli(python_sse, flags, "prompt", "summarize", '{"topic":"SSE"}')
    assert prompt["messages"][0]["content"]["text"] == "Please summarize SSE."
    completed = cli(python_sse, flags, "complete", "summarize", "topic", "Py")
    assert completed["completion"]["values"] == ["Python"]


@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_sse_fallback_elicitation(answer: str, python_sse: HttpService) -> None:
    wire: Wire = []
    flags = ["--answer", "name=Ada"] if answer == "accept" else ["--decline"]
    result = cli(python_sse, flags, "call", "welcome", wire=wire)
    expected = "Welcome, Ada!" if answer == "accept" else "No name given (decline)."
    assert result["content"] == [{"type": "text", "text": expected}]
    server_requests = [m for arrow, m in wire if arrow == "<-" and "method" in m and "id" in m]
    assert [m["method"] for m in server_requests] == ["elicitation/create"]


def test_schema_check_catches_violations() -> None:
    """The checker the tests rely on does fail bad messages."""
    checker = WireChecker()
    checker.feed("->", "2026-07-28", {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}})
    checker.feed("->", "2026-07-28", {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
    checker.feed("<-", "2026-07-28", {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": 5}]}})
    checker.feed("->", "2025-11-25", {"jsonrpc": "2.0", "id": 3, "method": "server/discover"})
    checker.feed("<-", "2025-11-25", {"jsonrpc": "2.0", "id": 9, "result": {}})
    checker.feed("->", None, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert len(checker.failures) == 6, checker.failures
    assert "not a valid 2026-07-28 CallToolRequest at /params: '_meta' is a required" in checker.failures[0]
    assert "not a valid 2026-07-28 ListToolsRequest at /params: '_meta' is a required" in checker.failures[1]
    assert "not a valid 2026-07-28 ListToolsResultResponse at /result: " in checker.failures[2]
    assert "2025-11-25 defines no method 'server/discover'" in checker.failures[3]
    assert "a response to no request seen" in checker.failures[4]
    assert "no protocol version known" in checker.failures[5]
    good = WireChecker()
    good.feed("->", "2025-11-25", {"jsonrpc": "2.0", "id": 1, "method": "ping"})
    good.feed("<-", "2025-11-25", {"jsonrpc": "2.0", "id": 1, "result": {}})
    assert (good.checked, good.failures) == (2, [])
