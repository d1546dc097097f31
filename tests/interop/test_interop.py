"""Interop between libmcp and the official MCP Python SDK (`mcp` 2.x), over stdio and Streamable HTTP, in
both eras.

Two directions:

* the Python SDK as client drives libmcp's `everything-server` (the conformance fixture), over stdio and
  (connections named `http-*`) over Streamable HTTP through http_tap.py, which records every message so
  each test checks them all against the schema of their revision (schema_check.py);
* libmcp's `mcp` command-line client drives `python_server.py`, a server built with the SDK's MCPServer
  (over HTTP in test_http.py).

The Rust binaries are taken from LIBMCP_BIN_DIR (default: target/debug under the repository root).
With LIBMCP_EVERYTHING_HTTP_UPSTREAM=http://host:port the `http-*` connections go (through the tap) to
that server instead of one started here: scripts/test.d/60-redis.sh points it at a round-robin proxy
over several everything-servers sharing Redis.
Every stdio exchange runs through wire_tap.py and each message is checked against the schema of its
revision (schema_check.py); set LIBMCP_INTEROP_WIRE_DIR to a directory to keep those logs there.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from http_fixtures import HttpService, start_http_service, tap_http_service
from mcp import Client, ClientSession, MCPDeprecationWarning, MCPError, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from schema_check import check_wire_tap_log

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BIN_DIR = (ROOT / os.environ.get("LIBMCP_BIN_DIR", "target/debug")).resolve()
PYTHON_SERVER = HERE / "python_server.py"
WIRE_DIR = os.environ.get("LIBMCP_INTEROP_WIRE_DIR")

# Every test is bounded twice: anyio.fail_after inside (so an async hang raises cleanly with a traceback)
# and pytest-timeout outside (so even a wedged event loop or subprocess ends the test).
STEP_TIMEOUT = 20.0
pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _binary(name: str) -> Path:
    path = BIN_DIR / name
    if not path.is_file():
        pytest.fail(f"{path} is missing: build it with `cargo build -p libmcp-examples` or set LIBMCP_BIN_DIR")
    return path


def _tapped(command: list[str], request: pytest.FixtureRequest) -> tuple[list[str], Path]:
    """`command` behind wire_tap.py, and the log it writes (in LIBMCP_INTEROP_WIRE_DIR when set, else in
    the test's temporary directory)."""
    if WIRE_DIR:
        Path(WIRE_DIR).mkdir(parents=True, exist_ok=True)
        log = Path(WIRE_DIR) / (re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name) + ".log")
    else:
        log = request.getfixturevalue("tmp_path") / "stdio-wire.log"
    log.unlink(missing_ok=True)
    return [sys.executable, str(HERE / "wire_tap.py"), str(log), "--", *command], log


def assert_schema_valid(log: Path) -> None:
    """Every message of a wire_tap.py log is valid in its revision's schema."""
    checked, failures = check_wire_tap_log(log.read_text(encoding="utf-8"))
    assert checked > 0, f"no JSON-RPC message in {log}"
    assert not failures, "messages that break their revision's schema:\n" + "\n".join(failures)


# --------------------------------------------------------------------------------------------------
# Python SDK client -> libmcp everything-server
# --------------------------------------------------------------------------------------------------

# How the SDK connects, and the protocol version that must come out of it.
#   auto        Client(mode="auto"): server/discover probe, initialize fallback (the SDK default)
#   pinned      Client(mode="2026-07-28"): adopt the modern version without a probe
#   legacy      Client(mode="legacy"): initialize handshake at the SDK's newest handshake version
#   handshake:V ClientSession with an explicit InitializeRequest at V (Client offers no way to ask
#               for an older handshake version; ClientSession.initialize() always offers the newest)
SDK_CONNECTIONS = {
    "auto": "2026-07-28",
    "pinned-2026-07-28": "2026-07-28",
    "legacy": "2025-11-25",
    "handshake-2025-06-18": "2025-06-18",
    "handshake-2025-03-26": "2025-03-26",
    "handshake-2024-11-05": "2024-11-05",
    "http-auto": "2026-07-28",
    "http-pinned-2026-07-28": "2026-07-28",
    "http-legacy": "2025-11-25",
    "http-handshake-2025-06-18": "2025-06-18",
    "http-handshake-2025-03-26": "2025-03-26",
}

