"""Errors both ways: handler exceptions become tool errors or protocol errors, engine errors become the
exception classes of libmcp.errors, and bad input from Python is a TypeError/ValueError, never a crash."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from support import demo_client, run

import libmcp
from libmcp import (
    ConnectionClosed,
    DefinitionError,
    InvalidArgument,
    McpError,
    ProtocolError,
    RequestTimeout,
    Server,
    TransportError,
)


def test_handler_exceptions_cross_the_boundary(version: str) -> None:
    async def main() -> tuple[Any, ...]:
        async with demo_client(protocol_version=version) as c:
            tool = await c.call_tool("fail_tool", {"kind": "tool"})
            other = await c.call_tool("fail_tool", {"kind": "other"})
            bad = await c.call_tool("bad_result")
            with pytest.raises(ProtocolError) as protocol:
                await c.call_tool("fail_tool", {"kind": "protocol"})
            with pytest.raises(ProtocolError) as unknown:
                await c.call_tool("no_such_tool")
            invalid = await c.call_tool("add", {"a": "forty"})
            # The connection is still good after all that.
            echo = await c.call_tool("echo", {"text": "still here"})
            return tool, other, bad, protocol.value, unknown.value, invalid, echo

    tool, other, bad, protocol, unknown, invalid, echo = run(main())
    assert tool.is_error and tool.content[0].text == "the model sees this"
    # The engine's one text of a tool error: the message as raised (FastMCP/MCPServer add the SDK's prefix).
    assert other.is_error and other.content[0].text == "boom"
    assert bad.is_error and "not content" in bad.content[0].text
    assert (protocol.code, protocol.message, protocol.data) == (-32042, "custom", {"why": "testing"})
    assert isinstance(protocol, McpError)
    assert unknown.code == -32602
    # pydantic is the gate of the arguments (its message).
    assert invalid.is_error
    assert invalid.content[0].text.startswith("1 validation error for addArguments\na\n")
    assert "Input should be a valid integer" in invalid.content[0].text
    assert echo.content[0].text == "still here"


def test_unknown_resource_and_prompt_are_protocol_errors(version: str) -> None:
    async def main() -> tuple[ProtocolError, ProtocolError]:
        async with demo_client(protocol_version=version) as c:
            with pytest.raises(ProtocolError) as res:
                await c.read_resource("mem://missing")
            with pytest.raises(ProtocolError) as prompt:
                await c.get_prompt("greet")  # a required argument is missing
            return res.value, prompt.value

    res, prompt = run(main())
    assert res.code in (-32002, -32602)
    assert prompt.code == -32602


def test_bad_arguments_from_python_raise_clearly() -> None:
    async def main() -> list[BaseException]:
        errors: list[BaseException] = []
        async with demo_client() as c:
            for call in (
                lambda: c.call_tool("echo", {"text": object()}),
                lambda: c.call_tool("echo", {1: "x"}),
                lambda: c.call_tool("echo", {"text": float("nan")}),
                lambda: c.call_tool("echo", {"text": 1 << 70}),
                lambda: c.call_tool("echo", ["not", "a", "dict"]),
                lambda: c.call_tool("echo", {"text": "x"}, timeout=-1),
            ):
                try:
                    await call()
                except BaseException as e:  # noqa: BLE001
                    errors.append(e)
            assert (await c.call_tool("echo", {"text": "ok"})).content[0].text == "ok"
        return errors

    errors = run(main())
    assert [type(e) for e in errors] == [TypeError, TypeError, ValueError, ValueError, TypeError, ValueError]
    assert "value.text is not JSON-compatible (got object)" in str(errors[0])
    assert "dict keys must be str" in str(errors[1])


def test_bad_definitions_raise_definition_error() -> None:
    server = Server("s")
    with pytest.raises(DefinitionError, match="bad name"):
        server.add_tool(lambda: "x", name="bad name!")
    with pytest.raises(DefinitionError, match="inputSchema"):
        server.add_tool(lambda: "x", name="t", input_schema={"type": "string"})
    with pytest.raises(DefinitionError):
        server.add_resource(lambda: "x", "mem://{broken")

    @server.tool()
    def once() -> str:
        return "x"

    with pytest.raises(DefinitionError, match="registered already"):
        server.add_tool(once)
    with pytest.raises(TypeError, match="parentheses"):
        server.tool(once)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"\*args"):
        server.add_tool(lambda *a: "x", name="varargs")
    with pytest.raises(TypeError, match="give input_schema"):
        server.add_tool(lambda **kw: "x", name="kwargs")
    server.add_tool(lambda **kw: "x", name="kwargs", input_schema={"type": "object"})
    assert isinstance(DefinitionError("x"), (InvalidArgument, ValueError))


def test_transport_errors_and_timeouts() -> None:
    async def spawn_missing() -> BaseException:
        try:
            async with libmcp.Client.stdio("/nonexistent/server"):
                pass
        except BaseException as e:  # noqa: BLE001
            return e
        raise AssertionError("connected to nothing")

    e = run(spawn_missing())
    assert isinstance(e, TransportError) and isinstance(e, ConnectionError)

    async def slow() -> BaseException:
        async with demo_client() as c:
            try:
                await c.call_tool("sleep_sync", {"seconds": 2}, timeout=0.2)
            except BaseException as e:  # noqa: BLE001
                return e
        raise AssertionError("no timeout")

    t = run(slow())
    assert isinstance(t, RequestTimeout) and isinstance(t, TimeoutError)
    assert t.seconds == pytest.approx(0.2)

    async def closed() -> BaseException:
        c = demo_client()
        await c.connect()
        await c.close()
        try:
            await c.call_tool("echo", {"text": "x"})
        except BaseException as e:  # noqa: BLE001
            return e
        raise AssertionError("called a closed client")

    assert isinstance(run(closed()), ConnectionClosed)


def test_invalid_client_options() -> None:
    async def main() -> None:
        with pytest.raises(ValueError, match="log level"):
            async with libmcp.Client.stdio(sys.executable, ["-c", ""], log_level="loud"):
                pass

    run(main())
