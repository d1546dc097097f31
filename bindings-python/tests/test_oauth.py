"""OAuth 2.1 end to end: the Python client (``auth=OAuth(...)``) against a Python resource server
(``auth=ResourceServer(...)``, sync and async verifiers) and the authorization server of
``servers/oauth_as.py``: discovery, dynamic registration, PKCE, the exact ``resource``, per-tool
scopes and step-up, refresh, token storage, the redirect callback, and the resource server's
answers on the wire (metadata, 401, 403, 503)."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support import HERE, LEGACY, MODERN, run, serving

from libmcp import AuthError, AuthInfo, Client, Context, DefinitionError, InvalidToken, OAuth, ResourceServer, Server
from libmcp.auth import (ClientCredentialsGrant, EnterpriseManagedGrant, FileTokenStore, JwtBearerGrant, LocalCallback,
                         MemoryTokenStore)

sys.path.insert(0, str(HERE / "servers"))
from oauth_as import AuthorizationServer  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ResourceProcess:
    """A libmcp Python server serving HTTP as a resource server, on a loop in a thread."""

    def __init__(self, server: Server, auth: ResourceServer, port: int) -> None:
        self.url = ""
        ready = threading.Event()
        self.loop = asyncio.new_event_loop()

        def started(url: str) -> None:
            self.url = url
            ready.set()

        async def main() -> None:
            await server.serve_async("http", port=port, auth=auth, ready=started)

        self.task = self.loop.create_task(main())
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert ready.wait(30), "the resource server did not start"

    def _run(self) -> None:
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(10)


def whoami_server() -> Server:
    server = Server("oauth-test", "1.0.0")

    @server.tool()
    def whoami(ctx: Context) -> dict[str, Any]:
        """The caller's principal."""
        a = ctx.auth
        assert a is not None
        return {"subject": a.subject, "scopes": list(a.scopes), "client": a.client_id, "tier": a.claims.get("tier")}

    @server.tool(scopes=["mcp:admin"])
    def admin() -> str:
        """Needs mcp:admin."""
        return "done"

    return server


@pytest.fixture
def authz() -> Iterator[AuthorizationServer]:
    a = AuthorizationServer().start()
    yield a
    a.stop()


def resource_server(authz: AuthorizationServer, port: int, is_async: bool = False, **options: Any) -> ResourceServer:
    resource = f"http://127.0.0.1:{port}/mcp"

    def lookup(token: str) -> AuthInfo | None:
        g = authz.lookup(token)
        if g is None:
            return None
        return AuthInfo(subject=g.subject, client_id=g.client_id, scopes=tuple(g.scope.split()),
                        expires_at=g.expires_at, audience=(g.resource,) if g.resource else (),
                        claims={"tier": "gold"})

    async def lookup_async(token: str) -> AuthInfo | None:
        await asyncio.sleep(0)
        return lookup(token)

    return ResourceServer(resource, [authz.issuer], lookup_async if is_async else lookup,
                          scopes_supported=["mcp:read", "mcp:admin"], required_scopes=["mcp:read"], **options)


@pytest.fixture(params=[False, True], ids=["sync-verifier", "async-verifier"])
def protected(request: pytest.FixtureRequest, authz: AuthorizationServer) -> Iterator[ResourceProcess]:
    port = free_port()
    p = ResourceProcess(whoami_server(), resource_server(authz, port, request.param), port)
    yield p
    p.stop()


@pytest.mark.parametrize("version", [MODERN, LEGACY], ids=["modern", "legacy"])
def test_authorization_code_flow(protected: ResourceProcess, authz: AuthorizationServer, version: str) -> None:
    auth = OAuth(client_name="pytest-client", redirect_uri="http://127.0.0.1:9/callback")

    async def main() -> Any:
        async with Client.http(protected.url, auth=auth, protocol_version=version) as c:
            await c.list_tools()
            return await c.call_tool("whoami")

    assert auth.access_token is None
    result = run(main())
    assert result.structured_content == {"subject": "user-1", "scopes": ["mcp:read"], "client": "client-1",
                                         "tier": "gold"}
    # One registration, one authorization, one code exchange, whatever the era.
    assert [r["client_name"] for r in authz.registrations] == ["pytest-client"]
    assert authz.registrations[0]["redirect_uris"] == ["http://127.0.0.1:9/callback"]
    [asked] = authz.authorizations
    assert asked["response_type"] == "code" and asked["code_challenge_method"] == "S256"
    assert asked["resource"] == protected.url  # exactly as the metadata publishes it
    # The challenge's scope, plus offline_access (a refresh token) as the server lists it.
    assert asked["scope"].split() == ["mcp:read", "offline_access"]
    [exchange] = authz.token_requests
    assert exchange["grant_type"] == "authorization_code" and exchange["resource"] == protected.url
    assert auth.access_token is not None and authz.lookup(auth.access_token) is not None


