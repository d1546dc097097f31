"""``ctx.session``: the official SDK's ``ServerSession`` as handlers use it, over the in-memory
client in both eras: what the client declared, the notifications it sends, and the requests it
does not make (input rounds instead) refused by name."""

from __future__ import annotations

import asyncio
from typing import Any

from mcp.types import ClientCapabilities, ElicitationCapability, RootsCapability
from support import run

from libmcp import Client, Context, FastMCP


def _server() -> FastMCP:
    mcp = FastMCP("sessions")

    @mcp.tool()
    async def who(ctx: Context) -> dict[str, Any]:
        session = ctx.session
        return {
            "client": session.client_params.clientInfo["name"],
            "version": session.protocol_version,
            "elicitation": session.check_client_capability(ClientCapabilities(elicitation=ElicitationCapability())),
            "roots": session.check_client_capability({"roots": {}}),
            "sdk_roots": session.check_client_capability(ClientCapabilities(roots=RootsCapability())),
        }

    @mcp.tool()
    async def announce(ctx: Context) -> str:
        await ctx.session.send_tool_list_changed()
        await ctx.session.send_log_message("info", "announced")
        return "ok"

    @mcp.tool()
    async def sample(ctx: Context) -> str:
        await ctx.session.create_message(messages=[], max_tokens=10)
        return "unreachable"

    return mcp


def test_client_params_and_capabilities(version: str) -> None:
    async def main() -> None:
        async with Client(_server(), name="probe", protocol_version=version,
                          elicitation=lambda params: {"action": "decline"}) as c:
            result = await c.call_tool("who", {})
            assert result.structured_content == {
                "client": "probe", "version": version, "elicitation": True, "roots": False, "sdk_roots": False,
            }

    run(main())


def test_notifications_and_refused_requests(version: str) -> None:
    async def main() -> None:
        async with Client(_server(), protocol_version=version) as c:
            # A subscription in either era (subscriptions/listen in 2026-07-28, the session's
            # notifications in the 2025 era).
            async with await c.subscribe(tools_list_changed=True) as sub:
                assert (await c.call_tool("announce", {})).content[0].text == "ok"
                note = await asyncio.wait_for(sub.__anext__(), 10)
                assert note.method == "notifications/tools/list_changed"
            refused = await c.call_tool("sample", {})
            assert refused.is_error
            text = refused.content[0].text
            assert "ctx.session.create_message() is not available" in text and "InputRequired().sample" in text

    run(main())
