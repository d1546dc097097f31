"""An OAuth 2.1 authorization server for the tests (stdlib only, one thread): RFC 8414 metadata,
dynamic registration (RFC 7591), the authorization endpoint (redirects at once, with ``iss``), and
the token endpoint (authorization code with PKCE S256 checked, refresh tokens, client credentials
of the clients in ``confidential`` with their secret, sent by Basic auth or in the form). It records every
request so tests can check what the client sent; ``lookup(token)`` is what a resource server's
verifier asks it."""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import secrets
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Grant:
    """What an access token stands for."""

    subject: str
    client_id: str
    scope: str
    resource: str | None
    expires_at: int


@dataclass
class AuthorizationServer:
    """The server's state; :meth:`start` listens on 127.0.0.1 at a free port."""

    subject: str = "user-1"
    scopes_supported: list[str] = field(default_factory=lambda: ["mcp:read", "mcp:admin", "offline_access"])
    registrations: list[dict[str, Any]] = field(default_factory=list)
    authorizations: list[dict[str, str]] = field(default_factory=list)
    token_requests: list[dict[str, str]] = field(default_factory=list)
    access: dict[str, Grant] = field(default_factory=dict)
    refresh: dict[str, Grant] = field(default_factory=dict)
    codes: dict[str, dict[str, str]] = field(default_factory=dict)
    confidential: dict[str, str] = field(default_factory=dict)
    issuer: str = ""

    def start(self) -> AuthorizationServer:
        state = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def reply(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802
                url = urllib.parse.urlsplit(self.path)
                if url.path == "/.well-known/oauth-authorization-server":
                    self.reply(200, state.metadata())
                elif url.path == "/authorize":
                    params = dict(urllib.parse.parse_qsl(url.query))
                    state.authorizations.append(params)
                    code = secrets.token_urlsafe(16)
                    state.codes[code] = params
                    back = urllib.parse.urlencode({"code": code, "state": params.get("state", ""),
                                                   "iss": state.issuer})
                    self.send_response(302)
                    self.send_header("Location", f"{params['redirect_uri']}?{back}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                else:
                    self.reply(404, {"error": "not_found"})

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path == "/register":
                    reg = json.loads(body)
                    state.registrations.append(reg)
                    self.reply(201, {**reg, "client_id": f"client-{len(state.registrations)}",
                                     "token_endpoint_auth_method": "none"})
                elif self.path == "/token":
                    status, answer = state.token(dict(urllib.parse.parse_qsl(body.decode())),
                                                 self.headers.get("Authorization"))
                    self.reply(status, answer)
                else:
                    self.reply(404, {"error": "not_found"})

        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.issuer = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def metadata(self) -> dict[str, Any]:
        """The RFC 8414 document; it advertises RFC 9207 ``iss`` in authorization responses."""
        paths = {"authorization": "authorize", "token": "token", "registration": "register"}
        doc: dict[str, Any] = {f"{name}_endpoint": f"{self.issuer}/{path}" for name, path in paths.items()}
        doc.update(issuer=self.issuer, scopes_supported=self.scopes_supported,
                   response_types_supported=["code"],
                   grant_types_supported=["authorization_code", "refresh_token", "client_credentials"],
                   code_challenge_methods_supported=["S256"],
                   token_endpoint_auth_methods_supported=["none", "client_secret_basic", "client_secret_post"],
                   authorization_response_iss_parameter_supported=True)
        return doc

    def _issue(self, grant: Grant) -> dict[str, Any]:
        token = secrets.token_urlsafe(16)
        refresh = secrets.token_urlsafe(16)
        self.access[token] = grant
        self.refresh[refresh] = grant
        return {"access_token": token, "token_type": "Bearer", "expires_in": 3600, "refresh_token": refresh,
                "scope": grant.scope}

    def token(self, form: dict[str, str], authorization: str | None = None) -> tuple[int, dict[str, Any]]:
        self.token_requests.append(form)
        if form.get("grant_type") == "client_credentials":
            return self._client_credentials(form, authorization)
        if form.get("grant_type") == "refresh_token":
            old = self.refresh.pop(form.get("refresh_token", ""), None)
            if old is None:
                return 400, {"error": "invalid_grant"}
            return 200, self._issue(old)
        if form.get("grant_type") != "authorization_code":
            return 400, {"error": "unsupported_grant_type"}
        asked = self.codes.pop(form.get("code", ""), None)
        if asked is None:
            return 400, {"error": "invalid_grant", "error_description": "unknown code"}
        digest = hashlib.sha256(form.get("code_verifier", "").encode()).digest()
        challenge = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
        if asked.get("code_challenge_method") != "S256" or challenge != asked.get("code_challenge"):
            return 400, {"error": "invalid_grant", "error_description": "PKCE verification failed"}
        if form.get("redirect_uri") != asked.get("redirect_uri") or form.get("client_id") != asked.get("client_id"):
            return 400, {"error": "invalid_grant", "error_description": "redirect_uri or client_id differs"}
        scope = " ".join(s for s in asked.get("scope", "").split() if s != "offline_access")
        return 200, self._issue(Grant(self.subject, asked["client_id"], scope, form.get("resource"),
                                      int(time.time()) + 3600))

    def _client_credentials(self, form: dict[str, str], authorization: str | None) -> tuple[int, dict[str, Any]]:
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if authorization and authorization.startswith("Basic "):
            pair = base64.b64decode(authorization[6:]).decode()
            client_id, _, secret = (urllib.parse.unquote(p) for p in pair.partition(":"))
        if client_id is None or self.confidential.get(client_id) != secret:
            return 401, {"error": "invalid_client"}
        scope = form.get("scope") or "mcp:read"
        answer = self._issue(Grant(client_id, client_id, scope, form.get("resource"), int(time.time()) + 3600))
        del answer["refresh_token"]
        return 200, answer

    def lookup(self, token: str) -> Grant | None:
        """The grant of a live access token (what introspection would answer)."""
        return self.access.get(token)

    def revoke(self, token: str) -> None:
        """Makes an access token stop working (its refresh token still works)."""
        self.access.pop(token, None)