def test_step_up_for_a_tool_scope(protected: ResourceProcess, authz: AuthorizationServer) -> None:
    auth = OAuth()
    assert run(_whoami(protected.url, OAuth(offline_access=False))).structured_content["scopes"] == ["mcp:read"]
    assert authz.authorizations.pop()["scope"] == "mcp:read"  # no refresh token asked for

    async def main() -> tuple[Any, Any]:
        async with Client.http(protected.url, auth=auth) as c:
            first = await c.call_tool("whoami")
            await c.call_tool("admin")  # 403 insufficient_scope, then a second authorization
            return first, await c.call_tool("whoami")

    first, second = run(main())
    assert first.structured_content["scopes"] == ["mcp:read"]
    assert sorted(second.structured_content["scopes"]) == ["mcp:admin", "mcp:read"]
    assert [sorted(a["scope"].split()) for a in authz.authorizations] == [
        ["mcp:read", "offline_access"], ["mcp:admin", "mcp:read", "offline_access"]]


def test_refresh_when_the_token_stops_working(protected: ResourceProcess, authz: AuthorizationServer) -> None:
    auth = OAuth()

    async def main() -> Any:
        async with Client.http(protected.url, auth=auth) as c:
            await c.call_tool("whoami")
            assert auth.access_token is not None
            authz.revoke(auth.access_token)
            return await c.call_tool("whoami")

    assert run(main()).structured_content["subject"] == "user-1"
    assert len(authz.authorizations) == 1  # no second user interaction
    assert [t["grant_type"] for t in authz.token_requests] == ["authorization_code", "refresh_token"]


