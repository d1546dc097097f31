"""Typed results of the client: :class:`~libmcp.model.McpObject` subclasses whose protocol fields are
typed attributes (``mypy --strict`` sees ``CallToolResult.content`` as a list of content blocks, not
``Any``). Field names are the snake_case forms of the wire's camelCase keys, as in the official SDK's
``mcp.types``; every other key (extensions, ``_meta`` members, newer revisions' fields) stays
readable as an untyped attribute or by ``["key"]``, and ``model_dump()`` gives the JSON as sent.

An optional field the server left out reads as ``None``; a list field as ``[]``.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar, Union, overload

from . import _native
from .model import McpObject

__all__ = [
    "AudioContent",
    "BlobResourceContents",
    "CallToolResult",
    "CompleteResult",
    "Completion",
    "ContentBlock",
    "CreateMessageRequestParams",
    "ElicitRequestParams",
    "EmbeddedResource",
    "GetPromptResult",
    "ImageContent",
    "Implementation",
    "ListPromptsResult",
    "ListResourceTemplatesResult",
    "ListResourcesResult",
    "ListRootsRequestParams",
    "ListToolsResult",
    "Notification",
    "Prompt",
    "PromptArgument",
    "PromptMessage",
    "ReadResourceResult",
    "Resource",
    "ResourceContents",
    "ResourceLink",
    "ResourceTemplate",
    "SamplingMessage",
    "ServerInfo",
    "SkillEntry",
    "SkillResource",
    "Task",
    "TaskStatus",
    "ListTasksResult",
    "TextContent",
    "TextResourceContents",
    "Tool",
]

T = TypeVar("T")
O = TypeVar("O", bound=McpObject)


class Field(Generic[T]):
    """A typed attribute reading the wire key ``key``, converted by ``convert`` when present, else
    ``absent`` (``None`` unless given)."""

    __slots__ = ("key", "convert", "absent")

    def __init__(self, key: str, convert: Callable[[Any], T] | None = None, absent: Any = None) -> None:
        self.key = key
        self.convert = convert
        self.absent = absent

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> Field[T]: ...
    @overload
    def __get__(self, obj: McpObject, owner: type[Any]) -> T: ...
    def __get__(self, obj: McpObject | None, owner: type[Any]) -> Field[T] | T:
        if obj is None:
            return self
        data: dict[str, Any] = object.__getattribute__(obj, "_data")
        if self.key not in data or data[self.key] is None:
            absent: T = self.absent() if callable(self.absent) else self.absent
            return absent
        value = data[self.key]
        return self.convert(value) if self.convert is not None else value


def _obj(cls: type[O]) -> Callable[[Any], O]:
    return cls


def _list(convert: Callable[[Any], T]) -> Callable[[Any], list[T]]:
    def each(values: Any) -> list[T]:
        return [convert(v) for v in values]

    return each


def _items(key: str, convert: Callable[[Any], T]) -> Field[list[T]]:
    return Field(key, _list(convert), list)


class _Named(McpObject):
    """What definitions share (the schema's BaseMetadata, plus ``description``)."""

    __slots__ = ()
    name: Field[str] = Field("name")
    title: Field[str | None] = Field("title")
    description: Field[str | None] = Field("description")


class Resource(_Named):
    """A resource as listed."""

    __slots__ = ()
    uri: Field[str] = Field("uri")
    mime_type: Field[str | None] = Field("mimeType")
    size: Field[int | None] = Field("size")


# -- content -------------------------------------------------------------------------------------


class TextResourceContents(McpObject):
    """A resource's contents as text."""

    __slots__ = ()
    uri: Field[str] = Field("uri")
    mime_type: Field[str | None] = Field("mimeType")
    text: Field[str] = Field("text")


class BlobResourceContents(McpObject):
    """A resource's contents as base64 ``blob``."""

    __slots__ = ()
    uri: Field[str] = Field("uri")
    mime_type: Field[str | None] = Field("mimeType")
    blob: Field[str] = Field("blob")


ResourceContents = Union[TextResourceContents, BlobResourceContents]


def _resource_contents(d: dict[str, Any]) -> ResourceContents:
    return BlobResourceContents(d) if "blob" in d else TextResourceContents(d)


class TextContent(McpObject):
    """``{"type": "text"}``."""

    __slots__ = ()
    type: Field[str] = Field("type")
    text: Field[str] = Field("text")


class ImageContent(McpObject):
    """``{"type": "image"}``: base64 ``data``."""

    __slots__ = ()
    type: Field[str] = Field("type")
    data: Field[str] = Field("data")
    mime_type: Field[str] = Field("mimeType")


class AudioContent(McpObject):
    """``{"type": "audio"}``: base64 ``data``."""

    __slots__ = ()
    type: Field[str] = Field("type")
    data: Field[str] = Field("data")
    mime_type: Field[str] = Field("mimeType")


class ResourceLink(Resource):
    """``{"type": "resource_link"}``: a resource the client may read."""

    __slots__ = ()
    type: Field[str] = Field("type")


class EmbeddedResource(McpObject):
    """``{"type": "resource"}``: a resource's contents inline."""

    __slots__ = ()
    type: Field[str] = Field("type")
    resource: Field[ResourceContents] = Field("resource", _resource_contents)


ContentBlock = Union[TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource, McpObject]

_CONTENT: dict[str, type[McpObject]] = {
    "text": TextContent, "image": ImageContent, "audio": AudioContent, "resource_link": ResourceLink,
    "resource": EmbeddedResource,
}


def _content(d: dict[str, Any]) -> ContentBlock:
    """The typed block for ``d["type"]`` (an unknown type stays a plain McpObject)."""
    return _CONTENT.get(d.get("type", ""), McpObject)(d)


# -- results -------------------------------------------------------------------------------------


class CallToolResult(McpObject):
    """The result of ``tools/call``. ``is_error`` marks a tool error (its text in ``content``)."""

    __slots__ = ()
    content: Field[list[ContentBlock]] = _items("content", _content)
    structured_content: Field[dict[str, Any] | None] = Field("structuredContent")
    is_error: Field[bool] = Field("isError", absent=False)
    meta: Field[dict[str, Any] | None] = Field("_meta")

    def text(self) -> str:
        """The text blocks of ``content`` joined by newlines."""
        return "\n".join(b.text for b in self.content if isinstance(b, TextContent))


class ReadResourceResult(McpObject):
    """The result of ``resources/read``."""

    __slots__ = ()
    contents: Field[list[ResourceContents]] = _items("contents", _resource_contents)


class PromptMessage(McpObject):
    """One message of a prompt."""

    __slots__ = ()
    role: Field[str] = Field("role")
    content: Field[ContentBlock] = Field("content", _content)


class GetPromptResult(McpObject):
    """The result of ``prompts/get``."""

    __slots__ = ()
    description: Field[str | None] = Field("description")
    messages: Field[list[PromptMessage]] = _items("messages", _obj(PromptMessage))


class Completion(McpObject):
    """The completion values of ``completion/complete``."""

    __slots__ = ()
    values: Field[list[str]] = Field("values", list, list)
    total: Field[int | None] = Field("total")
    has_more: Field[bool] = Field("hasMore", absent=False)


class CompleteResult(McpObject):
    """The result of ``completion/complete``."""

    __slots__ = ()
    completion: Field[Completion] = Field("completion", _obj(Completion), lambda: Completion({"values": []}))


# -- definitions -----------------------------------------------------------------------------------


class Tool(_Named):
    """A tool as listed."""

    __slots__ = ()
    input_schema: Field[dict[str, Any]] = Field("inputSchema", absent=dict)
    output_schema: Field[dict[str, Any] | None] = Field("outputSchema")
    annotations: Field[dict[str, Any] | None] = Field("annotations")
    icons: Field[list[dict[str, Any]]] = Field("icons", list, list)
    meta: Field[dict[str, Any] | None] = Field("_meta")


class ResourceTemplate(_Named):
    """A resource template as listed."""

    __slots__ = ()
    uri_template: Field[str] = Field("uriTemplate")
    mime_type: Field[str | None] = Field("mimeType")


class PromptArgument(_Named):
    """One argument of a prompt."""

    __slots__ = ()
    required: Field[bool] = Field("required", absent=False)


class Prompt(_Named):
    """A prompt as listed."""

    __slots__ = ()
    arguments: Field[list[PromptArgument]] = _items("arguments", _obj(PromptArgument))


class _Page(McpObject):
    __slots__ = ()
    next_cursor: Field[str | None] = Field("nextCursor")


class ListToolsResult(_Page):
    """One page of ``tools/list``; ``next_cursor`` asks for the next (None after the last)."""

    __slots__ = ()
    tools: Field[list[Tool]] = _items("tools", _obj(Tool))


class ListResourcesResult(_Page):
    """One page of ``resources/list``."""

    __slots__ = ()
    resources: Field[list[Resource]] = _items("resources", _obj(Resource))


class ListResourceTemplatesResult(_Page):
    """One page of ``resources/templates/list``."""

    __slots__ = ()
    resource_templates: Field[list[ResourceTemplate]] = _items("resourceTemplates", _obj(ResourceTemplate))


class ListPromptsResult(_Page):
    """One page of ``prompts/list``."""

    __slots__ = ()
    prompts: Field[list[Prompt]] = _items("prompts", _obj(Prompt))


# -- skills ----------------------------------------------------------------------------------------


class SkillResource(McpObject):
    """One file a skill entry lists: its URI, ``sha256:`` digest and size in bytes."""

    __slots__ = ()
    uri: Field[str] = Field("uri")
    digest: Field[str] = Field("digest")
    size: Field[int] = Field("size")


class SkillEntry(McpObject):
    """A skill as ``skills/list`` and ``skills/get`` describe it (the skills extension, SEP-2640):
    the URI of its ``SKILL.md``, the frontmatter, and its files (``files`` is empty when the server
    says they are dynamic)."""

    __slots__ = ()
    uri: Field[str] = Field("uri")
    frontmatter: Field[dict[str, Any]] = Field("frontmatter", absent=dict)

    @property
    def name(self) -> str | None:
        """The skill's name (from its frontmatter)."""
        name = self.frontmatter.get("name")
        return name if isinstance(name, str) else None

    @property
    def files(self) -> list[SkillResource]:
        """The files the entry lists, ``SKILL.md`` included."""
        data: dict[str, Any] = object.__getattribute__(self, "_data")
        listed = data.get("resources")
        return [SkillResource(r) for r in listed] if isinstance(listed, list) else []


# -- tasks -----------------------------------------------------------------------------------------

#: A task's status: ``"working"``, ``"input_required"``, ``"completed"``, ``"failed"`` or
#: ``"cancelled"`` (the last three are terminal).
TaskStatus = str

_TERMINAL = ("completed", "failed", "cancelled")


class Task(McpObject):
    """A task: a tool call the server runs in the background (the tasks extension at 2026-07-28,
    the task wire of 2025-11-25). Times are ISO 8601 strings; ``ttl_ms`` and ``poll_interval_ms``
    read either era's key (``ttlMs``/``ttl``, ``pollIntervalMs``/``pollInterval``)."""

    __slots__ = ()
    task_id: Field[str] = Field("taskId")
    status: Field[TaskStatus] = Field("status")
    status_message: Field[str | None] = Field("statusMessage")
    created_at: Field[str] = Field("createdAt")
    last_updated_at: Field[str | None] = Field("lastUpdatedAt")
    input_requests: Field[dict[str, Any] | None] = Field("inputRequests")
    error: Field[dict[str, Any] | None] = Field("error")

    @property
    def ttl_ms(self) -> int | None:
        """How long the server keeps the task after its creation, in milliseconds (None: no limit)."""
        data: dict[str, Any] = object.__getattribute__(self, "_data")
        value = data.get("ttlMs", data.get("ttl"))
        return value if isinstance(value, int) else None

    @property
    def poll_interval_ms(self) -> int | None:
        """How often the server asks to be polled, in milliseconds."""
        data: dict[str, Any] = object.__getattribute__(self, "_data")
        value = data.get("pollIntervalMs", data.get("pollInterval"))
        return value if isinstance(value, int) else None

    @property
    def result(self) -> CallToolResult | None:
        """The tool's result once ``completed`` (2026-07-28 ``tasks/get``; at 2025-11-25 use
        :meth:`libmcp.Client.task_result`)."""
        data: dict[str, Any] = object.__getattribute__(self, "_data")
        value = data.get("result")
        return CallToolResult(value) if isinstance(value, dict) else None

    @property
    def is_terminal(self) -> bool:
        """Whether the task has ended (completed, failed or cancelled)."""
        return self.status in _TERMINAL


class ListTasksResult(_Page):
    """One page of ``tasks/list`` (2025-11-25)."""

    __slots__ = ()
    tasks: Field[list[Task]] = _items("tasks", _obj(Task))


# -- what the server asks of the client and tells it --------------------------------------------


class ElicitRequestParams(McpObject):
    """The params of ``elicitation/create``, as an elicitation handler receives them: ``mode`` is
    ``"form"`` (answer with content matching ``requested_schema``) or ``"url"`` (send the user to
    ``url``; ``elicitation_id`` names the elicitation). A form request without ``mode`` (before
    2025-11-25) reads as ``"form"``."""

    __slots__ = ()
    mode: Field[str] = Field("mode", absent="form")
    message: Field[str] = Field("message")
    requested_schema: Field[dict[str, Any] | None] = Field("requestedSchema")
    url: Field[str | None] = Field("url")
    elicitation_id: Field[str | None] = Field("elicitationId")
    meta: Field[dict[str, Any] | None] = Field("_meta")


def _sampling_content(value: Any) -> ContentBlock | list[ContentBlock]:
    """A sampling message's content as sent: one block, or (2025-11-25) a list of blocks."""
    return [_content(v) for v in value] if isinstance(value, list) else _content(value)


class SamplingMessage(McpObject):
    """One message of a sampling request. ``content`` is as the wire has it, one block or (since
    2025-11-25) a list of blocks; ``blocks`` is always a list. ``tool_use`` and ``tool_result``
    blocks stay untyped McpObjects."""

    __slots__ = ()
    role: Field[str] = Field("role")
    content: Field[ContentBlock | list[ContentBlock]] = Field("content", _sampling_content, list)

    @property
    def blocks(self) -> list[ContentBlock]:
        """The content blocks as a list, whichever shape the wire used."""
        content = self.content
        return content if isinstance(content, list) else [content]


class CreateMessageRequestParams(McpObject):
    """The params of ``sampling/createMessage``, as a sampling handler receives them. ``tools`` and
    ``tool_choice`` are there when the server samples with tools (2025-11-25 and later)."""

    __slots__ = ()
    messages: Field[list[SamplingMessage]] = _items("messages", _obj(SamplingMessage))
    max_tokens: Field[int] = Field("maxTokens")
    system_prompt: Field[str | None] = Field("systemPrompt")
    temperature: Field[float | None] = Field("temperature")
    stop_sequences: Field[list[str]] = Field("stopSequences", list, list)
    model_preferences: Field[dict[str, Any] | None] = Field("modelPreferences")
    include_context: Field[str | None] = Field("includeContext")
    metadata: Field[dict[str, Any] | None] = Field("metadata")
    tools: Field[list[Tool]] = _items("tools", _obj(Tool))
    tool_choice: Field[dict[str, Any] | None] = Field("toolChoice")
    meta: Field[dict[str, Any] | None] = Field("_meta")


class ListRootsRequestParams(McpObject):
    """The params of ``roots/list``, as a roots handler receives them (only ``_meta``, if any)."""

    __slots__ = ()
    meta: Field[dict[str, Any] | None] = Field("_meta")


class Notification(McpObject):
    """A notification from the server, as a subscription yields it: ``method`` and ``params``."""

    __slots__ = ()
    method: Field[str] = Field("method")
    params: Field[McpObject | None] = Field("params", _obj(McpObject))

    @property
    def task(self) -> Task | None:
        """The task a task status notification carries (``notifications/tasks`` at 2026-07-28,
        ``notifications/tasks/status`` at 2025-11-25), else None; params that are not a task
        raise :class:`~libmcp.errors.ProtocolViolation`."""
        data: dict[str, Any] = object.__getattribute__(self, "_data")
        task = _native.task_of(str(data.get("method", "")), data.get("params"))
        return Task(task) if task is not None else None


# -- the server ------------------------------------------------------------------------------------


class Implementation(_Named):
    """A peer's name and version (``serverInfo``)."""

    __slots__ = ()
    version: Field[str] = Field("version")
    website_url: Field[str | None] = Field("websiteUrl")


class ServerInfo(McpObject):
    """What the client learned about the server at connect."""

    __slots__ = ()
    era: Field[str] = Field("era")
    protocol_version: Field[str] = Field("protocolVersion")
    supported_versions: Field[list[str]] = Field("supportedVersions", list, list)
    capabilities: Field[dict[str, Any]] = Field("capabilities", absent=dict)
    server_info: Field[Implementation] = Field("serverInfo", _obj(Implementation))
    instructions: Field[str | None] = Field("instructions")
