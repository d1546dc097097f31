"""A libmcp Python server driven by the libmcp Python client over stdio, in both eras: every kind of
tool result, resources, templates, prompts, completion, progress, logging and runtime registration."""

from __future__ import annotations

import base64
import json
from typing import Any

from support import LEGACY, MODERN, demo_client, run

from libmcp import McpObject


def test_connects_in_the_requested_era(version: str) -> None:
    async def main() -> None:
        async with demo_client(protocol_version=version) as c:
            assert c.protocol_version == version
            assert c.era == ("modern" if version == MODERN else "legacy")
            assert c.server.server_info.name == "demo-server"
            assert c.server.server_info.version == "1.2.3"
            assert c.server.server_info.title == "Demo"
            assert c.server.instructions == "Test server."
            assert c.server.capabilities["completions"] == {}

    run(main())


def test_default_connection_probes_and_picks_modern() -> None:
    async def main() -> None:
        async with demo_client() as c:
            assert c.protocol_version == MODERN

    run(main())


def test_tool_list_has_derived_schemas(version: str) -> None:
    async def main() -> dict[str, Any]:
        async with demo_client(protocol_version=version) as c:
            return {t.name: t.model_dump() for t in await c.list_tools()}

    tools = run(main())
    assert tools["add"] == {
        "name": "add",
        "description": "Adds two integers.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "a": {"type": "integer", "description": "The first."},
                "b": {"type": "integer", "description": "The second.", "default": 2},
            },
            "required": ["a"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {"result": {"type": "integer"}},
            "required": ["result"],
        },
    }
    assert tools["echo"] == {
        "name": "echo",
        "description": "Echoes the text.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    }
    assert tools["stats"]["outputSchema"] == {
        "type": "object",
        "properties": {"count": {"type": "integer"}, "mean": {"type": "number"}},
        "required": ["count", "mean"],
    }
    assert tools["described"]["inputSchema"]["properties"] == {
        "query": {"type": "string", "description": "What to look for"},
        "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
    }
    # The context parameter is not part of the schema.
    assert tools["whoami"]["inputSchema"] == {"type": "object", "properties": {}}


def test_results_of_every_shape(version: str) -> None:
    async def main() -> list[McpObject]:
        async with demo_client(protocol_version=version) as c:
            return [
                await c.call_tool("echo", {"text": "hi"}),
                await c.call_tool("add", {"a": 40}),
                await c.call_tool("async_echo", {"text": "later"}),
                await c.call_tool("stats", {"values": [1, 2, 3]}),
                await c.call_tool("mirror", {"point": {"x": 1, "y": 2.5}, "color": "red"}),
                await c.call_tool("content_kinds"),
            ]

    echo, add, async_echo, stats, mirror, kinds = run(main())
    assert echo.content[0].model_dump() == {"type": "text", "text": "hi"}
    assert echo.structured_content is None and not echo.is_error
    assert add.structured_content == {"result": 42}
    assert json.loads(add.content[0].text) == {"result": 42}
    assert async_echo.content[0].text == "later"
    assert stats.structured_content == {"count": 3, "mean": 2.0}
    assert mirror.structured_content == {"x": -1.0, "y": -2.5}
    blocks = [b.model_dump() for b in kinds.content]
    assert blocks[0] == {"type": "text", "text": "text"}
    assert blocks[1] == {"type": "image", "data": base64.b64encode(b"\x89PNG").decode(), "mimeType": "image/png"}
    assert blocks[2] == {"type": "audio", "data": base64.b64encode(b"RIFF").decode(), "mimeType": "audio/wav"}
    assert blocks[3] == {"type": "resource_link", "uri": "mem://doc", "name": "doc"}
    assert blocks[4] == {
        "type": "resource",
        "resource": {"uri": "mem://doc", "mimeType": "text/plain", "text": "embedded"},
    }


def test_resources_templates_prompts_completion(version: str) -> None:
    async def main() -> tuple[Any, ...]:
        async with demo_client(protocol_version=version) as c:
            return (
                [r.model_dump() for r in await c.list_resources()],
                [t.model_dump() for t in await c.list_resource_templates()],
                await c.read_resource("mem://readme"),
                await c.read_resource("mem://blob"),
                await c.read_resource("mem://items/21"),
                [p.model_dump() for p in await c.list_prompts()],
                await c.get_prompt("greet", {"name": "Ada"}),
                await c.get_prompt("dialogue", {"topic": "owls"}),
                await c.complete({"type": "ref/prompt", "name": "greet"}, "style", "p"),
            )

    resources, templates, readme, blob, item, prompts, greet, dialogue, done = run(main())
    assert resources == [
        {"uri": "mem://readme", "name": "readme", "description": "The readme.", "mimeType": "text/markdown"},
        {"uri": "mem://blob", "name": "blob"},
    ]
    assert templates == [{"uriTemplate": "mem://items/{item_id}", "name": "item", "description": "An item by id."}]
    assert readme.contents[0].model_dump() == {"uri": "mem://readme", "mimeType": "text/markdown", "text": "# Readme"}
    assert blob.contents[0].model_dump() == {
        "uri": "mem://blob",
        "mimeType": "application/octet-stream",
        "blob": base64.b64encode(b"\x00\x01\x02").decode(),
    }
    assert json.loads(item.contents[0].text) == {"id": 21, "double": 42}
    greet_def = next(p for p in prompts if p["name"] == "greet")
    assert greet_def == {
        "name": "greet",
        "description": "Greets someone.",
        "arguments": [
            {"name": "name", "description": "Who to greet.", "required": True},
            {"name": "style", "description": "How.", "required": False},
        ],
    }
    assert greet.messages[0].model_dump() == {"role": "user", "content": {"type": "text", "text": "Hello, Ada (plain)"}}
    assert greet.description == "Greets someone."
    assert [m.role for m in dialogue.messages] == ["user", "assistant"]
    assert done.completion.values == ["plain", "poetic", "pirate"]


def test_progress_and_logging_reach_the_client(version: str) -> None:
    seen: list[tuple[Any, ...]] = []
    notes: list[tuple[str, Any]] = []

    async def main() -> McpObject:
        async with demo_client(
            protocol_version=version,
            log_level="info",
            on_notification=lambda method, params: notes.append((method, params.model_dump())),
        ) as c:
            result = await c.call_tool("progress_and_log", {"steps": 3}, progress=lambda *a: seen.append(a))
            return result

    result = run(main())
    assert result.content[0].text == "done"
    assert seen == [(1.0, 3.0, "step 1"), (2.0, 3.0, "step 2"), (3.0, 3.0, "step 3")]
    messages = [p for m, p in notes if m == "notifications/message"]
    # "info" and above only: the debug message is below the requested level.
    assert messages == [{"level": "info", "logger": "demo", "data": "info message"}]


def test_request_context_reports_era_and_client(version: str) -> None:
    async def main() -> McpObject:
        async with demo_client(protocol_version=version, name="ctx-client", elicitation=lambda p: {"action": "decline"}) as c:
            return await c.call_tool("whoami")

    r = run(main())
    assert json.loads(r.content[0].text) == r.structured_content == {
        "version": version,
        "era": "modern" if version == MODERN else "legacy",
        "client": "ctx-client",
        "elicitation": True,
    }


def test_runtime_registration_announces_changes(version: str) -> None:
    notes: list[str] = []

    async def main() -> tuple[Any, ...]:
        async with demo_client(protocol_version=version, on_notification=lambda m, p: notes.append(m)) as c:
            before = {t.name for t in await c.list_tools()}
            await c.call_tool("add_tool", {"name": "times_ten"})
            called = await c.call_tool("times_ten", {"x": 4})
            removed = await c.call_tool("remove_tool", {"name": "times_ten"})
            after = {t.name for t in await c.list_tools()}
            return before, called, removed, after

    before, called, removed, after = run(main())
    assert "times_ten" not in before and "times_ten" not in after
    assert called.structured_content == {"result": 40}
    assert removed.structured_content == {"result": True}
    if version == LEGACY:
        # Legacy sessions hear list changes as notifications; modern clients subscribe instead.
        assert notes.count("notifications/tools/list_changed") == 2
