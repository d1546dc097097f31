"""The client's typed results (libmcp.types): each result and definition is its class with its
fields converted (content blocks by type, nested objects, defaults for absent fields), pages with
their cursors, and the untyped rest still reachable. Both eras, over HTTP."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from support import run, serving

from libmcp import Audio, Client, EmbeddedResource, Image, McpObject, ProtocolViolation, ResourceLink, Server, ToolError
from libmcp import types as t


def typed_server() -> Server:
    server = Server("typed", "2.0.0", "Use the tools.", title="Typed", website_url="https://example.com",
                    page_size=2)

    @server.tool(title="Adder")
    def add(a: int, b: int) -> int:
        """Adds two numbers."""
        return a + b

    @server.tool()
    def media() -> list:  # type: ignore[type-arg]  # a bare list: unstructured content
        return ["caption", Image(data=b"\x89PNG", mime_type="image/png"), Audio(data=b"RIFF"),
                ResourceLink("res://hello", "hello", mime_type="text/plain"),
                EmbeddedResource("res://bin", blob=b"\x00\x01", mime_type="application/octet-stream"),
                EmbeddedResource("res://hello", text="hi")]

    @server.tool()
    def broken() -> str:
        raise ToolError("no luck")

    @server.resource("res://hello", mime_type="text/plain", description="A greeting")
    def hello() -> str:
        return "hi"

    @server.resource("res://bin", mime_type="application/octet-stream")
    def binary() -> bytes:
        return b"\x00\x01"

    @server.resource("res://items/{id}")
    def item(id: str) -> str:
        return id

    @server.prompt()
    def review(code: str, style: str = "plain") -> str:
        """Reviews code."""
        return f"Review {code} ({style})"

    @server.completion()
    def complete(ref: Any, argument: Any, context: Any) -> dict[str, Any]:
        return {"values": ["plain", "poetic"], "total": 3, "hasMore": True}

    return server


def test_typed_results(version: str) -> None:
    async def main() -> dict[str, Any]:
        async with serving(typed_server()) as url, Client.http(url, protocol_version=version) as c:
            return {
                "server": c.server, "tools": await c.list_tools(), "add": await c.call_tool("add", {"a": 2, "b": 3}),
                "media": await c.call_tool("media"), "broken": await c.call_tool("broken"),
                "resources": await c.list_resources(), "templates": await c.list_resource_templates(),
                "text": await c.read_resource("res://hello"), "blob": await c.read_resource("res://bin"),
                "prompts": await c.list_prompts(), "prompt": await c.get_prompt("review", {"code": "x"}),
                "complete": await c.complete({"type": "ref/prompt", "name": "review"}, "style", "p"),
            }

    r = run(main())
    server = r["server"]
    assert isinstance(server, t.ServerInfo) and server.protocol_version == version
    assert server.era == ("modern" if version == "2026-07-28" else "legacy")
    assert isinstance(server.server_info, t.Implementation)
    assert (server.server_info.name, server.server_info.version, server.server_info.title) == ("typed", "2.0.0", "Typed")
    assert server.server_info.website_url == "https://example.com" and server.instructions == "Use the tools."
    assert "tools" in server.capabilities

    tools = {tool.name: tool for tool in r["tools"]}
    assert all(isinstance(tool, t.Tool) for tool in tools.values()) and set(tools) == {"add", "media", "broken"}
    add = tools["add"]
    assert (add.title, add.description) == ("Adder", "Adds two numbers.")
    assert add.input_schema["required"] == ["a", "b"] and add.output_schema is not None
    assert tools["media"].title is None and tools["media"].icons == [] and tools["media"].output_schema is None

    result = r["add"]
    assert isinstance(result, t.CallToolResult)
    assert result.structured_content == {"result": 5} and result.is_error is False
    assert isinstance(result.content[0], t.TextContent) and result.text() == '{"result": 5}'

    blocks = r["media"].content
    assert [type(b) for b in blocks] == [t.TextContent, t.ImageContent, t.AudioContent, t.ResourceLink,
                                         t.EmbeddedResource, t.EmbeddedResource]
    assert blocks[1].mime_type == "image/png" and base64.b64decode(blocks[1].data) == b"\x89PNG"
    assert blocks[2].mime_type == "audio/wav"
    assert (blocks[3].uri, blocks[3].name, blocks[3].mime_type, blocks[3].title) == ("res://hello", "hello", "text/plain", None)
    assert isinstance(blocks[4].resource, t.BlobResourceContents) and blocks[4].resource.blob == "AAE="
    assert isinstance(blocks[5].resource, t.TextResourceContents) and blocks[5].resource.text == "hi"
    assert r["media"].structured_content is None

    assert r["broken"].is_error is True and r["broken"].text() == "no luck"

    resources = {res.uri: res for res in r["resources"]}
    assert all(isinstance(res, t.Resource) for res in resources.values())
    assert resources["res://hello"].description == "A greeting" and resources["res://hello"].mime_type == "text/plain"
    [template] = r["templates"]
    assert isinstance(template, t.ResourceTemplate) and template.uri_template == "res://items/{id}"

    [text] = r["text"].contents
    assert isinstance(r["text"], t.ReadResourceResult) and isinstance(text, t.TextResourceContents)
    assert (text.uri, text.text, text.mime_type) == ("res://hello", "hi", "text/plain")
    [blob] = r["blob"].contents
    assert isinstance(blob, t.BlobResourceContents) and base64.b64decode(blob.blob) == b"\x00\x01"

    [prompt] = r["prompts"]
    assert isinstance(prompt, t.Prompt) and prompt.description == "Reviews code."
    assert [(a.name, a.required) for a in prompt.arguments] == [("code", True), ("style", False)]
    got = r["prompt"]
    assert isinstance(got, t.GetPromptResult) and isinstance(got.messages[0], t.PromptMessage)
    assert got.messages[0].role == "user"
    assert isinstance(got.messages[0].content, t.TextContent) and got.messages[0].content.text == "Review x (plain)"

    done = r["complete"]
    assert isinstance(done, t.CompleteResult) and isinstance(done.completion, t.Completion)
    assert (done.completion.values, done.completion.total, done.completion.has_more) == (["plain", "poetic"], 3, True)


def test_pages_and_cursors(version: str) -> None:
    async def main() -> tuple[list[t.ListToolsResult], t.ListResourcesResult, t.ListPromptsResult,
                              t.ListResourceTemplatesResult]:
        async with serving(typed_server()) as url, Client.http(url, protocol_version=version) as c:
            pages = [await c.list_tools_page()]
            while pages[-1].next_cursor is not None:
                pages.append(await c.list_tools_page(pages[-1].next_cursor))
            return (pages, await c.list_resources_page(), await c.list_prompts_page(),
                    await c.list_resource_templates_page())

    pages, resources, prompts, templates = run(main())
    assert [[tool.name for tool in p.tools] for p in pages] == [["add", "media"], ["broken"]]
    assert all(isinstance(tool, t.Tool) for p in pages for tool in p.tools)
    assert isinstance(pages[0].next_cursor, str)
    assert [res.uri for res in resources.resources] == ["res://hello", "res://bin"]
    assert [p.name for p in prompts.prompts] == ["review"] and prompts.next_cursor is None
    assert [x.uri_template for x in templates.resource_templates] == ["res://items/{id}"]


def test_untyped_rest_and_defaults() -> None:
    r = t.CallToolResult({"content": [{"type": "video", "url": "x"}], "extra": {"camelCase": 1}})
    assert type(r.content[0]) is McpObject and r.content[0].url == "x"
    assert r.is_error is False and r.structured_content is None and r.meta is None
    assert r.extra.camel_case == 1 and r["extra"] == {"camelCase": 1}
    assert r.model_dump() == {"content": [{"type": "video", "url": "x"}], "extra": {"camelCase": 1}}
    assert t.CompleteResult({}).completion.values == [] and t.Tool({"name": "x"}).input_schema == {}
    assert t.ServerInfo({"era": "modern"}).supported_versions == []
    assert isinstance(t.CallToolResult.content, t.Field)


def test_input_request_params_and_notifications() -> None:
    """What a client's handlers and subscriptions receive, typed: both elicitation modes, sampling
    content as one block or a list (with tools), and task status notifications of either era."""
    form = t.ElicitRequestParams({"message": "Name?", "requestedSchema": {"type": "object"}})
    assert (form.mode, form.message, form.requested_schema, form.url) == ("form", "Name?", {"type": "object"}, None)
    url = t.ElicitRequestParams({"mode": "url", "message": "Sign in", "url": "https://example.com/a",
                                 "elicitationId": "e1"})
    assert (url.mode, url.url, url.elicitation_id, url.requested_schema) == ("url", "https://example.com/a", "e1", None)

    sampling = t.CreateMessageRequestParams({
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "hi"}},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "u1", "name": "add", "input": {}},
                                              {"type": "text", "text": "and"}]},
        ],
        "maxTokens": 5, "systemPrompt": "Be brief.", "temperature": 0.5, "stopSequences": ["END"],
        "tools": [{"name": "add", "inputSchema": {"type": "object"}}], "toolChoice": {"mode": "auto"},
    })
    one, many = sampling.messages
    assert isinstance(one.content, t.TextContent) and one.content.text == "hi"
    assert [type(b) for b in one.blocks] == [t.TextContent]
    assert isinstance(many.content, list) and [type(b) for b in many.blocks] == [McpObject, t.TextContent]
    assert many.blocks[0].name == "add"
    assert (sampling.max_tokens, sampling.system_prompt, sampling.temperature) == (5, "Be brief.", 0.5)
    assert sampling.stop_sequences == ["END"] and sampling.tool_choice == {"mode": "auto"}
    assert [tool.name for tool in sampling.tools] == ["add"] and sampling.include_context is None
    assert t.CreateMessageRequestParams({"messages": [], "maxTokens": 1}).tools == []
    assert t.ListRootsRequestParams({}).meta is None

    times = {"createdAt": "2026-12-04T00:00:00.000Z", "lastUpdatedAt": "2026-12-04T00:00:00.000Z"}
    modern = t.Notification({"method": "notifications/tasks",
                             "params": {"taskId": "t1", "status": "completed", **times}})
    legacy = t.Notification({"method": "notifications/tasks/status",
                             "params": {"taskId": "t2", "status": "working", "pollInterval": 5, **times}})
    assert modern.task is not None and (modern.task.task_id, modern.task.is_terminal) == ("t1", True)
    assert legacy.task is not None and (legacy.task.status, legacy.task.poll_interval_ms) == ("working", 5)
    changed = t.Notification({"method": "notifications/tools/list_changed"})
    assert changed.task is None and changed.params is None and changed.method == "notifications/tools/list_changed"
    broken = t.Notification({"method": "notifications/tasks", "params": {"taskId": 7}})
    with pytest.raises(ProtocolViolation, match="does not carry a task"):
        broken.task
