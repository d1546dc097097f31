"""The Python everything-server (examples/python/everything_server.py) served the way `mcp-soak`
serves its own, so that `mcp-soak --server` can soak the Python package:

    python everything_python.py --serve-http    # Streamable HTTP and HTTP+SSE on a free loopback
                                                # port; prints HOST:PORT on stdout once listening
    python everything_python.py --serve-stdio   # stdio

Needs the libmcp package installed in the interpreter that runs it.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "python"))
# Imported by name: the module is found through the path above, not as a package of this tree.
server = importlib.import_module("everything_server").server


def main() -> None:
    mode = sys.argv[1:]
    if mode == ["--serve-stdio"]:
        server.run()
        return
    if mode != ["--serve-http"]:
        sys.exit(__doc__)

    def ready(url: str) -> None:
        # "http://127.0.0.1:PORT/mcp" -> "127.0.0.1:PORT", as `mcp-soak --serve-http` prints it.
        print(url.split("//", 1)[1].split("/", 1)[0], flush=True)

    try:
        asyncio.run(server.serve_async("http", "127.0.0.1", 0, ready=ready, http_sse=True))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
