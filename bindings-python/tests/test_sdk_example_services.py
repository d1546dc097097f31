"""The official SDK's example servers that need a service or a device, run for real with what is real
here, on the SDK and on libmcp alike, driven by the SDK's client and compared as in
test_sdk_examples.py:

- ``memory.py``: a PostgreSQL server with pgvector (the ``pgserver`` package's binaries, on the
  example's own address, ``localhost:54320``), set up by the example's ``initialize_database()`` and
  given two memories through the example's own ``MemoryNode.save``; ``read_profile`` reads them.
  ``remember`` asks OpenAI for embeddings, which this machine cannot reach: both servers give the
  client the same tool error (the key is a placeholder; no service stands in for OpenAI).
- ``screenshot.py``: an Xvfb display; ``take_screenshot`` (pyautogui, which takes it with scrot)
  returns its JPEG image.
- ``text_me.py``: its settings from placeholder variables; the SMS provider's API cannot be reached
  from here, and both servers give the client the same tool error.

scripts/test.d/40-python.sh installs Xvfb and scrot (apt) and the examples' packages
(sdk_examples/requirements.txt) into both SDK venvs; a missing one fails the test."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_sdk_examples import SDISTS, SDKS, compare

SERVICES = ["memory.py", "screenshot.py", "text_me.py"]

#: memory.py's address, written in the example.
PG_PORT = 54320

#: The examples' settings: placeholders, since nothing here can reach the services they name.
PLACEHOLDERS = {
    "OPENAI_API_KEY": "placeholder-no-openai-here",
    "SURGE_API_KEY": "placeholder", "SURGE_ACCOUNT_ID": "placeholder", "SURGE_MY_PHONE_NUMBER": "15550100",
    "SURGE_MY_FIRST_NAME": "Ada", "SURGE_MY_LAST_NAME": "Lovelace",
}

#: Run with the SDK's interpreter: memory.py's own database set-up, then two memories saved by its
#: own code (embeddings given, as OpenAI cannot be asked for them here).
SEED = """
import asyncio, runpy, sys
example = runpy.run_path(sys.argv[1])
async def main():
    await example["initialize_database"]()
    deps = example["Deps"](openai=None, pool=await example["get_db_pool"]())
    try:
        for i, text in enumerate(["The user drinks tea", "The user runs on Sundays"]):
            node = example["MemoryNode"](content=text, importance=2.0 - i, embedding=[float(i + 1)] * 1536)
            await node.save(deps)
    finally:
        await deps.pool.close()
asyncio.run(main())
"""


def _as_postgres_user(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, ``command`` runs as ``nobody``."""
    if os.geteuid() != 0:
        return command
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command]


def _start_postgres(bin_dir: Path, data: Path) -> subprocess.Popen[bytes]:
    """The server on ``data``, once it listens. A port closed less than a minute ago may still be
    held (TIME_WAIT, which this machine's network stack lets nobody reuse): then it tries again."""
    deadline = time.monotonic() + 90
    while True:
        server = subprocess.Popen(_as_postgres_user([str(bin_dir / "postgres"), "-D", str(data / "db"), "-p",
                                                     str(PG_PORT), "-k", str(data), "-c", "listen_addresses=127.0.0.1",
                                                     "-c", "fsync=off"]),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        while not (data / f".s.PGSQL.{PG_PORT}").exists() and server.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        if server.poll() is None and time.monotonic() < deadline:
            return server
        server.kill()
        log = server.communicate()[1].decode()
        if "Address already in use" not in log or time.monotonic() >= deadline:
            pytest.fail(f"PostgreSQL did not start: {log}")
        time.sleep(2)


@pytest.fixture(scope="module")
def postgres() -> Iterator[None]:
    spec = importlib.util.find_spec("pgserver")
    if spec is None or spec.origin is None:
        pytest.fail("the pgserver package is missing: scripts/test.d/40-python.sh installs "
                    "bindings-python/tests/sdk_examples/requirements.txt")
    bin_dir = Path(spec.origin).parent / "pginstall" / "bin"
    data = Path(tempfile.mkdtemp(prefix="libmcp-pg-"))
    if os.geteuid() == 0:
        os.chown(data, 65534, 65534)
    subprocess.run(_as_postgres_user([str(bin_dir / "initdb"), "-D", str(data / "db"), "-U", "postgres", "-A",
                                      "trust", "-E", "UTF8", "--no-sync"]),
                   check=True, capture_output=True, timeout=120)
    server = _start_postgres(bin_dir, data)
    try:
        memory = SDISTS / "mcp-1.30.0" / "examples" / "fastmcp" / "memory.py"
        seeded = subprocess.run([str(SDKS[0][2]), "-c", SEED, str(memory)], capture_output=True, text=True,
                                timeout=120, env={**os.environ, **PLACEHOLDERS})
        assert seeded.returncode == 0, seeded.stderr[-4000:]
        yield
    finally:
        server.terminate()
        server.wait(30)
        subprocess.run(["rm", "-rf", str(data)], check=False)


@pytest.fixture(scope="module")
def display(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """An Xvfb display: the environment of an X11 session on it (``DISPLAY``, ``XDG_SESSION_TYPE``,
    which pyautogui reads to take screenshots with scrot, and an empty ``XAUTHORITY``: Xvfb checks
    no credentials, and python-xlib wants the file)."""
    for program, package in (("Xvfb", "xvfb"), ("scrot", "scrot")):
        if shutil.which(program) is None:
            pytest.fail(f"{program} is missing: scripts/test.d/40-python.sh installs it (apt: {package})")
    xauthority = tmp_path_factory.mktemp("x11") / "Xauthority"
    xauthority.touch()
    read, write = os.pipe()
    try:
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "640x480x24", "-nolisten", "tcp"],
                                pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        os.close(write)
    try:
        with os.fdopen(read) as lines:
            number = lines.readline().strip()
        if not number:
            pytest.fail("Xvfb did not report its display number")
        yield {"DISPLAY": f":{number}", "XDG_SESSION_TYPE": "x11", "XAUTHORITY": str(xauthority)}
    finally:
        xvfb.terminate()
        xvfb.wait(30)


def text(result: Any) -> str:
    return "".join(block.get("text", "") for block in result.get("content", []))


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("sdist", "folder", "python"), SDKS, ids=[s[0] for s in SDKS])
def test_examples_with_services_behave_as_on_the_sdk(sdist: str, folder: str, python: Path, postgres: None,
                                                     display: dict[str, str]) -> None:
    env = {**os.environ, **PLACEHOLDERS, **display}
    report = compare(SDISTS / sdist / "examples" / folder, python, SERVICES, {}, env)
    seen = {name: report[name]["libmcp"] for name in SERVICES}
    # What the client saw (the same on the SDK, compared above): the real database's memories,
    calls = {key.split(" ")[1]: value for name in SERVICES for key, value in seen[name].items()
             if key.startswith("call ")}
    profile = text(calls["read_profile"])
    assert "- The user drinks tea (Importance: 2.00)" in profile and "The user runs on Sundays" in profile, profile
    # the OpenAI and SMS calls that cannot be made from here, as tool errors,
    for tool, name in (("remember", "remember"), ("textme", "textme")):
        assert calls[tool]["isError"] is True and text(calls[tool]).startswith(f"Error executing tool {name}")
    # and the display's screenshot, a JPEG image.
    image = calls["take_screenshot"]["content"][0]
    assert image["type"] == "image" and image["mimeType"] == "image/jpeg" and image["data"].startswith("/9j/")
