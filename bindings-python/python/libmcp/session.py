"""``ctx.session``: the official SDK's ``ServerSession`` as handlers use it (what the client said
at initialization, its capabilities, notifications to send), over the request being served.

libmcp has no session object a handler could send arbitrary requests on: in the 2026-07-28 era
there is no session, and a server asks the client for input with an input round (MRTR), which
the engine also serves to 2025-era clients. So the SDK's ``create_message``, ``elicit``,
``elicit_form``, ``elicit_url``, ``list_roots`` and ``send_ping`` raise ``NotImplementedError``
naming libmcp's way (``await ctx.elicit(...)``, ``InputRequired``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from .model import McpObject

if TYPE_CHECKING:
    from .context import Context

__all__ = ["Session"]

_LISTS = {"tools", "prompts", "resources"}


def _plain(value: Any) -> Any:
    """An SDK model (``ClientCapabilities``, ...) as its JSON dict; dicts and McpObjects as dicts."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return dump(mode="json", by_alias=True, exclude_none=True)
        except TypeError:  # an McpObject's model_dump() takes no options
            return dump()
    return value


def _covers(have: Any, want: Any) -> bool:
    """Whether the capabilities ``have`` include every capability (and sub-capability) of ``want``."""
    if not isinstance(want, dict):
        return True
    if not isinstance(have, dict):
        return False
    return all(key in have and _covers(have[key], value) for key, value in want.items())


class Session:
    """The request's view of the client, shaped as the official SDK's ``ServerSession``
    (``ctx.session``): ``client_params``, ``client_capabilities``, ``protocol_version``,
    ``check_client_capability``, and the notifications (``send_log_message``,
    ``send_progress_notification``, ``send_resource_updated``, ``send_*_list_changed``,
    ``send_elicit_complete``)."""

    __slots__ = ("_ctx",)

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx

    @property
    def client_params(self) -> McpObject:
        """What the client said about itself: ``protocolVersion``, ``capabilities`` and
        ``clientInfo`` (from its ``initialize`` in the 2025 era, from the request's ``_meta`` in
        the 2026-07-28 era)."""
        ctx = self._ctx
        return McpObject({"protocolVersion": ctx.protocol_version, "capabilities": ctx.client_capabilities,
                          "clientInfo": ctx.client_info or {}})

    @property
    def client_capabilities(self) -> McpObject:
        return McpObject(self._ctx.client_capabilities)

    @property
    def protocol_version(self) -> str:
        return self._ctx.protocol_version

    def check_client_capability(self, capability: Any) -> bool:
        """Whether the client declared every capability of ``capability`` (the SDK's
        ``ClientCapabilities``, or its JSON dict)."""
        return _covers(self._ctx.client_capabilities, _plain(capability))

    async def send_log_message(self, level: str, data: Any, logger: str | None = None,
                               related_request_id: Any = None) -> None:
        """Sends ``notifications/message`` about this request (``related_request_id`` is always
        this request's)."""
        self._ctx.log(str(getattr(level, "value", level)), data, logger)

    async def send_progress_notification(self, progress_token: Any, progress: float, total: float | None = None,
                                         message: str | None = None, related_request_id: Any = None) -> None:
        """Reports this request's progress (the engine uses the token the request carries; another
        token cannot be given one)."""
        self._ctx.report_progress(progress, total, message)

    async def send_resource_updated(self, uri: Any) -> None:
        """Tells clients subscribed to ``uri`` that it changed."""
        self._server().notify_resource_updated(str(uri))

    async def send_resource_list_changed(self) -> None:
        self._server()._native.notify_list_changed("resources")

    async def send_tool_list_changed(self) -> None:
        self._server()._native.notify_list_changed("tools")

    async def send_prompt_list_changed(self) -> None:
        self._server()._native.notify_list_changed("prompts")

    async def send_elicit_complete(self, elicitation_id: str, related_request_id: Any = None) -> None:
        """Sends ``notifications/elicitation/complete`` for the URL-mode elicitation
        ``elicitation_id`` (2025-11-25) to the session of this request, also after the request was
        answered. It goes where the session's messages that belong to no request go (the
        standalone GET stream on Streamable HTTP), whatever ``related_request_id`` says. Raises
        ``NoSessionError`` in the 2026-07-28 era (no sessions), ``InvalidArgument`` unless the
        client declared ``elicitation.url`` (and its revision has the notification), and
        ``ConnectionClosed`` once the session has ended."""
        self._ctx.session_notifier().elicitation_complete(elicitation_id)

    def _server(self) -> Any:
        server = self._ctx.fastmcp
        if server is None:
            raise RuntimeError("ctx.session needs the context of a served request")
        return server

    async def create_message(self, *args: Any, **kwargs: Any) -> NoReturn:
        _not_here("create_message", "return InputRequired().sample(...) from the handler (an input round)")

    async def elicit(self, *args: Any, **kwargs: Any) -> NoReturn:
        _not_here("elicit", "await ctx.elicit(message, Model), or return InputRequired().elicit(...)")

    async def elicit_form(self, *args: Any, **kwargs: Any) -> NoReturn:
        _not_here("elicit_form", "await ctx.elicit(message, Model), or return InputRequired().elicit(...)")

    async def elicit_url(self, *args: Any, **kwargs: Any) -> NoReturn:
        _not_here("elicit_url", "return InputRequired().elicit_url(...) from the handler")

    async def list_roots(self, *args: Any, **kwargs: Any) -> NoReturn:
        _not_here("list_roots", "return InputRequired().list_roots(...) from the handler")

    async def send_ping(self) -> NoReturn:
        _not_here("send_ping", "nothing: the engine keeps connections alive itself")


def _not_here(method: str, instead: str) -> NoReturn:
    raise NotImplementedError(
        f"ctx.session.{method}() is not available on libmcp: a server asks the client for input "
        f"with an input round (MRTR), not a request on a session; instead, {instead}")
