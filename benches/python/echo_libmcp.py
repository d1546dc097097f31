"""Echo server on libmcp (sync handler, or `--async` for an `async def` one), stdio."""

import sys

from libmcp import Server

server = Server("echo-libmcp", "1.0.0")

if "--async" in sys.argv:

    @server.tool()
    async def echo(text: str) -> str:
        """Echoes the text."""
        return text

else:

    @server.tool()
    def echo(text: str) -> str:
        """Echoes the text."""
        return text


server.run()
