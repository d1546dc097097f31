"""OAuth 2.1 for MCP over HTTP, both sides; the protocol is the engine's (``libmcp::auth``).

A client authorizes with :class:`OAuth` (``Client.http(url, auth=OAuth(...))``): on a 401 or a 403
``insufficient_scope`` the engine discovers the authorization server, registers (dynamically, with a
client ID metadata document, or with pre-registered credentials), runs the authorization code flow
with PKCE through your ``authorize`` callable, stores the tokens in a :class:`TokenStore` and
refreshes them when they stop working::

    auth = OAuth(redirect_uri="http://127.0.0.1:8976/callback",
                 authorize=LocalCallback("http://127.0.0.1:8976/callback"),
                 store=FileTokenStore("~/.config/myapp/tokens.json"))
    async with Client.http("https://mcp.example.com/mcp", auth=auth) as client: ...

A server is a resource server with :class:`ResourceServer` (``server.run("http", auth=...)``): your
``verify(token)`` turns a bearer token into an :class:`AuthInfo`; the engine checks expiry, audience
and scopes (per tool too), serves the protected resource metadata and answers failures with the
RFC 6750 challenges. Handlers see the principal as ``ctx.auth``.
"""

from __future__ import annotations

import http.server
import json
import logging
import os
import threading
import urllib.parse
import webbrowser
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Protocol, TypedDict, Union

from . import _native
from ._bridge import Loop, run_then
from .errors import AuthError, InvalidToken

__all__ = [
    "AuthInfo",
    "ClientCredentials",
    "ClientCredentialsGrant",
    "EnterpriseManagedGrant",
    "FileTokenStore",
    "Grant",
    "InvalidToken",
    "JwtBearerGrant",
    "LocalCallback",
    "MemoryTokenStore",
    "OAuth",
    "ResourceServer",
    "TokenStore",
    "Tokens",
]

log = logging.getLogger("libmcp.auth")

#: The redirect URI used when none is given (the conformance suite's and many examples').
DEFAULT_REDIRECT_URI = "http://localhost:3000/callback"


# -- the principal (server side) ----------------------------------------------------------------


@dataclass(frozen=True)
class AuthInfo:
    """Who and what a verified access token stands for. A token verifier returns one; handlers read
    it as ``ctx.auth``. ``expires_at`` is Unix time in seconds; ``audience`` the resources the
    token is for (``aud``, checked against the server's resource URL unless
    ``check_audience=False``); ``claims`` anything further handlers should see."""

    subject: str | None = None
    client_id: str | None = None
    scopes: tuple[str, ...] = ()
    expires_at: int | None = None
    audience: tuple[str, ...] = ()
    claims: dict[str, Any] = field(default_factory=dict)

    def has_scopes(self, *scopes: str) -> bool:
        """Whether every one of ``scopes`` was granted."""
        return all(s in self.scopes for s in scopes)

    @classmethod
    def _from_native(cls, d: dict[str, Any]) -> AuthInfo:
        return cls(d["subject"], d["client_id"], tuple(d["scopes"]), d["expires_at"], tuple(d["audience"]),
                   d["claims"])


#: A token verifier: the bearer token in, an :class:`AuthInfo` out (``None`` or raising
#: :class:`InvalidToken` rejects it with 401; any other exception answers 503, so the client retries
#: instead of re-authorizing). Sync ones run on an engine thread; ``async def`` ones on the serving loop.
TokenVerifier = Callable[[str], Union["AuthInfo | None", Awaitable["AuthInfo | None"]]]


