"""The official Python SDK's server classes on libmcp: :class:`FastMCP` (``mcp.server.fastmcp``,
mcp 1.x) and :class:`MCPServer` (``mcp.server.mcpserver``, mcp 2.x), with their constructor
signatures, settings and ``run()``, so that a server written for the SDK runs by changing its
import line. Results and errors follow the SDK (``Server._sdk_results``). Each SDK keyword that
libmcp does not support is refused with a TypeError naming it and what to use instead."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

from ._routes import CustomRoutes, RouteHandler
from .asgi import AsgiApp
from .auth import ResourceServer
from .server import Server

__all__ = ["FastMCP", "MCPServer", "Settings"]

log = logging.getLogger("libmcp.server")

#: SDK keywords libmcp refuses, with what to use instead.
_REFUSED: dict[str, str] = {
    "auth_server_provider": "libmcp serves as an OAuth resource server only: "
                            "run('streamable-http', auth=libmcp.ResourceServer(...))",
    "token_verifier": "run('streamable-http', auth=libmcp.ResourceServer(...)) verifies tokens",
    "auth": "run('streamable-http', auth=libmcp.ResourceServer(...))",
    "event_store": "the engine keeps resumable streams itself; share them across instances with redis=",
    "tools": "register tools with @server.tool() or server.add_tool(fn)",
    "resources": "register resources with @server.resource(uri) or server.add_resource(fn, uri)",
    "extensions": "none (libmcp serves the skills extension with skills=[...])",
    "resource_security": "none",
    "request_state_security": "state_key= (the key that seals requestState)",
    "cache_hints": "none",
    "subscriptions": "none: the engine serves subscriptions/listen itself (redis= shares it)",
    "middleware": "mount server.asgi_app() in an ASGI app and use its middleware",
}


def _refuse(cls: str, given: dict[str, Any]) -> None:
    for key, value in given.items():
        if value is not None and value != ():
            raise TypeError(f"{cls}({key}=...) is not supported by libmcp; instead: {_REFUSED[key]}")


def _dump(value: Any) -> Any:
    """An SDK pydantic object (``Icon``, ``ToolAnnotations``, ``TransportSecuritySettings``, ...)
    as a dict; anything else unchanged."""
    dump = getattr(value, "model_dump", None)
    return dump(mode="json", by_alias=True, exclude_none=True) if callable(dump) else value


@dataclass
class Settings:
    """``server.settings``: the SDK's settings that libmcp uses (read when ``run()`` starts)."""

    host: str = "127.0.0.1"
    port: int = 8000
    mount_path: str = "/"
    sse_path: str = "/sse"
    message_path: str = "/messages/"
    streamable_http_path: str = "/mcp"
    json_response: bool = False
    stateless_http: bool = False
    debug: bool = False
    log_level: str = "INFO"
    max_request_body_size: int = 4 * 1024 * 1024
    session_idle_timeout: float | None = 30 * 60
    max_sessions: int | None = 10_000
    warn_on_duplicate_resources: bool = True
    warn_on_duplicate_tools: bool = True
    warn_on_duplicate_prompts: bool = True
    dependencies: list[str] = field(default_factory=list)
    transport_security: Any = None
    #: The SSE ``retry`` field in milliseconds (the SDK's ``retry_interval``); None: the engine's 1 s.
    retry_interval: int | None = None


#: The SDK's log levels (``log_level=``), as its ``Literal`` type lists them.
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _configure_logging(level: str) -> None:
    """The SDK's ``configure_logging``: the root logger at ``level`` with one handler on stderr
    (``logging.basicConfig``, a no-op when the program configured logging already)."""
    if level not in _LOG_LEVELS:
        raise ValueError(f"log_level must be one of {', '.join(_LOG_LEVELS)}, not {level!r}")
    logging.basicConfig(level=level, format="%(message)s", handlers=[logging.StreamHandler()])


