"""Content a handler may return, and how return values become content blocks.

A tool, a prompt message or a resource may return: ``str`` (text), :class:`Image`, :class:`Audio`,
:class:`ResourceLink`, :class:`EmbeddedResource`, a content-block ``dict`` (one with a ``type``), or a
list of these.
"""

from __future__ import annotations

import base64
import mimetypes
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Audio", "EmbeddedResource", "Image", "ResourceLink", "to_content", "is_content"]


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _read(data: bytes | None, path: str | Path | None, kind: str) -> tuple[bytes, str | None]:
    if (data is None) == (path is None):
        raise ValueError(f"{kind} needs exactly one of data= or path=")
    if path is not None:
        guessed = mimetypes.guess_type(str(path))[0]
        return Path(path).read_bytes(), guessed
    assert data is not None
    return data, None


@dataclass
class Image:
    """An image content block from bytes or a file (MIME type guessed from the file name).
    ``format`` (``"png"``, ``"jpeg"``, ...) is the official SDK's way to give the MIME type."""

    data: bytes | None = None
    path: str | Path | None = None
    mime_type: str | None = None
    format: str | None = None

    def to_block(self) -> dict[str, Any]:
        """The ImageContent object."""
        raw, guessed = _read(self.data, self.path, "Image")
        mime = self.mime_type or (f"image/{self.format.lower()}" if self.format else None)
        return {"type": "image", "data": _b64(raw), "mimeType": mime or guessed or "image/png"}


@dataclass
class Audio:
    """An audio content block from bytes or a file."""

    data: bytes | None = None
    path: str | Path | None = None
    mime_type: str | None = None

    def to_block(self) -> dict[str, Any]:
        """The AudioContent object."""
        raw, guessed = _read(self.data, self.path, "Audio")
        return {"type": "audio", "data": _b64(raw), "mimeType": self.mime_type or guessed or "audio/wav"}


@dataclass
class ResourceLink:
    """A link to a resource (the client may read it)."""

    uri: str
    name: str
    description: str | None = None
    mime_type: str | None = None

    def to_block(self) -> dict[str, Any]:
        """The ResourceLink object."""
        block: dict[str, Any] = {"type": "resource_link", "uri": self.uri, "name": self.name}
        if self.description is not None:
            block["description"] = self.description
        if self.mime_type is not None:
            block["mimeType"] = self.mime_type
        return block


@dataclass
class EmbeddedResource:
    """A resource's contents embedded in the result: ``text`` or ``blob`` bytes."""

    uri: str
    text: str | None = None
    blob: bytes | None = None
    mime_type: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def to_block(self) -> dict[str, Any]:
        """The EmbeddedResource object."""
        if (self.text is None) == (self.blob is None):
            raise ValueError("EmbeddedResource needs exactly one of text= or blob=")
        contents: dict[str, Any] = {"uri": self.uri}
        if self.mime_type is not None:
            contents["mimeType"] = self.mime_type
        if self.text is not None:
            contents["text"] = self.text
        else:
            assert self.blob is not None
            contents["blob"] = _b64(self.blob)
        return {"type": "resource", "resource": contents}


_BLOCKS = (Image, Audio, ResourceLink, EmbeddedResource)


def _sdk_block(value: Any) -> dict[str, Any] | None:
    """A content object of the official SDK as its block: its content models (``TextContent``,
    ``ImageContent``, ...) and its ``Image``/``Audio`` helpers; None for anything else."""
    for convert in ("to_image_content", "to_audio_content"):
        method = getattr(value, convert, None)
        if callable(method):
            value = method()
            break
    dump = getattr(value, "model_dump", None)
    if not callable(dump) or isinstance(value, type):
        return None
    block = dump(mode="json", by_alias=True, exclude_none=True)
    return block if isinstance(block, dict) and isinstance(block.get("type"), str) else None


def is_content(value: Any) -> bool:
    """Whether ``value`` is content (as opposed to structured data)."""
    if isinstance(value, (str, *_BLOCKS)):
        return True
    if _sdk_block(value) is not None:
        return True
    if isinstance(value, dict):
        return isinstance(value.get("type"), str)
    if isinstance(value, (list, tuple)):
        return all(is_content(v) for v in value)
    return False


def to_content(value: Any) -> list[dict[str, Any]]:
    """Content blocks for a return value (see the module docstring); anything else is a TypeError."""
    if isinstance(value, (list, tuple)):
        out: list[dict[str, Any]] = []
        for v in value:
            out.extend(to_content(v))
        return out
    if isinstance(value, str):
        return [{"type": "text", "text": value}]
    if isinstance(value, _BLOCKS):
        return [value.to_block()]
    if isinstance(value, dict) and isinstance(value.get("type"), str):
        return [value]
    block = _sdk_block(value)
    if block is not None:
        return [block]
    raise TypeError(f"{type(value).__name__} is not content (str, Image, Audio, ResourceLink, "
                    "EmbeddedResource, a content dict, or a list of these)")
