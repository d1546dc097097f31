"""Awaiting engine operations: a native call takes a ``done(ok, value)`` callable, which the engine
calls from one of its threads; it is turned into the result of an ``asyncio`` future on the caller's
loop. Cancelling the awaiting task aborts the engine operation."""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
from typing import Any, Callable


def settle(fut: asyncio.Future[Any], ok: bool, value: Any) -> None:
    """Completes ``fut`` with the engine's outcome (unless it was cancelled meanwhile)."""
    if fut.done():
        return
    if ok:
        fut.set_result(value)
    else:
        fut.set_exception(value)


def start_native(method: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[asyncio.Future[Any], Any]:
    """Calls ``method(done, *args, **kwargs)``: the future of what the engine reports, and the
    engine operation (``abort()`` drops it)."""
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[Any] = loop.create_future()

    def done(ok: bool, value: Any) -> None:
        loop.call_soon_threadsafe(settle, fut, ok, value)

    return fut, method(done, *args, **kwargs)


async def call_native(method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Calls ``method(done, *args, **kwargs)`` and awaits what the engine reports."""
    fut, task = start_native(method, *args, **kwargs)
    try:
        return await fut
    except asyncio.CancelledError:
        task.abort()
        raise


def run_then(
    loop: asyncio.AbstractEventLoop | None,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    on_result: Callable[[Any], None],
    on_error: Callable[[BaseException], None],
) -> None:
    """Calls ``fn(*args)`` on this thread; an awaitable result is awaited on ``loop`` (the event loop
    the server or client runs on). Then ``on_result(value)`` or ``on_error(exception)``, once."""
    try:
        result = fn(*args)
    except BaseException as e:  # noqa: BLE001 - every failure is reported
        on_error(e)
        return
    if not inspect.isawaitable(result):
        on_result(result)
        return
    if loop is None or loop.is_closed():
        if inspect.iscoroutine(result):
            result.close()
        on_error(RuntimeError(f"{getattr(fn, '__name__', fn)!r} is async but no event loop is running"))
        return
    awaitable = result

    async def main() -> Any:
        return await awaitable

    def finished(f: concurrent.futures.Future[Any]) -> None:
        try:
            value = f.result()
        except BaseException as e:  # noqa: BLE001
            on_error(e)
            return
        on_result(value)

    asyncio.run_coroutine_threadsafe(main(), loop).add_done_callback(finished)
