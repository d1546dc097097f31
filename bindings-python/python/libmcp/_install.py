"""``libmcp install CLIENT FILE[:OBJECT]``: the MCP client's configuration entry that starts a server
file over stdio, as the official SDK's ``mcp install`` writes for Claude Desktop, for four clients.
The entry runs ``python -m libmcp run /absolute/FILE`` with this interpreter (the venv's, so the
client finds libmcp and the server's imports without activating anything)."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CLIENTS", "Client", "install"]


@dataclass(frozen=True)
class Client:
    """Where one client keeps its servers and how it names them."""

    #: The key of the servers' object in the file.
    key: str
    #: Whether each entry says ``"type": "stdio"``.
    typed: bool
    #: What the default file is, for the help text.
    where: str

    def default_path(self, name: str) -> Path:
        """The file ``install`` writes without ``--config``."""
        home = Path.home()
        if name == "claude-desktop":
            if sys.platform == "darwin":
                folder = home / "Library" / "Application Support" / "Claude"
            elif sys.platform == "win32":
                folder = Path(os.environ.get("APPDATA", home / "AppData" / "Roaming")) / "Claude"
            else:
                folder = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "Claude"
            if not folder.is_dir():
                raise SystemExit(f"libmcp install: no Claude Desktop configuration folder at {folder} "
                                 "(is Claude Desktop installed?); name the file with --config")
            return folder / "claude_desktop_config.json"
        if name == "claude-code":
            return Path.cwd() / ".mcp.json"
        if name == "cursor":
            return home / ".cursor" / "mcp.json"
        return Path.cwd() / ".vscode" / "mcp.json"


CLIENTS: dict[str, Client] = {
    "claude-desktop": Client("mcpServers", False, "claude_desktop_config.json in Claude's configuration folder"),
    "claude-code": Client("mcpServers", True, ".mcp.json in the current folder (the project's servers)"),
    "cursor": Client("mcpServers", False, "~/.cursor/mcp.json (every project's servers)"),
    "vscode": Client("servers", True, ".vscode/mcp.json in the current folder (the workspace's servers)"),
}


def entry(spec: str, env: dict[str, str], typed: bool) -> dict[str, Any]:
    """The configuration entry that serves ``spec`` (``FILE[:OBJECT]``) over stdio."""
    path, sep, obj = spec.partition(":")
    target = str(Path(path).resolve()) + sep + obj
    server: dict[str, Any] = {"type": "stdio"} if typed else {}
    server["command"] = os.path.abspath(sys.executable)  # not resolved: a venv's python is a link
    server["args"] = ["-m", "libmcp", "run", target]
    if env:
        server["env"] = env
    return server


def install(client: str, spec: str, name: str, env: dict[str, str], config: Path | None) -> tuple[Path, bool]:
    """Writes the entry ``name`` for ``client`` into ``config`` (or the client's default file),
    keeping everything else in the file; returns the file and whether an entry of that name was
    replaced. A file that is not a JSON object is left alone and named."""
    kind = CLIENTS[client]
    if not Path(spec.partition(":")[0]).is_file():
        raise SystemExit(f"libmcp install: no such file: {spec.partition(':')[0]}")
    path = config if config is not None else kind.default_path(client)
    document: dict[str, Any] = {}
    if path.exists():
        text = path.read_text(encoding="utf-8")
        try:
            loaded = json.loads(text) if text.strip() else {}
        except json.JSONDecodeError as e:
            raise SystemExit(f"libmcp install: {path} is not JSON ({e}); fix or move it first") from None
        if not isinstance(loaded, dict):
            raise SystemExit(f"libmcp install: {path} holds a JSON {type(loaded).__name__}, not an object")
        document = loaded
    servers = document.setdefault(kind.key, {})
    if not isinstance(servers, dict):
        raise SystemExit(f"libmcp install: {path}: {kind.key!r} is not an object")
    replaced = name in servers
    earlier = servers.get(name)
    if isinstance(earlier, dict) and isinstance(earlier.get("env"), dict):
        env = {**earlier["env"], **env}  # as the SDK's install: variables set before stay
    servers[name] = entry(spec, env, kind.typed)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return path, replaced
