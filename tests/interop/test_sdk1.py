"""libmcp's `mcp` CLI against a server on the official Python SDK 1.x (sdk1/server.py, FastMCP on
mcp 1.30), which speaks only the legacy era.

The installed base of MCP servers is mostly SDK 1.x. Over stdio, Streamable HTTP and the 2024-11-05
HTTP+SSE transport, the client must find the legacy era by itself in auto mode (the 1.x server refuses
the modern probe), survive what 1.x servers send (transport errors answered with `"id": "server-error"`
on a 4xx), and carry every feature through; every message of every exchange is checked against the
schema of its revision.

The 1.x SDK cannot share a venv with the 2.x one the other interop tests use: its interpreter is
`LIBMCP_SDK1_PYTHON` (scripts/test.d/20-python-interop.sh makes that venv and sets it).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from http_fixtures import HttpService, start_http_service
from test_interop import STEP_TIMEOUT, _binary, _tapped, _wire, assert_schema_valid

HERE = Path(__file__).resolve().parent
SDK1_SERVER = HERE / "sdk1" / "server.py"
INSTRUCTIONS = "Interop fixture for libmcp on the Python SDK 1.x: tools add, divide, welcome; a resource; a prompt."

# CLI flags per mode, and the version the CLI must settle on: auto takes the newest the server offers.
MODES = {
    "auto": ([], "2025-11-25"),
    "legacy-2025-11-25": (["--legacy", "2025-11-25"], "2025-11-25"),
    "legacy-2025-06-18": (["--legacy", "2025-06-18"], "2025-06-18"),
    "legacy-2025-03-26": (["--legacy", "2025-03-26"], "2025-03-26"),
}
mode = pytest.mark.parametrize("mode", list(MODES))


def sdk1_python() -> str:
    python = os.environ.get("LIBMCP_SDK1_PYTHON")
    assert python, "LIBMCP_SDK1_PYTHON must name a Python with mcp 1.x (scripts/test.d/20-python-interop.sh sets it)"
    version = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(m.version('mcp'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert version.startswith("1."), f"{python} has mcp {version}, not 1.x"
    return python


def run(args: list[str], log: Path | None = None, status: int = 0, quiet: bool = False) -> dict[str, Any]:
    """Runs `mcp --json ARGS`, expects the exit status (1: the tool reported an error), schema-checks the
    stdio exchange in `log` if given, and returns the parsed output. With `quiet`, a successful run must
    print nothing on stderr."""
    proc = subprocess.run(
        [str(_binary("mcp")), "--json", *args], capture_output=True, text=True, timeout=STEP_TIMEOUT, stdin=subprocess.DEVNULL
    )
    assert proc.returncode == status, f"{args} exited {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    if quiet and status == 0:
        assert proc.stderr == "", proc.stderr
    if log is not None:
        assert_schema_valid(log)
    return json.loads(proc.stdout)


def stdio(request: pytest.FixtureRequest, flags: list[str], *args: str, status: int = 0) -> dict[str, Any]:
    server, log = _tapped([sdk1_python(), str(SDK1_SERVER)], request)
    return run([*flags, *args, "--", *server], log, status)


# --------------------------------------------------------------------------------------------------
# stdio
# --------------------------------------------------------------------------------------------------


@mode
def test_stdio_info(mode: str, request: pytest.FixtureRequest) -> None:
    flags, version = MODES[mode]
    info = stdio(request, flags, "info")
    assert info["era"] == "legacy"
    assert info["protocolVersion"] == version
    assert info["serverInfo"]["name"] == "python-sdk1-server"
    assert info["instructions"] == INSTRUCTIONS
    assert {"tools", "resources", "prompts"} <= set(info["capabilities"])


@mode
def test_stdio_tools_and_calls(mode: str, request: pytest.FixtureRequest) -> None:
    flags, _ = MODES[mode]
    tools = {t["name"]: t for t in stdio(request, flags, "tools")["tools"]}
    assert sorted(tools) == ["add", "divide", "welcome"]
    assert tools["add"]["inputSchema"]["required"] == ["a", "b"]
    result = stdio(request, flags, "call", "add", '{"a":2,"b":3}')
    assert result["content"] == [{"type": "text", "text": "5"}]
    assert "resultType" not in result
    error = stdio(request, flags, "call", "divide", '{"a":1,"b":0}', status=1)
    assert error["isError"] is True
    assert error["content"] == [{"type": "text", "text": "Error executing tool divide: cannot divide by zero"}]


def test_stdio_resources_and_prompts(request: pytest.FixtureRequest) -> None:
    listed = stdio(request, [], "resources")
    assert [(r["uri"], r["name"]) for r in listed["resources"]] == [("interop://greeting", "greeting")]
    read = stdio(request, [], "read", "interop://greeting")
    assert read["contents"] == [
        {"uri": "interop://greeting", "mimeType": "text/plain", "text": "Greetings from the Python SDK 1.x."}
    ]
    prompt = stdio(request, [], "prompt", "summarize", '{"topic":"MCP"}')
    assert prompt["messages"] == [{"role": "user", "content": {"type": "text", "text": "Please summarize MCP."}}]


@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_stdio_elicitation(answer: str, tmp_path: Path) -> None:
    """The 1.x server asks with a real elicitation/create request; the CLI answers it with the given reply."""
    log = tmp_path / "wire.log"
    server = [sdk1_python(), str(HERE / "wire_tap.py"), str(log), "--", sdk1_python(), str(SDK1_SERVER)]
    # wire_tap.py itself runs on the 1.x interpreter: it needs only the standard library.
    flags = ["--answer", "name=Ada"] if answer == "accept" else ["--decline"]
    result = run([*flags, "call", "welcome", "--", *server], log)
    expected = "Welcome, Ada!" if answer == "accept" else "No name given (decline)."
    assert result["content"] == [{"type": "text", "text": expected}]
    wire = _wire(log)
    asked = [m for arrow, m in wire if arrow == "<-" and m.get("method") == "elicitation/create"]
    assert len(asked) == 1
    answered = [m for arrow, m in wire if arrow == "->" and "method" not in m and m.get("id") == asked[0]["id"]]
    reply = {"action": "accept", "content": {"name": "Ada"}} if answer == "accept" else {"action": "decline"}
    assert [m["result"] for m in answered] == [reply]


# --------------------------------------------------------------------------------------------------
# Streamable HTTP and HTTP+SSE
# --------------------------------------------------------------------------------------------------


def _service(tmp_path_factory: pytest.TempPathFactory, transport: str, path: str) -> HttpService:
    return start_http_service(
        [sdk1_python(), str(SDK1_SERVER), transport, "{port}"],
        path,
        tmp_path_factory.mktemp(f"sdk1-{transport}") / "wire.jsonl",
    )


@pytest.fixture(scope="module")
def sdk1_http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpService]:
    service = _service(tmp_path_factory, "streamable-http", "/mcp")
    yield service
    service.stop()


@pytest.fixture(scope="module")
def sdk1_sse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpService]:
    service = _service(tmp_path_factory, "sse", "/sse")
    yield service
    service.stop()


def over_http(service: HttpService, flags: list[str], *args: str) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    # The server is up before the run starts, so its refusal of the modern probe answers the probe
    # itself: nothing about it (or the server's log) may reach the user's terminal. (Over stdio a slow
    # interpreter start can outlast the probe, and its late answer is then reported.)
    with service.checked() as seen:
        result = run([*flags, *args, "--", service.url], quiet=True)
    return result, seen


@mode
def test_http_info_tools_and_call(mode: str, sdk1_http: HttpService) -> None:
    flags, version = MODES[mode]
    info, _ = over_http(sdk1_http, flags, "info")
    assert (info["era"], info["protocolVersion"]) == ("legacy", version)
    tools, _ = over_http(sdk1_http, flags, "tools")
    assert sorted(t["name"] for t in tools["tools"]) == ["add", "divide", "welcome"]
    result, wire = over_http(sdk1_http, flags, "call", "add", '{"a":20,"b":22}')
    assert result["content"] == [{"type": "text", "text": "42"}]
    # Auto mode probes first; the 1.x server refuses the modern probe (a 400 "Missing session ID" with
    # the id "server-error"), and the client goes straight on to the handshake and the call.
    methods = [m["method"] for arrow, m in wire if arrow == "->" and "method" in m]
    probe = ["server/discover"] if mode == "auto" else []
    assert methods == [*probe, "initialize", "notifications/initialized", "tools/call"]
    if mode == "auto":
        refusal = next(m for arrow, m in wire if arrow == "<-" and "error" in m)
        assert (refusal["id"], refusal["error"]["code"]) == ("server-error", -32600)


def test_http_resources_prompts_and_elicitation(sdk1_http: HttpService) -> None:
    read, _ = over_http(sdk1_http, [], "read", "interop://greeting")
    assert read["contents"][0]["text"] == "Greetings from the Python SDK 1.x."
    prompt, _ = over_http(sdk1_http, [], "prompt", "summarize", '{"topic":"Mars"}')
    assert prompt["messages"][0]["content"]["text"] == "Please summarize Mars."
    result, wire = over_http(sdk1_http, ["--answer", "name=Ada"], "call", "welcome")
    assert result["content"] == [{"type": "text", "text": "Welcome, Ada!"}]
    assert [m["method"] for arrow, m in wire if arrow == "<-" and "method" in m and "id" in m] == ["elicitation/create"]


def test_sse_fallback(sdk1_sse: HttpService) -> None:
    """The 1.x HTTP+SSE server refuses the POSTs to its stream URL; the client falls back to the
    2024-11-05 HTTP+SSE transport and negotiates the newest version the server offers over it."""
    info, wire = over_http(sdk1_sse, [], "info")
    assert (info["era"], info["protocolVersion"]) == ("legacy", "2025-11-25")
    sent = [m.get("method") for arrow, m in wire if arrow == "->"]
    assert sent[:3] == ["server/discover", "initialize", "initialize"]
    result, _ = over_http(sdk1_sse, [], "call", "add", '{"a":1,"b":2}')
    assert result["content"] == [{"type": "text", "text": "3"}]
