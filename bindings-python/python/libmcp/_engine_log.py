"""The engine's diagnostics (a handler timeout, a refused request, a child server's stderr, ...) as
records of the ``logging`` logger ``libmcp.engine``: the engine drops events below the logger's
effective level before calling Python, so a disabled level costs nothing. The level is read when the
package is imported and whenever a server starts serving or a client connects; after changing it
at another time, call :func:`sync_engine_log_level`."""

from __future__ import annotations

import logging

from . import _native

__all__ = ["ENGINE_LOGGER", "sync_engine_log_level"]

#: Where the engine's events go; ``record.engine_target`` is the engine module that emitted it.
ENGINE_LOGGER = logging.getLogger("libmcp.engine")


def _emit(level: int, target: str, message: str) -> None:
    if ENGINE_LOGGER.isEnabledFor(level):
        ENGINE_LOGGER.log(level, "%s", message, extra={"engine_target": target})


def sync_engine_log_level() -> None:
    """Tells the engine the least severe level ``libmcp.engine`` takes now."""
    level = ENGINE_LOGGER.getEffectiveLevel()
    _native.set_engine_log(level if ENGINE_LOGGER.isEnabledFor(level) else logging.CRITICAL + 1, _emit)
