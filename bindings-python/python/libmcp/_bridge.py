"""Awaiting engine operations: a native call takes a ``done(ok, value)`` callable, which the engine
calls from one of its threads; it is turned into the result of a future on the caller's loop.
Cancelling the awaiting task aborts the engine operation.

The loop is asyncio's or, under trio, a :class:`libmcp._trio.TrioLoop` with the same operations
(:func:`running_loop`); the helpers here that differ between the two (shielding, waiting forever,
starting a coroutine from another thread) pick the right one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import sys
from collections.abc import Awaitable, Coroutine
from typing import Any, Callable, Protocol


class Loop(Protocol):
    """The event loop operations the package uses: an ``asyncio`` loop's, or a
    :class:`libmcp._trio.TrioLoop`'s."""

    def call_soon_threadsafe(self, callback: Callable[..., Any], *args: Any) -> Any: ...
    def is_closed(self) -> bool: ...
    def create_future(self) -> Any: ...
    def create_task(self, coro: Coroutine[Any, Any, Any]) -> Any: ...
    def add_reader(self, fd: int, callback: Callable[[], Any]) -> Any: ...
    def remove_reader(self, fd: int) -> bool: ...


def running_loop() -> Loop:
    """The running event loop: asyncio's, or the trio run's (under trio, or anyio's trio
    backend). RuntimeError when neither runs on this thread."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    loop = _trio_loop()
    if loop is None:
        raise RuntimeError("no running event loop: libmcp runs under asyncio or trio")
    return loop


def running_loop_or_none() -> Loop | None:
    """:func:`running_loop`, or None when no loop runs on this thread."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return _trio_loop()


def _trio_loop() -> Loop | None:
    trio = sys.modules.get("trio")
    if trio is None:
        return None
    try:
        trio.lowlevel.current_trio_token()
    except RuntimeError:
        return None
    from ._trio import loop_of_run

    return loop_of_run()


def is_asyncio(loop: Loop) -> bool:
    return isinstance(loop, asyncio.AbstractEventLoop)


def submit(loop: Loop, coro: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
    """Starts ``coro`` on ``loop`` from another thread (``asyncio.run_coroutine_threadsafe``):
    the future of its outcome, whose ``cancel()`` cancels it."""
    if isinstance(loop, asyncio.AbstractEventLoop):
        return asyncio.run_coroutine_threadsafe(coro, loop)
    outcome: concurrent.futures.Future[Any] = loop.run_coroutine_threadsafe(coro)  # type: ignore[attr-defined]
    return outcome


def is_cancellation(e: BaseException) -> bool:
    """Whether ``e`` is the awaiting task being cancelled (asyncio's or trio's)."""
    if isinstance(e, asyncio.CancelledError):
        return True
    trio = sys.modules.get("trio")
    return trio is not None and isinstance(e, trio.Cancelled)


async def sleep_forever() -> None:
    """Waits until cancelled."""
    loop = running_loop()
    if is_asyncio(loop):
        await asyncio.Event().wait()
    else:
        import trio

        await trio.sleep_forever()


async def shielded(aw: Awaitable[Any]) -> Any:
    """Awaits ``aw`` even while the awaiting task is being cancelled (clean-up in a ``finally``:
    under trio every await of a cancelled task raises at once; an asyncio task is cancelled once)."""
    if is_asyncio(running_loop()):
        return await aw
    import trio

    with trio.CancelScope(shield=True):
        return await aw


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
    loop = running_loop()
    fut: asyncio.Future[Any] = loop.create_future()

    def done(ok: bool, value: Any) -> None:
        loop.call_soon_threadsafe(settle, fut, ok, value)

    return fut, method(done, *args, **kwargs)


async def call_native(method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Calls ``method(done, *args, **kwargs)`` and awaits what the engine reports."""
    fut, task = start_native(method, *args, **kwargs)
    try:
        return await fut
    except BaseException as e:
        if is_cancellation(e):
            task.abort()
        raise


def run_then(
    loop: Loop | None,
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

    submit(loop, main()).add_done_callback(finished)
