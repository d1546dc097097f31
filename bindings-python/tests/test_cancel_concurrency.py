"""Cancellation (a task cancelled in the client cancels the request in the server: an asyncio
cancellation for async handlers, the flag for sync ones) and many concurrent calls from asyncio and
from threads."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from support import demo_client, run


def _wait_for(path: Path, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists():
            return True
        time.sleep(0.02)
    return False


@pytest.mark.parametrize("tool", ["wait_for_cancel", "sync_wait_for_cancel"])
def test_cancelling_the_call_cancels_the_handler(version: str, tool: str, tmp_path: Path) -> None:
    marker = tmp_path / "cancelled"

    async def main() -> str:
        async with demo_client(protocol_version=version) as c:
            call = asyncio.create_task(c.call_tool(tool, {"marker": str(marker)}))
            await asyncio.sleep(0.5)
            call.cancel()
            with pytest.raises(asyncio.CancelledError):
                await call
            assert await asyncio.to_thread(_wait_for, marker)
            # The connection carries on.
            return (await c.call_tool("echo", {"text": "after"})).content[0].text

    assert run(main()) == "after"
    assert marker.read_text() == "cancelled"


def test_many_concurrent_calls_from_asyncio(version: str) -> None:
    async def main() -> tuple[list[Any], float, set[str]]:
        async with demo_client(protocol_version=version) as c:
            texts = await asyncio.gather(*(c.call_tool("async_echo", {"text": str(i)}) for i in range(200)))
            start = time.monotonic()
            # Sync handlers run on engine threads: eight half-second sleeps overlap.
            sleeps = await asyncio.gather(*(c.call_tool("sleep_sync", {"seconds": 0.5}) for _ in range(8)))
            elapsed = time.monotonic() - start
            return [t.content[0].text for t in texts], elapsed, {s.content[0].text for s in sleeps}

    texts, elapsed, threads = run(main())
    assert texts == [str(i) for i in range(200)]
    assert elapsed < 2.0, elapsed
    assert len(threads) > 1


def test_clients_on_many_threads() -> None:
    results: dict[int, list[int]] = {}
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        async def main() -> list[int]:
            async with demo_client() as c:
                out = await asyncio.gather(*(c.call_tool("add", {"a": n, "b": i}) for i in range(20)))
                return [r.structured_content["result"] for r in out]

        try:
            results[n] = run(main())
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert results == {n: [n + i for i in range(20)] for n in range(4)}


def test_blocked_sync_handlers_do_not_hold_up_the_others(version: str) -> None:
    # Each call blocks until all 24 run at once: the handler workers grow while calls are stuck.
    async def main() -> list[str]:
        async with demo_client(protocol_version=version) as c:
            out = await asyncio.gather(*(c.call_tool("rendezvous", {"parties": 24}) for _ in range(24)))
            assert not any(r.is_error for r in out), [r.content[0].text for r in out]
            return [r.content[0].text for r in out]

    assert run(main()) == ["met"] * 24


def test_async_handlers_run_together_on_the_serving_loop(version: str) -> None:
    async def main() -> set[str]:
        async with demo_client(protocol_version=version) as c:
            out = await asyncio.gather(*(c.call_tool("async_rendezvous", {"parties": 50}) for _ in range(50)))
            assert not any(r.is_error for r in out), [r.content[0].text for r in out]
            return {r.content[0].text for r in out}

    # The demo server serves with server.run() on its main thread.
    assert run(main()) == {"MainThread"}
