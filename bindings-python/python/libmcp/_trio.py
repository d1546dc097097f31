"""Running on trio: the few event loop operations the package uses (``call_soon_threadsafe``,
``create_future``, ``create_task``, ``add_reader``, ...) over a running trio run, so that the
engine's answers, ``async def`` handlers and client callbacks reach a trio program as they reach an
asyncio one (``trio.run(server.serve_async)``, ``anyio.run(main, backend="trio")``).

Imported only when trio is running (:func:`libmcp._bridge.running_loop`). Tasks started here are
trio system tasks, each in its own cancel scope: they outlive no run, and ``cancel()`` cancels
that scope.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

import trio

__all__ = ["TrioFuture", "TrioLoop", "TrioTask", "loop_of_run"]

_LOOP: trio.lowlevel.RunVar[TrioLoop] = trio.lowlevel.RunVar("libmcp_loop")


def loop_of_run() -> TrioLoop:
    """The loop object of the running trio run (one per run)."""
    try:
        return _LOOP.get()
    except LookupError:
        loop = TrioLoop(trio.lowlevel.current_trio_token())
        _LOOP.set(loop)
        return loop


class TrioFuture:
    """A result to come, awaited by one trio task (``await future``); set on the run's thread.
    The subset of ``asyncio.Future`` the package uses."""

    __slots__ = ("_event", "_value", "_error", "_cancelled", "_callbacks")

    def __init__(self) -> None:
        self._event = trio.Event()
        self._value: Any = None
        self._error: BaseException | None = None
        self._cancelled = False
        self._callbacks: list[Callable[[TrioFuture], Any]] = []

    def done(self) -> bool:
        return self._event.is_set()

    def cancelled(self) -> bool:
        return self._cancelled

    def _finish(self) -> None:
        self._event.set()
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(self)

    def set_result(self, value: Any) -> None:
        if self.done():
            raise asyncio.InvalidStateError("the future is done already")
        self._value = value
        self._finish()

    def set_exception(self, error: BaseException) -> None:
        if self.done():
            raise asyncio.InvalidStateError("the future is done already")
        self._error = error
        self._finish()

    def cancel(self) -> bool:
        if self.done():
            return False
        self._cancelled = True
        self._finish()
        return True

    def add_done_callback(self, callback: Callable[[TrioFuture], Any]) -> None:
        if self.done():
            callback(self)
        else:
            self._callbacks.append(callback)

    def result(self) -> Any:
        if not self.done():
            raise asyncio.InvalidStateError("the result is not set yet")
        if self._cancelled:
            raise asyncio.CancelledError()
        if self._error is not None:
            raise self._error
        return self._value

    async def _wait(self) -> Any:
        await self._event.wait()
        return self.result()

    def __await__(self) -> Any:
        return self._wait().__await__()


class TrioTask:
    """A coroutine run as a trio system task in a cancel scope of its own; ``cancel()`` cancels
    it, ``add_done_callback`` runs once it has ended. Its failure is logged by the coroutines the
    package starts (they catch what they do not answer with)."""

    __slots__ = ("_scope", "_done", "_callbacks")

    def __init__(self, coro: Coroutine[Any, Any, Any]) -> None:
        self._scope = trio.CancelScope()
        self._done = False
        self._callbacks: list[Callable[[TrioTask], Any]] = []
        trio.lowlevel.spawn_system_task(self._run, coro, name=getattr(coro, "__qualname__", None))

    async def _run(self, coro: Coroutine[Any, Any, Any]) -> None:
        try:
            with self._scope:
                await coro
        finally:
            coro.close()  # a coroutine cancelled before it started was never awaited
            self._done = True
            callbacks, self._callbacks = self._callbacks, []
            for callback in callbacks:
                callback(self)

    def cancel(self) -> bool:
        self._scope.cancel()
        return not self._done

    def done(self) -> bool:
        return self._done

    def add_done_callback(self, callback: Callable[[TrioTask], Any]) -> None:
        if self._done:
            callback(self)
        else:
            self._callbacks.append(callback)


class TrioLoop:
    """The event loop operations the package uses, on one trio run. ``call_soon_threadsafe``
    may be called from any thread; the others on the run's thread."""

    def __init__(self, token: trio.lowlevel.TrioToken) -> None:
        self._token = token
        self._closed = False
        self._readers: dict[int, trio.CancelScope] = {}

    def call_soon_threadsafe(self, callback: Callable[..., Any], *args: Any) -> None:
        """Runs ``callback(*args)`` on the run's thread soon; a RuntimeError once the run has
        ended (as asyncio's closed loop raises)."""
        try:
            self._token.run_sync_soon(callback, *args)
        except trio.RunFinishedError:
            self._closed = True
            raise RuntimeError("the trio run has finished") from None

    def is_closed(self) -> bool:
        return self._closed

    def create_future(self) -> TrioFuture:
        return TrioFuture()

    def create_task(self, coro: Coroutine[Any, Any, Any]) -> TrioTask:
        return TrioTask(coro)

    def add_reader(self, fd: int, callback: Callable[[], Any]) -> None:
        """Calls ``callback()`` on the run's thread whenever ``fd`` is readable, until
        :meth:`remove_reader` (or the run's end)."""
        self.remove_reader(fd)
        scope = trio.CancelScope()
        self._readers[fd] = scope

        async def watch() -> None:
            with scope:
                while True:
                    await trio.lowlevel.wait_readable(fd)
                    callback()

        trio.lowlevel.spawn_system_task(watch, name=f"libmcp reader {fd}")

    def remove_reader(self, fd: int) -> bool:
        scope = self._readers.pop(fd, None)
        if scope is None:
            return False
        scope.cancel()
        return True

    def run_coroutine_threadsafe(self, coro: Coroutine[Any, Any, Any]) -> Any:
        """Starts ``coro`` on the run from any thread: a ``concurrent.futures.Future`` of its
        outcome, whose ``cancel()`` cancels the task (as ``asyncio.run_coroutine_threadsafe``)."""
        import concurrent.futures

        outcome: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def start() -> None:
            # Left pending while it runs (as asyncio leaves its own), so that cancel() works.
            if outcome.cancelled():
                coro.close()
                return

            async def main() -> None:
                try:
                    value = await coro
                except BaseException as e:  # noqa: BLE001 - handed to the future's reader
                    if not outcome.done():
                        outcome.set_exception(e)
                    if not isinstance(e, Exception):
                        raise
                else:
                    if not outcome.done():
                        outcome.set_result(value)

            task = TrioTask(main())

            def cancelled(f: concurrent.futures.Future[Any]) -> None:
                if f.cancelled():
                    with contextlib.suppress(RuntimeError):  # the run has ended
                        self.call_soon_threadsafe(task.cancel)

            outcome.add_done_callback(cancelled)

        self.call_soon_threadsafe(start)
        return outcome
