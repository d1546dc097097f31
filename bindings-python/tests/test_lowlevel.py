"""``libmcp.lowlevel.Server``: the official SDK 1.x low-level server's decorators, results and
errors as the SDK gives them, ``request_context`` and the lifespan, the list handlers registered
with the engine (and again when they change), and ``run()`` on the SDK's own streams. The SDK's
low-level examples are compared with the SDK in test_sdk_examples.py."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp import types
from mcp.server.lowlevel.helper_types import ReadResourceContents

from libmcp import Client
from libmcp.lowlevel import NotificationOptions, Server
from support import LEGACY, MODERN, run

WEATHER = {"type": "object", "properties": {"t": {"type": "number"}}, "required": ["t"]}


def tool(name: str, output: dict[str, Any] | None = None) -> types.Tool:
    data: dict[str, Any] = {"name": name, "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}
    if output:
        data["outputSchema"] = output
    return types.Tool.model_validate(data)


def make(validate_input: bool = True) -> Server:
    @contextlib.asynccontextmanager
    async def lifespan(server: Server) -> AsyncIterator[dict[str, Any]]:
        yield {"db": f"{server.name}-db"}

    server = Server("low", "2.0", instructions="Be low.", lifespan=lifespan)
    tools = ["blocks", "dict", "pair", "result", "fails", "odd", "unstructured", "invalid", "context"]

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [tool(n, WEATHER if n in ("unstructured", "invalid", "pair") else None) for n in tools]

    @server.call_tool(validate_input=validate_input)
    async def call_tool(name: str, arguments: dict[str, Any]) -> Any:
        if name == "blocks":
            return [types.TextContent(type="text", text=f"n={arguments.get('n')!r}")]
        if name == "dict":
            return {"n": arguments["n"]}
        if name == "pair":
            return [types.TextContent(type="text", text="hot")], {"t": 30.5}
        if name == "result":
            return types.CallToolResult.model_validate({"content": [], "structuredContent": {"x": 1}, "isError": True})
        if name == "fails":
            raise ValueError("no such n")
        if name == "odd":
            return 42
        if name == "unstructured":
            return [types.TextContent(type="text", text="no data")]
        if name == "invalid":
            return {"t": "warm"}
        ctx = server.request_context
        return [types.TextContent(type="text", text=f"{ctx.lifespan_context['db']} {ctx.request_id!r}")]

    @server.list_resources()
    async def list_resources() -> list[types.Resource]:
        return [types.Resource.model_validate({"uri": "file:///a.txt", "name": "a"}),
                types.Resource.model_validate({"uri": "file:///b.bin", "name": "b"})]

    @server.list_resource_templates()
    async def list_templates() -> list[types.ResourceTemplate]:
        return [types.ResourceTemplate.model_validate({"uriTemplate": "note://{id}", "name": "note"})]

    @server.read_resource()
    async def read_resource(uri: Any) -> Any:
        if str(uri) == "file:///a.txt":
            return [ReadResourceContents(content="alpha", mime_type=None)]
        if str(uri) == "file:///b.bin":
            return [ReadResourceContents(content=b"\x00\x01", mime_type="application/x-two")]
        return [ReadResourceContents(content=f"note {str(uri).rsplit('/', 1)[-1]}", mime_type="text/markdown")]

    @server.list_prompts()
    async def list_prompts() -> list[types.Prompt]:
        return [types.Prompt.model_validate({"name": "greet", "arguments": [{"name": "who", "required": True}]})]

    @server.get_prompt()
    async def get_prompt(name: str, arguments: dict[str, str] | None) -> types.GetPromptResult:
        who = (arguments or {}).get("who")
        return types.GetPromptResult.model_validate(
            {"description": "A greeting", "messages": [{"role": "user", "content": {"type": "text", "text": f"Hi {who}"}}]})

    @server.completion()
    async def complete(ref: Any, argument: Any, context: Any) -> types.Completion | None:
        if argument.name == "who":
            return types.Completion(values=[w for w in ("ada", "alan") if w.startswith(argument.value)])
        return None

    return server


async def observe(server: Server, version: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with Client(await server.engine(), protocol_version=version) as c:
        seen["info"] = (c.server.server_info.name, c.server.server_info.version, c.server.instructions)
        seen["tools"] = sorted(t.name for t in await c.list_tools())
        for name, args in [("blocks", {"n": 2}), ("dict", {"n": 3}), ("pair", {}), ("result", {}), ("fails", {}),
                           ("odd", {}), ("unstructured", {}), ("invalid", {}), ("context", {}), ("blocks", {"n": "x"})]:
            seen[f"{name} {args}"] = (await c.call_tool(name, args)).model_dump()
        seen["a"] = (await c.read_resource("file:///a.txt")).model_dump()["contents"]
        seen["b"] = (await c.read_resource("file:///b.bin")).model_dump()["contents"]
        seen["note"] = (await c.read_resource("note://7")).model_dump()["contents"]
        seen["prompt"] = (await c.get_prompt("greet", {"who": "Ada"})).model_dump()
        seen["complete"] = (await c.complete({"type": "ref/prompt", "name": "greet"}, "who", "a")).model_dump()
    return seen


def text(result: dict[str, Any]) -> str:
    value: str = result["content"][0]["text"]
    return value


@pytest.mark.parametrize("version", [MODERN, LEGACY])
def test_handlers_answer_as_the_sdks_low_level_server(version: str) -> None:
    seen = run(observe(make(), version))
    assert seen["info"] == ("low", "2.0", "Be low.")
    assert seen["tools"] == sorted(["blocks", "dict", "pair", "result", "fails", "odd", "unstructured", "invalid",
                                    "context"])
    assert text(seen["blocks {'n': 2}"]) == "n=2"
    assert seen["dict {'n': 3}"]["structuredContent"] == {"n": 3}
    assert text(seen["dict {'n': 3}"]) == '{\n  "n": 3\n}'  # the SDK's indented JSON
    assert seen["pair {}"]["structuredContent"] == {"t": 30.5} and text(seen["pair {}"]) == "hot"
    assert seen["result {}"]["isError"] is True and seen["result {}"]["structuredContent"] == {"x": 1}
    assert seen["fails {}"]["content"] == [{"type": "text", "text": "no such n"}] and seen["fails {}"]["isError"]
    assert text(seen["odd {}"]) == "Unexpected return type from tool: int"
    assert text(seen["unstructured {}"]) == \
        "Output validation error: outputSchema defined but no structured output returned"
    assert text(seen["invalid {}"]) == "Output validation error: 'warm' is not of type 'number'"
    assert text(seen["context {}"]).startswith("low-db ")  # lifespan_context and request_id
    assert seen["blocks {'n': 'x'}"]["isError"] is True  # the engine checks the input schema
    assert seen["a"] == [{"uri": "file:///a.txt", "mimeType": "text/plain", "text": "alpha"}]
    assert seen["b"] == [{"uri": "file:///b.bin", "mimeType": "application/x-two", "blob": "AAE="}]
    assert seen["note"] == [{"uri": "note://7", "mimeType": "text/markdown", "text": "note 7"}]
    assert seen["prompt"]["messages"][0]["content"]["text"] == "Hi Ada"
    assert seen["complete"]["completion"]["values"] == ["ada", "alan"]


def test_without_input_validation_the_handler_gets_the_arguments() -> None:
    async def main() -> str:
        async with Client(await make(validate_input=False).engine()) as c:
            return (await c.call_tool("blocks", {"n": "x"})).text()

    assert run(main()) == "n='x'"


def test_lists_are_registered_again_when_they_change() -> None:
    server = Server("changing")
    names = ["a", "b"]

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [tool(n) for n in names]

    @server.call_tool()
    async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
        return [types.TextContent(type="text", text=name)]

    async def main() -> tuple[list[str], list[str], str]:
        async with Client(await server.engine()) as c:
            before = [t.name for t in await c.list_tools()]
            names[:] = ["b", "c"]
            await server.engine()  # as each run() does
            after = [t.name for t in await c.list_tools()]
            return before, after, (await c.call_tool("c", {})).text()

    assert run(main()) == (["a", "b"], ["b", "c"], "c")


def test_request_context_outside_a_request_and_what_is_not_provided(caplog: pytest.LogCaptureFixture) -> None:
    server = Server("x")
    with pytest.raises(LookupError):
        server.request_context  # noqa: B018 - the SDK raises LookupError too
    with pytest.raises(NotImplementedError, match=r"experimental tasks API is not provided"):
        server.experimental  # noqa: B018
    with caplog.at_level(logging.WARNING, "libmcp.server"):
        @server.set_logging_level()
        async def level(level: Any) -> None: ...
    assert "the engine answers logging/setLevel itself" in caplog.text
    with pytest.raises(NotImplementedError, match=r"stateless=True"):
        run(server.run(None, None, None, stateless=True))
    options = server.create_initialization_options(NotificationOptions(tools_changed=True))
    assert options.server_name == "x" and options.capabilities.tools is None  # no list_tools handler


def test_run_serves_the_sdks_streams() -> None:
    from mcp import ClientSession
    from mcp.shared.memory import create_client_server_memory_streams
    import anyio

    server = make()

    async def main() -> tuple[str, Any]:
        async with create_client_server_memory_streams() as (client_streams, server_streams):
            async with anyio.create_task_group() as tg:
                tg.start_soon(server.run, *server_streams, server.create_initialization_options())
                async with ClientSession(*client_streams) as session:
                    init = await session.initialize()
                    result = await session.call_tool("dict", {"n": 5})
                tg.cancel_scope.cancel()
        return init.server_info.name, result.structured_content

    assert run(main()) == ("low", {"n": 5})
