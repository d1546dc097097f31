"""The same echo server on the official SDK's MCPServer, stdio."""

from mcp.server.mcpserver import MCPServer

server = MCPServer(name="echo-sdk", version="1.0.0")


@server.tool()
def echo(text: str) -> str:
    """Echoes the text."""
    return text


server.run()