CLIENT_INFO = types.Implementation(name="libmcp-interop-tests", version="1.0.0")

# Tools the conformance contract names; the fixture may have more.
CONFORMANCE_TOOLS = {
    "test_simple_text",
    "test_image_content",
    "test_audio_content",
    "test_embedded_resource",
    "test_multiple_content_types",
    "test_tool_with_logging",
    "test_tool_with_progress",
    "test_error_handling",
    "test_sampling",
    "test_elicitation",
}


# The name and version the everything-server under test reports: the Rust one's, or (with
# LIBMCP_EVERYTHING_HTTP_UPSTREAM) those of the server at that URL, given as "NAME VERSION" in
# LIBMCP_EVERYTHING_INFO (the C, Python and Node everything-servers name themselves).
EVERYTHING_INFO = tuple(os.environ.get("LIBMCP_EVERYTHING_INFO", "libmcp-everything-server 0.1.0").split())


@pytest.fixture(scope="session")
def everything_http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpService]:
    """One everything-server --http for the whole run (or LIBMCP_EVERYTHING_HTTP_UPSTREAM), behind
    http_tap.py."""
    log = tmp_path_factory.mktemp("everything-http") / "wire.jsonl"
    upstream = os.environ.get("LIBMCP_EVERYTHING_HTTP_UPSTREAM")
    if upstream:
        service = tap_http_service(upstream, "/mcp", log)
    else:
        service = start_http_service([str(_binary("everything-server")), "--http", "127.0.0.1:{port}"], "/mcp", log)
    yield service
    service.stop()


@asynccontextmanager
async def sdk_client(
    connection: str, request: pytest.FixtureRequest, **client_options: Any
) -> AsyncIterator[Client | ClientSession]:
    """A connected SDK client (Client or bare ClientSession) talking to everything-server over stdio, or
    over Streamable HTTP for the `http-*` connections (then every message of the test is schema-checked).

    `client_options` (callbacks, log_level) go to `Client`; only the Client connections take them.
    """
    if connection.startswith("http-"):
        service: HttpService = request.getfixturevalue("everything_http")
        with service.checked():
            async with _sdk_client(connection.removeprefix("http-"), service.url, client_options) as client:
                yield client
        return
    command, log = _tapped([str(_binary("everything-server"))], request)
    params = StdioServerParameters(command=command[0], args=command[1:])
    async with _sdk_client(connection, params, client_options) as client:
        yield client
    assert_schema_valid(log)


@asynccontextmanager
async def _sdk_client(
    connection: str, server: StdioServerParameters | str, client_options: dict[str, Any]
) -> AsyncIterator[Client | ClientSession]:
    if connection.startswith("handshake-"):
        assert not client_options, "the bare-ClientSession connections take no options"
        version = connection.removeprefix("handshake-")
        transport = stdio_client(server) if isinstance(server, StdioServerParameters) else streamable_http_client(server)
        async with transport as (read, write), ClientSession(read, write, client_info=CLIENT_INFO) as s:
            result = await s.send_request(
                types.InitializeRequest(
                    params=types.InitializeRequestParams(
                        protocol_version=version,
                        capabilities=types.ClientCapabilities(),
                        client_info=CLIENT_INFO,
                    )
                ),
                types.InitializeResult,
            )
            s.adopt(result)
            await s.send_notification(types.InitializedNotification())
            yield s
        return
    mode = {"auto": "auto", "pinned-2026-07-28": "2026-07-28", "legacy": "legacy"}[connection]
    async with Client(
        server, mode=mode, client_info=CLIENT_INFO, read_timeout_seconds=STEP_TIMEOUT, **client_options
    ) as client:
        yield client


sdk_connection = pytest.mark.parametrize("connection", list(SDK_CONNECTIONS))


