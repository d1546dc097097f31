"""The MCP endpoint mounted in the application's own FastAPI app (``server.asgi_app()``) under a
real uvicorn (and hypercorn) server: both eras, what handlers see of the request (a client's
header, the principal and state the app's middleware set), the app's own route answering during
MCP traffic, SSE streaming and resumption with ``Last-Event-ID``, cancellation when the client goes
away, the body limit, Host/Origin checks, the lifespan, and the official SDK's client."""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import json
import socket
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from asgi_host import Host, Principal, free_port, make_app
from support import HERE, LEGACY, MODERN, run, serving

from libmcp import AuthInfo, Client, ResourceServer, Server


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, HERE / "servers" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


info = _load("request_info")


@functools.cache
def _demo() -> Any:
    return _load("demo")


@pytest.fixture(scope="module")
def host() -> Iterator[Host]:
    h = Host(make_app(info.server))
    yield h
    h.stop()


CLIENT_HEADERS = {"x-api-key": "k1", "X-Client-Tag": "t-42"}
JSON_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def test_both_eras_through_the_mount_see_the_header_and_the_principal(host: Host, version: str) -> None:
    async def main() -> tuple[str, Any]:
        async with Client.http(host.url, headers=CLIENT_HEADERS, protocol_version=version) as c:
            r = await c.call_tool("whoami")
            return c.protocol_version, r.structured_content

    negotiated, seen = run(main())
    assert negotiated == version
    assert seen["http"] is True and seen["scope"] is True
    assert seen["user"] == "alice"
    assert seen["tenant"] == "acme"
    assert seen["tag"] == "t-42" and seen["tags"] == ["t-42"]
    assert seen["method"] == "POST"
    assert seen["path"] == "/mcp"
    if version == LEGACY:
        assert seen["session"]
    else:
        assert seen["session"] is None


def test_without_the_key_the_middleware_sets_no_user(host: Host) -> None:
    async def main() -> Any:
        async with Client.http(host.url) as c:
            return (await c.call_tool("whoami")).structured_content

    seen = run(main())
    assert seen["user"] is None and seen["tenant"] == "acme" and seen["tag"] is None


def test_the_apps_own_route_answers_during_mcp_traffic(host: Host, version: str) -> None:
    async def main() -> tuple[list[str], int]:
        before = Principal.seen
        stop = asyncio.Event()

        async def health() -> int:
            n = 0
            async with httpx.AsyncClient() as h:
                while not stop.is_set():
                    r = await h.get(f"{host.base}/health")
                    assert r.status_code == 200 and r.json() == {"ok": True}
                    n += 1
            return n

        checker = asyncio.create_task(health())
        async with Client.http(host.url, protocol_version=version) as c:
            calls = [c.call_tool("echo", {"text": f"m{i}"}) for i in range(40)]
            calls.append(c.call_tool("steps", {"n": 5}))
            results = await asyncio.gather(*calls)
        stop.set()
        answered = await checker
        assert Principal.seen - before > 40
        return [r.content[0].text for r in results], answered

    texts, answered = run(main())
    assert texts == [f"m{i}" for i in range(40)] + ["5 steps"]
    assert answered > 0


def test_progress_streams_as_sse_through_the_mount(host: Host, version: str) -> None:
    async def main() -> tuple[list[float], str]:
        seen: list[float] = []
        async with Client.http(host.url, protocol_version=version) as c:
            r = await c.call_tool("steps", {"n": 4}, progress=lambda p, total, message: seen.append(p))
            return seen, r.content[0].text

    seen, text = run(main())
    assert seen == [1, 2, 3, 4]
    assert text == "4 steps"


def _events(text: str) -> list[dict[str, str]]:
    out = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            name, _, value = line.partition(":")
            fields[name] = fields.get(name, "") + value.strip()
        if fields:
            out.append(fields)
    return out


async def _read_until(lines: Any, buf: list[str], needle: str) -> str:
    async for chunk in lines:
        buf.append(chunk)
        if needle in "".join(buf):
            break
    return "".join(buf)


