"""Relay stdio to an MCP server process and log every line in both directions.

Usage: wire_tap.py LOGFILE -- COMMAND [ARGS...]

Lines the client writes are logged as `-> ...`, lines the server writes as `<- ...`, each in the order they
pass through. The interop tests put this in front of a server when LIBMCP_INTEROP_WIRE_DIR is set, so a
failing exchange can be reported with the exact messages on the wire.
"""

import subprocess
import sys
import threading


def main() -> int:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    log = open(sys.argv[1], "a", encoding="utf-8", buffering=1)
    lock = threading.Lock()

    def record(arrow: str, line: bytes) -> None:
        with lock:
            log.write(f"{arrow} {line.decode('utf-8', 'replace').rstrip()}\n")

    child = subprocess.Popen(sys.argv[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None

    def client_to_server() -> None:
        for line in sys.stdin.buffer:
            record("->", line)
            try:
                child.stdin.write(line)
                child.stdin.flush()
            except BrokenPipeError:
                break
        record("--", b"client closed stdin")
        try:
            child.stdin.close()
        except BrokenPipeError:
            pass

    threading.Thread(target=client_to_server, daemon=True).start()
    for line in child.stdout:
        record("<-", line)
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
    code = child.wait()
    record("--", f"server exited with {code}".encode())
    return code


if __name__ == "__main__":
    sys.exit(main())