@pytest.mark.anyio
@sdk_connection
async def test_sdk_negotiates_version(connection: str, request: pytest.FixtureRequest) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with sdk_client(connection, request) as client:
            assert client.protocol_version == SDK_CONNECTIONS[connection]
            if connection.endswith("pinned-2026-07-28"):
                # No discover was sent, so the SDK knows nothing else about the server; its first
                # message is the first request.
                assert (await client.list_tools()).tools
                return
            info = client.server_info
            assert info is not None
            assert (info.name, info.version) == EVERYTHING_INFO
            caps = client.server_capabilities
            assert caps is not None and caps.tools is not None
            assert caps.resources is not None and caps.prompts is not None


@pytest.mark.anyio
@sdk_connection
async def test_sdk_lists_tools(connection: str, request: pytest.FixtureRequest) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with sdk_client(connection, request) as client:
            result = await client.list_tools()
    names = [tool.name for tool in result.tools]
    assert len(names) == len(set(names)), f"duplicate tool names: {names}"
    assert CONFORMANCE_TOOLS <= set(names), f"missing: {sorted(CONFORMANCE_TOOLS - set(names))}"
    simple = next(tool for tool in result.tools if tool.name == "test_simple_text")
    assert simple.input_schema["type"] == "object"


@pytest.mark.anyio
@sdk_connection
async def test_sdk_calls_simple_text(connection: str, request: pytest.FixtureRequest) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with sdk_client(connection, request) as client:
            result = await client.call_tool("test_simple_text", {})
    assert isinstance(result, types.CallToolResult)
    assert result.is_error in (None, False)
    assert [(c.type, getattr(c, "text", None)) for c in result.content] == [
        ("text", "This is a simple text response for testing.")
    ]


@pytest.mark.anyio
@sdk_connection
async def test_sdk_calls_error_tool(connection: str, request: pytest.FixtureRequest) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with sdk_client(connection, request) as client:
            result = await client.call_tool("test_error_handling", {})
    assert isinstance(result, types.CallToolResult)
    assert result.is_error is True
    assert [(c.type, getattr(c, "text", None)) for c in result.content] == [
        ("text", "This tool intentionally returns an error for testing")
    ]


@pytest.mark.anyio
@sdk_connection
async def test_sdk_reads_static_text(connection: str, request: pytest.FixtureRequest) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with sdk_client(connection, request) as client:
            listed = await client.list_resources()
            result = await client.read_resource("test://static-text")
    assert "test://static-text" in {str(r.uri) for r in listed.resources}
    assert len(result.contents) == 1
    content = result.contents[0]
    assert isinstance(content, types.TextResourceContents)
    assert (str(content.uri), content.mime_type, content.text) == (
        "test://static-text",
        "text/plain",
        "This is the content of the static text resource.",
    )


@pytest.mark.anyio
@sdk_connection
async def test_sdk_gets_simple_prompt(connection: str, request: pytest.FixtureRequest) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with sdk_client(connection, request) as client:
            listed = await client.list_prompts()
            result = await client.get_prompt("test_simple_prompt", {})
    assert "test_simple_prompt" in {p.name for p in listed.prompts}
    assert [(m.role, m.content.type, getattr(m.content, "text", None)) for m in result.messages] == [
        ("user", "text", "This is a simple prompt for testing.")
    ]


# Beyond the basics, through the SDK's high-level Client only: its callbacks serve server-to-client
# requests in the legacy era and MRTR input requests in the modern one.
client_connection = pytest.mark.parametrize(
    "connection", ["auto", "pinned-2026-07-28", "legacy", "http-auto", "http-pinned-2026-07-28", "http-legacy"]
)


def _is_modern(connection: str) -> bool:
    return SDK_CONNECTIONS[connection] == "2026-07-28"


def _texts(result: types.CallToolResult) -> list[str | None]:
    return [getattr(c, "text", None) for c in result.content]


