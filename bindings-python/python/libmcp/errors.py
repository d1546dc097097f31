"""The exceptions of libmcp. Engine errors are mapped to these in one place (the native module's
``errors.rs``); every class derives from :class:`McpError`."""

from __future__ import annotations

from typing import Any

__all__ = [
    "AuthError",
    "Cancelled",
    "ConnectionClosed",
    "DefinitionError",
    "InvalidArgument",
    "InvalidToken",
    "McpError",
    "NoSessionError",
    "ProtocolError",
    "ProtocolViolation",
    "RequestTimeout",
    "ToolError",
    "TransportError",
]


class McpError(Exception):
    """Base class of every libmcp error."""


class ProtocolError(McpError):
    """The peer answered with a JSON-RPC error; ``code``, ``message`` and ``data`` are as it sent them.

    Raised by a server handler, it is sent to the client unchanged (a protocol error, not a tool
    error)."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(code, message, data)
        self.code = code
        self.message = message
        self.data = data

    def __str__(self) -> str:
        return f"{self.message} (code {self.code})"


class ProtocolViolation(McpError):
    """The peer broke the protocol (an invalid response), or no protocol version suits both sides."""


class TransportError(McpError, ConnectionError):
    """Moving bytes failed: I/O, an HTTP exchange, an unexpected HTTP status."""


class ConnectionClosed(TransportError):
    """The connection is closed, or closed before the answer arrived."""


class RequestTimeout(McpError, TimeoutError):
    """No response arrived in time; ``seconds`` is the timeout that expired."""

    def __init__(self, message: str, seconds: float) -> None:
        super().__init__(message)
        self.seconds = seconds


class Cancelled(McpError):
    """The request was cancelled locally."""


class AuthError(McpError):
    """OAuth authorization failed."""


class InvalidToken(AuthError):
    """Raised by a resource server's token verifier: the token is unknown, expired, revoked or not
    for this server. The client gets 401 ``invalid_token`` with this message as
    ``error_description``."""


class InvalidArgument(McpError, ValueError):
    """A value given to the API is invalid."""


class DefinitionError(InvalidArgument):
    """A tool, resource, template or prompt definition (or the server's configuration) is invalid."""


class NoSessionError(McpError):
    """The request belongs to no session, so nothing can be sent to one after it: a 2026-07-28
    request (that revision has no sessions), or a legacy request served without one."""


class ToolError(McpError):
    """Raised by a tool handler: the client gets a tool result with ``isError: true`` and this
    message, which the model can see (not a protocol error)."""
