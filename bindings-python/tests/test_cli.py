"""``python -m libmcp run FILE[:OBJECT]``: the server object a file defines, over stdio and HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from libmcp import Client
from libmcp.__main__ import main
from support import HttpProcess, run

SOURCE = '''
from libmcp import FastMCP, Server

mcp = FastMCP("cli-demo")
other = Server("other")

@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b

@other.tool()
def which() -> str:
    return "other"
'''


@pytest.fixture
def script(tmp_path: Path) -> str:
    path = tmp_path / "served.py"
    path.write_text(SOURCE)
    return str(path)


async def call(client: Client, name: str, args: dict[str, Any]) -> Any:
    async with client as c:
        result = await c.call_tool(name, args)
        return result.structured_content or result.content[0].text


def test_run_over_stdio_finds_mcp_or_the_named_object(script: str) -> None:
    stdio = Client.stdio(sys.executable, ["-m", "libmcp", "run", script])
    assert run(call(stdio, "add", {"a": 1, "b": "2"})) == {"result": 3}
    named = Client.stdio(sys.executable, ["-m", "libmcp", "run", f"{script}:other"])
    assert run(call(named, "which", {})) == "other"  # a plain Server leaves str unstructured


def test_run_over_http(script: str) -> None:
    proc = HttpProcess(command=[sys.executable, "-m", "libmcp", "run", script, "--http", "127.0.0.1:0"])
    try:
        assert run(call(Client.http(proc.url), "add", {"a": 2, "b": 3})) == {"result": 5}
    finally:
        proc.stop()


def test_a_missing_object_is_named(script: str) -> None:
    out = subprocess.run([sys.executable, "-m", "libmcp", "run", f"{script}:nope"], capture_output=True, text=True)
    assert out.returncode != 0 and "has no libmcp server named 'nope'" in out.stderr

#: The interpreter as an absolute path, links kept (a venv's python is a link to the base one).
PYTHON = os.path.abspath(sys.executable)

ROUTED = '''
from starlette.responses import PlainTextResponse
from libmcp import FastMCP

mcp = FastMCP("routed")

@mcp.custom_route("/health", methods=["GET"])
async def health(request):
    return PlainTextResponse("ok")

@mcp.tool()
def twice(n: int) -> int:
    return 2 * n
'''


def test_run_over_http_serves_custom_routes(tmp_path: Path) -> None:
    import httpx

    path = tmp_path / "routed.py"
    path.write_text(ROUTED)
    proc = HttpProcess(command=[sys.executable, "-m", "libmcp", "run", str(path), "--http", "127.0.0.1:0"])
    try:
        assert httpx.get(proc.url.removesuffix("/mcp") + "/health").text == "ok"
        assert run(call(Client.http(proc.url), "twice", {"n": 4})) == {"result": 8}
    finally:
        proc.stop()


def test_dev_lists_what_the_server_offers(script: str) -> None:
    out = subprocess.run([sys.executable, "-m", "libmcp", "dev", script], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "cli-demo: 1 tools, 0 resources, 0 resource templates, 0 prompts"
    assert lines[1] == "  tool add(a, b)"
    assert "npx @modelcontextprotocol/inspector " + PYTHON + " -m libmcp run " + script in lines[2]


def test_dev_inspector_without_npx_says_what_is_missing(script: str) -> None:
    env = {"PATH": str(Path(sys.executable).parent), "HOME": str(Path(script).parent)}
    out = subprocess.run([sys.executable, "-m", "libmcp", "dev", "--inspector", script], capture_output=True,
                         text=True, env=env, timeout=60)
    assert out.returncode != 0 and "npx, which is not on PATH (install Node.js)" in out.stderr


def installed(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text())
    return loaded


@pytest.mark.parametrize(("client", "key", "typed"), [
    ("claude-desktop", "mcpServers", False), ("claude-code", "mcpServers", True), ("cursor", "mcpServers", False),
    ("vscode", "servers", True)])
def test_install_writes_an_entry_that_starts_the_server(script: str, tmp_path: Path, client: str, key: str,
                                                       typed: bool, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "conf" / "mcp.json"
    main(["install", client, script, "--config", str(config), "-v", "TOKEN=abc"])
    assert capsys.readouterr().out == f"added 'cli-demo' in {config}\n"
    entry = installed(config)[key]["cli-demo"]
    assert entry == {**({"type": "stdio"} if typed else {}), "command": PYTHON,
                     "args": ["-m", "libmcp", "run", script], "env": {"TOKEN": "abc"}}
    if client == "claude-desktop":  # the entry runs: the client a configuration gives, and a call
        started = Client.stdio(entry["command"], entry["args"], env=entry["env"])
        assert run(call(started, "add", {"a": 2, "b": 2})) == {"result": 4}


def test_install_keeps_the_file_and_merges_env(script: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "claude.json"
    config.write_text(json.dumps({"theme": "dark", "mcpServers": {"other": {"command": "x"},
                                                                    "demo": {"command": "old", "env": {"A": "1"}}}}))
    env_file = tmp_path / ".env"
    env_file.write_text("# keys\nexport B='2'\n\nC=3\n")
    main(["install", "cursor", f"{script}:other", "--name", "demo", "--config", str(config), "--env-file",
          str(env_file), "-v", "C=4"])
    assert capsys.readouterr().out == f"updated 'demo' in {config}\n"
    doc = installed(config)
    assert doc["theme"] == "dark" and doc["mcpServers"]["other"] == {"command": "x"}
    assert doc["mcpServers"]["demo"]["env"] == {"A": "1", "B": "2", "C": "4"}
    assert doc["mcpServers"]["demo"]["args"][-1] == f"{script}:other"


def test_install_default_files(script: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.chdir(work)
    with pytest.raises(SystemExit, match=r"no Claude Desktop configuration folder at .*/home/.config/Claude"):
        main(["install", "claude-desktop", script])
    (home / ".config" / "Claude").mkdir(parents=True)
    for client in ("claude-desktop", "claude-code", "cursor", "vscode"):
        main(["install", client, script])
    assert "cli-demo" in installed(home / ".config" / "Claude" / "claude_desktop_config.json")["mcpServers"]
    assert "cli-demo" in installed(work / ".mcp.json")["mcpServers"]
    assert "cli-demo" in installed(home / ".cursor" / "mcp.json")["mcpServers"]
    assert "cli-demo" in installed(work / ".vscode" / "mcp.json")["servers"]


def test_install_names_the_dependencies_this_python_lacks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deps.py"
    path.write_text('from libmcp import FastMCP\n'
                    'mcp = FastMCP("deps", dependencies=["pytest>=1", "libmcp-surely-absent[x]==1"])\n')
    main(["install", "cursor", str(path), "--config", str(tmp_path / "mcp.json")])
    err = capsys.readouterr().err
    assert "dependencies= lists libmcp-surely-absent[x]==1, not installed for " + sys.executable in err
    assert "-m pip install 'libmcp-surely-absent[x]==1'" in err and "pytest" not in err
    path.write_text('from libmcp import FastMCP\nmcp = FastMCP("deps", dependencies=["pytest"])\n')
    main(["install", "cursor", str(path), "--config", str(tmp_path / "mcp.json")])
    assert capsys.readouterr().err == ""


def test_install_refuses_what_it_cannot_do(script: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(SystemExit, match=r"bad.json is not JSON"):
        main(["install", "cursor", script, "--config", str(bad)])
    assert bad.read_text() == "{not json"  # left as it was
    with pytest.raises(SystemExit, match=r"--with/--with-editable are the SDK's uv options"):
        main(["install", "cursor", script, "--with", "numpy", "--config", str(bad)])
    with pytest.raises(SystemExit, match=r"no such file: .*nope.py"):
        main(["install", "cursor", str(tmp_path / "nope.py"), "--name", "x", "--config", str(bad)])


LOWLEVEL = '''
import mcp.types as types
from libmcp.lowlevel import Server

app = Server("low")

@app.list_tools()
async def list_tools():
    return [types.Tool.model_validate({"name": "hi", "inputSchema": {"type": "object"}})]

@app.call_tool()
async def call_tool(name, arguments):
    return [types.TextContent(type="text", text=f"hi from {name}")]
'''


def test_run_serves_a_low_level_server(tmp_path: Path) -> None:
    path = tmp_path / "low.py"
    path.write_text(LOWLEVEL)
    stdio = Client.stdio(sys.executable, ["-m", "libmcp", "run", str(path)])
    assert run(call(stdio, "hi", {})) == "hi from hi"


def test_the_console_script_is_the_same_command(script: str) -> None:
    # pip (or maturin) installs it beside the interpreter of the environment.
    command = Path(sys.executable).parent / "libmcp"
    assert command.is_file(), f"{command}: the libmcp console script is not installed"
    out = subprocess.run([str(command), "dev", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[:2] == ["cli-demo: 1 tools, 0 resources, 0 resource templates, 0 prompts",
                                           "  tool add(a, b)"]
