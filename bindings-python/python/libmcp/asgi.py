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
from ._bridge import start_native

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


async def _unless_gone(gone: asyncio.Task[None], method: Callable[..., Any], *args: Any) -> Any:
    """Runs the engine operation ``method(done, *args)`` until it reports or the client goes
    (``gone`` ends first): its value, or None once the client went (the operation is dropped)."""
    answer, operation = start_native(method, *args)
    try:
        await asyncio.wait((answer, gone), return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not answer.done():
            operation.abort()
    return answer.result() if answer.done() else None


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

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Runs the server's ``async def`` handlers on ``loop`` (the ASGI server's)."""
        if self._loop is loop:
            return
        if self._serving is not None:
            self._serving.close()
        self._serving = contextlib.ExitStack()
        self._serving.enter_context(self._serve_on(loop))
        self._loop = loop

    async def _lifespan(self, receive: Receive, send: Send) -> None:
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
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._attach(loop)
        headers = scope["headers"]
        body = await _read_body(receive, headers, self._limit)
        if body is None:
            return
        gone = loop.create_task(_disconnected(receive))
        try:
            # Dropping the exchange when the client goes cancels a 2026-07-28 call in flight.
            answer = await _unless_gone(gone, self._endpoint.exchange, scope["method"], _target(scope),
                                        headers, body, scope)
            if answer is None:
                return
            status, response_headers, whole, stream = answer
            await send({"type": "http.response.start", "status": status, "headers": response_headers})
            if stream is None:
                await send({"type": "http.response.body", "body": whole})
            else:
                await self._stream(stream, send, gone)
        finally:
            gone.cancel()

    async def _stream(self, stream: _native.ResponseStream, send: Send, gone: asyncio.Task[None]) -> None:
        """Sends each SSE event as the engine produces it, until the stream ends or the client
        goes (which ends the stream: the engine's exchange is dropped)."""
        try:
            while True:
                data = await _unless_gone(gone, stream.next_chunk)
                if data is None:
                    # The stream ended, or the client went (the next chunk's wait was dropped,
                    # and the stream with it).
                    if gone.done():
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
