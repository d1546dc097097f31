"""Request methods of the server's own (``Server.request_handler``, the low-level
``add_request_handler``) and the resource lister (``Server.resource_lister``), over the engine's
hooks, in both eras."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from libmcp import Client, Context, InvalidArgument, ProtocolError, Server
from libmcp.lowlevel import Server as LowLevelServer
from support import LEGACY, MODERN, run

ERAS = [MODERN, LEGACY]


def searching_server() -> Server:
    s = Server("custom")

    @s.request_handler("acme/search")
    def search(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
        if params.get("q") == "boom":
            raise ProtocolError(-32001, "no index", {"q": "boom"})
        return {"hits": [params.get("q")], "era": ctx.protocol_version}

    @s.request_handler("acme/fail")
    async def fail(params: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError("disk full")

    return s


@pytest.mark.parametrize("version", ERAS)
def test_a_custom_method_is_served_in_both_eras(version: str) -> None:
    s = searching_server()

    async def main() -> tuple[Any, ...]:
        async with Client(s, protocol_version=version) as c:
            found = await c.request("acme/search", {"q": "mcp"})
            with pytest.raises(ProtocolError) as refused:
                await c.request("acme/search", {"q": "boom"})
            with pytest.raises(ProtocolError) as failed:
                await c.request("acme/fail")
            with pytest.raises(ProtocolError) as unknown:
                await c.request("acme/other")
            s.remove_request_handler("acme/search")
            with pytest.raises(ProtocolError) as removed:
                await c.request("acme/search", {"q": "mcp"})
            return found, refused.value, failed.value, unknown.value, removed.value

    found, refused, failed, unknown, removed = run(main())
    assert found.model_dump()["hits"] == ["mcp"] and found.model_dump()["era"] == version
    assert (refused.code, refused.data) == (-32001, {"q": "boom"})
    assert failed.code == -32603 and "disk full" in str(failed)
    assert unknown.code == -32601 and removed.code == -32601


@pytest.mark.parametrize("method", ["initialize", "ping", "notifications/hello", "rpc.discover"])
def test_the_engines_methods_are_refused(method: str) -> None:
    with pytest.raises(InvalidArgument, match=f"method {method!r}".replace("'", '"') + " cannot have a handler"):
        Server("x").request_handler(method)(lambda params: {})
    with pytest.raises(InvalidArgument, match="cannot have a handler of its own"):
        LowLevelServer("low").add_request_handler(method, BaseModel, lambda ctx, params: {})


@pytest.mark.parametrize("version", ERAS)
def test_a_feature_method_the_host_owns_is_served_and_checked(version: str) -> None:
    s = Server("owner")
    s.declare_capabilities({"tools": {}})

    @s.request_handler("tools/list")
    def list_tools(params: dict[str, Any]) -> dict[str, Any]:
        return {"tools": [{"name": "mine", "inputSchema": {"type": "object"}}]}

    @s.request_handler("tools/call")
    def call_tool(params: dict[str, Any]) -> dict[str, Any]:
        if params["name"] == "broken":
            return {"content": "not an array"}
        return {"content": [{"type": "text", "text": f"called {params['name']}"}]}

    async def main() -> tuple[Any, ...]:
        async with Client(s, protocol_version=version) as c:
            listed = await c.request("tools/list")
            called = await c.request("tools/call", {"name": "mine", "arguments": {}})
            with pytest.raises(ProtocolError) as unchecked:
                await c.request("tools/call", {"arguments": {}})
            with pytest.raises(ProtocolError) as broken:
                await c.request("tools/call", {"name": "broken", "arguments": {}})
            return listed, called, unchecked.value, broken.value

    listed, called, unchecked, broken = run(main())
    assert listed.model_dump()["tools"] == [{"name": "mine", "inputSchema": {"type": "object"}}]
    assert called.model_dump()["content"] == [{"type": "text", "text": "called mine"}]
    assert unchecked.code == -32602
    assert unchecked.message == (
        f"Invalid params: the tools/call request does not match CallToolRequest of {version}: "
        '/params: "name" is a required property'
    )
    assert broken.code == -32603
    assert broken.message == (
        "Internal error: the host's handler of tools/call answered a result that does not match "
        f'CallToolResult of {version}: /content: "not an array" is not of type "array"'
    )


def test_owning_a_feature_method_needs_its_capability_and_no_engine_items() -> None:
    s = Server("owner")
    with pytest.raises(InvalidArgument, match=r"answering prompts/get needs the prompts capability declared first"):
        s.request_handler("prompts/get")(lambda params: {"messages": []})
    s.declare_capabilities({"tools": {}})

    @s.tool()
    def echo(text: str) -> str:
        return text

    with pytest.raises(
        InvalidArgument,
        match=r'tools/call is answered by the host\'s own handler, and tool "echo" is registered',
    ):
        s.request_handler("tools/call")(lambda params: {"content": []})


def test_a_result_that_is_not_an_object_fails_the_request() -> None:
    s = Server("x")
    s.request_handler("acme/list")(lambda params: [1, 2])

    async def main() -> ProtocolError:
        async with Client(s) as c:
            with pytest.raises(ProtocolError) as e:
                await c.request("acme/list")
            return e.value

    assert "the request handler of acme/list returned list; a result is a dict" in str(run(main()))


@pytest.mark.parametrize("version", ERAS)
def test_the_resource_lister_adds_entries_each_time(version: str) -> None:
    s = Server("lister", page_size=2)
    s.resource(uri="file:///registered")(lambda: "registered")
    names = ["a", "b"]

    @s.resource_lister()
    async def more(ctx: Context) -> list[dict[str, Any]]:
        return [{"uri": f"file:///{n}", "name": n} for n in names]

    async def uris(c: Client) -> list[str]:
        return [r.uri for r in await c.list_resources()]

    async def main() -> tuple[list[str], list[str], list[str]]:
        async with Client(s, protocol_version=version) as c:
            first = await uris(c)
            names.append("c")  # seen by the next resources/list, not the next connection
            second = await uris(c)
            s.remove_resource_lister()
            return first, second, await uris(c)

    first, second, third = run(main())
    assert first == ["file:///registered", "file:///a", "file:///b"]
    assert second == first + ["file:///c"]  # across pages of two
    assert third == ["file:///registered"]


def test_a_lister_with_parameters_is_refused() -> None:
    with pytest.raises(TypeError, match=r"a resource lister takes no parameters but the Context, got \['cursor'\]"):
        Server("x").resource_lister()(lambda cursor: [])


@pytest.mark.parametrize("version", ERAS)
def test_lowlevel_add_request_handler_validates_params(version: str) -> None:
    class Query(BaseModel):
        q: str
        limit: int = 10

    app, seen = LowLevelServer("low"), []

    async def search(ctx: Any, params: Query) -> dict[str, Any]:
        seen.append(ctx.request_id)
        return {"hits": [params.q] * min(params.limit, 2)}

    app.add_request_handler("acme/search", Query, search)
    app.add_request_handler("acme/none", Query, lambda ctx, params: None)

    async def main() -> tuple[Any, Any, ProtocolError]:
        engine = await app.engine()
        async with Client(engine, protocol_version=version) as c:
            found = await c.request("acme/search", {"q": "x", "limit": "3"})  # pydantic's lax mode
            empty = await c.request("acme/none", {"q": "y"})
            with pytest.raises(ProtocolError) as refused:
                await c.request("acme/search", {"limit": 1})
            return found, empty, refused.value

    found, empty, refused = run(main())
    assert found.model_dump()["hits"] == ["x", "x"] and seen
    assert empty.model_dump() == {} or set(empty.model_dump()) <= {"_meta", "resultType"}
    assert refused.code == -32602 and "Invalid request parameters" in str(refused) and "q" in str(refused)