@pytest.mark.anyio
@client_connection
async def test_sdk_progress(connection: str, request: pytest.FixtureRequest) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    with anyio.fail_after(STEP_TIMEOUT):
        async with sdk_client(connection, request) as client:
            result = await client.call_tool("test_tool_with_progress", {}, progress_callback=on_progress)
    assert _texts(result) == ["Tool with progress executed successfully"]
    assert seen == [(0.0, 100.0, None), (50.0, 100.0, None), (100.0, 100.0, None)]


@pytest.mark.anyio
@client_connection
async def test_sdk_logging(connection: str, request: pytest.FixtureRequest) -> None:
    logs: list[types.LoggingMessageNotificationParams] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        logs.append(params)

    # Modern: opt in per request with _meta logLevel (Client(log_level=...)); legacy: logging/setLevel.
    options: dict[str, Any] = {"logging_callback": on_log}
    if _is_modern(connection):
        options["log_level"] = "info"
    with anyio.fail_after(STEP_TIMEOUT):
        async with sdk_client(connection, request, **options) as client:
            assert isinstance(client, Client)
            if not _is_modern(connection):
                with pytest.warns(MCPDeprecationWarning):
                    await client.set_logging_level("info")
            result = await client.call_tool("test_tool_with_logging", {})
    assert _texts(result) == ["Tool with logging executed successfully"]
    assert [(m.level, m.data) for m in logs] == [
        ("info", "Tool execution started"),
        ("info", "Tool processing data"),
        ("info", "Tool execution completed"),
    ]


@pytest.mark.anyio
async def test_sdk_modern_sends_no_logs_without_log_level(request: pytest.FixtureRequest) -> None:
    logs: list[types.LoggingMessageNotificationParams] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        logs.append(params)

    with anyio.fail_after(STEP_TIMEOUT):
        async with sdk_client("auto", request, logging_callback=on_log) as client:
            result = await client.call_tool("test_tool_with_logging", {})
    assert _texts(result) == ["Tool with logging executed successfully"]
    assert logs == []


async def _sample(_ctx: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
    assert params.messages[0].role == "user"
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text="Paris"),
        model="interop-fake",
        stop_reason="endTurn",
    )


