"""``python -m libmcp`` (and the ``libmcp`` console script): ``run FILE[:OBJECT]`` serves the server
object a Python file defines, over stdio or with ``--http [HOST:]PORT`` over Streamable HTTP, as the
official SDK's ``mcp run`` does. Without ``:OBJECT`` the object is the module's ``mcp``, ``server``
or ``app`` (a libmcp server), or its only libmcp server."""

from __future__ import annotations

import argparse
import logging
import runpy
import sys
from pathlib import Path
from typing import Any

from .server import Server

__all__ = ["main"]

_NAMES = ("mcp", "server", "app")


def find_server(spec: str) -> Server:
    """The server object ``FILE[:OBJECT]`` names (the file runs as a module, not as ``__main__``)."""
    path, _, name = spec.partition(":")
    if not Path(path).is_file():
        raise SystemExit(f"libmcp run: no such file: {path}")
    sys.path.insert(0, str(Path(path).resolve().parent))
    namespace: dict[str, Any] = runpy.run_path(path, run_name="__libmcp_run__")
    if name:
        obj = namespace.get(name)
        if not isinstance(obj, Server):
            raise SystemExit(f"libmcp run: {path} has no libmcp server named {name!r}")
        return obj
    for candidate in _NAMES:
        if isinstance(namespace.get(candidate), Server):
            server: Server = namespace[candidate]
            return server
    found = [v for k, v in namespace.items() if isinstance(v, Server) and not k.startswith("_")]
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


def main(argv: list[str] | None = None) -> None:
    """The command line."""
    parser = argparse.ArgumentParser(prog="libmcp", description="Serve an MCP server written with libmcp.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="serve FILE[:OBJECT] over stdio or Streamable HTTP")
    run.add_argument("spec", metavar="FILE[:OBJECT]")
    run.add_argument("--http", metavar="[HOST:]PORT", type=_address,
                     help="serve Streamable HTTP on this address instead of stdio")
    args = parser.parse_args(argv)
    # The command's own output: the server's log lines ("listening on URL") on stderr.
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("libmcp.server").setLevel(logging.INFO)
    server = find_server(args.spec)
    if args.http is None:
        Server.run(server, "stdio")
    else:
        host, port = args.http
        Server.run(server, "http", host, port)


if __name__ == "__main__":
    main()
