"""The README's examples (examples/python) run as shown."""

from __future__ import annotations

import subprocess
import sys

from support import ROOT


def test_quickstart_client_runs_against_the_quickstart_server() -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "python" / "client.py")], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "connected: quickstart 2026-07-28",
        "tool: add - Adds numbers.",
        "add: 6",
        "resource: Hello, Ada!",
        "prompt: Please review this code:",
    ]
