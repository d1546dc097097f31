#!/usr/bin/env python3
"""A round-robin HTTP/1.1 proxy for the multi-instance tests (scripts/test.d/60-redis.sh).

Usage: round_robin_proxy.py BACKEND_PORT [BACKEND_PORT...]

Listens on a free loopback port and prints "listening on http://127.0.0.1:PORT/mcp". Every request
goes to the next backend in turn: the proxy reads the request head and its Content-Length body,
sends them with "Connection: close" to the backend, and pipes the response back as it comes (SSE
streams included) until either side closes; the client then opens a new connection for its next
request, so consecutive requests of one client land on different instances.
"""

import asyncio
import collections
import itertools
import signal
import sys

COUNTS = collections.Counter()

MAX_HEAD = 64 * 1024


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def handle(client_r, client_w, backends):
    try:
        head = await client_r.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        client_w.close()
        return
    lines = head.decode("latin-1").split("\r\n")
    kept = [l for l in lines[1:] if l and not l.lower().startswith(("connection:", "keep-alive:"))]
    length = 0
    for l in kept:
        name, _, value = l.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    body = await client_r.readexactly(length) if length else b""
    port = next(backends)
    COUNTS[port] += 1
    try:
        back_r, back_w = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        client_w.write(b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        client_w.close()
        return
    back_w.write(("\r\n".join([lines[0], *kept, "Connection: close", "", ""])).encode("latin-1") + body)
    await back_w.drain()
    up = asyncio.ensure_future(pipe(client_r, back_w))
    await pipe(back_r, client_w)
    up.cancel()


def report_and_exit(server):
    """On SIGTERM: how many requests each backend got, then exit."""
    per = ", ".join(f"{port}: {n}" for port, n in sorted(COUNTS.items()))
    print(f"requests per backend: {per}", file=sys.stderr, flush=True)
    server.close()
    sys.exit(0)


async def main():
    backends = itertools.cycle([int(p) for p in sys.argv[1:]])
    server = await asyncio.start_server(
        lambda r, w: handle(r, w, backends), "127.0.0.1", 0, limit=MAX_HEAD
    )
    port = server.sockets[0].getsockname()[1]
    print(f"listening on http://127.0.0.1:{port}/mcp", file=sys.stderr, flush=True)
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: report_and_exit(server))
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    asyncio.run(main())
