#!/usr/bin/env python3
"""Prints the functions of a shared library that general traffic ran, one symbol per line, for the
linker to place together (ffi/build.rs).

A process touches a few hundred kilobytes of the library's code, spread over megabytes of text;
the kernel maps code around every page first touched, so scattered functions make most of the
library resident. Placed together, the code a server runs fills few pages.

Usage: ffi/layout/order.py LIBRARY CALLGRIND-OUT...
Reads callgrind's outputs (`--demangle=no`) of programs that ran LIBRARY (ffi/layout/make-order.sh
makes them from the conformance suite's server scenarios and a stdio session) and keeps every
function they name that is a defined code symbol of LIBRARY, in the order first seen (the outputs in
the order given). The first line, a comment, says how much code the list places in LIBRARY:
scripts/test.d/70-dist.sh compares the shipped build with it.
"""

import re
import subprocess
import sys
from pathlib import Path


def code_symbols(library):
    """The defined code symbols of LIBRARY (nm: T, t, W, w), each with its size in bytes."""
    nm = subprocess.run(["nm", "--defined-only", "--print-size", library], capture_output=True, text=True, check=True).stdout
    return {p[3]: int(p[1], 16) for p in (line.split() for line in nm.splitlines()) if len(p) == 4 and p[2] in "tTwW"}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    library, outputs = sys.argv[1], sys.argv[2:]
    code = code_symbols(library)
    seen = []
    known = set()
    for out in outputs:
        for line in Path(out).read_text(errors="replace").splitlines():
            # `fn=(id) name` and `cfn=(id) name` name a function the first time; callgrind marks
            # recursion levels with a trailing 'N.
            m = re.match(r"^c?fn=\(\d+\) (.+)$", line)
            if not m:
                continue
            name = re.sub(r"'\d+$", "", m.group(1))
            if name in code and name not in known:
                known.add(name)
                seen.append(name)
    if len(seen) < 500:
        sys.exit(f"error: only {len(seen)} functions of {library} seen: is it built with symbols, and did the traffic run?")
    placed = sum(code[name] for name in seen)
    print(f"# {len(seen)} functions, {placed // 1024} KiB of code")
    print("\n".join(seen))


if __name__ == "__main__":
    main()
