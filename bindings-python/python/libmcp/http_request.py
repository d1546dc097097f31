"""The HTTP request a handler is serving, as the handler's context gives it: :class:`Headers`
(``ctx.headers``) and :class:`HttpRequest` (``ctx.request``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

__all__ = ["Headers", "HttpRequest", "RequestState"]


class Headers(Mapping[str, str]):
    """The request headers, looked up case-insensitively. A header sent several times maps to its
    values joined with ``", "`` (as HTTP allows); :meth:`get_list` gives them one by one. Keys are
    lowercase."""

    __slots__ = ("_items",)

    def __init__(self, items: list[tuple[str, str]] | None = None) -> None:
        self._items: list[tuple[str, str]] = [(k.lower(), v) for k, v in items or ()]

    def __getitem__(self, name: str) -> str:
        values = self.get_list(name)
        if not values:
            raise KeyError(name)
        return ", ".join(values)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(k for k, _ in self._items))

    def __len__(self) -> int:
        return len(dict.fromkeys(k for k, _ in self._items))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and any(k == name.lower() for k, _ in self._items)

    def get_list(self, name: str) -> list[str]:
        """Every value of header ``name``, in the order received (empty when absent)."""
        key = name.lower()
        return [v for k, v in self._items if k == key]

    def raw(self) -> list[tuple[str, str]]:
        """The headers as received: ``(name, value)`` pairs, names lowercase."""
        return list(self._items)

    def __repr__(self) -> str:
        return f"Headers({self._items!r})"


class RequestState:
    """Attribute access to the ASGI scope's ``state`` dict, where Starlette's ``request.state``
    keeps what middleware set (``request.state.tenant = ...`` reads back as
    ``ctx.request.state.tenant``)."""

    __slots__ = ("_values",)

    def __init__(self, values: dict[str, Any]) -> None:
        object.__setattr__(self, "_values", values)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"the request state has no {name!r}") from None

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def get(self, name: str, default: Any = None) -> Any:
        """The value set under ``name``, or ``default``."""
        return self._values.get(name, default)

    def __contains__(self, name: object) -> bool:
        return name in self._values

    def __repr__(self) -> str:
        return f"RequestState({self._values!r})"


class HttpRequest:
    """The HTTP request that carried the call (``ctx.request``): over a mounted endpoint
    (``server.asgi_app()``) and over the own-port server (``run("http")``); None over stdio.
    ``scope`` is the ASGI scope the application's server and middleware built (None on the
    own-port server), so ``user`` and ``state`` are what the application's middleware set there."""

    __slots__ = ("method", "target", "headers", "session_id", "scope")

    def __init__(self, method: str, target: str, headers: list[tuple[str, str]], session_id: str | None,
                 scope: dict[str, Any] | None) -> None:
        self.method = method
        #: The request target as the endpoint received it (path and query).
        self.target = target
        self.headers = Headers(headers)
        #: The ``Mcp-Session-Id`` of a legacy (2025-era) session, or None.
        self.session_id = session_id
        self.scope = scope

    @property
    def path(self) -> str:
        """The request path (without the query)."""
        return urlsplit(self.target).path

    @property
    def query(self) -> str:
        """The query string (without ``?``; empty when none)."""
        return urlsplit(self.target).query

    @property
    def user(self) -> Any:
        """``scope["user"]``: what an authentication middleware set (Starlette's
        ``AuthenticationMiddleware``, or any middleware writing ``scope["user"]``), or None."""
        return self.scope.get("user") if self.scope is not None else None

    @property
    def state(self) -> RequestState:
        """``scope["state"]`` with attribute access (empty when there is none)."""
        values = self.scope.get("state") if self.scope is not None else None
        return RequestState(values if isinstance(values, dict) else {})

    def __repr__(self) -> str:
        return f"HttpRequest({self.method} {self.target}, session_id={self.session_id!r})"
