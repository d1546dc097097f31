"""The blocking client facade, from the main thread and from several threads at once."""

from __future__ import annotations

import sys
import threading

import pytest
from support import DEMO, LEGACY

from libmcp import ProtocolError
from libmcp.sync import Client


def test_sync_client_both_eras(version: str) -> None:
    with Client.stdio(sys.executable, [DEMO], protocol_version=version,
                      elicitation=lambda p: {"action": "accept", "content": {"name": "Sy"}}) as c:
        assert c.protocol_version == version
        assert "add" in {t.name for t in c.list_tools()}
        assert c.call_tool("add", {"a": 2}).structured_content == {"result": 4}
        assert c.call_tool("ask_name").content[0].text.startswith("Hello, Sy!")
        assert c.read_resource("mem://readme").contents[0].text == "# Readme"
        assert c.get_prompt("greet", {"name": "X"}).messages[0].content.text == "Hello, X (plain)"
        with pytest.raises(ProtocolError):
            c.call_tool("missing")
        if version == LEGACY:
            assert c.request("ping") == {}


def test_sync_client_shared_by_threads() -> None:
    out: list[int] = []
    with Client.stdio(sys.executable, [DEMO]) as c:
        def work(n: int) -> None:
            out.append(c.call_tool("add", {"a": n, "b": 0}).structured_content["result"])

        threads = [threading.Thread(target=work, args=(n,)) for n in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    assert sorted(out) == list(range(16))