def test_file_token_store_reused_by_a_later_client(protected: ResourceProcess, authz: AuthorizationServer,
                                                   tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"

    async def once() -> Any:
        async with Client.http(protected.url, auth=OAuth(store=FileTokenStore(path))) as c:
            return await c.call_tool("whoami")

    run(once())
    saved = json.loads(path.read_text())
    assert path.stat().st_mode & 0o777 == 0o600
    assert list(saved["clients"]) == [authz.issuer]
    assert saved["clients"][authz.issuer]["client_id"] == "client-1"
    [tokens] = saved["tokens"].values()
    assert authz.lookup(tokens["access_token"]) is not None and tokens["refresh_token"]
    run(once())  # a new OAuth object and store: the saved registration and token are used
    assert len(authz.registrations) == 1 and len(authz.authorizations) == 1


def test_memory_store_shared_and_broken_store(protected: ResourceProcess, authz: AuthorizationServer) -> None:
    class Broken(MemoryTokenStore):
        def tokens(self, issuer: str, resource: str) -> Any:
            raise OSError("disk on fire")

    async def call(auth: OAuth) -> Any:
        async with Client.http(protected.url, auth=auth) as c:
            return await c.call_tool("whoami")

    shared = MemoryTokenStore()
    run(call(OAuth(store=shared)))
    run(call(OAuth(store=shared)))
    assert len(authz.authorizations) == 1
    # A store that fails is taken as empty (and logged): the flow runs again and still succeeds.
    assert run(call(OAuth(store=Broken()))).structured_content["subject"] == "user-1"
    assert len(authz.authorizations) == 2


def test_local_callback_catches_the_redirect(protected: ResourceProcess, authz: AuthorizationServer) -> None:
    redirect = f"http://127.0.0.1:{free_port()}/callback"
    pages: list[bytes] = []

    def browser(url: str) -> None:
        # What a browser does: GET the authorization URL and follow its redirect to the callback.
        def visit() -> None:
            with urllib.request.urlopen(url, timeout=10) as r:
                pages.append(r.read())

        threading.Thread(target=visit).start()

    auth = OAuth(redirect_uri=redirect, authorize=LocalCallback(redirect, open=browser, page="<p>bye"))

    async def main() -> Any:
        async with Client.http(protected.url, auth=auth) as c:
            return await c.call_tool("whoami")

    assert run(main()).structured_content["subject"] == "user-1"
    assert pages == [b"<p>bye"]
    assert authz.authorizations[0]["redirect_uri"] == redirect


def test_local_callback_times_out() -> None:
    cb = LocalCallback(f"http://127.0.0.1:{free_port()}/cb", open=lambda url: None, timeout=0.2)
    with pytest.raises(AuthError, match="no redirect to .* within 0.2 s"):
        cb("http://127.0.0.1:9/authorize")
    with pytest.raises(ValueError, match="http:// URL with a host"):
        LocalCallback("https://example.com/cb")


def test_async_authorize_that_declines(protected: ResourceProcess, authz: AuthorizationServer) -> None:
    seen: list[str] = []

    async def decline(url: str) -> str:
        seen.append(url)
        await asyncio.sleep(0)
        raise AuthError("the user closed the window")

    async def main() -> None:
        async with Client.http(protected.url, auth=OAuth(authorize=decline)) as c:
            await c.list_tools()

    with pytest.raises(AuthError, match="denied: the user closed the window"):
        run(main())
    assert seen and seen[0].startswith(f"{authz.issuer}/authorize?")


def test_authorize_returning_garbage(protected: ResourceProcess) -> None:
    async def main() -> None:
        async with Client.http(protected.url, auth=OAuth(authorize=lambda url: 42)) as c:  # type: ignore[arg-type,return-value]
            await c.list_tools()

    with pytest.raises(AuthError, match="returned int, not the redirect URL"):
        run(main())


async def _whoami(url: str, auth: OAuth) -> Any:
    async with Client.http(url, auth=auth) as c:
        return await c.call_tool("whoami")


def _post(url: str, token: str | None = None) -> tuple[int, Any, bytes]:
    """POSTs a request; the status, the headers (case-insensitive) and the body."""
    params = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "urllib", "version": "1"}}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}).encode()
    req = urllib.request.Request(url, body, {"Content-Type": "application/json",
                                             "Accept": "application/json, text/event-stream"})
    if token is not None:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def test_resource_server_on_the_wire(authz: AuthorizationServer) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"

    def verify(token: str) -> AuthInfo | None:
        if token == "good":
            return AuthInfo(subject="ada", scopes=("mcp:read",), audience=(f"{base}/mcp",))
        if token == "revoked":
            raise InvalidToken("this token was revoked")
        if token == "wrong-type":
            return "ada"  # type: ignore[return-value]
        if token == "broken":
            raise RuntimeError("introspection endpoint down")
        return None

    auth = ResourceServer(f"{base}/mcp", [authz.issuer], verify, scopes_supported=["mcp:read"],
                          required_scopes=["mcp:read"], resource_name="Test", metadata={"x-extra": 1})
    p = ResourceProcess(whoami_server(), auth, port)
    try:
        with urllib.request.urlopen(f"{base}/.well-known/oauth-protected-resource/mcp", timeout=10) as r:
            prm = json.loads(r.read())
        assert prm["resource"] == f"{base}/mcp" and prm["authorization_servers"] == [authz.issuer]
        assert prm["scopes_supported"] == ["mcp:read"] and prm["resource_name"] == "Test" and prm["x-extra"] == 1

        status, headers, _ = _post(p.url)
        assert status == 401
        challenge = headers["WWW-Authenticate"]
        assert challenge.startswith("Bearer ")
        assert f'resource_metadata="{base}/.well-known/oauth-protected-resource/mcp"' in challenge
        assert 'scope="mcp:read"' in challenge

        status, headers, _ = _post(p.url, "revoked")
        assert status == 401
        assert 'error="invalid_token"' in headers["WWW-Authenticate"]
        assert 'error_description="this token was revoked"' in headers["WWW-Authenticate"]
        assert _post(p.url, "nobody")[0] == 401
        assert _post(p.url, "broken")[0] == 503
        assert _post(p.url, "wrong-type")[0] == 503
        status, _, body = _post(p.url, "good")
        assert status == 200 and b'"result"' in body, body
    finally:
        p.stop()


