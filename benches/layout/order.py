#!/usr/bin/env python3
"""Writes benches/layout/echo-libmcp.order: the functions the echo-libmcp benchmark server runs,
one symbol per line, for the linker to place together (`--symbol-ordering-file`, see
benches/build.rs).

A server touches a few hundred kilobytes of its code, spread over the whole text; the kernel maps
code around every page first touched, so scattered functions make most of the binary resident.
Placed together, the code a server runs fills few pages.

How: runs BINARY under callgrind (valgrind) while it serves what the benchmark sends (the legacy
handshake, tools/list, tools/call of 64 B and 64 KiB one at a time and 32 at once, and the same
calls in the 2026-07-28 era), then keeps every function callgrind saw that is a defined code symbol
of BINARY, in the order callgrind lists them.

Usage: benches/layout/order.py BINARY > benches/layout/echo-libmcp.order
(benches/layout/make-order.sh builds the binary and runs this.)
"""

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

V26 = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": V26,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "order", "version": "1"},
}


def drive(cmd):
    """Serves a benchmark-like session through `cmd`; fails if an answer is missing or an error."""
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(m):
        p.stdin.write((json.dumps(m) + "\n").encode())
        p.stdin.flush()

    def answer():
        line = p.stdout.readline()
        if not line:
            sys.exit("error: the server closed its output")
        msg = json.loads(line)
        if "error" in msg:
            sys.exit(f"error: the server answered {msg}")
        return msg

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "order", "version": "1"}}})
    answer()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    answer()
    next_id = 3
    for modern in (False, True):
        for size in (64, 65536):
            for burst in (1, 32):
                for _ in range(3):
                    for _ in range(burst):
                        params = {"name": "echo", "arguments": {"text": "x" * size}}
                        if modern:
                            params["_meta"] = META
                        send({"jsonrpc": "2.0", "id": next_id, "method": "tools/call", "params": params})
                        next_id += 1
                    for _ in range(burst):
                        answer()
    p.stdin.close()
    if p.wait() != 0:
        sys.exit(f"error: the server exited with {p.returncode}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        drive(["valgrind", "-q", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}", binary])
        text = out.read_text(errors="replace")
    nm = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    code = {p[2] for p in (line.split() for line in nm.splitlines()) if len(p) == 3 and p[1] in "tTwW"}
    seen = set()
    for line in text.splitlines():
        # `fn=(id) name` and `cfn=(id) name` name a function the first time; callgrind marks
        # recursion levels with a trailing 'N.
        m = re.match(r"^c?fn=\(\d+\) (.+)$", line)
        if m:
            name = re.sub(r"'\d+$", "", m.group(1))
            if name in code and name not in seen:
                seen.add(name)
                print(name)
    if len(seen) < 100:
        sys.exit(f"error: only {len(seen)} functions of {binary} seen: is it built with symbols?")


if __name__ == "__main__":
    main()
