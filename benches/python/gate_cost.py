"""What pydantic as the gate of a tool's arguments costs per call, in CPU time (the process's, all
threads), so that the figures hold on a busy machine where throughput does not: the gate alone (a
function's arguments validated and converted, pydantic's model against the stdlib coercion used
without it), and whole calls of an echo tool through the engine (an in-memory client of the
server in the same process, both eras), pydantic on against an explicit input schema (the engine's
JSON Schema check, pydantic not called), sync and ``async def`` handlers.

``python benches/python/gate_cost.py [--calls N] [--text-bytes N]`` with libmcp and pydantic installed; prints a
Markdown table (best of 5 rounds)."""

from __future__ import annotations

import argparse
import asyncio
import time
from libmcp import Client, Server
from libmcp._functions import Function

SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
ROUNDS = 5


def echo(text: str) -> str:
    return text


async def echo_async(text: str) -> str:
    return text


def gate(calls: int, text: str) -> dict[str, float]:
    """CPU microseconds per call of the argument conversion alone."""
    on = Function.inspect(echo, None, None)
    if not on.validate_with_pydantic():
        raise SystemExit("pydantic is not installed")
    off = Function.inspect(echo, None, None)
    args = {"text": text}
    best: dict[str, float] = {}
    for _ in range(ROUNDS):
        for label, f in (("pydantic", on), ("stdlib", off)):
            start = time.process_time()
            for _ in range(calls):
                f.fn(**f.call_args(args, None))
            best[label] = min(best.get(label, float("inf")), (time.process_time() - start) / calls * 1e6)
    return best


def server() -> Server:
    s = Server("gate-cost")
    s.add_tool(echo, "sync_on")
    s.add_tool(echo, "sync_off", input_schema=SCHEMA)
    s.add_tool(echo_async, "async_on")
    s.add_tool(echo_async, "async_off", input_schema=SCHEMA)
    return s


async def calls_cost(version: str, calls: int, text: str) -> dict[str, float]:
    """CPU microseconds per whole call, by tool."""
    best: dict[str, float] = {}
    async with Client(server(), protocol_version=version) as c:
        for _ in range(ROUNDS):
            for name in ("sync_on", "sync_off", "async_on", "async_off"):
                start = time.process_time()
                for _ in range(calls):
                    await c.call_tool(name, {"text": text})
                best[name] = min(best.get(name, float("inf")), (time.process_time() - start) / calls * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per round of the whole-call rows")
    parser.add_argument("--text-bytes", type=int, default=64, help="the echoed text's length")
    args = parser.parse_args()
    text = "x" * args.text_bytes
    g = gate(args.calls * 50, text)
    print("| what | pydantic on (CPU us/call) | off (CPU us/call) | on/off |")
    print("|---|--:|--:|--:|")
    print(f"| the gate alone | {g['pydantic']:.2f} | {g['stdlib']:.2f} | {g['pydantic'] / g['stdlib']:.2f} |")
    for version in ("2026-07-28", "2025-11-25"):
        cost = asyncio.run(calls_cost(version, args.calls, text))
        for kind in ("sync", "async"):
            on, off = cost[f"{kind}_on"], cost[f"{kind}_off"]
            print(f"| a whole {kind} call, {version} | {on:.1f} | {off:.1f} | {on / off:.2f} |")


if __name__ == "__main__":
    main()
