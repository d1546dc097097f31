"""What a handler can ask about its request and do while serving it: :class:`Context`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generator

from .http_request import Headers, HttpRequest
from .model import McpObject, wrap

if TYPE_CHECKING:
    from ._native import Request, SessionNotifier
    from .session import Session
    from .auth import AuthInfo
    from .server import Server

__all__ = ["Context"]


class Sent:
    """Whether a notification was sent. Truthy when sent; also awaitable (``await ctx.info(...)``
    works, as with the official SDK, and returns at once: sending never waits)."""

    __slots__ = ("sent",)

    def __init__(self, sent: bool) -> None:
        self.sent = sent

    def __bool__(self) -> bool:
        return self.sent

    def __await__(self) -> Generator[Any, None, bool]:
        return self.sent
        yield  # pragma: no cover - makes this a generator

    def __repr__(self) -> str:
        return f"Sent({self.sent})"


class Context:
    """The request being served. A handler gets one by declaring a parameter annotated ``Context``."""

    __slots__ = ("_request", "_http", "_server", "_elicits")

    def __init__(self, request: Request, server: Server | None = None) -> None:
        self._request = request
        # Built on first use: (the request,) once looked up.
        self._http: tuple[HttpRequest | None] | None = None
        self._server = server
        self._elicits = 0

    async def elicit(self, message: str, schema: Any) -> ElicitationResult:
        """Asks the user for input (the official SDK's ``ctx.elicit``): ``schema`` is a pydantic
        model class (or a JSON Schema dict); the result has ``action`` (``"accept"``,
        ``"decline"``, ``"cancel"``) and ``data`` (the model, validated, when accepted).

        libmcp serves it with an input round (MRTR, which the engine also serves to 2025-era
        clients as ``elicitation/create``): the first call ends this invocation and **the handler
        runs again from the start** once the answer is in, when this call returns it. Code before
        it therefore runs once per round; the answers of earlier rounds are carried in the
        request's sealed state.

        An accepted answer that does not match ``schema`` raises ``ValueError``, as the SDK's:
        checked by pydantic for a model, by the engine for a JSON Schema dict (a malformed answer
        too), with the engine's reason."""
        import json

        from ._native import InputRequired

        key = f"elicit-{self._elicits}"
        self._elicits += 1
        answers: dict[str, Any] = json.loads(self._request.request_state or "{}")
        fresh = self._request.input_responses or {}
        answers.update(fresh)
        if key not in answers:
            requested = schema if isinstance(schema, dict) else _schema_of(schema)
            ask = InputRequired(json.dumps(answers)).elicit(key, message, requested)
            raise NeedsInput(ask)
        if isinstance(schema, dict) and key in fresh:
            # This round's answer to a JSON Schema, checked by the engine (those of earlier rounds
            # were checked in theirs); a pydantic model is checked by pydantic below, as the SDK's.
            from .errors import ProtocolError

            try:
                self._request.elicitation_answer(key, schema)
            except ProtocolError as e:
                raise ValueError(e.message) from e
        answer = answers[key]
        action = answer.get("action", "cancel")
        content = answer.get("content")
        if action == "accept" and not isinstance(schema, dict) and hasattr(schema, "model_validate"):
            content = schema.model_validate(content)
        return ElicitationResult(action, content)

    @property
    def lifespan_context(self) -> Any:
        """What the server's ``lifespan`` context manager yielded (``{}`` without one)."""
        return {} if self._server is None else self._server._lifespan_value

    @property
    def request_context(self) -> RequestContext:
        """The official SDK's view of the request: ``lifespan_context``, ``request_id``, ``meta``
        and ``request`` (the HTTP request or None)."""
        return RequestContext(self)

    @property
    def fastmcp(self) -> Server | None:
        """The server serving the request (the official SDK 1.x name)."""
        return self._server

    @property
    def mcp_server(self) -> Server | None:
        """The server serving the request (the official SDK 2.x name)."""
        return self._server

    def session_notifier(self) -> SessionNotifier:
        """A handle on the legacy session of this request (stdio, a Streamable HTTP session), kept
        after the request is answered to send that session a server notification:
        ``notify(method, params=None)``, ``elicitation_complete(elicitation_id)``, ``is_open``.
        Raises ``NoSessionError`` for a 2026-07-28 request (that revision has no sessions) or a
        legacy one served without a session."""
        return self._request.session_notifier()

    @property
    def session(self) -> Session:
        """The official SDK's ``ServerSession`` as handlers use it: what the client declared and
        the notifications to send (:class:`libmcp.session.Session`; requests to the client are
        input rounds instead)."""
        from .session import Session

        return Session(self)

    @property
    def client_id(self) -> str | None:
        """The ``client_id`` of the request's ``_meta``, if the client sent one."""
        meta = self._request.meta
        value = meta.get("client_id") if meta else None
        return value if isinstance(value, str) else None

    @property
    def session_id(self) -> str | None:
        """The legacy HTTP session's id (``Mcp-Session-Id``), or None (stdio, 2026-07-28)."""
        request = self.request
        return request.session_id if request is not None else None

    async def read_resource(self, uri: str) -> list[ResourceContents]:
        """Reads one of this server's resources (as a client would, without the round trip):
        its contents, each with ``content`` (``str`` or ``bytes``) and ``mime_type``."""
        if self._server is None:
            raise RuntimeError("read_resource needs the context of a served request")
        result = await self._server.read_resource(uri)
        return [ResourceContents._of(c) for c in result]

    @property
    def request(self) -> HttpRequest | None:
        """The HTTP request that carried this call (method, path, headers, the legacy session id,
        and for a mounted endpoint the ASGI scope with the ``user`` and ``state`` the application's
        middleware set), or None when the call did not come over HTTP (stdio)."""
        if self._http is None:
            http = self._request.http
            self._http = (None if http is None else HttpRequest(*http),)
        return self._http[0]

    @property
    def headers(self) -> Headers:
        """The HTTP request's headers, looked up case-insensitively (``ctx.headers["x-tenant"]``,
        ``ctx.headers.get("authorization")``); empty when the call did not come over HTTP."""
        request = self.request
        return request.headers if request is not None else Headers()

    @property
    def request_id(self) -> str | int:
        """The JSON-RPC id of the request."""
        return self._request.request_id

    @property
    def auth(self) -> AuthInfo | None:
        """The principal of the request's verified bearer token (an HTTP server with
        ``auth=ResourceServer(...)``), or None."""
        d = self._request.auth
        if d is None:
            return None
        from .auth import AuthInfo

        return AuthInfo._from_native(d)

    @property
    def method(self) -> str:
        """The method served (``tools/call``, ``resources/read``, ...)."""
        return self._request.method

    @property
    def protocol_version(self) -> str:
        """The protocol revision the request is served under, e.g. ``"2026-07-28"``."""
        return self._request.protocol_version

    @property
    def era(self) -> str:
        """``"modern"`` (per-request ``_meta``, 2026-07-28) or ``"legacy"`` (the initialize handshake)."""
        return self._request.era

    @property
    def client_capabilities(self) -> dict[str, Any]:
        """The client capabilities in force (declared on this request, or at initialize)."""
        caps: dict[str, Any] = self._request.client_capabilities
        return caps

    @property
    def client_info(self) -> dict[str, Any] | None:
        """The client's implementation object (name, version), if known."""
        return self._request.client_info

    @property
    def meta(self) -> dict[str, Any] | None:
        """The request's ``_meta`` object."""
        return self._request.meta

    @property
    def params(self) -> dict[str, Any]:
        """The request's full params."""
        params: dict[str, Any] = self._request.params
        return params

    def has_client_capability(self, *path: str) -> bool:
        """Whether the client declared the capability at ``path``, e.g. ``("elicitation", "url")``."""
        return self._request.has_client_capability(list(path))

    @property
    def input_responses(self) -> dict[str, Any] | None:
        """The answers to earlier input requests, keyed as the handler asked."""
        return self._request.input_responses

    def input_response(self, key: str) -> McpObject | None:
        """The answer to the input request ``key`` (an ElicitResult, CreateMessageResult or
        ListRootsResult with attribute access), or None on the first round."""
        responses = self._request.input_responses
        if not responses or key not in responses:
            return None
        answer = wrap(responses[key])
        return answer if isinstance(answer, McpObject) else None

    @property
    def request_state(self) -> str | None:
        """The state attached to the last :class:`InputRequired`, verified by the engine."""
        return self._request.request_state

    @property
    def round(self) -> int:
        """How many input rounds came before this invocation (0 on the first)."""
        return self._request.round

    @property
    def is_cancelled(self) -> bool:
        """Whether the client cancelled the request (async handlers are also cancelled as tasks)."""
        return self._request.cancelled

    @property
    def task_id(self) -> str | None:
        """The id of the task this call runs as (a tool registered with ``task=``), or None."""
        return self._request.task_id

    @property
    def can_run_as_task(self) -> bool:
        """Whether :meth:`start_task` would start a task now."""
        return self._request.can_run_as_task

    def start_task(self) -> bool:
        """Runs this call as a task from here on, if the client can take one: it gets the task at
        once and the handler's result completes the task later. For tools registered with
        ``task=..., defer_task=True``, which may first gather input in MRTR rounds (returning
        :class:`InputRequired`) and start the task on the round that has it all. Returns whether the
        call now runs as a task (False: it is answered directly, as usual)."""
        return self._request.start_task()

    def close_stream(self) -> bool:
        """Closes the response stream while the handler keeps running: on a resumable Streamable HTTP
        session the client reconnects and gets the rest (the result included). False, doing nothing,
        on transports that cannot resume (stdio, modern stateless requests)."""
        return self._request.close_stream()

    def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> Sent:
        """Sends ``notifications/progress`` if the client asked for progress (values must increase)."""
        return Sent(self._request.progress(float(progress), None if total is None else float(total), message))

    def log(self, level: str, data: Any, logger: str | None = None) -> Sent:
        """Sends ``notifications/message`` at ``level`` if the client asked for that level."""
        return Sent(self._request.log(level, data, logger))

    def debug(self, data: Any, logger: str | None = None) -> Sent:
        """Logs at ``debug``."""
        return self.log("debug", data, logger)

    def info(self, data: Any, logger: str | None = None) -> Sent:
        """Logs at ``info``."""
        return self.log("info", data, logger)

    def warning(self, data: Any, logger: str | None = None) -> Sent:
        """Logs at ``warning``."""
        return self.log("warning", data, logger)

    def error(self, data: Any, logger: str | None = None) -> Sent:
        """Logs at ``error``."""
        return self.log("error", data, logger)


class RequestContext:
    """``ctx.request_context``: the request as the official SDK's handlers see it."""

    __slots__ = ("_ctx",)

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx

    @property
    def lifespan_context(self) -> Any:
        """What the server's ``lifespan`` yielded."""
        return self._ctx.lifespan_context

    @property
    def request_id(self) -> str | int:
        """The JSON-RPC id of the request."""
        return self._ctx.request_id

    @property
    def meta(self) -> McpObject | None:
        """The request's ``_meta`` (attribute access), or None."""
        meta = self._ctx.meta
        wrapped = wrap(meta) if meta is not None else None
        return wrapped if isinstance(wrapped, McpObject) else None

    @property
    def request(self) -> HttpRequest | None:
        """The HTTP request, or None (stdio)."""
        return self._ctx.request

    @property
    def session(self) -> Session:
        """The SDK's ``ServerSession`` as handlers use it (:attr:`Context.session`)."""
        return self._ctx.session


class ResourceContents:
    """One item of a resource read through :meth:`Context.read_resource`."""

    __slots__ = ("content", "mime_type", "uri")

    def __init__(self, uri: str, content: str | bytes, mime_type: str | None) -> None:
        self.uri, self.content, self.mime_type = uri, content, mime_type

    @classmethod
    def _of(cls, item: dict[str, Any]) -> ResourceContents:
        import base64

        if "blob" in item:
            content: str | bytes = base64.b64decode(item["blob"])
        else:
            content = item.get("text", "")
        return cls(item.get("uri", ""), content, item.get("mimeType"))

    def __repr__(self) -> str:
        return f"ResourceContents(uri={self.uri!r}, mime_type={self.mime_type!r}, content={self.content!r})"


def _schema_of(model: Any) -> dict[str, Any]:
    from . import _pydantic

    schema = model.model_json_schema()
    return dict(_pydantic.strip_titles(schema))


class NeedsInput(BaseException):
    """Raised by :meth:`Context.elicit` to end an invocation with an input request (a
    ``BaseException``, so that a handler's ``except Exception`` does not catch it)."""

    def __init__(self, request: Any) -> None:
        super().__init__("the handler waits for input")
        self.request = request


class ElicitationResult:
    """What :meth:`Context.elicit` returns: ``action`` and, when accepted, ``data``."""

    __slots__ = ("action", "data")

    def __init__(self, action: str, data: Any) -> None:
        self.action, self.data = action, data

    def __repr__(self) -> str:
        return f"ElicitationResult(action={self.action!r}, data={self.data!r})"
