"""Results as the client returns them: JSON objects with attribute access.

``result.structured_content`` reads the wire key ``structuredContent`` (snake_case names map to the
camelCase keys of the protocol, as in the official SDK's models); ``result["structuredContent"]``
works too; ``result.model_dump()`` gives the JSON as sent.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

__all__ = ["McpObject", "wrap"]

_CAMEL = re.compile(r"_([a-z])")


def _camel(name: str) -> str:
    if name == "meta":
        return "_meta"
    return _CAMEL.sub(lambda m: m.group(1).upper(), name)


def wrap(value: Any) -> Any:
    """Objects become :class:`McpObject`, lists are wrapped item by item, the rest is unchanged."""
    if isinstance(value, dict):
        return McpObject(value)
    if isinstance(value, list):
        return [wrap(v) for v in value]
    return value


class McpObject:
    """A JSON object from the server, read by attribute (snake_case or the wire's camelCase) or by key.
    A key the object does not have reads as ``None`` by attribute and raises ``KeyError`` by key."""

    __slots__ = ("_data",)

    def __init__(self, data: dict[str, Any]) -> None:
        object.__setattr__(self, "_data", data)

    def __getattr__(self, name: str) -> Any:
        data = object.__getattribute__(self, "_data")
        if name in data:
            return wrap(data[name])
        key = _camel(name)
        if key in data:
            return wrap(data[key])
        if name.startswith("__"):
            raise AttributeError(name)
        return None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("results are read-only; use model_dump() for a mutable copy")

    def __getitem__(self, key: str) -> Any:
        return wrap(self._data[key])

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, McpObject):
            return bool(self._data == other._data)
        if isinstance(other, dict):
            return bool(self._data == other)
        return NotImplemented

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._data!r})"

    def get(self, key: str, default: Any = None) -> Any:
        """The value at ``key`` (wrapped), or ``default``."""
        return wrap(self._data[key]) if key in self._data else default

    def model_dump(self) -> dict[str, Any]:
        """The JSON object as the server sent it (a deep copy)."""
        import copy

        return copy.deepcopy(self._data)
