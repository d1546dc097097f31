"""The libmcp Python client against other servers: one written with the official SDK's MCPServer
(tests/interop/python_server.py) and the Rust everything-server (the conformance fixture), both eras."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from support import INTEROP, ROOT, run

from libmcp import Client, ProtocolError

EVERYTHING = Path(os.environ.get("LIBMCP_BIN_DIR", ROOT / "target" / "debug")) / "everything-server"


def test_against_an_official_sdk_server(version: str) -> None:
    pytest.importorskip("mcp")

    async def main() -> tuple[Any, ...]:
        async with Client.stdio(
            sys.executable, [str(INTEROP / "python_server.py")], protocol_version=version,
            elicitation=lambda p: {"action": "accept", "content": {"name": "Ada"}},
        ) as c:
            tools = {t.name for t in await c.list_tools()}
            add = await c.call_tool("add", {"a": 2, "b": 5})
            welcome = await c.call_tool("welcome", {})
            divide = await c.call_tool("divide", {"a": 1, "b": 0})
            resource = await c.read_resource("interop://greeting")
            prompt = await c.get_prompt("summarize", {"topic": "owls"})
            return c.protocol_version, c.server.server_info.name, tools, add, welcome, divide, resource, prompt

    negotiated, name, tools, add, welcome, divide, resource, prompt = run(main())
    assert negotiated == version and name == "python-interop-server"
    assert {"add", "greet", "welcome", "divide"} <= tools
    assert add.structured_content == {"result": 7}
    assert welcome.content[0].text == "Welcome, Ada!"
    assert divide.is_error
    assert resource.contents[0].text == "Greetings from the Python SDK."
    assert prompt.messages[0].content.text == "Please summarize owls."


def test_against_the_rust_everything_server(version: str) -> None:
    if not EVERYTHING.is_file():
        pytest.fail(f"{EVERYTHING} is missing: build it with `cargo build -p libmcp-examples`")

    def sample(params: Any) -> dict[str, Any]:
        assert params.messages[0].role == "user"
        return {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "fake", "stopReason": "endTurn"}

    async def main() -> tuple[Any, ...]:
        async with Client.stdio(
            str(EVERYTHING), protocol_version=version, sampling=sample,
            elicitation=lambda p: {"action": "accept", "content": {"response": "Ada"}},
        ) as c:
            simple = await c.call_tool("test_simple_text")
            sampled = await c.call_tool("test_sampling", {"prompt": "Capital of France?"})
            elicited = await c.call_tool("test_elicitation", {"message": "Your name?"})
            with pytest.raises(ProtocolError):
                await c.read_resource("test://no-such-resource")
            return c.protocol_version, simple, sampled, elicited

    negotiated, simple, sampled, elicited = run(main())
    assert negotiated == version
    assert simple.content[0].text == "This is a simple text response for testing."
    assert sampled.content[0].text == "LLM response: Paris"
    assert elicited.content[0].text == 'User response: action=accept, content={"response":"Ada"}'
