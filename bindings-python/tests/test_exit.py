"""The interpreter exits cleanly with engine work in flight: the runtime is shut down from atexit
before finalization (a crash there would show as a signal exit status), and after fork the child
gets a fresh runtime."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import pytest
from support import DEMO

SCRIPT = textwrap.dedent(
    f"""
    import asyncio, sys
    from libmcp import Client

    async def main():
        c = Client.stdio(sys.executable, [{DEMO!r}])
        await c.connect()
        await asyncio.gather(*(c.call_tool("echo", {{"text": str(i)}}) for i in range(50)))
        # Leave calls in flight and the client open: exit must still be clean.
        for i in range(20):
            asyncio.ensure_future(c.call_tool("sleep_sync", {{"seconds": 5}}))
        await asyncio.sleep(0.05)

    asyncio.run(main())
    print("ok")
    """
)


@pytest.mark.timeout(300)
def test_exit_with_work_in_flight_is_clean() -> None:
    # 25 exits, five processes at a time: each mostly waits (for its interpreter and its server
    # to start), so running them side by side takes a fraction of the time one after the other.
    def once(_: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)

    with ThreadPoolExecutor(5) as pool:
        for r in pool.map(once, range(25)):
            assert r.returncode == 0, r.stderr[-2000:]
            assert r.stdout.strip() == "ok"


FORK = textwrap.dedent(
    f"""
    import asyncio, os, sys
    from libmcp import Client

    async def one():
        async with Client.stdio(sys.executable, [{DEMO!r}]) as c:
            return (await c.call_tool("add", {{"a": 1, "b": 1}})).structured_content["result"]

    assert asyncio.run(one()) == 2
    pid = os.fork()
    if pid == 0:
        code = 0 if asyncio.run(one()) == 2 else 1
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, status
    assert asyncio.run(one()) == 2
    print("ok")
    """
)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_fork_child_gets_a_fresh_engine() -> None:
    r = subprocess.run([sys.executable, "-W", "ignore", "-c", FORK], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "ok"
