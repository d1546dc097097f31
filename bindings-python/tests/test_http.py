"""The demo server over Streamable HTTP (``serve_async("http")``), driven by the Python client in both
eras, and stopped by Ctrl-C."""

from __future__ import annotations

from typing import Any

import pytest
from support import MODERN, HttpProcess, run

from libmcp import Client, ProtocolError


def test_http_both_eras(http_server: HttpProcess, version: str) -> None:
    async def main() -> tuple[Any, ...]:
        async with Client.http(
            http_server.url, protocol_version=version, elicitation=lambda p: {"action": "accept", "content": {"name": "Bo"}}
        ) as c:
            tools = {t.name for t in await c.list_tools()}
            add = await c.call_tool("add", {"a": 1, "b": 2})
            ask = await c.call_tool("ask_name")
            item = await c.read_resource("mem://items/5")
            try:
                await c.call_tool("fail_tool", {"kind": "protocol"})
            except ProtocolError as e:
                err = e
            return c.protocol_version, tools, add, ask, item, err

    negotiated, tools, add, ask, item, err = run(main())
    assert negotiated == version
    assert {"add", "echo", "ask_name"} <= tools
    assert add.structured_content == {"result": 3}
    era = "modern" if version == MODERN else "legacy"
    assert ask.content[0].text.startswith(f"Hello, Bo! state=round-1 era={era}")
    assert '"double": 10' in item.contents[0].text
    assert err.code == -32042


def test_ctrl_c_stops_the_http_server() -> None:
    p = HttpProcess()

    async def ping() -> str:
        async with Client.http(p.url) as c:
            return str((await c.call_tool("echo", {"text": "up"})).content[0].text)

    assert run(ping()) == "up"
    assert p.stop() == 0


def test_ctrl_c_stops_the_stdio_server() -> None:
    import signal
    import subprocess
    import sys
    import time

    from support import DEMO

    proc = subprocess.Popen([sys.executable, DEMO], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        # One exchange first, so the server is surely serving.
        proc.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
        proc.stdin.flush()
        assert b'"id":1' in proc.stdout.readline()
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(10) == 0
        assert b"Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_busy_port_is_an_oserror_with_errno_and_the_address() -> None:
    import errno
    import socket

    from libmcp import Server, TransportError

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(OSError) as caught:
            run(Server("busy").serve_async("http", "127.0.0.1", port))
    assert caught.value.errno == errno.EADDRINUSE
    assert isinstance(caught.value, TransportError)
    assert f"cannot listen on 127.0.0.1:{port}" in str(caught.value)
