"""Subscriptions in both eras: list changes and resource updates arrive through one API."""

from __future__ import annotations

import asyncio
from typing import Any

from support import demo_client, run


def test_subscription_delivers_list_changes_and_updates(version: str) -> None:
    async def main() -> tuple[Any, list[tuple[str, Any]]]:
        async with demo_client(protocol_version=version) as c:
            async with await c.subscribe(tools_list_changed=True, resource_subscriptions=["mem://readme"]) as sub:
                ack = sub.acknowledged
                await c.call_tool("add_tool", {"name": "sub_tool"})
                await c.call_tool("touch", {"uri": "mem://readme"})
                await c.call_tool("touch", {"uri": "mem://other"})  # not subscribed
                seen: list[tuple[str, Any]] = []
                while len(seen) < 2:
                    note = await asyncio.wait_for(sub.__anext__(), 10)
                    # Modern notifications name their stream in `_meta`; the rest is the same.
                    params = {k: v for k, v in (note.params.model_dump() if note.params else {}).items() if k != "_meta"}
                    seen.append((note.method, params or None))
            return ack, seen

    ack, seen = run(main())
    assert ack.model_dump() == {"toolsListChanged": True, "resourceSubscriptions": ["mem://readme"]}
    assert seen == [
        ("notifications/tools/list_changed", None),
        ("notifications/resources/updated", {"uri": "mem://readme"}),
    ]


def test_closing_ends_iteration(version: str) -> None:
    async def main() -> list[Any]:
        async with demo_client(protocol_version=version) as c:
            sub = await c.subscribe(prompts_list_changed=True)
            pending = asyncio.ensure_future(sub.__anext__())
            await asyncio.sleep(0.2)
            await sub.close()
            try:
                await asyncio.wait_for(pending, 5)
            except StopAsyncIteration:
                return []
            return ["unexpected"]

    assert run(main()) == []