class ResourceServer:
    """The HTTP server as an OAuth 2.1 resource server (pass as ``auth=`` to ``run``/``serve_async``).

    ``resource`` is the canonical URL of the MCP endpoint (``https://mcp.example.com/mcp``): it is
    published in the protected resource metadata and every token's audience must name it.
    ``authorization_servers`` are the issuers clients may get tokens from. ``required_scopes`` are
    needed by every request, ``tool_scopes`` (``{tool: [scope, ...]}``, also ``@server.tool(scopes=...)``)
    by a call of that tool beyond those: without them the client gets 403 ``insufficient_scope`` and can
    step up. ``metadata`` adds members to the metadata document; ``verify_timeout`` (seconds, default
    10) bounds the verifier."""

    def __init__(
        self,
        resource: str,
        authorization_servers: list[str],
        verify: TokenVerifier,
        *,
        scopes_supported: list[str] | None = None,
        required_scopes: list[str] | None = None,
        tool_scopes: dict[str, list[str]] | None = None,
        resource_name: str | None = None,
        resource_documentation: str | None = None,
        metadata: dict[str, Any] | None = None,
        check_audience: bool = True,
        verify_timeout: float | None = None,
    ) -> None:
        if not callable(verify):
            raise TypeError("verify must be a callable taking the bearer token")
        if isinstance(authorization_servers, str):
            raise TypeError("authorization_servers must be a list of issuer URLs, not a str")
        self.resource = resource
        self.authorization_servers = list(authorization_servers)
        self.verify = verify
        self.scopes_supported = scopes_supported
        self.required_scopes = list(required_scopes or [])
        self.tool_scopes = {k: list(v) for k, v in (tool_scopes or {}).items()}
        self.resource_name = resource_name
        self.resource_documentation = resource_documentation
        self.metadata = metadata
        self.check_audience = check_audience
        self.verify_timeout = verify_timeout

    def _options(self, loop: Callable[[], Loop | None],
                 tool_scopes: dict[str, list[str]]) -> dict[str, Any]:
        """The native options, verifying on the loop ``loop()`` gives (the serving loop) when
        ``verify`` is async; ``tool_scopes`` (from the decorators) are merged under the explicit
        ones."""
        verify = self.verify

        def invoke(token: str, reply: _native.VerifyReply) -> None:
            def accepted(info: Any) -> None:
                if info is None:
                    reply.reject("the token is not valid")
                elif not isinstance(info, AuthInfo):
                    log.error("the token verifier returned %r instead of an AuthInfo or None", type(info).__name__)
                    reply.unavailable("the token verifier failed")
                else:
                    reply.accept(info.subject, info.client_id, list(info.scopes), info.expires_at,
                                 list(info.audience), dict(info.claims))

            def failed(e: BaseException) -> None:
                if isinstance(e, InvalidToken):
                    reply.reject(str(e) or "the token is not valid")
                else:
                    log.error("the token verifier failed", exc_info=e)
                    reply.unavailable("the token verifier failed")

            run_then(loop(), verify, (token,), accepted, failed)

        return {
            "resource": self.resource,
            "authorization_servers": self.authorization_servers,
            "verify": invoke,
            "scopes_supported": self.scopes_supported,
            "required_scopes": self.required_scopes,
            "tool_scopes": {**tool_scopes, **self.tool_scopes},
            "resource_name": self.resource_name,
            "resource_documentation": self.resource_documentation,
            "metadata": self.metadata,
            "check_audience": self.check_audience,
            "verify_timeout": self.verify_timeout,
        }


# -- token storage (client side) ------------------------------------------------------------------


class ClientCredentials(TypedDict):
    """A client's registration at one authorization server."""

    client_id: str
    client_secret: str | None
    token_endpoint_auth_method: str | None


class Tokens(TypedDict):
    """The tokens of one token response (``expires_at``: Unix seconds; ``scope``: as granted)."""

    access_token: str
    refresh_token: str | None
    expires_at: int | None
    scope: str | None


class TokenStore(Protocol):
    """Where registrations (per issuer) and tokens (per issuer and resource) live between flows.
    The engine calls these from its threads while a request waits: keep them quick."""

    def client(self, issuer: str) -> ClientCredentials | None: ...
    def save_client(self, issuer: str, client: ClientCredentials) -> None: ...
    def tokens(self, issuer: str, resource: str) -> Tokens | None: ...
    def save_tokens(self, issuer: str, resource: str, tokens: Tokens) -> None: ...
    def forget_tokens(self, issuer: str, resource: str) -> None: ...