class _SdkServer(Server):
    """What FastMCP and MCPServer share: SDK results, settings, ``run()`` transports."""

    settings: Settings

    def _setup(self, settings: Settings, icons: list[Any] | None) -> None:
        self.settings = settings
        self.dependencies = settings.dependencies
        self._icons = [_dump(i) for i in icons] if icons else None
        self._custom_routes = CustomRoutes()
        _configure_logging(settings.log_level)

    def _claim(self, kind: str, key: str) -> bool:
        # The SDK keeps the first registration of a name; warn_on_duplicate_* decide the warning.
        if key not in self._names[kind]:
            return True
        if getattr(self.settings, f"warn_on_duplicate_{kind}s", True):
            log.warning("%s already exists: %s (the first registration stays)", kind.capitalize(), key)
        return False

    def custom_route(self, path: str, methods: list[str], name: str | None = None,
                     include_in_schema: bool = True) -> Callable[[RouteHandler], RouteHandler]:
        """Registers an HTTP route beside the MCP endpoint, as the SDK's: ``async def
        handler(request: starlette.requests.Request) -> starlette.responses.Response``. Not behind
        the OAuth check (health checks, OAuth callbacks). A server with custom routes is served by
        uvicorn as a Starlette app (``run("streamable-http")``, ``run("sse")``,
        ``streamable_http_app()``); over stdio they are not served."""
        return self._custom_routes.add(path, methods, name, include_in_schema)

    def _http_options(self, transport: str, overrides: dict[str, Any]) -> tuple[str, int, dict[str, Any]]:
        s = self.settings
        known = {"host", "port", "mount_path", "sse_path", "message_path", "streamable_http_path", "json_response",
                 "stateless_http", "max_request_body_size", "session_idle_timeout", "max_sessions",
                 "transport_security", "retry_interval"}
        for key, value in overrides.items():
            if key == "auth" and isinstance(value, ResourceServer):
                continue
            if key in _REFUSED:
                _refuse(type(self).__name__ + ".run", {key: value})
            if key not in known:
                raise TypeError(f"run() got an unexpected keyword argument {key!r}")
            setattr(s, key, value)
        options = self._endpoint_options()
        options["auth"] = overrides.get("auth")
        if transport == "sse":
            options["http_sse"] = True
            mount = s.mount_path.rstrip("/")
            options["sse_path"] = mount + s.sse_path
            options["messages_path"] = mount + s.message_path.rstrip("/")
        else:
            options["path"] = s.streamable_http_path
        return s.host, s.port, options

    def _endpoint_options(self) -> dict[str, Any]:
        """The settings as the engine's HTTP options, for its own server and the mounted app."""
        s = self.settings
        options: dict[str, Any] = {
            "max_body_bytes": s.max_request_body_size,
            "max_sessions": _unbounded(s.max_sessions, "max_sessions"),
            "session_idle_timeout": _unbounded(s.session_idle_timeout, "session_idle_timeout"),
            # The SDK's json_response: every POST answered with one JSON body (core's
            # HttpServerConfig::json_response); its stateless_http: no session for 2025-era
            # clients (HttpServerConfig::legacy_stateless). The 2026-07-28 wire is stateless anyway.
            "json_response": s.json_response,
            "legacy_stateless": s.stateless_http,
            "sse_retry": None if s.retry_interval is None else _retry_seconds(s.retry_interval),
        }
        security = _dump(s.transport_security)
        if isinstance(security, dict):
            options["dns_rebinding_protection"] = security.get("enable_dns_rebinding_protection")
            # The SDK lists "host:port" patterns; the engine checks host names on any port.
            options["allowed_hosts"] = _host_names(security.get("allowed_hosts"))
            options["allowed_origins"] = security.get("allowed_origins") or None
        return options

    def _run(self, transport: str, overrides: dict[str, Any]) -> None:
        if transport == "stdio":
            if overrides:
                raise TypeError(f"run('stdio') takes no options, got {sorted(overrides)}")
            Server.run(self, "stdio")
            return
        if transport not in ("sse", "streamable-http"):
            raise ValueError(f"Unknown transport: {transport} (stdio, sse, streamable-http)")
        try:
            asyncio.run(self._serve_http(transport, overrides))
        except KeyboardInterrupt:
            pass

    async def _serve_http(self, transport: str, overrides: dict[str, Any]) -> None:
        """Serves HTTP on the running loop: the engine's own server, or with custom routes the
        Starlette app under uvicorn (lifespan included)."""
        host, port, options = self._http_options(transport, overrides)
        if not self._custom_routes.routes:
            await self.serve_async("http", _ip(host), port, **options)
            return
        path = options["path"] if transport != "sse" else options["sse_path"]
        for engine_only in ("path", "sse_path", "messages_path"):
            options.pop(engine_only, None)
        if host in ("127.0.0.1", "localhost", "::1") and options.get("allowed_hosts") is None:
            # As the engine's own server checks Host on a loopback address (DNS rebinding).
            options["allowed_hosts"] = ["localhost", "127.0.0.1", "[::1]"]
        app = self._custom_routes.app(self.asgi_app(**options), self.settings.debug)
        await self._custom_routes.serve(app, _ip(host), port, path, self.settings.log_level)

    async def run_stdio_async(self) -> None:
        """Serves stdio on the running loop."""
        await self.serve_async("stdio")

    async def run_streamable_http_async(self) -> None:
        """Serves Streamable HTTP on the running loop (host, port and path from the settings)."""
        await self._serve_http("streamable-http", {})

    async def run_sse_async(self, mount_path: str | None = None) -> None:
        """Serves the 2024-11-05 HTTP+SSE transport on the running loop."""
        if mount_path is not None:
            self.settings.mount_path = mount_path
        await self._serve_http("sse", {})

    def streamable_http_app(self, **options: Any) -> Any:
        """The Streamable HTTP endpoint as an ASGI app (:meth:`Server.asgi_app`) with the settings
        applied (``json_response``, ``stateless_http``, ``retry_interval``, the limits and, when
        given, ``transport_security``), ``options`` over them; with custom routes, a Starlette
        app of those routes and the endpoint on every other path."""
        return self._with_routes(self.asgi_app(**{**self._mount_options(), **options}))

    def sse_app(self, mount_path: str | None = None) -> Any:
        """The endpoint as an ASGI app serving the 2024-11-05 HTTP+SSE transport too (its paths
        end in ``/sse`` and ``/messages`` under where the app is mounted), with the settings and
        the custom routes as :meth:`streamable_http_app` has them."""
        return self._with_routes(self.asgi_app(**{**self._mount_options(), "http_sse": True}))

    def _mount_options(self) -> dict[str, Any]:
        return {k: v for k, v in self._endpoint_options().items() if v is not None}

    def _with_routes(self, endpoint: AsgiApp) -> Any:
        return self._custom_routes.app(endpoint, self.settings.debug) if self._custom_routes.routes else endpoint


