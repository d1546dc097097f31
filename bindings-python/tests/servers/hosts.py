"""The Python server of the cross-host test (``test_hosts.py``): named and described as
``tests/hosts/expectations.json`` says, with the instructions of ``HOSTS_INSTRUCTIONS`` when set."""

from __future__ import annotations

import os

from libmcp import Server

server = Server("hosts", "1.0.0", instructions=os.environ.get("HOSTS_INSTRUCTIONS"))

if __name__ == "__main__":
    server.run()
