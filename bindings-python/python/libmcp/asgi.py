"""The server's MCP endpoint as an ASGI 3 application, to mount in the application's own
Starlette/FastAPI app (``app.mount("/mcp", server.asgi_app())``) and serve with uvicorn, hypercorn
or any ASGI server. Conversion and delegation only: each HTTP request goes to the engine's endpoint
as it came (method, target, headers, body) and the engine's answer goes back as it is produced (an
SSE response event by event); the protocol (both eras, legacy sessions and their GET streams with
``Last-Event-ID`` resumption, Host/Origin checks, the body limit's answer) is the engine's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from typing import Any

from . import _native

__all__ = ["AsgiApp"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


async def _disconnected(receive: Receive) -> None:
    """Returns once the client has gone (``http.disconnect``); body messages left unread (a body
    over the limit) are skipped."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def _read_body(receive: Receive, headers: list[tuple[bytes, bytes]], limit: int) -> bytes | None:
    """The request body, or None when the client went away first. Reading stops once the body is
    over ``limit``: the engine then sees more than its limit and answers 413 itself, as it does
    from a ``Content-Length`` over the limit (then nothing is read)."""
    for name, value in headers:
        if name.lower() == b"content-length":
            try:
                if int(value) > limit:
                    return b""
            except ValueError:
                pass  # the engine answers a malformed length
            break
    message = await receive()
    if message["type"] == "http.disconnect":
        return None
    first: bytes = message.get("body", b"")
    if not message.get("more_body", False):
        return first
    chunks, size = [first], len(first)
    while size <= limit:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


_NOT_ASYNCIO = ("the MCP endpoint's ASGI app runs on asyncio (uvicorn, hypercorn's asyncio or uvloop "
                "workers), not on trio: serve it with an asyncio worker, or run the server itself under "
                "trio (serve_async)")

#: How long an engine operation runs before the endpoint starts watching for the client going away.
#: Most answers come sooner, and a task per request that waits for ``http.disconnect`` was a large
#: share of a mounted call's cost; a client that leaves a quicker call is not noticed (its answer is
#: dropped by the ASGI server).
WATCH_AFTER = 0.05


class _Watch:
    """Watches one request for the client going away while an engine operation runs; started only
    once an operation has waited ``WATCH_AFTER`` (then it watches until the request ends). When the
    client goes, the operation waited for is dropped and reads as None."""

    __slots__ = ("_loop", "_queue", "_receive", "_task", "_timer", "_waiting", "gone")

    def __init__(self, loop: asyncio.AbstractEventLoop, queue: _native.LoopQueue | None, receive: Receive) -> None:
        self._loop = loop
        self._queue = queue
        self._receive = receive
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._waiting: tuple[asyncio.Future[Any], Any] | None = None
        self.gone = False

    def _start(self) -> None:
        self._timer = None
        if self._task is None:
            self._task = self._loop.create_task(self._watch())

    async def _watch(self) -> None:
        await _disconnected(self._receive)
        self.gone = True
        if self._waiting is not None:
            answer, operation = self._waiting
            operation.abort()
            if not answer.done():
                answer.set_result(None)

    async def run(self, method: Callable[..., Any], *args: Any) -> Any:
        """Runs the engine operation ``method(queue, answer, *args)``, which completes the future
        ``answer`` through the app's loop queue: its value, or None once the client went (the
        operation is then dropped)."""
        if self.gone:
            return None
        answer: asyncio.Future[Any] = self._loop.create_future()
        operation = method(self._queue, answer, *args)
        self._waiting = (answer, operation)
        if self._task is None and self._timer is None:
            self._timer = self._loop.call_later(WATCH_AFTER, self._start)
        try:
            return await answer
        except asyncio.CancelledError:
            operation.abort()
            raise
        finally:
            self._waiting = None

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._task is not None:
            self._task.cancel()


def _detach_queue(loop: asyncio.AbstractEventLoop, queue: _native.LoopQueue) -> None:
    """Stops draining ``queue`` on ``loop``; answers still to come complete through
    ``call_soon_threadsafe``."""
    with contextlib.suppress(RuntimeError):  # a closed loop (uvloop raises)
        loop.remove_reader(queue.fileno())
    queue.close()


def _target(scope: Scope) -> str:
    """The request target (path and query) as the client sent it."""
    raw = scope.get("raw_path")
    path = raw.decode("latin-1") if raw else scope["path"]
    query: bytes = scope.get("query_string", b"")
    return f"{path}?{query.decode('latin-1')}" if query else path