def test_bad_auth_options() -> None:
    with pytest.raises(TypeError, match="list of issuer URLs"):
        ResourceServer("http://127.0.0.1/mcp", "http://as", lambda t: None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="verify must be a callable"):
        ResourceServer("http://127.0.0.1/mcp", ["http://as"], "nope")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="client_secret needs client_id"):
        OAuth(client_secret="s")
    with pytest.raises(TypeError, match="auth must be a libmcp.auth.OAuth"):
        Client.http("http://127.0.0.1:9/mcp", auth="token")  # type: ignore[arg-type]

    async def serve(auth: Any) -> None:
        await Server("bad").serve_async("http", port=0, auth=auth)

    with pytest.raises(DefinitionError, match="resource must be an absolute http"):
        run(serve(ResourceServer("not a url", ["http://127.0.0.1:9"], lambda t: None)))
    with pytest.raises(DefinitionError, match="at least one authorization server"):
        run(serve(ResourceServer("http://127.0.0.1:9/mcp", [], lambda t: None)))
    with pytest.raises(TypeError, match="auth must be a libmcp.auth.ResourceServer"):
        run(serve({"resource": "x"}))


def test_context_auth_is_none_without_a_resource_server() -> None:
    server = Server("plain")

    @server.tool()
    def who(ctx: Context) -> str:
        return repr(ctx.auth)

    async def main() -> Any:
        async with serving(server) as url, Client.http(url) as c:
            return await c.call_tool("who")

    assert run(main()).content[0].text == "None"


def test_sync_client_with_oauth(protected: ResourceProcess, authz: AuthorizationServer) -> None:
    from libmcp.sync import Client as SyncClient

    async def authorize(url: str) -> str:
        # An async authorize callable runs on the sync client's own loop.
        return await asyncio.to_thread(_follow_redirect, url)

    with SyncClient.http(protected.url, auth=OAuth(authorize=authorize)) as c:
        assert c.call_tool("whoami").structured_content == {"subject": "user-1", "scopes": ["mcp:read"],
                                                            "client": "client-1", "tier": "gold"}
    assert len(authz.authorizations) == 1


def _follow_redirect(url: str) -> str:
    """GETs ``url`` without following its redirect; the Location."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    try:
        urllib.request.build_opener(NoRedirect).open(url, timeout=10)
    except urllib.error.HTTPError as e:
        if e.code == 302:
            return str(e.headers["Location"])
        raise
    raise AssertionError("the authorization endpoint did not redirect")


def test_client_credentials_grant_renews_its_token(protected: ResourceProcess, authz: AuthorizationServer) -> None:
    authz.confidential["svc"] = "s3cret"
    auth = OAuth(grant=ClientCredentialsGrant("svc", client_secret="s3cret"))

    async def main() -> tuple[Any, Any]:
        async with Client.http(protected.url, auth=auth) as c:
            first = await c.call_tool("whoami")
            assert auth.access_token is not None
            authz.revoke(auth.access_token)  # as if it expired: a new one comes from the grant
            return first, await c.call_tool("whoami")

    first, second = run(main())
    assert first.structured_content["subject"] == "svc" and first.structured_content["client"] == "svc"
    assert second.structured_content["subject"] == "svc"
    # No user, no registration: two client credentials requests, the secret checked each time.
    assert not authz.authorizations and not authz.registrations
    assert [t["grant_type"] for t in authz.token_requests] == ["client_credentials", "client_credentials"]


def test_client_credentials_with_a_wrong_secret_fail(protected: ResourceProcess, authz: AuthorizationServer) -> None:
    authz.confidential["svc"] = "s3cret"
    with pytest.raises(AuthError):
        run(_whoami(protected.url, OAuth(grant=ClientCredentialsGrant("svc", client_secret="wrong"))))


def test_bad_grant_options() -> None:
    with pytest.raises(ValueError, match="exactly one of client_secret and private_key_pem"):
        OAuth(grant=ClientCredentialsGrant("svc"))
    with pytest.raises(ValueError, match="exactly one of client_secret and private_key_pem"):
        OAuth(grant=ClientCredentialsGrant("svc", client_secret="s", private_key_pem="pem"))
    with pytest.raises(ValueError):
        OAuth(grant=ClientCredentialsGrant("svc", private_key_pem="not a key"))
    with pytest.raises(ValueError, match="assertion and assertion_file"):
        OAuth(grant=JwtBearerGrant())
    with pytest.raises(ValueError, match="id_token and id_token_file"):
        OAuth(grant=EnterpriseManagedGrant("http://idp/token", "idp-client", "client", id_token="a", id_token_file="b"))
    with pytest.raises(TypeError, match="grant must be"):
        OAuth(grant="client_credentials")  # type: ignore[arg-type]
    # Well-formed grants and DPoP build.
    OAuth(grant=JwtBearerGrant(assertion_file="/run/token"), dpop=True)
    OAuth(grant=EnterpriseManagedGrant("http://idp/token", "idp-client", "client", id_token="t"))
    OAuth(dpop=True)