def _ip(host: str) -> str:
    # The engine binds IP addresses; the SDK's settings may name the loopback host.
    if host == "localhost":
        return "127.0.0.1"
    import ipaddress

    try:
        ipaddress.ip_address(host)
    except ValueError:
        raise ValueError(f"host={host!r}: libmcp's HTTP server listens on an IP address (\"0.0.0.0\", "
                         "\"127.0.0.1\", \"::\") or \"localhost\", not a host name it would have to resolve") from None
    return host


#: What stands for "no limit" (the SDK's None) where the engine takes a number: about 31 years, and
#: more sessions than memory holds.
_NO_LIMIT = {"max_sessions": 2**62, "session_idle_timeout": 10**9}


def _unbounded(value: float | None, key: str) -> float | None:
    return _NO_LIMIT[key] if value is None else value


def _retry_seconds(milliseconds: int) -> float:
    if isinstance(milliseconds, bool) or not isinstance(milliseconds, int) or milliseconds < 0:
        raise ValueError(f"retry_interval must be a non-negative number of milliseconds, not {milliseconds!r}")
    return milliseconds / 1000


def _host_names(patterns: list[str] | None) -> list[str] | None:
    if not patterns:
        return None
    names = []
    for p in patterns:
        name = p[:-2] if p.endswith(":*") else p
        if name not in names:
            names.append(name)
    return names


class FastMCP(_SdkServer):
    """The official SDK 1.x ``FastMCP`` (``mcp.server.fastmcp``) on libmcp: the same constructor
    (the second positional argument is ``instructions``), settings, ``run()``, results and errors
    (exception messages reach the client unless ``mask_error_details=True``). libmcp's own
    :class:`Server` options are accepted as keywords too (``versions=``, ``redis=``, limits)."""

    _sdk_results = 1

    def __init__(
        self,
        name: str | None = None,
        instructions: str | None = None,
        website_url: str | None = None,
        icons: list[Any] | None = None,
        auth_server_provider: Any = None,
        token_verifier: Any = None,
        event_store: Any = None,
        retry_interval: int | None = None,
        *,
        tools: list[Any] | None = None,
        debug: bool = False,
        log_level: str = "INFO",
        host: str = "127.0.0.1",
        port: int = 8000,
        mount_path: str = "/",
        sse_path: str = "/sse",
        message_path: str = "/messages/",
        streamable_http_path: str = "/mcp",
        json_response: bool = False,
        stateless_http: bool = False,
        max_request_body_size: int = 4 * 1024 * 1024,
        session_idle_timeout: float | None = 30 * 60,
        max_sessions: int | None = 10_000,
        warn_on_duplicate_resources: bool = True,
        warn_on_duplicate_tools: bool = True,
        warn_on_duplicate_prompts: bool = True,
        dependencies: Collection[str] = (),
        lifespan: Callable[[Any], AbstractAsyncContextManager[Any]] | None = None,
        auth: Any = None,
        transport_security: Any = None,
        mask_error_details: bool = False,
        version: str = "0.1.0",
        **options: Any,
    ) -> None:
        _refuse("FastMCP", {"auth_server_provider": auth_server_provider, "token_verifier": token_verifier,
                            "event_store": event_store, "tools": tools, "auth": auth})
        super().__init__(name or "FastMCP", version, instructions, website_url=website_url,
                         mask_error_details=mask_error_details, lifespan=lifespan, icons=_icons(icons), **options)
        self._setup(Settings(
            host=host, port=port, mount_path=mount_path, sse_path=sse_path, message_path=message_path,
            streamable_http_path=streamable_http_path, json_response=json_response,
            stateless_http=stateless_http, debug=debug, log_level=log_level,
            max_request_body_size=max_request_body_size, session_idle_timeout=session_idle_timeout,
            max_sessions=max_sessions, warn_on_duplicate_resources=warn_on_duplicate_resources,
            warn_on_duplicate_tools=warn_on_duplicate_tools, warn_on_duplicate_prompts=warn_on_duplicate_prompts,
            dependencies=list(dependencies), transport_security=transport_security,
            retry_interval=retry_interval), icons)
        self._instructions = instructions

    @property
    def instructions(self) -> str | None:
        """The instructions given to clients."""
        return self._instructions

    def run(self, transport: str = "stdio", mount_path: str | None = None,  # type: ignore[override]
            **libmcp_options: Any) -> None:
        """Serves on ``transport``: ``"stdio"``, ``"streamable-http"`` (on the settings' host, port
        and path) or ``"sse"`` (the 2024-11-05 HTTP+SSE transport, beside Streamable HTTP)."""
        if mount_path is not None:
            self.settings.mount_path = mount_path
        self._run(transport, libmcp_options)


