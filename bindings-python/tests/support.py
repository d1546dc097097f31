"""Helpers of the tests: the demo server's command line, a loop runner, an HTTP server process."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Coroutine, TypeVar

HERE = Path(__file__).resolve().parent
DEMO = str(HERE / "servers" / "demo.py")
ROOT = HERE.parent.parent
INTEROP = ROOT / "tests" / "interop"

T = TypeVar("T")

MODERN = "2026-07-28"
LEGACY = "2025-11-25"


def run(coro: Coroutine[Any, Any, T], timeout: float = 30) -> T:
    """Runs ``coro`` on a fresh event loop, bounded by ``timeout``."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


def demo_client(**options: Any) -> Any:
    from libmcp import Client

    return Client.stdio(sys.executable, [DEMO], **options)


class HttpProcess:
    """A server serving Streamable HTTP in its own process: the demo server, or ``command`` (a
    program that prints ``listening on URL`` on stderr)."""

    def __init__(self, script: str = DEMO, command: list[str] | None = None) -> None:
        self.proc = subprocess.Popen(
            command or [sys.executable, script, "http"], stderr=subprocess.PIPE, text=True
        )
        assert self.proc.stderr is not None
        deadline = time.monotonic() + 30
        self.url = ""
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            m = re.search(r"listening on (http://\S+)", line)
            if m:
                self.url = m.group(1)
                break
        if not self.url:
            self.proc.kill()
            raise RuntimeError("the HTTP server did not start")

    def stop(self) -> int:
        self.proc.send_signal(2)  # SIGINT: Ctrl-C
        try:
            return self.proc.wait(10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@asynccontextmanager
async def serving(server: Any, **options: Any) -> AsyncIterator[str]:
    """Serves ``server`` over HTTP on the running loop (port 0) for the ``async with`` body; yields
    its endpoint URL."""
    urls: list[str] = []
    task = asyncio.create_task(server.serve_async("http", port=0, ready=urls.append, **options))
    while not urls:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    try:
        yield urls[0]
    finally:
        task.cancel()
