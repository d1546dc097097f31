"""Awaiting engine operations: a native call takes a ``done(ok, value)`` callable, which the engine
calls from one of its threads; it is turned into the result of an ``asyncio`` future on the caller's
loop. Cancelling the awaiting task aborts the engine operation."""

from __future__ import annotations

import asyncio
from typing import Any, Callable


def settle(fut: asyncio.Future[Any], ok: bool, value: Any) -> None:
    """Completes ``fut`` with the engine's outcome (unless it was cancelled meanwhile)."""
    if fut.done():
        return
    if ok:
        fut.set_result(value)
    else:
        fut.set_exception(value)


async def call_native(method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Calls ``method(done, *args, **kwargs)`` and awaits what the engine reports."""
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[Any] = loop.create_future()

    def done(ok: bool, value: Any) -> None:
        loop.call_soon_threadsafe(settle, fut, ok, value)

    task = method(done, *args, **kwargs)
    try:
        return await fut
    except asyncio.CancelledError:
        task.abort()
        raise