async def _legacy_session(h: httpx.AsyncClient, url: str) -> str:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
    r = await h.post(url, json=init, headers=JSON_HEADERS)
    assert r.status_code == 200, r.text
    sid = r.headers["mcp-session-id"]
    headers = {**JSON_HEADERS, "mcp-session-id": sid, "mcp-protocol-version": LEGACY}
    r = await h.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    assert r.status_code == 202
    return sid


def test_the_session_get_stream_resumes_with_last_event_id(host: Host) -> None:
    added: list[str] = []

    def add_tool() -> None:
        name = f"extra_{len(added)}_{time.monotonic_ns()}"
        added.append(name)
        info.server.add_tool(lambda: "x", name=name)

    async def main() -> tuple[str, str, str]:
        async with httpx.AsyncClient(timeout=10) as h:
            sid = await _legacy_session(h, host.url)
            get = {"accept": "text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": LEGACY}
            buf: list[str] = []
            async with h.stream("GET", host.url, headers=get) as r:
                assert r.status_code == 200
                assert r.headers["content-type"] == "text/event-stream"
                lines = r.aiter_text()
                await _read_until(lines, buf, "data:\n\n")
                add_tool()
                first = await _read_until(lines, buf, "list_changed")
            # The stream is gone (closed by the client); what happens meanwhile is kept.
            last = [e for e in _events(first) if "list_changed" in e.get("data", "")][-1]["id"]
            add_tool()
            await asyncio.sleep(0.2)
            buf = []
            async with h.stream("GET", host.url, headers={**get, "last-event-id": last}) as r:
                assert r.status_code == 200
                resumed = await _read_until(r.aiter_text(), buf, "list_changed")
            await h.delete(host.url, headers={"mcp-session-id": sid, "mcp-protocol-version": LEGACY})
            return first, last, resumed

    try:
        first, last, resumed = run(main())
    finally:
        for name in added:
            info.server.remove_tool(name)
    replayed = [e for e in _events(resumed) if "list_changed" in e.get("data", "")]
    assert len(replayed) == 1
    tag, _, n = last.rpartition("-")
    assert replayed[0]["id"] == f"{tag}-{int(n) + 1}"


def _raw_modern_call(port: int, name: str) -> socket.socket:
    """Sends a 2026-07-28 ``tools/call`` of ``name`` on a raw connection, and returns it unread."""
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": name, "arguments": {}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {}}}}).encode()
    head = (f"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\ncontent-type: application/json\r\n"
            f"accept: application/json, text/event-stream\r\nmcp-protocol-version: {MODERN}\r\n"
            f"mcp-method: tools/call\r\nmcp-name: {name}\r\ncontent-length: {len(body)}\r\n\r\n")
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(head.encode() + body)
    return s


@pytest.mark.parametrize("kind", ["uvicorn", "hypercorn"])
def test_a_client_that_goes_away_mid_call_cancels_the_handler(kind: str) -> None:
    h = Host(make_app(info.server), kind)
    try:
        info.started.clear()
        info.cancelled.clear()
        s = _raw_modern_call(h.port, "wait")
        assert info.started.wait(10), "the handler did not start"
        s.close()
        assert info.cancelled.wait(10), "the handler was not cancelled when the client left"
    finally:
        h.stop()


def test_the_body_limit_is_enforced_while_reading() -> None:
    h = Host(make_app(info.server, max_body_bytes=1000))
    try:
        async def main() -> tuple[httpx.Response, httpx.Response, httpx.Response]:
            big = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": "x" * 5000}}).encode()

            async def chunks() -> Any:
                for i in range(0, len(big), 100):
                    yield big[i:i + 100]

            async with httpx.AsyncClient(timeout=10) as c:
                declared = await c.post(h.url, content=big, headers=JSON_HEADERS)
                streamed = await c.post(h.url, content=chunks(), headers=JSON_HEADERS)
                small = await c.post(h.url, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {
                    "_meta": {"io.modelcontextprotocol/protocolVersion": MODERN,
                              "io.modelcontextprotocol/clientCapabilities": {}}}},
                    headers={**JSON_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "tools/list"})
                return declared, streamed, small

        declared, streamed, small = run(main())
    finally:
        h.stop()
    for r in (declared, streamed):
        assert r.status_code == 413, r.text
        assert "exceeds the limit of 1000 bytes" in r.json()["error"]["message"]
    assert small.status_code == 200, small.text


