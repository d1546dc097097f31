"""What the Python echo servers share with the Rust ones (benches/src/serve.rs): the command line
(no arguments: stdio; ``--http ADDR``: Streamable HTTP), the ``listening on http://ADDR/mcp`` line
the driver reads from stdout, and stopping when the driver closes stdin."""

from __future__ import annotations

import asyncio
import sys
import threading


def http_address(argv: list[str]) -> tuple[str, int] | None:
    """``(host, port)`` for ``--http HOST:PORT``, None for stdio; exits 2 on anything else."""
    args = [a for a in argv[1:] if a not in ("--async", "--no-pydantic")]
    if not args:
        return None
    if len(args) == 2 and args[0] == "--http" and ":" in args[1]:
        host, _, port = args[1].rpartition(":")
        if port.isdigit():
            return host, int(port)
    sys.exit(f"usage: {argv[0]} [--async] [--no-pydantic] [--http HOST:PORT]   (stdio without --http)")


def announce(host: str, port: int) -> None:
    """The line the driver waits for."""
    print(f"listening on http://{host}:{port}/mcp", flush=True)


def stdin_closed() -> asyncio.Future[None]:
    """Resolves on the running loop when stdin reaches end of file."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def read() -> None:
        while sys.stdin.buffer.read(64):
            pass
        loop.call_soon_threadsafe(lambda: done.done() or done.set_result(None))

    threading.Thread(target=read, daemon=True).start()
    return done
