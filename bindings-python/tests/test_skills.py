"""Skills (the skills extension, SEP-2640): a Python server serving a skill, and the Python client
listing, getting and reading skills (verified against their entries) from it and from the Rust
everything-server, both eras."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest
from support import ROOT, run, serving

from libmcp import Client, DefinitionError, ProtocolError, ProtocolViolation, Server, Skill
from libmcp import sync

RUST = Path(os.environ.get("LIBMCP_BIN_DIR", ROOT / "target" / "debug")) / "everything-server"
SKILL_MD = "---\nname: unit-tests\ndescription: Writes unit tests\n---\n\n# Unit tests\n\nSee scripts/run.sh.\n"
RUN_SH = b"#!/bin/sh\nexec pytest -q\n"


def skill_server() -> Server:
    return Server("skills-server", skills=[Skill(SKILL_MD, {"scripts/run.sh": ("text/x-shellscript", RUN_SH)})])


async def check(c: Client, name: str, other: str) -> None:
    [entry] = [e for e in await c.list_skills() if e.name == name]
    assert entry.uri == f"skill://{name}/SKILL.md"
    assert entry.frontmatter["name"] == name
    assert entry.model_dump() == (await c.get_skill(entry.uri)).model_dump()
    uris = {f.uri for f in entry.files}
    assert uris == {entry.uri, f"skill://{name}/{other}"}
    md = await c.read_skill_file(entry)
    assert md.startswith(b"---\nname: " + name.encode())
    [listed] = [f for f in entry.files if f.uri == entry.uri]
    assert listed.size == len(md) and listed.digest == "sha256:" + hashlib.sha256(md).hexdigest()
    assert await c.read_skill_file(entry, f"skill://{name}/{other}")
    # A file the server does not have.
    with pytest.raises(ProtocolError):
        await c.read_skill_file(entry, f"skill://{name}/nope.md")
    with pytest.raises(ProtocolError):
        await c.get_skill(f"skill://{name}-missing/SKILL.md")


def test_skills_of_a_python_server(version: str) -> None:
    async def main() -> None:
        async with serving(skill_server()) as url:
            async with Client.http(url, protocol_version=version) as c:
                await check(c, "unit-tests", "scripts/run.sh")
                assert await c.read_skill_file((await c.list_skills())[0], "skill://unit-tests/scripts/run.sh") == RUN_SH

    run(main())


def test_skills_of_the_rust_everything_server(version: str) -> None:
    if not RUST.is_file():
        pytest.fail(f"{RUST} is missing: build it with `cargo build -p libmcp-examples`")
    with sync.Client.stdio(str(RUST), protocol_version=version) as c:
        entries = c.list_skills()
        [pdf] = [e for e in entries if e.name == "pdf-processing"]
        assert c.get_skill(pdf.uri).uri == pdf.uri
        assert b"Fill every field" in c.read_skill_file(pdf, "skill://pdf-processing/references/FORMS.md")


@pytest.mark.parametrize("skill, message", [
    (Skill("no frontmatter"), "frontmatter"),
    (Skill("---\nname: Bad_Name\ndescription: x\n---\n"), "naming rules"),
    (Skill(SKILL_MD, {"../escape": ("text/plain", "x")}), "invalid file path"),
])
def test_invalid_skills_are_refused(skill: Skill, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Server("bad", skills=[skill])


def test_an_entry_that_does_not_match_is_refused() -> None:
    async def main() -> Any:
        async with serving(skill_server()) as url:
            async with Client.http(url) as c:
                entry = (await c.list_skills())[0]
                data = entry.model_dump()
                for f in data["resources"]:
                    f["size"] += 1
                from libmcp.types import SkillEntry

                with pytest.raises(ProtocolViolation, match="verification failed"):
                    await c.read_skill_file(SkillEntry(data))

    run(main())


def test_skills_added_and_removed_at_runtime(version: str) -> None:
    """A server that starts without skills serves one added later (and its replacement), refuses a
    clashing one, then stops serving it; clients see the resource list change each time."""
    async def main() -> None:
        server = Server("runtime-skills")

        @server.resource("skill://clash/SKILL.md")
        def clash() -> str:
            return "not a skill"

        async with serving(server) as url:
            async with Client.http(url, protocol_version=version) as c:
                sub = await c.subscribe(resources_list_changed=True)
                with pytest.raises(ProtocolError) as e:
                    await c.list_skills()
                assert e.value.code == -32601
                server.add_skill(Skill(SKILL_MD, {"scripts/run.sh": ("text/x-shellscript", RUN_SH)}))
                await check(c, "unit-tests", "scripts/run.sh")
                note = await sub.__anext__()
                assert note.method == "notifications/resources/list_changed"
                # The same name replaces it.
                v2 = SKILL_MD.replace("Writes unit tests", "Writes better unit tests")
                server.add_skill(Skill(v2, {"docs/HOWTO.md": ("text/markdown", "howto")}))
                await check(c, "unit-tests", "docs/HOWTO.md")
                # A file URI another resource has: refused, nothing changes.
                with pytest.raises(DefinitionError, match="skill://clash/SKILL.md"):
                    server.add_skill(Skill("---\nname: clash\ndescription: Clashes\n---\n"))
                assert [e.name for e in await c.list_skills()] == ["unit-tests"]
                with pytest.raises(ValueError, match="frontmatter"):
                    server.add_skill(Skill("no frontmatter"))
                with pytest.raises(TypeError, match="libmcp.Skill"):
                    server.add_skill(SKILL_MD)  # type: ignore[arg-type]
                assert server.remove_skill("unit-tests") is True
                assert server.remove_skill("unit-tests") is False
                with pytest.raises(ProtocolError):
                    await c.list_skills()
                await sub.close()

    run(main())
