"""An MCP server process on a local port with http_tap.py in front of it, and the schema check of what
each test sent through it."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schema_check import check_log

HERE = Path(__file__).resolve().parent
START_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode} before listening on port {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on port {port} within {START_TIMEOUT} s")


@dataclass
class HttpService:
    """A server and its tap; `url` is the tap's address of the server's endpoint."""

    url: str
    log: Path
    processes: list[subprocess.Popen[bytes]]

    @contextmanager
    def checked(self) -> Iterator[list[tuple[str, dict[str, Any]]]]:
        """Checks every message that passes through the tap during the block against its schema. The
        list it yields holds those messages as (direction, message) once the block ends, direction
        `->` for client to server and `<-` for server to client."""
        # Traffic of the previous test (a session's DELETE, a stream closing) can still be in flight:
        # start once the tap has been quiet for a moment, and end the same way, so that each test is
        # checked for exactly its own messages, teardown included.
        start = self._quiet_size()
        wire: list[tuple[str, dict[str, Any]]] = []
        yield wire
        self._quiet_size()
        # The tap logs a message before relaying it, so everything the client saw is in the log.
        with self.log.open(encoding="utf-8") as f:
            f.seek(start)
            lines = f.read().splitlines()
        for line in lines:
            entry = json.loads(line)
            wire.append((entry["dir"], entry["message"]))
        checked, failures = check_log(lines)
        assert checked > 0, "no JSON-RPC message passed through the tap"
        assert not failures, "messages that break their revision's schema:\n" + "\n".join(failures)

    def _quiet_size(self, quiet: float = 0.3, limit: float = 5.0) -> int:
        """The log's size once it has not grown for `quiet` seconds (at most `limit` seconds)."""
        deadline = time.monotonic() + limit
        size = self.log.stat().st_size if self.log.exists() else 0
        while time.monotonic() < deadline:
            time.sleep(quiet)
            now = self.log.stat().st_size if self.log.exists() else 0
            if now == size:
                break
            size = now
        return size

    def stop(self) -> None:
        for p in reversed(self.processes):
            p.terminate()
        for p in self.processes:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def start_http_service(command: list[str], path: str, log: Path) -> HttpService:
    """Starts `command` (with `{port}` in its arguments replaced by a free port, and `{tap_port}` by the
    port the tap will listen on) and a tap in front of it."""
    port = free_port()
    tap_port = free_port()
    server = subprocess.Popen(
        [arg.replace("{port}", str(port)).replace("{tap_port}", str(tap_port)) for arg in command],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port, server, command[0])
    except BaseException:
        HttpService("", log, [server]).stop()
        raise
    return _tap(f"http://127.0.0.1:{port}", path, log, [server], tap_port)


def tap_http_service(upstream: str, path: str, log: Path) -> HttpService:
    """A tap in front of a server someone else runs at `upstream` (`http://host:port`)."""
    return _tap(upstream, path, log, [], free_port())


def _tap(upstream: str, path: str, log: Path, processes: list[subprocess.Popen[bytes]], tap_port: int) -> HttpService:
    try:
        tap = subprocess.Popen(
            [sys.executable, str(HERE / "http_tap.py"), str(log), upstream, str(tap_port)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
        processes.append(tap)
        _wait_for_port(tap_port, tap, "http_tap.py")
    except BaseException:
        HttpService("", log, processes).stop()
        raise
    return HttpService(f"http://127.0.0.1:{tap_port}{path}", log, processes)
