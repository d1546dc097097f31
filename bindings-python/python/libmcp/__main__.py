"""``python -m libmcp`` (and the ``libmcp`` console script), the official SDK's ``mcp`` command for
libmcp servers: ``run FILE[:OBJECT]`` serves the server object a Python file defines, over stdio or
with ``--http [HOST:]PORT`` over Streamable HTTP (``mcp run``); ``dev FILE[:OBJECT]`` lists what the
server offers and starts the MCP Inspector on it with ``--inspector`` (``mcp dev``); ``install
CLIENT FILE[:OBJECT]`` writes the entry that starts it into Claude Desktop's, Claude Code's,
Cursor's or VS Code's configuration (``mcp install``, which writes Claude Desktop's only). Without
``:OBJECT`` the object is the module's ``mcp``, ``server`` or ``app`` (a libmcp server), or its only
libmcp server."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import runpy
import shlex
import shutil
import sys
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from ._install import CLIENTS, install
from .errors import ProtocolError
from .lowlevel import Server as LowLevelServer
from .server import Server

__all__ = ["main"]

_NAMES = ("mcp", "server", "app")


def find_server(spec: str) -> Server:
    """The server object ``FILE[:OBJECT]`` names (the file runs as a module, not as ``__main__``);
    an SDK low-level server (:mod:`libmcp.lowlevel`) as the libmcp server behind it."""
    found = _find(spec)
    if isinstance(found, LowLevelServer):
        return asyncio.run(found.engine())
    return found


def _find(spec: str) -> Server | LowLevelServer:
    path, _, name = spec.partition(":")
    if not Path(path).is_file():
        raise SystemExit(f"libmcp run: no such file: {path}")
    sys.path.insert(0, str(Path(path).resolve().parent))
    namespace: dict[str, Any] = runpy.run_path(path, run_name="__libmcp_run__")
    kinds = (Server, LowLevelServer)
    if name:
        obj = namespace.get(name)
        if not isinstance(obj, kinds):
            raise SystemExit(f"libmcp run: {path} has no libmcp server named {name!r}")
        return obj
    for candidate in _NAMES:
        server = namespace.get(candidate)
        if isinstance(server, kinds):
            return server
    found = [v for k, v in namespace.items() if isinstance(v, kinds) and not k.startswith("_")]
    if len(found) != 1:
        raise SystemExit(f"libmcp run: {path} defines {len(found)} libmcp servers and none named "
                         f"{', '.join(_NAMES)}: name one as {path}:OBJECT")
    return found[0]


def _address(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    try:
        return host or "127.0.0.1", int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected [HOST:]PORT, got {value!r}") from None


def _env_pair(value: str) -> tuple[str, str]:
    key, sep, val = value.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {value!r}")
    return key, val


def _env_file(path: str) -> dict[str, str]:
    """``KEY=VALUE`` lines (blank lines and ``#`` comments skipped, values unquoted)."""
    env: dict[str, str] = {}
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise SystemExit(f"libmcp install: cannot read --env-file {path}: {e.strerror}") from None
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, val = line.removeprefix("export ").partition("=")
        if not sep or not key.strip():
            raise SystemExit(f"libmcp install: {path}:{number}: expected KEY=VALUE, got {line!r}")
        val = val.strip()
        if len(val) >= 2 and val[0] == val[-1] and val[0] in "'\"":
            val = val[1:-1]
        env[key.strip()] = val
    return env


def _serve(server: Server, http: tuple[str, int] | None) -> None:
    from .compat import _SdkServer

    if http is None:
        Server.run(server, "stdio")
    elif isinstance(server, _SdkServer):
        # Its settings and custom routes apply, as under its own run("streamable-http").
        server.settings.host, server.settings.port = http
        server._run("streamable-http", {})
    else:
        Server.run(server, "http", *http)


async def _listing(server: Server) -> list[str]:
    tools = await _listed(server.list_tools())
    resources = await _listed(server.list_resources())
    templates = await _listed(server.list_resource_templates())
    prompts = await _listed(server.list_prompts())
    lines = [f"{server.name}: {len(tools)} tools, {len(resources)} resources, {len(templates)} resource "
             f"templates, {len(prompts)} prompts"]
    for tool in tools:
        params = ", ".join(tool.input_schema.get("properties", {}))
        lines.append(f"  tool {tool.name}({params}){_summary(tool.description)}")
    for resource in resources:
        lines.append(f"  resource {resource.uri}{_summary(resource.description)}")
    for template in templates:
        lines.append(f"  resource template {template.uri_template}{_summary(template.description)}")
    for prompt in prompts:
        args = ", ".join(a.name for a in prompt.arguments)
        lines.append(f"  prompt {prompt.name}({args}){_summary(prompt.description)}")
    return lines


async def _listed(listing: Awaitable[list[Any]]) -> list[Any]:
    """A listing, empty when the server has no such capability (the engine answers -32601)."""
    try:
        return await listing
    except ProtocolError as e:
        if e.code == -32601:
            return []
        raise


def _summary(description: str | None) -> str:
    first = (description or "").strip().split("\n", 1)[0]
    return f": {first}" if first else ""


def _missing_dependencies(server: Any) -> None:
    """The SDK's ``dependencies=`` are installed by ``mcp install``/``mcp dev`` (``uv run --with``);
    libmcp's entry runs this interpreter and installs nothing, so those it lacks are named on stderr."""
    import re
    from importlib.metadata import PackageNotFoundError, distribution

    missing = []
    for requirement in getattr(server, "dependencies", None) or []:
        name = re.split(r"[\s\[<>=!~;@]", requirement.strip(), maxsplit=1)[0]
        try:
            distribution(name)
        except PackageNotFoundError:
            missing.append(requirement)
    if missing:
        print(f"libmcp: the server's dependencies= lists {', '.join(missing)}, not installed for "
              f"{sys.executable}, which runs it (libmcp installs nothing): "
              f"{sys.executable} -m pip install {' '.join(shlex.quote(m) for m in missing)}", file=sys.stderr)


def _dev(spec: str, inspector: bool) -> None:
    server = find_server(spec)
    _missing_dependencies(server)
    for line in asyncio.run(_listing(server)):
        print(line)
    path, sep, obj = spec.partition(":")
    command = ["npx", "@modelcontextprotocol/inspector", os.path.abspath(sys.executable), "-m", "libmcp", "run",
               str(Path(path).resolve()) + sep + obj]
    if not inspector:
        print("Inspect it with the MCP Inspector (Node.js): " + " ".join(command) + "  (or: libmcp dev --inspector)")
        return
    npx = shutil.which("npx")
    if npx is None:
        raise SystemExit("libmcp dev --inspector: the MCP Inspector runs with npx, which is not on PATH "
                         "(install Node.js)")
    sys.stdout.flush()
    os.execv(npx, command)


def main(argv: list[str] | None = None) -> None:
    """The command line."""
    parser = argparse.ArgumentParser(prog="libmcp", description="Serve an MCP server written with libmcp.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="serve FILE[:OBJECT] over stdio or Streamable HTTP")
    run.add_argument("spec", metavar="FILE[:OBJECT]")
    run.add_argument("--http", metavar="[HOST:]PORT", type=_address,
                     help="serve Streamable HTTP on this address instead of stdio")
    dev = commands.add_parser("dev", help="list what FILE[:OBJECT] serves; --inspector opens the MCP Inspector on it")
    dev.add_argument("spec", metavar="FILE[:OBJECT]")
    dev.add_argument("--inspector", action="store_true",
                     help="start the MCP Inspector (npx @modelcontextprotocol/inspector) on the server")
    inst = commands.add_parser("install", help="add FILE[:OBJECT] to an MCP client's configuration",
                               description="Writes the entry that starts FILE[:OBJECT] over stdio with this "
                                           "Python (" + sys.executable + ") into the client's configuration: "
                                           + "; ".join(f"{k}: {c.where}" for k, c in CLIENTS.items()) + ".")
    inst.add_argument("client", choices=sorted(CLIENTS))
    inst.add_argument("spec", metavar="FILE[:OBJECT]")
    inst.add_argument("--name", "-n", help="the entry's name (default: the server's name)")
    inst.add_argument("--env-var", "-v", dest="env", metavar="KEY=VALUE", action="append", type=_env_pair,
                      default=[], help="an environment variable for the server (repeatable)")
    inst.add_argument("--env-file", "-f", help="a file of KEY=VALUE lines for the server's environment")
    inst.add_argument("--config", type=Path, help="the configuration file to write instead of the client's own")
    inst.add_argument("--with", dest="with_", metavar="PACKAGE", action="append",
                      help="refused: the entry runs this Python, so install packages into its environment")
    inst.add_argument("--with-editable", metavar="DIR", help="refused, as --with")
    args = parser.parse_args(argv)
    if args.command == "install":
        if args.with_ or args.with_editable:
            raise SystemExit("libmcp install: --with/--with-editable are the SDK's uv options; libmcp's entry runs "
                             f"{sys.executable}, so install the packages into its environment instead")
        env = _env_file(args.env_file) if args.env_file else {}
        env.update(dict(args.env))
        server = find_server(args.spec)
        _missing_dependencies(server)
        name = args.name or server.name
        path, replaced = install(args.client, args.spec, name, env, args.config)
        print(f"{'updated' if replaced else 'added'} {name!r} in {path}")
        return
    # The command's own output: the server's log lines ("listening on URL") on stderr.
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("libmcp.server").setLevel(logging.INFO)
    if args.command == "dev":
        _dev(args.spec, args.inspector)
        return
    _serve(find_server(args.spec), args.http)


if __name__ == "__main__":
    main()
