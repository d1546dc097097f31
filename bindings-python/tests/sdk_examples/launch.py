"""Serves an example server of the official Python SDK over stdio: ``launch.py FILE`` on the SDK,
``launch.py --libmcp FILE`` on libmcp with only its import of the SDK's server class changed (the
names libmcp exports come from ``libmcp``, any other name on that line still from the SDK). The
example's module-level server object (``mcp``) is run; its ``__main__`` block is not."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

SERVER_MODULES = ("mcp.server.fastmcp", "mcp.server.mcpserver")
IMPORT = re.compile(r"^from (mcp\.server\.(?:fastmcp|mcpserver)) import (.+)$", re.MULTILINE)


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
    if on_libmcp:
        source = ported(source)
    module = types.ModuleType("example")
    module.__file__ = str(path)
    sys.modules["example"] = module
    sys.path.insert(0, str(path.parent))
    exec(compile(source, str(path), "exec"), module.__dict__)
    module.__dict__["mcp"].run()


if __name__ == "__main__":
    main()
