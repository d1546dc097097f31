"""Serves an example server of the official Python SDK over stdio: ``launch.py FILE`` on the SDK,
``launch.py --libmcp FILE`` on libmcp with only its import of the SDK's server class changed (the
names libmcp exports come from ``libmcp``, any other name on that line still from the SDK). The
example's module-level server object (``mcp``) is run; its ``__main__`` block is not. A low-level
example (``from mcp.server.lowlevel import ...``, which becomes ``from libmcp.lowlevel import
...``) runs as its ``__main__`` block does, or without one as its ``main`` command does without
arguments (on the SDK's stdio transport)."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

SERVER_MODULES = ("mcp.server.fastmcp", "mcp.server.mcpserver")
IMPORT = re.compile(r"^from (mcp\.server\.(?:fastmcp|mcpserver)) import (.+)$", re.MULTILINE)
LOWLEVEL = re.compile(r"^from mcp\.server\.lowlevel import (.+)$", re.MULTILINE)
MAIN_BLOCK = re.compile(r"^if __name__ == .__main__.:", re.MULTILINE)


def ported(source: str) -> str:
    """``source`` with its import line of the SDK's server class importing from libmcp."""
    import libmcp

    def rewrite(m: re.Match[str]) -> str:
        names = [n.strip() for n in m.group(2).split(",")]
        ours = [n for n in names if n in libmcp.__all__]
        theirs = [n for n in names if n not in libmcp.__all__]
        line = f"from libmcp import {', '.join(ours)}"
        if theirs:
            line += f"; from {m.group(1)} import {', '.join(theirs)}"
        return line

    out, count = IMPORT.subn(rewrite, source)
    if count != 1:
        raise SystemExit(f"expected one import of {' or '.join(SERVER_MODULES)}, found {count}")
    return out


def main() -> None:
    args = sys.argv[1:]
    on_libmcp = args[:1] == ["--libmcp"]
    path = Path(args[-1]).resolve()
    source = path.read_text()
    lowlevel = LOWLEVEL.search(source) is not None
    if on_libmcp and lowlevel:
        source, count = LOWLEVEL.subn(r"from libmcp.lowlevel import \1", source)
        if count != 1:
            raise SystemExit(f"expected one import of mcp.server.lowlevel, found {count}")
    elif on_libmcp:
        source = ported(source)
    module = types.ModuleType("__main__" if lowlevel else "example")
    module.__file__ = str(path)
    sys.modules["example"] = module
    sys.path.insert(0, str(path.parent))
    exec(compile(source, str(path), "exec"), module.__dict__)
    if not lowlevel:
        module.__dict__["mcp"].run()
    elif not MAIN_BLOCK.search(source):  # a server of examples/servers: its click command, on stdio
        sys.argv = [str(path)]
        module.__dict__["main"]()


if __name__ == "__main__":
    main()
