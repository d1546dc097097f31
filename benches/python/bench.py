"""Tool calls per second against the Python echo servers over stdio: ``echo_libmcp.py`` (sync and
async handler) beside the official SDK's ``echo_sdk.py``, with 1 and 32 calls in flight, one client
(libmcp's, release build recommended) for all, reported with ratios to the SDK.

Usage: python bench.py [--calls N] [--era modern|legacy]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

from libmcp import Client

HERE = Path(__file__).resolve().parent
SERVERS = {
    "libmcp sync": [str(HERE / "echo_libmcp.py")],
    "libmcp async": [str(HERE / "echo_libmcp.py"), "--async"],
    "official SDK": [str(HERE / "echo_sdk.py")],
}


async def measure(args: list[str], calls: int, in_flight: int, version: str) -> float:
    async with Client.stdio(sys.executable, args, protocol_version=version) as c:
        for _ in range(50):  # warm-up
            await c.call_tool("echo", {"text": "warm"})
        queue = iter(range(calls))

        async def worker() -> None:
            for i in queue:
                r = await c.call_tool("echo", {"text": f"m{i}"})
                assert r.content[0].text == f"m{i}"

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(in_flight)))
        return calls / (time.perf_counter() - start)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=5000)
    p.add_argument("--era", choices=["modern", "legacy"], default="modern")
    o = p.parse_args()
    version = "2026-07-28" if o.era == "modern" else "2025-11-25"
    print(f"| server | in flight | calls/s | vs official SDK |\n|---|---|---|---|")
    for in_flight in (1, 32):
        rates = {name: asyncio.run(measure(args, o.calls, in_flight, version)) for name, args in SERVERS.items()}
        base = rates["official SDK"]
        for name, rate in rates.items():
            print(f"| {name} | {in_flight} | {rate:,.0f} | {rate / base:.1f}x |")


if __name__ == "__main__":
    main()
