"""A logging reverse proxy for MCP over HTTP: relays every request to an upstream server and records each
JSON-RPC message in both directions, so the tests can check every message against the schema of its
protocol revision (see schema_check.py).

Usage: http_tap.py LOGFILE UPSTREAM PORT

UPSTREAM is `http://host:port` (no path); every path is relayed as is, so it serves the Streamable HTTP
endpoint and the 2024-11-05 HTTP+SSE paths alike. Responses stream through (SSE included), and a client
that goes away closes the upstream response too. Each log line is a JSON object:
`{"dir": "->" | "<-", "version": V or null, "http": "POST /mcp", "message": {...}}`, where `->` is client to
server and V is the revision the message belongs to: the request's MCP-Protocol-Version header, else the
`_meta` or `initialize` version in the message, else the last version the exchange settled on.
OAuth traffic is relayed but not logged as messages: anything under `/.well-known/` (protected resource
metadata) and a 401 or 403 that carries a `WWW-Authenticate` challenge (its body is an OAuth error).
Prints `listening on PORT` once it accepts connections.
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Any

import anyio
import httpx2
import uvicorn

HOP_HEADERS = {b"host", b"content-length", b"connection", b"transfer-encoding", b"keep-alive"}


class Tap:
    def __init__(self, log_path: str, upstream: str) -> None:
        self.log = open(log_path, "a", encoding="utf-8", buffering=1)
        self.lock = threading.Lock()
        self.upstream = upstream.rstrip("/")
        self.client = httpx2.AsyncClient(timeout=None)
        self.last_version: str | None = None

    def record(self, direction: str, version: str | None, http: str, message: Any) -> None:
        with self.lock:
            self.log.write(json.dumps({"dir": direction, "version": version, "http": http, "message": message}) + "\n")

    def messages_in(self, body: bytes) -> list[Any]:
        try:
            parsed = json.loads(body)
        except ValueError:
            return []
        return parsed if isinstance(parsed, list) else [parsed]

    def version_of(self, header: str | None, message: Any) -> str | None:
        if header:
            return header
        if isinstance(message, dict):
            params = message.get("params") or {}
            meta = params.get("_meta") or {} if isinstance(params, dict) else {}
            if isinstance(meta, dict) and meta.get("io.modelcontextprotocol/protocolVersion"):
                return meta["io.modelcontextprotocol/protocolVersion"]
            if message.get("method") == "initialize" and isinstance(params, dict):
                return params.get("protocolVersion")
            result = message.get("result")
            if isinstance(result, dict) and isinstance(result.get("protocolVersion"), str):
                # An initialize result settles the version of what follows.
                self.last_version = result["protocolVersion"]
                return self.last_version
        return self.last_version

    def server_messages(self, version: str | None, http: str, data: bytes) -> None:
        for message in self.messages_in(data):
            self.record("<-", self.version_of(version, message), http, message)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                event = await receive()
                if event["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif event["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        assert scope["type"] == "http"
        body = b""
        while True:
            event = await receive()
            body += event.get("body", b"")
            if not event.get("more_body"):
                break
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in HOP_HEADERS]
        header_version = next((v.decode() for k, v in headers if k.lower() == b"mcp-protocol-version"), None)
        if header_version:
            self.last_version = header_version
        target = scope["path"] + (("?" + scope["query_string"].decode()) if scope["query_string"] else "")
        http = f"{scope['method']} {target}"
        for message in self.messages_in(body):
            self.record("->", self.version_of(header_version, message), http, message)
        request = self.client.build_request(scope["method"], self.upstream + target, headers=headers, content=body)
        response = await self.client.send(request, stream=True)
        try:
            out_headers = [(k, v) for k, v in response.headers.raw if k.lower() not in HOP_HEADERS]
            await send({"type": "http.response.start", "status": response.status_code, "headers": out_headers})
            is_sse = response.headers.get("content-type", "").startswith("text/event-stream")
            oauth = scope["path"].startswith("/.well-known/") or (
                response.status_code in (401, 403) and "www-authenticate" in response.headers
            )
            async with anyio.create_task_group() as tg:

                async def watch_disconnect() -> None:
                    while (await receive())["type"] != "http.disconnect":
                        pass
                    tg.cancel_scope.cancel()

                tg.start_soon(watch_disconnect)
                buffer = b""
                data: list[bytes] = []
                skip = False  # the event being read is not a message (the HTTP+SSE `endpoint` event)
                async for chunk in response.aiter_raw():
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                    if not is_sse:
                        buffer += chunk
                        continue
                    buffer += chunk
                    buffer = buffer.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
                    while b"\n" in buffer:
                        line, buffer = buffer.split(b"\n", 1)
                        if line == b"":
                            if data and not skip:
                                self.server_messages(header_version, http, b"\n".join(data))
                            data, skip = [], False
                        elif line.startswith(b"data:"):
                            value = line[5:]
                            data.append(value[1:] if value.startswith(b" ") else value)
                        elif line.startswith(b"event:"):
                            skip = line[6:].strip() not in (b"", b"message")
                # JSON-RPC messages come back in POST bodies and SSE events; the JSON body of a GET or
                # DELETE answer (e.g. 404 for an ended session) describes an HTTP error, not a message.
                if not is_sse and buffer and not oauth and scope["method"] == "POST":
                    self.server_messages(header_version, http, buffer)
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                tg.cancel_scope.cancel()
        finally:
            await response.aclose()


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    log_path, upstream, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    config = uvicorn.Config(Tap(log_path, upstream), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)

    async def announce() -> None:
        while not server.started:
            await anyio.sleep(0.02)
        print(f"listening on {port}", flush=True)

    async def run() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(announce)
            await server.serve()

    anyio.run(run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