def test_host_checking_is_off_by_default_and_on_with_allowed_hosts() -> None:
    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}}}
    headers = {**JSON_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "tools/list", "host": "mcp.example.com"}

    async def post(url: str, **extra: str) -> httpx.Response:
        async with httpx.AsyncClient(timeout=10) as c:
            return await c.post(url, json=listing, headers={**headers, **extra})

    open_host = Host(make_app(info.server))
    guarded = Host(make_app(info.server, allowed_hosts=["mcp.example.com"]))
    try:
        assert run(post(open_host.url)).status_code == 200
        assert run(post(guarded.url)).status_code == 200
        refused = run(post(guarded.url, host="evil.example"))
        origin = run(post(guarded.url, origin="http://evil.example"))
    finally:
        open_host.stop()
        guarded.stop()
    assert refused.status_code == 421
    message = refused.json()["error"]["message"]
    assert "evil.example" in message and "allowed_hosts" in message
    assert origin.status_code == 403
    assert "allowed_origins" in origin.json()["error"]["message"] or "allowed_hosts" in origin.json()["error"]["message"]


def test_hypercorn_serves_the_mount(version: str) -> None:
    h = Host(make_app(info.server), "hypercorn")
    try:
        async def main() -> tuple[Any, int, list[float]]:
            seen: list[float] = []
            async with Client.http(h.url, headers=CLIENT_HEADERS, protocol_version=version) as c:
                who = (await c.call_tool("whoami")).structured_content
                await c.call_tool("steps", {"n": 3}, progress=lambda p, total, message: seen.append(p))
            async with httpx.AsyncClient() as hc:
                status = (await hc.get(f"{h.base}/health")).status_code
            return who, status, seen

        who, status, seen = run(main())
    finally:
        h.stop()
    assert who["user"] == "alice" and who["tag"] == "t-42" and who["tenant"] == "acme"
    assert status == 200
    assert seen == [1, 2, 3]


async def _hold_stream(url: str, sid: str, holding: asyncio.Event) -> int:
    """Holds the session's GET stream open until it ends; the bytes received."""
    got = 0
    async with httpx.AsyncClient(timeout=30) as c:
        get = {"accept": "text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": LEGACY}
        async with c.stream("GET", url, headers=get) as r:
            assert r.status_code == 200
            holding.set()
            async for chunk in r.aiter_bytes():
                got += len(chunk)
    return got


def test_closing_the_endpoint_ends_open_streams() -> None:
    """What the lifespan's shutdown does: every open SSE stream ends (cleanly, for the client)."""
    app = make_app(info.server)
    h = Host(app)
    try:
        async def main() -> int:
            async with httpx.AsyncClient(timeout=10) as c:
                sid = await _legacy_session(c, h.url)
            holding = asyncio.Event()
            task = asyncio.create_task(_hold_stream(h.url, sid, holding))
            await holding.wait()
            h.call(app.state.mcp.close)
            return await asyncio.wait_for(task, 5)

        assert run(main()) > 0
    finally:
        h.stop()


