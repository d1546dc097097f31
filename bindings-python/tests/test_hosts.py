"""The Python side of the cross-host test: every case of ``tests/hosts/expectations.json`` (the file
the Rust, C and Node tests read too) run through the Python package and compared with the answer
written there. A refusal is the exception class named for Python in ``kinds`` (exactly that class),
its message ``<option>: <reason>``."""

from __future__ import annotations

import json
import logging
import sys
from typing import Any, Callable

import pytest
from support import ROOT, run

import libmcp
from libmcp.errors import InvalidArgument, ProtocolError, TransportError

EXPECTED: dict[str, Any] = json.loads((ROOT / "tests" / "hosts" / "expectations.json").read_text())
CLASSES: dict[str, type[BaseException]] = {"InvalidArgument": InvalidArgument}


def cases(section: str) -> list[Any]:
    return [pytest.param(c, id=repr(c.get("input", c.get("protocol_version")))) for c in EXPECTED[section]["cases"]]


def check_refusal(section: str, case: dict[str, Any], error: BaseException) -> None:
    assert type(error) is CLASSES[EXPECTED["kinds"][case["refused"]]["python"]], repr(error)
    assert str(error) == f'{EXPECTED[section]["option"]["python"]}: {case["reason"]}'


async def outcome(coro: Any) -> BaseException:
    try:
        await coro
    except Exception as e:  # noqa: BLE001
        return e
    raise AssertionError("no error")


@pytest.mark.parametrize("case", cases("version_preference"))
def test_version_preference(case: dict[str, Any]) -> None:
    # The server does not exist: an accepted option gets as far as spawning it.
    async def connect() -> None:
        async with libmcp.Client.stdio("/nonexistent/server", protocol_version=case["input"]):
            pass

    error = run(outcome(connect()))
    if "refused" in case:
        check_refusal("version_preference", case, error)
    else:
        assert isinstance(error, TransportError), repr(error)


HOSTS_SERVER = str(ROOT / "bindings-python" / "tests" / "servers" / "hosts.py")


@pytest.mark.parametrize("case", cases("server_description"))
def test_server_description(case: dict[str, Any]) -> None:
    section = EXPECTED["server_description"]
    env = {} if case["instructions"] is None else {"HOSTS_INSTRUCTIONS": case["instructions"]}

    async def describe() -> dict[str, Any]:
        client = libmcp.Client.stdio(sys.executable, [HOSTS_SERVER], env=env,
                                     protocol_version=case["protocol_version"])
        async with client as c:
            return {k: c.server[k] for k in c.server}

    got = run(describe())
    assert sorted(got) == sorted(section["keys"])
    for k, v in case["expected"].items():
        assert got[k] == v, (k, got)


@pytest.mark.parametrize("case", cases("task_poll_interval"))
def test_task_poll_interval(case: dict[str, Any]) -> None:
    # The expectations are in milliseconds; Python's option is in seconds.
    seconds = case["input"] / 1000
    if "refused" in case:
        with pytest.raises(Exception) as e:
            libmcp.Server("hosts", "1.0.0", task_poll_interval=seconds)
        check_refusal("task_poll_interval", case, e.value)
    else:
        libmcp.Server("hosts", "1.0.0", task_poll_interval=seconds)


def tool_of(case: dict[str, Any]) -> Callable[[], Any]:
    """The handler of a ``tool_result`` case, as a Python tool gives its outcome."""
    def handler():  # type: ignore[no-untyped-def]  # unannotated: an unstructured result
        if "throws" in case:
            raise ValueError(case["throws"])
        returns = case["returns"]
        if returns is None or isinstance(returns, str):
            return returns
        return libmcp.ToolResult(content=returns["content"], structured_content=returns.get("structuredContent"))
    return handler


@pytest.mark.parametrize("version", ["2026-07-28", "2025-11-25"])
def test_tool_result(version: str, caplog: pytest.LogCaptureFixture) -> None:
    cases = EXPECTED["tool_result"]["cases"]
    assert len(cases) >= 3, "the cases are read"
    server = libmcp.Server("hosts", "1.0.0")
    for case in cases:
        server.tool(case["tool"], output_schema=case.get("output_schema"))(tool_of(case))

    async def call(client: Any, case: dict[str, Any]) -> Any:
        try:
            return (await client.call_tool(case["tool"], {})).model_dump()
        except ProtocolError as e:
            return e

    async def main() -> list[Any]:
        async with libmcp.Client(server, protocol_version=version) as c:
            return [await call(c, case) for case in cases]

    with caplog.at_level(logging.WARNING, logger="libmcp.engine"):
        got = run(main())
    for case, result in zip(cases, got, strict=True):
        if "error" in case:
            assert isinstance(result, ProtocolError), (case["tool"], result)
            assert (result.code, result.message) == (case["error"]["code"], case["error"]["message"])
            want = case["diagnostic"]
            records = [r for r in caplog.records if r.name == "libmcp.engine"
                       and getattr(r, "engine_target", None) == want["target"]]
            assert records, caplog.records
            # Python's level scale and one-line shape: the kit's flat text.
            assert records[0].levelname == {"warn": "WARNING"}[want["level"]]
            assert records[0].getMessage() == want["text"]
        else:
            for k, v in case["expected"].items():
                assert result[k] == v, (case["tool"], k, result)
            if "isError" not in case["expected"]:
                assert not result.get("isError"), result
