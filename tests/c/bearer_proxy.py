"""A reverse proxy that adds `Authorization: Bearer TOKEN` to every request that has none, so a client
that cannot send a token (the conformance suite's server scenarios) reaches an OAuth-protected MCP
server. Everything else passes unchanged in both directions, `Host` and `Origin` included (the
server's DNS-rebinding checks see what the client sent), and responses stream through as they
arrive (SSE). Standard library only.

Usage: bearer_proxy.py PORT UPSTREAM-PORT TOKEN
Listens on 127.0.0.1:PORT (0: a free one), relays to 127.0.0.1:UPSTREAM-PORT and prints
"listening on http://127.0.0.1:PORT/mcp" on stderr once it accepts connections.
"""

from __future__ import annotations

import http.client
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection"}


def handler(upstream_port: int, token: str) -> type[BaseHTTPRequestHandler]:
    class Relay(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_args: object) -> None:
            pass

        def relay(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else None
            up = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=600)
            up.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
            for name, value in self.headers.items():
                if name.lower() not in HOP:
                    up.putheader(name, value)
            if "authorization" not in self.headers:
                up.putheader("Authorization", f"Bearer {token}")
            up.endheaders(body)
            answer = up.getresponse()
            self.send_response_only(answer.status, answer.reason)
            sized = answer.getheader("content-length") is not None
            for name, value in answer.getheaders():
                if name.lower() not in HOP:
                    self.send_header(name, value)
            if not sized:
                self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                while chunk := answer.read1(65536):
                    self.wfile.write(chunk if sized else b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.flush()
                if not sized:
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
            except OSError:
                # The client went away: so does the upstream response.
                self.close_connection = True
            finally:
                up.close()

        do_GET = do_POST = do_DELETE = relay

    return Relay


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    port, upstream, token = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    server = ThreadingHTTPServer(("127.0.0.1", port), handler(upstream, token))
    server.daemon_threads = True
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/mcp", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
