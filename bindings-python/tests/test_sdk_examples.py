"""The official Python SDK's example servers, each run on the SDK and on libmcp with only its import
line changed, driven by the SDK's own client (sdk_examples/compare.py): every tool's schema and
result, every prompt and resource must be equal, or the difference is listed below with its reason.
mcp 1.30's FastMCP examples run in .venv-sdk1 (the SDK 1.x, with libmcp installed), mcp 2.3's
MCPServer examples in this venv; scripts/test.d/40-python.sh fetches both sdists into
target/sdk-sdists and installs libmcp into .venv-sdk1 (made by step 20)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support import HERE, ROOT

SDISTS = Path(os.environ.get("LIBMCP_SDK_SDISTS", ROOT / "target" / "sdk-sdists"))

#: The examples of both sdists that run here (the others need services or packages: see the README).
EXAMPLES = ["complex_inputs.py", "desktop.py", "direct_call_tool_result_return.py", "echo.py", "icons_demo.py",
            "logging_and_progress.py", "parameter_descriptions.py", "readme-quickstart.py", "simple_echo.py",
            "unicode_example.py", "weather_structured.py"]

#: Every difference allowed, by example and JSON path of the observation, with its reason.
KNOWN: dict[str, dict[str, str]] = {
    "weather_structured.py": {
        '/call get_weather {"city": "abc"}/content/0/text': "the tool returns the current time",
        '/call get_weather {"city": "abc"}/structuredContent/timestamp': "the tool returns the current time",
    },
}

SDKS = [
    ("mcp-1.30.0", "fastmcp", ROOT / ".venv-sdk1" / "bin" / "python"),
    ("mcp-2.3.0", "mcpserver", Path(sys.executable)),
]


#: The low-level examples of the mcp 1.30 sdist (``mcp.server.lowlevel``, which mcp 2.x removed) that
#: run here, under its ``examples``: the others need a network (``simple-tool`` fetches a website),
#: serve HTTP only (``simple-streamablehttp*``, ``sse-polling-demo``, ``simple-auth``), use the
#: SDK's experimental tasks (``simple-task*``), or print to stdout, which breaks the stdio client on
#: the SDK too (``snippets/servers/lowlevel/lifespan.py``): see the README.
LOWLEVEL = ["snippets/servers/lowlevel/basic.py", "snippets/servers/lowlevel/direct_call_tool_result.py",
            "snippets/servers/lowlevel/structured_output.py", "servers/simple-prompt/mcp_simple_prompt/server.py",
            "servers/simple-resource/mcp_simple_resource/server.py",
            "servers/simple-pagination/mcp_simple_pagination/server.py",
            "servers/structured-output-lowlevel/mcp_structured_output_lowlevel/__main__.py"]

_RANDOM_WEATHER = '/call get_weather {"city": "abc"}'
KNOWN_LOWLEVEL: dict[str, dict[str, str]] = {
    "servers/structured-output-lowlevel/mcp_structured_output_lowlevel/__main__.py": {
        f"{_RANDOM_WEATHER}/{key}": "the tool returns random weather and the current time"
        for key in ("content/0/text", "structuredContent/conditions", "structuredContent/humidity",
                    "structuredContent/temperature", "structuredContent/timestamp", "structuredContent/wind_speed")
    },
}


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("sdist", "folder", "python"), SDKS, ids=[s[0] for s in SDKS])
def test_each_example_behaves_as_on_the_sdk(sdist: str, folder: str, python: Path) -> None:
    compare(SDISTS / sdist / "examples" / folder, python, EXAMPLES, KNOWN)


@pytest.mark.timeout(300)
def test_each_lowlevel_example_behaves_as_on_the_sdk() -> None:
    compare(SDISTS / "mcp-1.30.0" / "examples", SDKS[0][2], LOWLEVEL, KNOWN_LOWLEVEL)


def compare(examples: Path, python: Path, names: list[str], known: dict[str, dict[str, str]],
            env: dict[str, str] | None = None) -> dict[str, Any]:
    """Runs each example on the SDK and on libmcp (sdk_examples/compare.py, in ``env``) and fails on
    any difference not in ``known``; returns the report (what libmcp's side saw under ``libmcp``)."""
    if not examples.is_dir() or not python.is_file():
        pytest.fail(f"{examples} or {python} is missing: scripts/test.d/40-python.sh fetches the sdists and "
                    "installs libmcp into .venv-sdk1")
    run = subprocess.run([str(python), str(HERE / "sdk_examples" / "compare.py"), str(examples), *names],
                         capture_output=True, text=True, timeout=280, env=env)
    assert run.returncode == 0, run.stderr[-4000:]
    report: dict[str, Any] = json.loads(run.stdout)
    problems = []
    for example in names:
        outcome = report[example]
        if "error" in outcome:
            problems.append(f"{example}: {outcome['error']}")
            continue
        assert any(key.startswith(("call ", "get prompt ", "read ")) for key in outcome["checked"]), \
            f"{example}: nothing was called"
        for diff in outcome["differences"]:
            if diff["path"] not in known.get(example, {}):
                problems.append(f"{example} {diff['path']}: SDK {diff['sdk']!r}, libmcp {diff['libmcp']!r}")
    assert not problems, "\n".join(problems)
    return report