class MCPServer(_SdkServer):
    """The official SDK 2.x ``MCPServer`` (``mcp.server.mcpserver``) on libmcp: the same
    constructor (``name, title, description, instructions, ...``), ``run(transport, **options)``,
    results and errors (a tool's unexpected exception is masked as ``Error executing tool NAME``
    unless ``mask_error_details=False``)."""

    _sdk_results = 2

    def __init__(
        self,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        instructions: str | None = None,
        website_url: str | None = None,
        icons: list[Any] | None = None,
        version: str = "",
        auth_server_provider: Any = None,
        token_verifier: Any = None,
        *,
        tools: list[Any] | None = None,
        resources: list[Any] | None = None,
        extensions: Any = None,
        debug: bool = False,
        log_level: str = "INFO",
        warn_on_duplicate_resources: bool = True,
        warn_on_duplicate_tools: bool = True,
        warn_on_duplicate_prompts: bool = True,
        dependencies: list[str] | None = None,
        lifespan: Callable[[Any], AbstractAsyncContextManager[Any]] | None = None,
        auth: Any = None,
        resource_security: Any = None,
        request_state_security: Any = None,
        cache_hints: Any = None,
        subscriptions: Any = None,
        middleware: Any = None,
        mask_error_details: bool = True,
        **options: Any,
    ) -> None:
        _refuse("MCPServer", {"auth_server_provider": auth_server_provider, "token_verifier": token_verifier,
                              "tools": tools, "resources": resources, "extensions": extensions, "auth": auth,
                              "resource_security": resource_security,
                              "request_state_security": request_state_security, "cache_hints": cache_hints,
                              "subscriptions": subscriptions, "middleware": middleware})
        super().__init__(name or "mcp-server", version or "0.1.0", instructions, title=title,
                         description=description, website_url=website_url, mask_error_details=mask_error_details,
                         lifespan=lifespan, icons=_icons(icons), **options)
        self._setup(Settings(debug=debug, log_level=log_level, warn_on_duplicate_resources=warn_on_duplicate_resources,
                             warn_on_duplicate_tools=warn_on_duplicate_tools,
                             warn_on_duplicate_prompts=warn_on_duplicate_prompts,
                             dependencies=list(dependencies or [])), icons)
        self._instructions = instructions

    @property
    def instructions(self) -> str | None:
        """The instructions given to clients."""
        return self._instructions

    def run(self, transport: str = "stdio", **options: Any) -> None:  # type: ignore[override]
        """Serves on ``transport``: ``"stdio"``, ``"streamable-http"`` or ``"sse"``; the options are
        the SDK's (``host``, ``port``, ``streamable_http_path``, ``json_response``, ...)."""
        self._run(transport, options)

    async def run_streamable_http_async(self, **options: Any) -> None:
        """Serves Streamable HTTP on the running loop."""
        await self._serve_http("streamable-http", options)


def _icons(icons: list[Any] | None) -> list[dict[str, Any]] | None:
    return [_dump(i) for i in icons] if icons else None

