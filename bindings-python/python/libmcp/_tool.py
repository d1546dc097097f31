"""A registered tool: which return values become structured content (and under which output
schema), how a call's result or failure becomes the CallToolResult, and :class:`ToolResult`."""

from __future__ import annotations

import inspect
import json
import logging
import types
import typing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import _native
from . import _pydantic
from . import schema as _schema
from ._functions import Function
from .context import NeedsInput
from .content import Audio, EmbeddedResource, Image, ResourceLink, is_content, to_content
from ._pydantic import is_class
from .errors import ProtocolError, ToolError

if TYPE_CHECKING:
    from .server import Server

__all__ = ["ToolResult", "ToolOutput", "output_of", "Tool"]

log = logging.getLogger("libmcp.server")


@dataclass
class ToolResult:
    """A tool result given in full: content blocks (or values :func:`to_content` accepts), optional
    structured content, and whether it is a tool error."""

    content: Any = field(default_factory=list)
    structured_content: Any = None
    is_error: bool = False
    meta: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The CallToolResult object."""
        out: dict[str, Any] = {"content": to_content(self.content)}
        if self.structured_content is not None:
            out["structuredContent"] = _schema.jsonable(self.structured_content)
        if self.is_error:
            out["isError"] = True
        if self.meta:
            out["_meta"] = self.meta
        return out


@dataclass
class ToolOutput:
    """A tool's output schema and how a return value becomes its structured content."""

    schema: dict[str, Any] | None = None
    #: Non-object values are structured as ``{"result": value}``.
    wrapped: bool = False
    #: pydantic's validator and serialiser of the return type (when pydantic describes it).
    pydantic: _pydantic.Output | None = None

    def structured(self, result: Any) -> Any:
        """The structured content for ``result``."""
        if self.pydantic is not None:
            return self.pydantic.structured(result)
        data = _schema.jsonable(result)
        return {"result": data} if self.wrapped else data


_UNSTRUCTURED = (str, bytes, type(None))
_BLOCKS = (Image, Audio, ResourceLink, EmbeddedResource)


def _is_content_type(tp: Any, sdk: int) -> bool:
    """Whether values of ``tp`` are content blocks: libmcp's block classes, the official SDK's
    content models, and lists or unions of them (of them and ``str``, unless ``sdk``: the SDK
    structures a ``list[str]``)."""
    if is_class(tp):
        if issubclass(tp, _BLOCKS):
            return True
        module = getattr(tp, "__module__", "")
        return module.startswith("mcp") and (tp.__name__.endswith("Content") or tp.__name__ in (
            "Image", "Audio", "ResourceLink", "EmbeddedResource"))
    if typing.get_origin(tp) is typing.Annotated:
        return _is_content_type(typing.get_args(tp)[0], sdk)
    if typing.get_origin(tp) in (list, tuple, typing.Union, types.UnionType, typing.Sequence):
        args = [a for a in typing.get_args(tp) if a is not Ellipsis]
        if sdk:
            return any(_is_content_type(a, sdk) for a in args)
        return all(a is str or _is_content_type(a, sdk) for a in args)
    return False


def output_of(fn: Function, explicit: dict[str, Any] | None, structured: bool | None, sdk: int) -> ToolOutput:
    """The structured output of a tool from its return annotation. Objects (dicts, TypedDicts,
    dataclasses, pydantic models) are structured as they are, other JSON types wrapped as
    ``{"result": ...}``; content types, ``ToolResult``, ``InputRequired`` and untyped returns are
    not structured. Without ``sdk``, neither are ``str``, ``bytes``, ``None`` and a bare ``list``
    unless ``structured=True``; with ``sdk`` (the official SDK's rule) they are wrapped.
    pydantic describes and serialises the type when installed."""
    if explicit is not None:
        return ToolOutput(explicit)
    if structured is False:
        return ToolOutput()
    ret = fn.hints.get("return", inspect.Parameter.empty)
    if ret is inspect.Parameter.empty:
        if structured:
            raise TypeError(f"tool {fn.name!r}: structured_output=True needs a return annotation")
        return ToolOutput()
    if ret is Any:
        return ToolOutput()
    base = typing.get_args(ret)[0] if typing.get_origin(ret) is typing.Annotated else ret
    if _is_sdk_call_tool_result(base):
        # The SDK's ``Annotated[CallToolResult, T]``: the result is given in full, and T (if
        # given) is the type of its structured content.
        described = typing.get_args(ret)[1:] if typing.get_origin(ret) is typing.Annotated else ()
        if not described or not _pydantic.AVAILABLE:
            return ToolOutput()
        ret = base = described[0]
    if is_class(base) and (base is ToolResult or issubclass(base, _native.InputRequired)):
        return ToolOutput()
    if typing.get_origin(base) in (typing.Union, types.UnionType) and any(
            is_class(a) and issubclass(a, _native.InputRequired) for a in typing.get_args(base)):
        return ToolOutput()
    if _is_content_type(base, sdk):
        return ToolOutput()
    if not sdk and not structured and (ret in _UNSTRUCTURED or base in (list, tuple)):
        return ToolOutput()
    if sdk and base is dict:
        # The SDK describes a bare dict as nothing (a class without annotations).
        return ToolOutput()
    if _pydantic.AVAILABLE:
        # Named after the function, as the SDK's (``NAMEOutput`` is the schema's title).
        out = _pydantic.output_for(ret, getattr(fn.fn, "__name__", fn.name), typeddict_doc=sdk != 1)
        if out is None:
            if structured:
                raise TypeError(f"tool {fn.name!r}: return type {ret!r} cannot be described as JSON Schema")
            return ToolOutput()
        return ToolOutput(out.schema if sdk else _pydantic.strip_titles(out.schema), out.wrapped, out)
    return _stdlib_output(ret, structured)


