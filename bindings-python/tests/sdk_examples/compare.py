"""Drives each example server of the official Python SDK twice with the SDK's own client over stdio:
on the SDK and on libmcp (``launch.py --libmcp``), and prints as JSON what differs between the two:
server info, the tool, prompt and resource lists, and the result of calling every tool (arguments
made from its input schema), getting every prompt and reading every resource.

``compare.py EXAMPLES_DIR EXAMPLE...`` (run with the interpreter that has the SDK and libmcp)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
try:
    from mcp.shared.exceptions import McpError
except ImportError:  # mcp 2.x
    from mcp.shared.exceptions import MCPError as McpError

LAUNCH = str(Path(__file__).with_name("launch.py"))
SAMPLE_STRINGS = {"date-time": "2024-01-02T03:04:05Z", "date": "2024-01-02", "uuid": "12345678-1234-5678-1234-567812345678",
                  "uri": "https://example.com/x", "email": "a@example.com"}


def sample(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A value the schema accepts (the first choice of each union, required properties only)."""
    if "$ref" in schema:
        return sample(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [s for s in schema[key] if s.get("type") != "null"] or schema[key]
            return sample(options[0], defs)
    kind = schema.get("type")
    if kind == "string":
        return SAMPLE_STRINGS.get(schema.get("format", ""), "abc")
    if kind == "integer":
        return max(int(schema.get("minimum", 2)), 2) if "maximum" not in schema else int(schema["maximum"])
    if kind == "number":
        return float(schema.get("minimum", 1.5))
    if kind == "boolean":
        return True
    if kind == "array":
        return [sample(schema.get("items", {"type": "string"}), defs)]
    if kind == "object":
        props = schema.get("properties", {})
        return {k: sample(props[k], defs) for k in schema.get("required", []) if k in props}
    return "abc"


def plain(obj: Any) -> Any:
    return obj.model_dump(mode="json", by_alias=True, exclude_none=True)


async def answer(request: Any) -> Any:
    """The result of a request, or the JSON-RPC error it got."""
    try:
        return plain(await asyncio.wait_for(request, 60))
    except McpError as e:
        error = getattr(e, "error", e)
        return {"error": {"code": error.code, "message": error.message}}


async def every(listing: Any, key: str) -> list[Any]:
    """Every page of a list (each server pages as it likes: the low-level examples page by hand,
    the engine by its own page size)."""
    items, cursor = [], None
    while True:
        page = plain(await (listing(cursor=cursor) if cursor else listing()))
        items += page[key]
        cursor = page.get("nextCursor")
        if not cursor:
            return items


async def observe(path: str, on_libmcp: bool, home: str) -> dict[str, Any]:
    args = [LAUNCH, "--libmcp", path] if on_libmcp else [LAUNCH, path]
    # The same home directory on both sides (desktop.py lists ~/Desktop).
    params = StdioServerParameters(command=sys.executable, args=args, env={**os.environ, "HOME": home})
    seen: dict[str, Any] = {}
    async with stdio_client(params, errlog=sys.stderr) as (read, write), ClientSession(read, write) as session:
        init = plain(await session.initialize())
        info = init["serverInfo"]
        info.pop("version", None)  # each implementation reports its own
        seen["server"] = {"info": info, "instructions": init.get("instructions")}
        tools = await every(session.list_tools, "tools") if "tools" in init["capabilities"] else []
        for tool in tools:
            name, schema = tool["name"], tool["inputSchema"]
            seen[f"tool {name}"] = tool
            arguments = sample(schema, schema.get("$defs", {}))
            seen[f"call {name} {json.dumps(arguments)}"] = await answer(session.call_tool(name, arguments))
        if "prompts" in init["capabilities"]:
            for prompt in await every(session.list_prompts, "prompts"):
                seen[f"prompt {prompt['name']}"] = prompt
                arguments = {a["name"]: "abc" for a in prompt.get("arguments", []) if a.get("required")}
                seen[f"get prompt {prompt['name']}"] = await answer(session.get_prompt(prompt["name"], arguments))
        if "resources" in init["capabilities"]:
            for resource in await every(session.list_resources, "resources"):
                seen[f"resource {resource['uri']}"] = resource
                seen[f"read {resource['uri']}"] = await answer(session.read_resource(resource["uri"]))
            # Without a handler the SDK's low-level server answers -32601, the engine an empty list.
            templates = await answer(session.list_resource_templates())
            for template in templates.get("resourceTemplates", []):
                seen[f"template {template['uriTemplate']}"] = template
    return seen


def differences(sdk: Any, ours: Any, path: str = "") -> list[dict[str, Any]]:
    """Where the two observations differ, by JSON path (values shown)."""
    if isinstance(sdk, dict) and isinstance(ours, dict):
        out = []
        for key in sorted(set(sdk) | set(ours)):
            out += differences(sdk.get(key, "<absent>"), ours.get(key, "<absent>"), f"{path}/{key}")
        return out
    if isinstance(sdk, list) and isinstance(ours, list) and len(sdk) == len(ours):
        return [d for i, (a, b) in enumerate(zip(sdk, ours)) for d in differences(a, b, f"{path}/{i}")]
    return [] if sdk == ours else [{"path": path, "sdk": sdk, "libmcp": ours}]


async def compare(path: str) -> dict[str, Any]:
    home = tempfile.mkdtemp()
    (Path(home) / "Desktop").mkdir()
    (Path(home) / "Desktop" / "note.txt").write_text("x")
    try:
        sdk, ours = await asyncio.gather(observe(path, False, home), observe(path, True, home))
    except Exception as e:  # noqa: BLE001 - reported per example
        return {"error": f"{type(e).__name__}: {e}"}
    return {"checked": sorted(sdk), "differences": differences(sdk, ours), "libmcp": ours}


async def main() -> None:
    directory, names = Path(sys.argv[1]), sys.argv[2:]
    results = await asyncio.gather(*(compare(str(directory / n)) for n in names))
    print(json.dumps(dict(zip(names, results)), indent=1))


if __name__ == "__main__":
    asyncio.run(main())
