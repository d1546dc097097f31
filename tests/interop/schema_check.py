"""Checks JSON-RPC messages against the official schema of their protocol revision
(the copies vendored in `tests/spec/<revision>/schema.json`, or under LIBMCP_SPEC_DIR).

A request or notification is checked against the definition whose `method` constant is its method (a
method the revision does not define is itself a failure). A response is checked against the result of
the request it answers (`<Name>ResultResponse` when the revision has it, which admits the 2026-07-28
`InputRequiredResult`, else `<Name>Result`, else the generic `Result`); an error against
`JSONRPCErrorResponse`.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

SPEC_DIR = Path(os.environ.get("LIBMCP_SPEC_DIR", Path(__file__).resolve().parents[1] / "spec"))


@cache
def _definitions(version: str) -> tuple[str, dict[str, Any]]:
    path = SPEC_DIR / version / "schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    if "$defs" in schema:
        return "$defs", schema["$defs"]
    return "definitions", schema["definitions"]


@cache
def _validator(version: str, name: str) -> jsonschema.protocols.Validator:
    key, defs = _definitions(version)
    schema = {"$ref": f"#/{key}/{name}", key: defs}
    cls = jsonschema.Draft202012Validator if key == "$defs" else jsonschema.Draft7Validator
    return cls(schema)


@cache
def _by_method(version: str) -> dict[str, str]:
    """Method name -> the definition of its request or notification."""
    _, defs = _definitions(version)
    out = {}
    for name, d in defs.items():
        const = d.get("properties", {}).get("method", {}).get("const")
        if isinstance(const, str) and (name.endswith("Request") or name.endswith("Notification")):
            out[const] = name
    return out


class WireChecker:
    """Feeds messages in order; `failures` collects every schema violation, described."""

    def __init__(self) -> None:
        self.failures: list[str] = []
        self.pending: dict[tuple[str, str], str] = {}
        self.checked = 0

    def _check(self, version: str, name: str, instance: Any, what: str) -> None:
        self.checked += 1
        errors = sorted(_validator(version, name).iter_errors(instance), key=lambda e: list(e.path))
        if errors:
            best = jsonschema.exceptions.best_match(errors)
            where = "/".join(str(p) for p in best.absolute_path)
            self.failures.append(f"{what}: not a valid {version} {name} at /{where}: {best.message}")

    def feed(self, direction: str, version: str | None, message: Any) -> None:
        what = f"{direction} {json.dumps(message)[:300]}"
        if version is None:
            self.failures.append(f"{what}: no protocol version known for this message")
            return
        if not (SPEC_DIR / version / "schema.json").is_file():
            self.failures.append(f"{what}: unknown protocol version {version!r}")
            return
        _, defs = _definitions(version)
        if not isinstance(message, dict):
            self.failures.append(f"{what}: not a JSON object")
            return
        method = message.get("method")
        if isinstance(method, str):
            name = _by_method(version).get(method)
            if name is None:
                self.failures.append(f"{what}: {version} defines no method {method!r}")
                return
            has_envelope = "jsonrpc" in defs[name].get("properties", {})
            instance = message if has_envelope else {k: v for k, v in message.items() if k in ("method", "params")}
            self._check(version, name, instance, what)
            if "id" in message:
                self.pending[(direction, json.dumps(message["id"]))] = name
            return
        other = "<-" if direction == "->" else "->"
        request = self.pending.pop((other, json.dumps(message.get("id"))), None)
        if "error" in message:
            self._check(version, "JSONRPCErrorResponse" if "JSONRPCErrorResponse" in defs else "JSONRPCError", message, what)
            return
        if request is None:
            self.failures.append(f"{what}: a response to no request seen")
            return
        base = request.removesuffix("Request")
        if f"{base}ResultResponse" in defs:
            self._check(version, f"{base}ResultResponse", message, what)
        elif f"{base}Result" in defs:
            self._check(version, f"{base}Result", message.get("result"), what)
        else:
            self._check(version, "Result", message.get("result"), what)


def check_log(lines: list[str]) -> tuple[int, list[str]]:
    """Checks http_tap.py log lines; returns (messages checked, failures)."""
    checker = WireChecker()
    for line in lines:
        entry = json.loads(line)
        before = len(checker.failures)
        checker.feed(entry["dir"], entry["version"], entry["message"])
        # Name the HTTP exchange a failure came from (e.g. `DELETE /mcp`).
        for i in range(before, len(checker.failures)):
            checker.failures[i] = f"[{entry.get('http', '?')}] {checker.failures[i]}"
    return checker.checked, checker.failures



def check_wire_tap_log(text: str) -> tuple[int, list[str]]:
    """Checks a wire_tap.py log (`-> JSON` client to server, `<- JSON` server to client) of a connection
    without version headers (stdio); returns (messages checked, failures).

    A message's revision is its own `_meta` protocol version (2026-07-28), else the version an
    `initialize` asks for, else for a response the revision of its request, else the version the last
    initialize result settled, else that of the client's last versioned message."""
    checker = WireChecker()
    settled: str | None = None
    last_client: str | None = None
    requests: dict[tuple[str, str], str | None] = {}
    for line in text.splitlines():
        arrow, _, body = line.partition(" ")
        if arrow not in ("->", "<-"):
            continue
        message = json.loads(body)
        version: str | None = None
        params = message.get("params") if isinstance(message, dict) else None
        if isinstance(params, dict):
            meta = params.get("_meta")
            if isinstance(meta, dict) and isinstance(meta.get("io.modelcontextprotocol/protocolVersion"), str):
                version = meta["io.modelcontextprotocol/protocolVersion"]
            elif message.get("method") == "initialize" and isinstance(params.get("protocolVersion"), str):
                version = params["protocolVersion"]
        if version is None and isinstance(message, dict) and "method" not in message:
            version = requests.pop(("<-" if arrow == "->" else "->", json.dumps(message.get("id"))), None)
        result = message.get("result") if isinstance(message, dict) else None
        if isinstance(result, dict) and isinstance(result.get("protocolVersion"), str):
            version = result["protocolVersion"]  # an initialize result: the version it settled
        if version is None:
            version = settled or last_client
        if isinstance(message, dict):
            if "method" in message and "id" in message:
                requests[(arrow, json.dumps(message["id"]))] = version
            result = message.get("result")
            if isinstance(result, dict) and isinstance(result.get("protocolVersion"), str):
                settled = result["protocolVersion"]
        if arrow == "->" and version is not None:
            last_client = version
        checker.feed(arrow, version, message)
    return checker.checked, checker.failures
