"""The official Python SDK's OAuth client (`mcp.client.auth.OAuthClientProvider`) against libmcp's
`auth-server` example (or the C everything-server with OAuth, see `_protected_command`) over
Streamable HTTP: the SDK meets the 401, reads the protected resource
metadata that libmcp serves, discovers a small authorization server run by this test, registers,
authorizes with PKCE (S256) and the `resource` parameter, and retries with the bearer token; a tool
that needs a wider scope answers 403 `insufficient_scope` and the SDK steps up.

The authorization server here is a minimal stand-in (metadata, dynamic registration, token endpoint);
the authorization step is played by the redirect and callback handlers. Every JSON-RPC message passes
through http_tap.py and is schema-checked.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

import anyio
import pytest
from http_fixtures import HttpService, start_http_service
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from test_interop import CLIENT_INFO, STEP_TIMEOUT, _binary, _texts

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(60)]

# Access tokens the authorization server issues, by granted scope, and auth-server's table of them.
TOKENS = {"mcp:read": "tok-read", "mcp:read mcp:admin": "tok-admin"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@dataclass
class AuthServer:
    """A minimal OAuth 2.1 authorization server: what it saw, and the codes it handed out."""

    issuer: str = ""
    registrations: list[dict[str, Any]] = field(default_factory=list)
    authorizations: list[dict[str, str]] = field(default_factory=list)
    token_requests: list[dict[str, str]] = field(default_factory=list)
    codes: dict[str, dict[str, str]] = field(default_factory=dict)

    def metadata(self) -> dict[str, Any]:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "registration_endpoint": f"{self.issuer}/register",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_post"],
        }

    def authorize(self, url: str) -> AuthorizationCodeResult:
        """What a user agent would do with the authorization URL: approve at once."""
        query = {k: v[0] for k, v in parse_qs(urlparse(url).query).items()}
        self.authorizations.append(query)
        code = secrets.token_urlsafe(8)
        self.codes[code] = query
        return AuthorizationCodeResult(code=code, state=query.get("state"))

    def token(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        self.token_requests.append(form)
        asked = self.codes.pop(form.get("code", ""), None)
        if asked is None or form.get("grant_type") != "authorization_code":
            return 400, {"error": "invalid_grant"}
        digest = hashlib.sha256(form.get("code_verifier", "").encode()).digest()
        challenge = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
        if challenge != asked.get("code_challenge") or form.get("redirect_uri") != asked.get("redirect_uri"):
            return 400, {"error": "invalid_grant", "error_description": "PKCE or redirect_uri mismatch"}
        scope = " ".join(sorted(set(asked.get("scope", "mcp:read").split()), key=["mcp:read", "mcp:admin"].index))
        if scope not in TOKENS:
            return 400, {"error": "invalid_scope"}
        return 200, {"access_token": TOKENS[scope], "token_type": "Bearer", "expires_in": 3600, "scope": scope}


def _handler(state: AuthServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: Any) -> None:
            pass

        def _send(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path == "/.well-known/oauth-authorization-server":
                self._send(200, state.metadata())
            else:
                self._send(404, {"error": "not_found"})

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0"))).decode()
            if self.path == "/register":
                request = json.loads(body)
                state.registrations.append(request)
                self._send(201, {**request, "client_id": f"client-{len(state.registrations)}"})
            elif self.path == "/token":
                self._send(*state.token({k: v[0] for k, v in parse_qs(body).items()}))
            else:
                self._send(404, {"error": "not_found"})

    return Handler


@pytest.fixture(scope="module")
def auth_server() -> Iterator[AuthServer]:
    state = AuthServer()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.issuer = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield state
    httpd.shutdown()


def _protected_command(issuer: str) -> list[str]:
    """The OAuth-protected server: the Rust `auth-server` example, or the C everything-server (its
    token verifier written in C) when LIBMCP_C_EVERYTHING_SERVER names that binary. Both take the
    same token table and serve the tools `whoami` and `admin`."""
    c_server = os.environ.get("LIBMCP_C_EVERYTHING_SERVER")
    if c_server:
        server, flag = [c_server, "--http", "127.0.0.1:{port}"], "--oauth-"
    else:
        server, flag = [str(_binary("auth-server")), "--bind", "127.0.0.1:{port}"], "--"
    return [
        *server,
        f"{flag}resource",
        "http://127.0.0.1:{tap_port}/mcp",
        f"{flag}issuer",
        issuer,
        f"{flag}token",
        "tok-read=ada:mcp:read",
        f"{flag}token",
        "tok-admin=ada:mcp:read,mcp:admin",
    ]


@pytest.fixture(scope="module")
def protected(auth_server: AuthServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpService]:
    service = start_http_service(
        _protected_command(auth_server.issuer),
        "/mcp",
        tmp_path_factory.mktemp("auth-server") / "wire.jsonl",
    )
    yield service
    service.stop()


class MemoryStorage:
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_sdk_oauth_flow_and_step_up(mode: str, auth_server: AuthServer, protected: HttpService) -> None:
    pending: list[AuthorizationCodeResult] = []

    async def redirect(url: str) -> None:
        pending.append(auth_server.authorize(url))

    async def callback() -> AuthorizationCodeResult:
        return pending.pop(0)

    storage = MemoryStorage()
    provider = OAuthClientProvider(
        server_url=protected.url,
        client_metadata=OAuthClientMetadata(
            client_name="libmcp interop", redirect_uris=["http://127.0.0.1:1/callback"], scope="mcp:read"
        ),
        storage=storage,
        redirect_handler=redirect,
        callback_handler=callback,
    )
    before = len(auth_server.authorizations)
    with protected.checked(), anyio.fail_after(STEP_TIMEOUT):
        transport = streamable_http_client(protected.url, http_client=create_mcp_http_client(auth=provider))
        async with Client(transport, mode=mode, client_info=CLIENT_INFO, read_timeout_seconds=STEP_TIMEOUT) as client:
            who = await client.call_tool("whoami", {})
            assert storage.tokens is not None and storage.tokens.access_token == "tok-read"
            admin = await client.call_tool("admin", {})
            again = await client.call_tool("whoami", {})
    assert _texts(who) == ["subject ada with scopes mcp:read"]
    assert _texts(admin) == ["admin done"]
    assert _texts(again) == ["subject ada with scopes mcp:read mcp:admin"]
    flows = auth_server.authorizations[before:]
    assert len(flows) == 2, flows
    for flow in flows:
        assert flow["response_type"] == "code"
        assert flow["code_challenge_method"] == "S256"
        assert flow["resource"] == protected.url
    assert "mcp:admin" not in flows[0].get("scope", "").split()
    assert "mcp:admin" in flows[1]["scope"].split()
