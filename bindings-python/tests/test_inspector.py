"""The MCP Inspector's command line (``@modelcontextprotocol/inspector-cli``, the official SDK for
TypeScript as the client) calls a FastMCP tool whose argument is a pydantic model, given as a JSON
object and as JSON text (what the Inspector sends where a schema has no ``type``, as a model's
``$ref`` has none), over stdio through ``python -m libmcp run``."""

from __future__ import annotations

import json
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support import ROOT, run

CLI = Path(os.environ.get("LIBMCP_INSPECTOR_CLI", ROOT / "target" / "inspector-cli" / "node_modules" / "@modelcontextprotocol"
                          / "inspector-cli" / "build" / "index.js"))

SERVER = '''
import datetime
from typing import Literal

from pydantic import BaseModel, Field

from libmcp import FastMCP

mcp = FastMCP("inspected")


class Booking(BaseModel):
    name: str
    guests: int = Field(ge=1, le=10)
    day: datetime.date
    seating: Literal["indoor", "outdoor"] = "indoor"


@mcp.tool()
def book(booking: Booking) -> dict[str, object]:
    """Books a table."""
    return {"who": booking.name, "guests": booking.guests, "weekday": booking.day.strftime("%A"),
            "seating": booking.seating}
'''


@pytest.fixture(scope="module")
def inspect(tmp_path_factory: pytest.TempPathFactory) -> Any:
    node = shutil.which("node")
    if not CLI.is_file() or node is None:
        pytest.fail(f"{CLI} or node is missing: scripts/test.d/40-python.sh installs the Inspector's CLI")
    script = tmp_path_factory.mktemp("inspector") / "server.py"
    script.write_text(SERVER)

    def call(*args: str) -> dict[str, Any]:
        # The command first (a positional), its arguments after "--" (the CLI's options end there).
        out = subprocess.run([node, str(CLI), sys.executable, *args, "--", "-m", "libmcp", "run", str(script)],
                             capture_output=True, text=True, timeout=60,
                             # It looks for its package.json relative to the working folder.
                             cwd=CLI.parent)
        assert out.returncode == 0, out.stderr[-2000:]
        result: dict[str, Any] = json.loads(out.stdout)
        return result

    call.script = script  # type: ignore[attr-defined]
    return call


def test_a_model_argument_as_an_object_and_as_json_text(inspect: Any) -> None:
    server = runpy.run_path(str(inspect.script))["mcp"]
    schema = run(server.list_tools())[0].input_schema
    assert schema["properties"]["booking"] == {"$ref": "#/$defs/Booking"}  # no "type": the Inspector sends text
    want = {"who": "Ada", "guests": 2, "weekday": "Thursday", "seating": "outdoor"}
    booking = {"name": "Ada", "guests": 2, "day": "2026-12-24", "seating": "outdoor"}
    as_object = inspect("--method", "tools/call", "--tool-name", "book", "--tool-arg",
                        "booking=" + json.dumps(booking))
    assert as_object.get("isError") is not True and as_object["structuredContent"] == want, as_object
    # JSON text inside a JSON string: the Inspector sends a string, pydantic's lax mode takes "2".
    as_text = inspect("--method", "tools/call", "--tool-name", "book", "--tool-arg",
                      "booking=" + json.dumps(json.dumps({**booking, "guests": "2"})))
    assert as_text.get("isError") is not True and as_text["structuredContent"] == want, as_text


def test_a_refused_argument_is_pydantics_message(inspect: Any) -> None:
    refused = inspect("--method", "tools/call", "--tool-name", "book", "--tool-arg",
                      'booking={"name": "Ada", "guests": 20, "day": "2026-12-24"}')
    assert refused["isError"] is True
    text = refused["content"][0]["text"]
    assert text.startswith("Error executing tool book: ") and "booking.guests" in text
    assert "less than or equal to 10" in text