def _is_sdk_call_tool_result(tp: Any) -> bool:
    return is_class(tp) and tp.__name__ == "CallToolResult" and tp.__module__.startswith("mcp")


def _stdlib_output(ret: Any, structured: bool | None) -> ToolOutput:
    defs: dict[str, Any] = {}
    try:
        schema = _schema.json_schema(ret, defs)
    except TypeError:
        if structured:
            raise
        return ToolOutput()
    if "$ref" in schema and defs:
        target = defs.get(schema["$ref"].rsplit("/", 1)[-1], {})
        if target.get("type") == "object":
            out = dict(target)
            rest = {k: v for k, v in defs.items() if v is not target}
            if rest:
                out["$defs"] = rest
            return ToolOutput(out)
    if schema.get("type") == "object":
        if defs:
            schema["$defs"] = defs
        return ToolOutput(schema)
    wrapped: dict[str, Any] = {"type": "object", "properties": {"result": schema}, "required": ["result"]}
    if defs:
        wrapped["$defs"] = defs
    return ToolOutput(wrapped, True)


def _sdk_blocks(value: Any) -> list[dict[str, Any]]:
    """Content for a return value as the official SDK renders it: None is no content, lists and
    tuples are unrolled, content is a block, anything else is its indented JSON text."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [b for v in value for b in _sdk_blocks(v)]
    if isinstance(value, str) or (is_content(value) and not isinstance(value, dict)):
        return to_content(value)
    return [{"type": "text", "text": _pydantic.to_text(value) if _pydantic.AVAILABLE
             else json.dumps(_schema.jsonable(value), ensure_ascii=False, indent=2)}]


def _anticipated(e: BaseException) -> bool:
    """A failure the tool meant to report: libmcp's ToolError, the official SDK's ToolError or
    ResourceError (when a port raises those), or pydantic refusing the arguments."""
    if isinstance(e, (ToolError, _pydantic.ArgumentsRefused)):
        return True
    cls = type(e)
    return cls.__module__.startswith("mcp.") and cls.__name__ in ("ToolError", "ResourceError")


def protocol_error_of(e: BaseException) -> tuple[int, str, Any] | None:
    """The JSON-RPC error an exception stands for: libmcp's ProtocolError, or the official SDK's
    ``McpError``/``MCPError`` (its ``error`` holds code, message and data)."""
    if isinstance(e, ProtocolError):
        return e.code, e.message, e.data
    error = getattr(e, "error", None)
    if type(e).__module__.startswith("mcp.") and isinstance(getattr(error, "code", None), int):
        return error.code, str(getattr(error, "message", "")), getattr(error, "data", None)  # type: ignore[union-attr]
    return None


class Tool:
    """Serves one tool: runs the function with the call's arguments and answers."""

    def __init__(self, server: Server, f: Function, output: ToolOutput, starts_task: bool) -> None:
        self.server, self.f, self.output = server, f, output
        self.starts_task = starts_task
        self.sdk = server._sdk_results

    def invoke(self, request: _native.Request) -> None:
        ctx = self.server._context(request)
        if self.starts_task:
            request.start_task()
        self.server._start(
            request,
            lambda: self.f.fn(**self.f.call_args(request.arguments, ctx)),
            lambda result: self.answer(request, result),
            lambda e: self.fail(request, e),
            self.f.is_async,
        )

    def answer(self, request: _native.Request, result: Any) -> None:
        if isinstance(result, _native.InputRequired):
            request.reply_input_required(result)
            return
        if isinstance(result, ToolResult):
            request.reply_result(result.to_json())
            return
        if _is_sdk_call_tool_result(type(result)):
            request.reply_result(result.model_dump(mode="json", by_alias=True, exclude_none=True))
            return
        if self.output.schema is not None:
            data = self.output.structured(result)
            if self.sdk:
                content = _sdk_blocks(result)
            else:
                content = [{"type": "text", "text": json.dumps(data, ensure_ascii=False)}]
            request.reply_result({"content": content, "structuredContent": data})
            return
        if self.sdk:
            request.reply_result({"content": _sdk_blocks(result)})
        elif result is None:
            request.reply_nothing()
        elif is_content(result):
            request.reply_result({"content": to_content(result)})
        else:
            text = json.dumps(_schema.jsonable(result), ensure_ascii=False)
            request.reply_result({"content": [{"type": "text", "text": text}]})

    def fail(self, request: _native.Request, e: BaseException) -> None:
        if isinstance(e, NeedsInput):
            request.reply_input_required(e.request)
            return
        rpc = protocol_error_of(e)
        if rpc is not None:
            request.reply_error(*rpc)
            return
        name = self.f.name
        # The engine's text of a tool error is the message as raised (core/src/host/tool_result.rs);
        # the official SDK's "Error executing tool NAME: ..." is the compatible classes' (``sdk``).
        if _anticipated(e):
            log.info("tool %s: %s", name, e)
            text = f"Error executing tool {name}: {e}" if self.sdk else str(e)
        else:
            log.error("tool %s failed", name, exc_info=e)
            text = f"Error executing tool {name}" if self.server._mask_error_details \
                else f"Error executing tool {name}: {e}" if self.sdk else str(e)
        request.reply_tool_error(text)

