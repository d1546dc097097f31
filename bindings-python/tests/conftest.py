"""Fixtures: both eras, and one HTTP demo server per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support import LEGACY, MODERN, HttpProcess


@pytest.fixture(params=[MODERN, LEGACY], ids=["modern", "legacy"])
def version(request: pytest.FixtureRequest) -> str:
    """Both eras: the modern revision and the newest legacy handshake."""
    return str(request.param)


@pytest.fixture(scope="module")
def http_server() -> Iterator[HttpProcess]:
    p = HttpProcess()
    yield p
    p.stop()
