"""libmcp: the Model Context Protocol for Python on a native engine (both protocol eras).

A server::

    from libmcp import Server

    server = Server("demo")

    @server.tool()
    def add(a: int, b: int) -> int:
        "Adds two numbers."
        return a + b

    server.run()

A client::

    async with Client.stdio("python", ["server.py"]) as client:
        result = await client.call_tool("add", {"a": 1, "b": 2})
"""

from __future__ import annotations

import atexit as _atexit

from . import _native
from ._native import InputRequired
from .asgi import AsgiApp
from .auth import AuthInfo, OAuth, ResourceServer
from ._engine_log import sync_engine_log_level
from .client import Client
from .compat import FastMCP, MCPServer
from .content import Audio, EmbeddedResource, Image, ResourceLink
from .context import Context
from .http_request import Headers, HttpRequest
from .errors import (
    AuthError,
    Cancelled,
    ConnectionClosed,
    DefinitionError,
    InvalidArgument,
    InvalidToken,
    McpError,
    NoSessionError,
    ProtocolError,
    ProtocolViolation,
    RequestTimeout,
    ToolError,
    TransportError,
)
from .model import McpObject
from .server import Message, Server, Skill, TaskStore, ToolResult

# The engine's threads stop before the interpreter finalizes (see the native module's runtime.rs).
_atexit.register(_native.shutdown)
sync_engine_log_level()

__version__ = _native.ENGINE_VERSION


__all__ = [
    "AsgiApp",
    "Audio",
    "AuthInfo",
    "AuthError",
    "Cancelled",
    "Client",
    "ConnectionClosed",
    "Context",
    "DefinitionError",
    "EmbeddedResource",
    "FastMCP",
    "Headers",
    "HttpRequest",
    "Image",
    "InputRequired",
    "InvalidArgument",
    "InvalidToken",
    "MCPServer",
    "McpError",
    "NoSessionError",
    "McpObject",
    "OAuth",
    "Message",
    "ProtocolError",
    "ProtocolViolation",
    "RequestTimeout",
    "ResourceLink",
    "ResourceServer",
    "Server",
    "Skill",
    "sync_engine_log_level",
    "TaskStore",
    "ToolError",
    "ToolResult",
    "TransportError",
]
