"""The Python side of the cross-host test: every case of ``tests/hosts/expectations.json`` (the file
the Rust, C and Node tests read too) run through the Python package and compared with the answer
written there. A refusal is the exception class named for Python in ``kinds`` (exactly that class),
its message ``<option>: <reason>``."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from support import ROOT, run

import libmcp
from libmcp.errors import InvalidArgument, TransportError

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
