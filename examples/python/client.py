"""A client of quickstart.py: starts it, lists its tools, calls one, reads a resource and a prompt."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from libmcp import Client

SERVER = str(Path(__file__).with_name("quickstart.py"))


async def main() -> None:
    async with Client.stdio(sys.executable, [SERVER]) as client:
        print("connected:", client.server.server_info.name, client.protocol_version)
        for tool in await client.list_tools():
            print("tool:", tool.name, "-", tool.description)
        result = await client.call_tool("add", {"numbers": [1, 2, 3]})
        print("add:", (result.structured_content or {}).get("total"))
        page = await client.read_resource("greeting://Ada")
        print("resource:", page.contents[0].text)
        prompt = await client.get_prompt("review", {"code": "print(1)"})
        print("prompt:", prompt.messages[0].content.text.splitlines()[0])


if __name__ == "__main__":
    asyncio.run(main())