def test_the_app_alone_speaks_the_lifespan_protocol() -> None:
    """The endpoint as the top-level ASGI app: any path is the endpoint, and uvicorn runs its
    lifespan (startup, and shutdown once open responses ended or its graceful timeout passed)."""
    mcp = info.server.streamable_http_app()
    sent: list[str] = []

    async def recorded(scope: Any, receive: Any, send: Any) -> None:
        async def record(message: Any) -> None:
            if scope["type"] == "lifespan":
                sent.append(message["type"])
            await send(message)

        await mcp(scope, receive, record)

    h = Host(recorded, graceful=1)
    url = f"{h.base}/anything"

    async def main() -> float:
        async with httpx.AsyncClient(timeout=10) as c:
            sid = await _legacy_session(c, url)
        holding = asyncio.Event()
        task = asyncio.create_task(_hold_stream(url, sid, holding))
        await holding.wait()
        t0 = time.monotonic()
        await asyncio.to_thread(h.stop)
        elapsed = time.monotonic() - t0
        await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), 10)
        return elapsed

    assert run(main()) < 4
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]


def test_mount_options_are_checked() -> None:
    s = Server("opts")
    with pytest.raises(ValueError, match="max_body_bytes"):
        s.asgi_app(max_body_bytes=0)
    with pytest.raises(ValueError, match="allowed_hosts must be a list of str"):
        s.asgi_app(allowed_hosts="localhost")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="allowed_origins"):
        s.asgi_app(allowed_origins=["no-scheme"])
    with pytest.raises(TypeError):
        s.streamable_http_app(path="/x")
    # The native layer names listener options a mount does not have.
    with pytest.raises(ValueError, match=r"path is an option of the own-port server"):
        s._native.endpoint({"path": "/x"})


def test_a_mounted_resource_server_checks_bearer_tokens() -> None:
    port = free_port()
    resource = f"http://127.0.0.1:{port}/mcp"

    async def verify(token: str) -> AuthInfo | None:
        await asyncio.sleep(0)  # an async verifier runs on the ASGI server's loop
        return AuthInfo(subject="bob", scopes=("mcp:read",), audience=(resource,)) if token == "good" else None

    app = make_app(info.server, auth=ResourceServer(resource, ["http://as.example"], verify,
                                                    required_scopes=["mcp:read"]))
    # The protected resource metadata lives under /.well-known: the app routes it to the endpoint.
    app.mount("/.well-known/oauth-protected-resource", app.state.mcp)
    h = Host(app, port=port)
    try:
        async def main() -> tuple[httpx.Response, httpx.Response, Any]:
            async with httpx.AsyncClient(timeout=10) as c:
                metadata = await c.get(f"{h.base}/.well-known/oauth-protected-resource/mcp")
                anonymous = await c.post(h.url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                                         headers=JSON_HEADERS)
            async with Client.http(h.url, headers={"authorization": "Bearer good"}) as client:
                seen = (await client.call_tool("whoami")).structured_content
            return metadata, anonymous, seen

        metadata, anonymous, seen = run(main())
    finally:
        h.stop()
    assert metadata.status_code == 200 and metadata.json()["resource"] == resource
    assert anonymous.status_code == 401
    assert anonymous.headers["www-authenticate"].startswith("Bearer ")
    assert seen["subject"] == "bob"


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_the_official_sdk_client_reaches_the_mount(mode: str) -> None:
    pytest.importorskip("mcp")
    from test_sdk_interop import _check, _drive

    h = Host(make_app(_demo().server))
    try:
        _check(run(_drive(h.url, mode)), mode)
    finally:
        h.stop()


def test_ctx_headers_on_the_own_port_server_and_none_over_stdio(version: str) -> None:
    async def main() -> tuple[Any, Any]:
        async with serving(info.server) as url:
            async with Client.http(url, headers={"X-Client-Tag": "own"}, protocol_version=version) as c:
                own = (await c.call_tool("whoami")).structured_content
        async with Client.stdio(sys.executable, [str(HERE / "servers" / "request_info.py")]) as c:
            stdio = (await c.call_tool("whoami")).structured_content
        return own, stdio

    own, stdio = run(main())
    assert own["http"] is True and own["tag"] == "own" and own["method"] == "POST"
    assert own["user"] is None and own["scope"] is False and own["tenant"] is None
    assert stdio == {"http": False, "headers": 0}
