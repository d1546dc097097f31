"""The official SDK's server classes on libmcp (FastMCP of mcp 1.x, MCPServer of mcp 2.x): their
constructor signatures, refused keywords, lifespan, error masking, the SDK's pydantic types, the
in-memory client in both eras and the server-side calls."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import BaseModel
from mcp.server.mcpserver.prompts.base import AssistantMessage, UserMessage
from mcp.types import Icon, TextContent, ToolAnnotations

from libmcp import Client, Context, FastMCP, MCPServer, Server, ToolError
from support import LEGACY, MODERN, run, serving

ERAS = [MODERN, LEGACY]


def test_fastmcp_takes_instructions_second_and_mcpserver_title() -> None:
    async def main(s: Server) -> Any:
        async with Client(s) as c:
            return c.server

    info = run(main(FastMCP("x", "Be brief.")))
    assert info.instructions == "Be brief." and info.server_info.name == "x"
    info = run(main(MCPServer("y", "The Title", "A description", "Instructions")))
    assert info.server_info.title == "The Title" and info.server_info.description == "A description"
    assert info.instructions == "Instructions"
    assert FastMCP().name == "FastMCP" and MCPServer().name == "mcp-server"


@pytest.mark.parametrize(("cls", "keyword", "hint"), [
    (FastMCP, "auth_server_provider", "ResourceServer"),
    (FastMCP, "event_store", "redis="),
    (FastMCP, "tools", "add_tool"),
    (MCPServer, "middleware", "asgi_app"),
    (MCPServer, "request_state_security", "state_key="),
])
def test_unsupported_sdk_keywords_are_refused_by_name(cls: type[Server], keyword: str, hint: str) -> None:
    with pytest.raises(TypeError, match=rf"{cls.__name__}\({keyword}=\.\.\.\) is not supported by libmcp; instead: .*{hint}"):
        cls("x", **{keyword: object()})  # type: ignore[call-arg]


def test_settings_and_unknown_run_keywords() -> None:
    s = FastMCP("x", host="0.0.0.0", port=9001, streamable_http_path="/api", json_response=True)
    assert (s.settings.host, s.settings.port, s.settings.streamable_http_path) == ("0.0.0.0", 9001, "/api")
    with pytest.raises(ValueError, match="Unknown transport: carrier"):
        s.run("carrier")
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        MCPServer("y").run("streamable-http", colour="red")


@pytest.mark.parametrize("version", ERAS)
def test_lifespan_value_reaches_the_context(version: str) -> None:
    events: list[str] = []

    @contextlib.asynccontextmanager
    async def lifespan(server: FastMCP) -> AsyncIterator[dict[str, str]]:
        events.append(f"start {server.name}")
        yield {"db": "connection"}
        events.append("stop")

    s = FastMCP("life", lifespan=lifespan)

    @s.tool()
    async def which(ctx: Context) -> str:
        return f"{ctx.lifespan_context['db']}/{ctx.request_context.lifespan_context['db']}"

    async def main() -> Any:
        async with Client(s, protocol_version=version) as c:
            return await c.call_tool("which", {})

    assert run(main()).structured_content == {"result": "connection/connection"}
    assert events == ["start life", "stop"]


def test_lifespan_runs_around_http_serving() -> None:
    seen: list[str] = []

    @contextlib.asynccontextmanager
    async def lifespan(server: Server) -> AsyncIterator[str]:
        seen.append("in")
        try:
            yield "value"
        finally:  # serving ends by cancellation
            seen.append("out")

    s = Server("h", lifespan=lifespan)

    @s.tool()
    def value(ctx: Context) -> str:
        return str(ctx.lifespan_context)

    async def main() -> Any:
        async with serving(s) as url, Client.http(url) as c:
            result = await c.call_tool("value", {})
        await asyncio.sleep(0.1)  # the cancelled serving task finishes
        return result

    assert run(main()).content[0].text == "value"
    assert seen == ["in", "out"]


@pytest.mark.parametrize("version", ERAS)
def test_errors_as_each_sdk_gives_them(version: str, caplog: pytest.LogCaptureFixture) -> None:
    def register(s: Server) -> None:
        @s.tool()
        def crash() -> str:
            raise ValueError("the database password is hunter2")

        @s.tool()
        def refuse() -> str:
            raise ToolError("not today")

    v1, v2, own = FastMCP("v1"), MCPServer("v2"), Server("own", mask_error_details=True)
    for s in (v1, v2, own):
        register(s)

    async def texts(s: Server) -> list[str]:
        async with Client(s, protocol_version=version) as c:
            return [(await c.call_tool(n, {})).content[0].text for n in ("crash", "refuse")]

    with caplog.at_level(logging.ERROR, logger="libmcp.server"):
        assert run(texts(v1)) == ["Error executing tool crash: the database password is hunter2",
                                  "Error executing tool refuse: not today"]
        assert run(texts(v2)) == ["Error executing tool crash", "Error executing tool refuse: not today"]
        assert run(texts(own)) == ["Error executing tool crash", "not today"]
    # The traceback always reaches logging.
    crashes = [r for r in caplog.records if r.message == "tool crash failed"]
    assert len(crashes) == 3 and all(r.exc_info for r in crashes)


def test_sdk_types_are_accepted() -> None:
    s = MCPServer("types", icons=[Icon(src="https://example.com/i.png", mime_type="image/png")])

    @s.tool(annotations=ToolAnnotations(read_only_hint=True), icons=[Icon(src="https://example.com/t.png")])
    def look() -> list[TextContent]:
        return [TextContent(type="text", text="seen")]

    @s.prompt()
    def talk(topic: str) -> list[Any]:
        return [UserMessage(f"About {topic}?"), AssistantMessage("Sure.")]

    async def main() -> Any:
        async with Client(s) as c:
            return c.server, await c.list_tools(), await c.call_tool("look", {}), await c.get_prompt("talk", {"topic": "x"})

    info, tools, result, prompt = run(main())
    assert info.server_info.model_dump()["icons"] == [{"src": "https://example.com/i.png", "mimeType": "image/png"}]
    assert tools[0].model_dump()["annotations"] == {"readOnlyHint": True}
    assert tools[0].model_dump()["icons"] == [{"src": "https://example.com/t.png"}]
    assert "outputSchema" not in tools[0].model_dump()
    assert result.content[0].text == "seen" and result.structured_content is None
    assert [(m.role, m.content.text) for m in prompt.messages] == [("user", "About x?"), ("assistant", "Sure.")]


def test_duplicates_warn_and_keep_the_first_as_the_sdk(caplog: pytest.LogCaptureFixture) -> None:
    s = FastMCP("dup")

    @s.tool(name="t")
    def first() -> str:
        return "first"

    with caplog.at_level(logging.WARNING, logger="libmcp.server"):
        @s.tool(name="t")
        def second() -> str:
            return "second"

    assert "Tool already exists: t" in caplog.text
    assert run(s.call_tool("t", {})).content[0].text == "first"


def test_server_side_calls_and_read_resource_from_a_handler() -> None:
    s = FastMCP("side")

    @s.resource("config://app")
    def config() -> str:
        return "debug=1"

    @s.tool()
    async def read(ctx: Context) -> str:
        contents = await ctx.read_resource("config://app")
        return f"{contents[0].content}"

    async def main() -> Any:
        names = [t.name for t in await s.list_tools()]
        result = await s.call_tool("read", {})
        resources = await s.read_resource("config://app")
        return names, result, resources

    names, result, resources = run(main())
    assert names == ["read"]
    assert result.structured_content == {"result": "debug=1"}
    assert resources == [{"uri": "config://app", "mimeType": "text/plain", "text": "debug=1"}]


def test_client_of_a_non_server_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Client\(server\) takes a libmcp server"):
        Client(object())  # type: ignore[arg-type]


def test_two_in_memory_clients_at_once() -> None:
    s = Server("two")

    @s.tool()
    async def slow(n: int) -> int:
        await asyncio.sleep(0.01)
        return n

    async def main() -> list[Any]:
        async with Client(s) as a, Client(s, protocol_version=LEGACY) as b:
            return [r.structured_content for r in await asyncio.gather(a.call_tool("slow", {"n": 1}),
                                                                      b.call_tool("slow", {"n": 2}))]

    assert run(main()) == [{"result": 1}, {"result": 2}]


class Booking(BaseModel):
    date: str
    seats: int = 1


@pytest.mark.parametrize("version", ERAS)
def test_ctx_elicit_as_the_sdk_through_input_rounds(version: str) -> None:
    s = FastMCP("elicit")
    runs: list[int] = []

    @s.tool()
    async def book(ctx: Context) -> str:
        runs.append(1)
        first = await ctx.elicit("Which date?", Booking)
        second = await ctx.elicit("Confirm?", {"type": "object", "properties": {"ok": {"type": "boolean"}}})
        assert isinstance(first.data, Booking)
        return f"{first.action}:{first.data.date}x{first.data.seats} {second.action}"

    asked: list[str] = []

    def answer(params: Any) -> dict[str, Any]:
        asked.append(params.message)
        if params.message == "Which date?":
            assert params.requested_schema["properties"]["seats"] == {"type": "integer", "default": 1}
            return {"action": "accept", "content": {"date": "2026-01-01", "seats": 2}}
        return {"action": "decline"}

    async def main() -> Any:
        async with Client(s, protocol_version=version, elicitation=answer) as c:
            return await c.call_tool("book", {})

    assert run(main()).structured_content == {"result": "accept:2026-01-01x2 decline"}
    assert asked == ["Which date?", "Confirm?"]
    assert len(runs) == 3  # the handler runs again after each answer


@pytest.mark.parametrize("version", ERAS)
def test_ctx_elicit_refuses_an_answer_that_does_not_match_its_json_schema(version: str) -> None:
    s = FastMCP("elicit-check")
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    caught: list[str] = []

    @s.tool()
    async def confirm(ctx: Context) -> str:
        try:
            await ctx.elicit("Confirm?", schema)
        except ValueError as e:
            caught.append(str(e))
            raise
        return "confirmed"

    def answer(params: Any) -> dict[str, Any]:
        return {"action": "accept", "content": {"ok": "yes"}}

    async def main() -> Any:
        async with Client(s, protocol_version=version, elicitation=answer) as c:
            return await c.call_tool("confirm", {})

    r = run(main())
    # Checked by the engine (ValueError, as the SDK's), a tool error once uncaught.
    assert caught == [
        'Invalid params: the answer to the form elicitation "elicit-0" does not match the '
        'requestedSchema: /ok: "yes" is not of type "boolean"'
    ]
    assert r.is_error and caught[0] in r.content[0].text


def test_schema_titles_are_named_after_the_function_as_the_sdk() -> None:
    s = FastMCP("titles")

    @s.tool(name="textme")
    def text_me(body: str) -> str:
        return body

    tool = run(s.list_tools())[0]
    assert tool.input_schema["title"] == "text_meArguments" and tool.output_schema["title"] == "text_meOutput"