async def _elicit(_ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    assert isinstance(params, types.ElicitRequestFormParams)
    return types.ElicitResult(action="accept", content={key: "Ada" for key in params.requested_schema["properties"]})


@pytest.mark.anyio
@client_connection
async def test_sdk_sampling(connection: str, request: pytest.FixtureRequest) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with sdk_client(connection, request, sampling_callback=_sample) as client:
            first = await client.call_tool("test_sampling", {"prompt": "What is the capital of France?"})
            second = await client.call_tool("test_input_required_result_sampling", {})
    assert _texts(first) == ["LLM response: Paris"]
    assert _texts(second) == ["Sampling result: Paris"]


@pytest.mark.anyio
@client_connection
async def test_sdk_elicitation(connection: str, request: pytest.FixtureRequest) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with sdk_client(connection, request, elicitation_callback=_elicit) as client:
            first = await client.call_tool("test_elicitation", {"message": "Your name?"})
            second = await client.call_tool("test_input_required_result_elicitation", {})
            prompt = await client.get_prompt("test_input_required_result_prompt", {})
    assert _texts(first) == ['User response: action=accept, content={"response":"Ada"}']
    assert _texts(second) == ["Hello, Ada!"]
    assert [getattr(m.content, "text", None) for m in prompt.messages] == ["Use this context: Ada"]


@pytest.mark.anyio
@client_connection
async def test_sdk_protocol_errors(connection: str, request: pytest.FixtureRequest) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with sdk_client(connection, request) as client:
            with pytest.raises(MCPError) as unknown_tool:
                await client.call_tool("no_such_tool", {})
            with pytest.raises(MCPError) as unknown_resource:
                await client.read_resource("test://no-such-resource")
    assert unknown_tool.value.code == -32602
    # "Resource not found" is -32602 from 2026-07-28 on and -32002 before (2026-07-28 changelog; server/resources, "Error Handling").
    assert unknown_resource.value.code == (-32602 if _is_modern(connection) else -32002)
    assert unknown_resource.value.error.data == {"uri": "test://no-such-resource"}


# --------------------------------------------------------------------------------------------------
# libmcp `mcp` CLI -> Python SDK server
# --------------------------------------------------------------------------------------------------

# CLI mode flags, and the era and version the CLI must report for each.
CLI_MODES = {
    "auto": ([], "modern", "2026-07-28"),
    "modern-2026-07-28": (["--modern", "2026-07-28"], "modern", "2026-07-28"),
    "legacy-2025-11-25": (["--legacy", "2025-11-25"], "legacy", "2025-11-25"),
    "legacy-2025-06-18": (["--legacy", "2025-06-18"], "legacy", "2025-06-18"),
    "legacy-2025-03-26": (["--legacy", "2025-03-26"], "legacy", "2025-03-26"),
}
cli_mode = pytest.mark.parametrize("mode", list(CLI_MODES))
# Each CLI run starts a fresh Python server, and importing the SDK costs about two seconds of CPU, so the
# wider feature checks run in one mode per era only.
cli_mode_per_era = pytest.mark.parametrize("mode", ["auto", "legacy-2025-11-25"])

SERVER_INFO = {"name": "python-interop-server", "version": "1.0.0"}


def run_cli(mode: str, request: pytest.FixtureRequest, *args: str, wire_log: Path | None = None) -> dict[str, Any]:
    """Run `mcp --json [mode flags] ARGS -- python python_server.py` and return its parsed JSON output.

    With `wire_log`, the server runs behind wire_tap.py writing to that file.
    """
    flags = CLI_MODES[mode][0]
    server = [sys.executable, str(PYTHON_SERVER)]
    if wire_log is not None:
        server, log = [sys.executable, str(HERE / "wire_tap.py"), str(wire_log), "--", *server], wire_log
    else:
        server, log = _tapped(server, request)
    command = [str(_binary("mcp")), "--json", *flags, *args, "--", *server]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=STEP_TIMEOUT, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"{command} exited {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    assert_schema_valid(log)
    return json.loads(proc.stdout)


def assert_result_envelope(mode: str, result: dict[str, Any]) -> None:
    """Modern results carry resultType and the serverInfo stamp; legacy ones carry neither."""
    if CLI_MODES[mode][1] == "modern":
        assert result["resultType"] == "complete"
        assert result["_meta"]["io.modelcontextprotocol/serverInfo"] == SERVER_INFO
    else:
        assert "resultType" not in result
        assert "io.modelcontextprotocol/serverInfo" not in result.get("_meta", {})


@cli_mode
def test_cli_info(mode: str, request: pytest.FixtureRequest) -> None:
    _, era, version = CLI_MODES[mode]
    info = run_cli(mode, request, "info")
    assert info["era"] == era
    assert info["protocolVersion"] == version
    assert info["serverInfo"] == SERVER_INFO
    assert info["instructions"] == "Interop fixture for libmcp: tools add, divide, greet and welcome, one resource, one prompt."
    # Only the modern era's server/discover lists the versions a server supports; the legacy handshake
    # names one, and the CLI shows only what it was told.
    if era == "modern":
        assert version in info["supportedVersions"]
    else:
        assert "supportedVersions" not in info
    assert {"tools", "resources", "prompts"} <= set(info["capabilities"])


@cli_mode
def test_cli_tools(mode: str, request: pytest.FixtureRequest) -> None:
    result = run_cli(mode, request, "tools")
    tools = {tool["name"]: tool for tool in result["tools"]}
    assert sorted(tools) == ["add", "divide", "greet", "welcome"]
    assert tools["add"]["description"] == "Add two integers."
    assert tools["add"]["inputSchema"]["required"] == ["a", "b"]
    assert tools["add"]["inputSchema"]["properties"]["a"]["type"] == "integer"
    assert tools["greet"]["inputSchema"]["required"] == ["name"]


@cli_mode
def test_cli_call_add(mode: str, request: pytest.FixtureRequest) -> None:
    result = run_cli(mode, request, "call", "add", '{"a":2,"b":3}')
    assert result["content"] == [{"type": "text", "text": "5"}]
    assert result["structuredContent"] == {"result": 5}
    assert result.get("isError", False) is False
    assert_result_envelope(mode, result)


@cli_mode_per_era
def test_cli_call_greet(mode: str, request: pytest.FixtureRequest) -> None:
    result = run_cli(mode, request, "call", "greet", '{"name":"Ada"}')
    assert result["content"] == [{"type": "text", "text": "Hello, Ada!"}]
    assert result.get("isError", False) is False
    assert_result_envelope(mode, result)


@cli_mode_per_era
def test_cli_resources_and_read(mode: str, request: pytest.FixtureRequest) -> None:
    listed = run_cli(mode, request, "resources")
    assert [(r["uri"], r["name"]) for r in listed["resources"]] == [("interop://greeting", "greeting")]
    result = run_cli(mode, request, "read", "interop://greeting")
    assert result["contents"] == [
        {"uri": "interop://greeting", "mimeType": "text/plain", "text": "Greetings from the Python SDK."}
    ]
    assert_result_envelope(mode, result)


@cli_mode_per_era
def test_cli_prompt(mode: str, request: pytest.FixtureRequest) -> None:
    listed = run_cli(mode, request, "prompts")
    assert [(p["name"], [a["name"] for a in p.get("arguments", [])]) for p in listed["prompts"]] == [
        ("summarize", ["topic"])
    ]
    result = run_cli(mode, request, "prompt", "summarize", '{"topic":"MCP"}')
    assert result["messages"] == [{"role": "user", "content": {"type": "text", "text": "Please summarize MCP."}}]
    assert_result_envelope(mode, result)


def _wire(log: Path) -> list[tuple[str, dict[str, Any]]]:
    """The JSON-RPC messages of a wire_tap.py log, as (direction, message) with direction "->" or "<-"."""
    messages = []
    for line in log.read_text(encoding="utf-8").splitlines():
        arrow, _, body = line.partition(" ")
        if arrow in ("->", "<-"):
            messages.append((arrow, json.loads(body)))
    return messages


@cli_mode_per_era
@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_cli_elicitation(mode: str, answer: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """The SDK's `welcome` tool asks for a name: by MRTR in the modern era, by elicitation/create in legacy."""
    log = tmp_path / "wire.log"
    flags = ["--answer", "name=Ada"] if answer == "accept" else ["--decline"]
    result = run_cli(mode, request, *flags, "call", "welcome", wire_log=log)
    expected = "Welcome, Ada!" if answer == "accept" else "No name given (decline)."
    assert result["content"] == [{"type": "text", "text": expected}]
    assert_result_envelope(mode, result)

    wire = _wire(log)
    calls = [m for arrow, m in wire if arrow == "->" and m.get("method") == "tools/call"]
    server_requests = [m for arrow, m in wire if arrow == "<-" and "method" in m and "id" in m]
    reply = {"action": "accept", "content": {"name": "Ada"}} if answer == "accept" else {"action": "decline"}
    if CLI_MODES[mode][1] == "modern":
        # First call answered with input_required; the retry has a new id, the answer keyed as asked,
        # and the server's requestState echoed byte for byte.
        assert server_requests == []
        assert len(calls) == 2 and calls[0]["id"] != calls[1]["id"]
        first = next(m for arrow, m in wire if arrow == "<-" and m.get("id") == calls[0]["id"])
        assert first["result"]["resultType"] == "input_required"
        (key,) = first["result"]["inputRequests"]
        assert first["result"]["inputRequests"][key]["method"] == "elicitation/create"
        assert calls[1]["params"]["inputResponses"] == {key: reply}
        assert calls[1]["params"]["requestState"] == first["result"]["requestState"]
    else:
        assert len(calls) == 1
        assert [m["method"] for m in server_requests] == ["elicitation/create"]
        # Ids are per direction: the client's answer is the client-sent response with the server's id.
        answered = [
            m for arrow, m in wire if arrow == "->" and "method" not in m and m.get("id") == server_requests[0]["id"]
        ]
        assert [m.get("result") for m in answered] == [reply]