class AsgiApp:
    """The MCP endpoint of one server as an ASGI 3 application (made by
    :meth:`Server.asgi_app`). Every path routed to it is the endpoint (mounted at ``/mcp``, it
    answers at ``/mcp``; with ``http_sse=True`` the 2024-11-05 paths end in ``/sse`` and
    ``/messages``).

    Lifespan: the app needs none to serve (it attaches to the server's event loop on its first
    request). Its lifespan (the ASGI protocol when it is the top-level app, or :meth:`lifespan` to
    chain into the host app's, since Starlette does not run a mounted app's lifespan) attaches it
    at startup and, at shutdown, ends every legacy session and open SSE stream, so that the ASGI
    server's shutdown does not wait for clients holding streams open."""

    def __init__(self, endpoint: _native.Endpoint,
                 serve_on: Callable[[asyncio.AbstractEventLoop], AbstractContextManager[None]],
                 lifespan: Callable[[], AbstractAsyncContextManager[None]] | None = None) -> None:
        """``serve_on(loop)``: the server's context in which its ``async def`` handlers run on
        ``loop``; ``lifespan()``: the server's own lifespan, entered with the app's."""
        self._server_lifespan = lifespan
        self._lifespan_exit: contextlib.AsyncExitStack | None = None
        self._endpoint = endpoint
        self._limit = endpoint.max_body_bytes
        self._serve_on = serve_on
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: _native.LoopQueue | None = None
        self._serving: contextlib.ExitStack | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":
            await self._http(scope, receive, send)
        elif kind == "lifespan":
            await self._lifespan(receive, send)
        elif kind == "websocket":
            # Not an MCP transport: refused before the handshake (403).
            await send({"type": "websocket.close", "code": 1008})
        else:
            raise ValueError(f"the MCP endpoint serves ASGI 'http' and 'lifespan' scopes, not {kind!r}")

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Any = None) -> AsyncIterator[None]:
        """The endpoint's lifespan as an async context manager, to pass as (or nest in) the host
        app's ``lifespan=``: ``FastAPI(lifespan=mcp.lifespan)``. On exit, ends every session and
        open stream (see the class)."""
        self._attach(asyncio.get_running_loop())
        try:
            async with contextlib.AsyncExitStack() as stack:
                if self._server_lifespan is not None:
                    await stack.enter_async_context(self._server_lifespan())
                yield
        finally:
            self.close()

    def close(self) -> None:
        """Ends every legacy session, open SSE stream and subscription of the endpoint now (new
        requests are still served)."""
        self._endpoint.close()
        if self._serving is not None:
            self._serving.close()
            self._serving = None
        self._loop = None
        self._queue = None

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Runs the server's ``async def`` handlers on ``loop`` (the ASGI server's), and the
        engine's answers complete their futures there: queued and drained by the loop in
        batches (``LoopQueue``), so that no engine thread waits for the GIL to deliver one. A
        loop without ``add_reader`` gets them through ``call_soon_threadsafe``."""
        if self._loop is loop:
            return
        if self._serving is not None:
            self._serving.close()
        self._serving = contextlib.ExitStack()
        self._serving.enter_context(self._serve_on(loop))
        queue = _native.LoopQueue()
        try:
            loop.add_reader(queue.fileno(), queue.drain)
        except NotImplementedError:
            queue.close()
            self._queue = None
        else:
            self._serving.callback(_detach_queue, loop, queue)
            self._queue = queue
        self._loop = loop

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError(_NOT_ASYNCIO) from None
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._attach(asyncio.get_running_loop())
                if self._server_lifespan is not None:
                    self._lifespan_exit = contextlib.AsyncExitStack()
                    try:
                        await self._lifespan_exit.enter_async_context(self._server_lifespan())
                    except Exception as e:  # noqa: BLE001 - reported to the ASGI server
                        await send({"type": "lifespan.startup.failed", "message": f"lifespan: {e}"})
                        return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if self._lifespan_exit is not None:
                    exit_stack, self._lifespan_exit = self._lifespan_exit, None
                    await exit_stack.aclose()
                self.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError(_NOT_ASYNCIO) from None
        if self._loop is not loop:
            self._attach(loop)
        headers = scope["headers"]
        body = await _read_body(receive, headers, self._limit)
        if body is None:
            return
        watch = _Watch(loop, self._queue, receive)
        try:
            # Dropping the exchange when the client goes cancels a 2026-07-28 call in flight.
            answer = await watch.run(self._endpoint.exchange, scope["method"], _target(scope), headers,
                                     body, scope)
            if answer is None:
                return
            status, response_headers, whole, stream = answer
            await send({"type": "http.response.start", "status": status, "headers": response_headers})
            if stream is None:
                await send({"type": "http.response.body", "body": whole})
            else:
                await self._stream(stream, send, watch)
        finally:
            watch.close()

    async def _stream(self, stream: _native.ResponseStream, send: Send, watch: _Watch) -> None:
        """Sends each SSE event as the engine produces it, until the stream ends or the client
        goes (which ends the stream: the engine's exchange is dropped)."""
        try:
            while True:
                data = await watch.run(stream.next_chunk)
                if data is None:
                    # The stream ended, or the client went (the next chunk's wait was dropped,
                    # and the stream with it).
                    if watch.gone:
                        return
                    break
                await send({"type": "http.response.body", "body": data, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            # The ASGI server reports a write to a client that went away (uvicorn's
            # ClientDisconnected is an OSError); nobody is left to answer.
            pass
        finally:
            stream.close()