class MemoryTokenStore:
    """A :class:`TokenStore` in memory (what :class:`OAuth` uses without a store; give one
    explicitly to share it between :class:`OAuth` objects)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._data: dict[str, Any] = {"clients": {}, "tokens": {}}

    @staticmethod
    def _key(issuer: str, resource: str) -> str:
        return f"{issuer} {resource}"

    def _changed(self) -> None:
        """Called (under the lock) after every change."""

    def client(self, issuer: str) -> ClientCredentials | None:
        with self._lock:
            c: ClientCredentials | None = self._data["clients"].get(issuer)
            return c

    def save_client(self, issuer: str, client: ClientCredentials) -> None:
        with self._lock:
            self._data["clients"][issuer] = dict(client)
            self._changed()

    def tokens(self, issuer: str, resource: str) -> Tokens | None:
        with self._lock:
            t: Tokens | None = self._data["tokens"].get(self._key(issuer, resource))
            return t

    def save_tokens(self, issuer: str, resource: str, tokens: Tokens) -> None:
        with self._lock:
            self._data["tokens"][self._key(issuer, resource)] = dict(tokens)
            self._changed()

    def forget_tokens(self, issuer: str, resource: str) -> None:
        with self._lock:
            if self._data["tokens"].pop(self._key(issuer, resource), None) is not None:
                self._changed()


class FileTokenStore(MemoryTokenStore):
    """A :class:`TokenStore` in a JSON file (created with mode 0600, rewritten on every change), so
    a later run reuses the registration and the tokens instead of asking the user again."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__()
        self.path = Path(path).expanduser()
        if self.path.exists():
            data = json.loads(self.path.read_text())
            if not isinstance(data, dict) or not isinstance(data.get("clients"), dict) \
                    or not isinstance(data.get("tokens"), dict):
                raise ValueError(f"{self.path} is not a token store (no 'clients' and 'tokens' objects)")
            self._data = data

    def _changed(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(self._data, f, indent=1)
        os.replace(tmp, self.path)


class _StoreAdapter:
    """What the engine calls: the user's store, with failures logged and taken as "nothing stored"."""

    def __init__(self, store: TokenStore) -> None:
        self._store = store

    def _call(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self._store, method)(*args)
        except Exception as e:  # noqa: BLE001 - a broken store must not break the connection
            log.error("the token store's %s failed", method, exc_info=e)
            return None

    def client(self, issuer: str) -> Any:
        return self._call("client", issuer)

    def save_client(self, issuer: str, client: Any) -> None:
        self._call("save_client", issuer, client)

    def tokens(self, issuer: str, resource: str) -> Any:
        return self._call("tokens", issuer, resource)

    def save_tokens(self, issuer: str, resource: str, tokens: Any) -> None:
        self._call("save_tokens", issuer, resource, tokens)

    def forget_tokens(self, issuer: str, resource: str) -> None:
        self._call("forget_tokens", issuer, resource)


# -- the client ------------------------------------------------------------------------------------

#: The user-interaction step: gets the authorization URL, returns the URL the authorization server
#: redirected back to (with ``code``, ``state``, maybe ``iss``). Raise :class:`AuthError` when the
#: user declines. Sync ones run on an engine thread (they may block); ``async def`` ones on the
#: client's event loop.
Authorize = Callable[[str], Union[str, Awaitable[str]]]


_GRANT_KEYS = ("client_id", "client_secret", "private_key_pem", "signing_algorithm", "assertion",
               "assertion_file", "idp_token_endpoint", "idp_client_id", "idp_client_secret")


@dataclass(frozen=True)
class ClientCredentialsGrant:
    """The client credentials grant (RFC 6749 §4.4), for a client acting on its own behalf: it
    authenticates with ``client_secret`` (``client_secret_basic``, or ``_post`` when the server lists
    only that) or with a ``private_key_jwt`` assertion (RFC 7523 §2.2) signed by ``private_key_pem``
    (PKCS#8 PEM; ``signing_algorithm`` ES256, RS256, ...). Give exactly one of the two."""

    client_id: str
    client_secret: str | None = None
    private_key_pem: str | None = None
    signing_algorithm: str = "ES256"

    def _native(self) -> dict[str, Any]:
        return _grant("client_credentials", client_id=self.client_id, client_secret=self.client_secret,
                      private_key_pem=self.private_key_pem, signing_algorithm=self.signing_algorithm)


@dataclass(frozen=True)
class JwtBearerGrant:
    """The JWT bearer grant (RFC 7523 §2.1) with a workload identity token: ``assertion`` itself, or
    ``assertion_file``, read at each use (such tokens are rotated on disk). ``client_id`` is sent when
    given."""

    assertion: str | None = None
    assertion_file: str | None = None
    client_id: str | None = None

    def _native(self) -> dict[str, Any]:
        return _grant("jwt_bearer", client_id=self.client_id, assertion=self.assertion,
                      assertion_file=self.assertion_file)


@dataclass(frozen=True)
class EnterpriseManagedGrant:
    """Enterprise-managed authorization: the user's ID token (``id_token`` or ``id_token_file``) is
    exchanged at the enterprise identity provider's token endpoint for an identity assertion grant
    (RFC 8693), which the MCP server's authorization server redeems for the access token; the client
    is registered there as ``client_id`` (with ``client_secret``)."""

    idp_token_endpoint: str
    idp_client_id: str
    client_id: str
    id_token: str | None = None
    id_token_file: str | None = None
    client_secret: str | None = None
    idp_client_secret: str | None = None

    def _native(self) -> dict[str, Any]:
        return _grant("enterprise_managed", idp_token_endpoint=self.idp_token_endpoint,
                      idp_client_id=self.idp_client_id, idp_client_secret=self.idp_client_secret,
                      client_id=self.client_id, client_secret=self.client_secret, assertion=self.id_token,
                      assertion_file=self.id_token_file)


#: A grant that needs no user, for ``OAuth(grant=...)``.
Grant = Union[ClientCredentialsGrant, JwtBearerGrant, EnterpriseManagedGrant]


def _grant(kind: str, **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {key: None for key in _GRANT_KEYS}
    out.update(fields)
    out["kind"] = kind
    return out


class OAuth:
    """The OAuth 2.1 client of one or more HTTP connections (``Client.http(url, auth=...)``).

    ``authorize`` runs the user interaction (:class:`LocalCallback` opens a browser and catches the
    redirect on ``redirect_uri``); without it the authorization URL is fetched and its redirect
    followed by hand, which suits authorization servers that redirect at once (pre-consented
    clients, test servers). ``client_id`` (and ``client_secret``) are pre-registered credentials, for
    the authorization server ``issuer`` or, without it, for any. ``client_metadata_url`` (HTTPS, with
    a path) is used as the client ID with servers that support client ID metadata documents;
    otherwise the client registers dynamically as ``client_name``. ``offline_access`` asks for a
    refresh token when the server offers one.

    ``grant`` replaces the authorization code flow by a grant that needs no user
    (:class:`ClientCredentialsGrant`, :class:`JwtBearerGrant`, :class:`EnterpriseManagedGrant`): a
    new token is obtained with it whenever the current one expires or is rejected. ``dpop`` binds
    the tokens to a key of the client's (RFC 9449): every request carries a DPoP proof, and nonces the
    servers ask for are used."""

    def __init__(
        self,
        *,
        client_name: str = "libmcp-python",
        redirect_uri: str = DEFAULT_REDIRECT_URI,
        authorize: Authorize | None = None,
        store: TokenStore | None = None,
        client_id: str | None = None,
        client_secret: str | None = None,
        issuer: str | None = None,
        client_metadata_url: str | None = None,
        client_uri: str | None = None,
        offline_access: bool = True,
        grant: Grant | None = None,
        dpop: bool = False,
    ) -> None:
        if grant is not None and not isinstance(grant, (ClientCredentialsGrant, JwtBearerGrant, EnterpriseManagedGrant)):
            raise TypeError(f"grant must be a ClientCredentialsGrant, JwtBearerGrant or EnterpriseManagedGrant, "
                            f"not {type(grant).__name__}")
        if client_secret is not None and client_id is None:
            raise ValueError("client_secret needs client_id")
        if issuer is not None and client_id is None:
            raise ValueError("issuer names whose client_id to use: give client_id too")
        self._loop: Loop | None = None
        options = {
            "client_name": client_name, "redirect_uri": redirect_uri, "client_id": client_id,
            "client_secret": client_secret, "issuer": issuer, "client_metadata_url": client_metadata_url,
            "client_uri": client_uri, "offline_access": offline_access,
            "grant": grant._native() if grant is not None else None, "dpop": dpop,
        }
        invoke = self._authorize_invoker(authorize) if authorize is not None else None
        self._native = _native.OAuth(options, invoke, _StoreAdapter(store) if store is not None else None)

    def _authorize_invoker(self, authorize: Authorize) -> Callable[[str, _native.AuthorizationReply], None]:
        if not callable(authorize):
            raise TypeError("authorize must be a callable taking the authorization URL")

        def invoke(url: str, reply: _native.AuthorizationReply) -> None:
            def answered(redirect: Any) -> None:
                if isinstance(redirect, str):
                    reply.send(redirect)
                else:
                    reply.fail(f"the authorize callable returned {type(redirect).__name__}, not the redirect URL")

            def failed(e: BaseException) -> None:
                if isinstance(e, AuthError):
                    reply.fail(str(e), True)
                else:
                    log.error("the authorize callable failed", exc_info=e)
                    reply.fail(f"the authorize callable failed: {e}")

            run_then(self._loop, authorize, (url,), answered, failed)

        return invoke

    def _bind(self, loop: Loop) -> _native.OAuth:
        """The native client, with async ``authorize`` callables running on ``loop``."""
        self._loop = loop
        return self._native

    @property
    def access_token(self) -> str | None:
        """The access token in use, or None before the first authorization."""
        return self._native.access_token


class LocalCallback:
    """An ``authorize`` callable for desktop programs: listens on the host and port of
    ``redirect_uri`` (an ``http://`` loopback URL), opens the authorization URL with ``open``
    (default: the web browser), and returns the redirect the browser comes back with. The browser
    sees ``page``. Raises :class:`AuthError` when nothing arrives within ``timeout`` seconds."""

    def __init__(self, redirect_uri: str = DEFAULT_REDIRECT_URI, *, open: Callable[[str], Any] = webbrowser.open,
                 timeout: float = 300.0,
                 page: str = "<!doctype html><title>Authorized</title><p>You can close this window.") -> None:
        u = urllib.parse.urlsplit(redirect_uri)
        if u.scheme != "http" or not u.hostname:
            raise ValueError(f"redirect_uri must be an http:// URL with a host, got {redirect_uri!r}")
        self.redirect_uri = redirect_uri
        self._host = u.hostname
        self._port = u.port or 80
        self._path = u.path or "/"
        self._open = open
        self._timeout = timeout
        self._page = page.encode()

    def __call__(self, authorization_url: str) -> str:
        got: list[str] = []
        arrived = threading.Event()
        path, page = self._path, self._page

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the http.server name
                if urllib.parse.urlsplit(self.path).path != path:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)
                if not got:
                    got.append(self.path)
                    arrived.set()

            def log_message(self, format: str, *args: Any) -> None:
                log.debug("callback: " + format, *args)

        with http.server.ThreadingHTTPServer((self._host, self._port), Handler) as httpd:
            serving = threading.Thread(target=httpd.serve_forever, name="libmcp-oauth-callback", daemon=True)
            serving.start()
            try:
                self._open(authorization_url)
                if not arrived.wait(self._timeout):
                    raise AuthError(f"no redirect to {self.redirect_uri} within {self._timeout:g} s")
            finally:
                httpd.shutdown()
                serving.join()
        base = urllib.parse.urlsplit(self.redirect_uri)
        return urllib.parse.urlunsplit((base.scheme, base.netloc, "", "", "")) + got[0]
