"""The engine's own diagnostics reach Python's ``logging`` (logger ``libmcp.engine``), at the
logger's level: nothing below it is delivered."""

from __future__ import annotations

import asyncio
import logging

import pytest

from libmcp import Client, ProtocolError, Server, sync_engine_log_level
from support import run


def slow_server() -> Server:
    s = Server("slow", handler_timeout=0.1)

    @s.tool()
    async def slow() -> str:
        await asyncio.sleep(0.5)
        return "late"

    return s


async def call_slow(s: Server) -> None:
    async with Client(s) as c:
        with pytest.raises(ProtocolError, match="did not answer within 100 ms"):
            await c.call_tool("slow", {})


def test_a_handler_timeout_is_logged_by_the_engine(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="libmcp.engine"):
        run(call_slow(slow_server()))
    records = [r for r in caplog.records if r.name == "libmcp.engine"]
    assert records, "no engine event reached logging"
    timeout = next(r for r in records if "handler_timeout" in r.getMessage())
    assert timeout.levelno == logging.WARNING
    assert timeout.engine_target.startswith("libmcp")  # type: ignore[attr-defined]


def test_nothing_below_the_loggers_level(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="libmcp.engine"):
        run(call_slow(slow_server()))
    assert [r for r in caplog.records if r.name == "libmcp.engine"] == []
    sync_engine_log_level()
