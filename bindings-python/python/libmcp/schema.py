"""JSON Schema from Python type hints, and the conversions between JSON values and those types.

Supported: ``str``, ``int``, ``float``, ``bool``, ``None``, ``list``/``set``/``tuple``/``dict`` (bare or
parametrised), ``Optional``/``Union``/``X | Y``, ``Literal``, ``Enum`` subclasses, ``TypedDict``,
dataclasses, pydantic models (when pydantic is installed), ``Any``, and ``Annotated[T, ...]`` whose
metadata is a string or has a ``description`` (such as pydantic's ``Field(description=...)``).
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import inspect
import re
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin

__all__ = ["json_schema", "jsonable", "coerce", "parse_docstring"]

_PRIMITIVES: dict[Any, dict[str, Any]] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
    None: {"type": "null"},
}


def _is_typeddict(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def _pydantic_model(tp: Any) -> bool:
    return isinstance(tp, type) and hasattr(tp, "model_json_schema") and hasattr(tp, "model_validate")


def _description(meta: tuple[Any, ...]) -> str | None:
    for m in meta:
        if isinstance(m, str):
            return m
        d = getattr(m, "description", None)
        if isinstance(d, str):
            return d
    return None


def json_schema(tp: Any, defs: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON Schema of a type hint. Named object types (dataclasses, TypedDicts, pydantic models)
    go into ``defs`` and are referenced as ``#/$defs/Name`` when ``defs`` is given; otherwise inline."""
    if tp is inspect.Parameter.empty or tp is Any or tp is object:
        return {}
    if tp in _PRIMITIVES:
        return dict(_PRIMITIVES[tp])
    origin = get_origin(tp)
    args = get_args(tp)
    schema: dict[str, Any]
    if origin is typing.Annotated:
        schema = json_schema(args[0], defs)
        desc = _description(args[1:])
        if desc:
            schema["description"] = desc
        return schema
    if origin is Union or origin is types.UnionType:
        members = [json_schema(a, defs) for a in args]
        return {"anyOf": members}
    if origin is Literal:
        values = list(args)
        schema = {"enum": values}
        kinds = {type(v) for v in values}
        if len(kinds) == 1 and (k := kinds.pop()) in _PRIMITIVES:
            schema = {**_PRIMITIVES[k], "enum": values}
        return schema
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        values = [m.value for m in tp]
        schema = {"enum": values}
        kinds = {type(v) for v in values}
        if len(kinds) == 1 and (k := kinds.pop()) in _PRIMITIVES:
            schema = {**_PRIMITIVES[k], "enum": values}
        return _named(tp, schema, defs)
    if tp in (list, set, frozenset) or origin in (list, set, frozenset, collections.abc.Sequence):
        schema = {"type": "array"}
        if args:
            schema["items"] = json_schema(args[0], defs)
        if tp in (set, frozenset) or origin in (set, frozenset):
            schema["uniqueItems"] = True
        return schema
    if tp is tuple or origin is tuple:
        if not args:
            return {"type": "array"}
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": json_schema(args[0], defs)}
        items = [json_schema(a, defs) for a in args]
        return {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}
    if tp is dict or origin in (dict, collections.abc.Mapping):
        schema = {"type": "object"}
        if len(args) == 2:
            schema["additionalProperties"] = json_schema(args[1], defs)
        return schema
    if _is_typeddict(tp):
        hints = typing.get_type_hints(tp, include_extras=True)
        props = {k: json_schema(v, defs) for k, v in hints.items()}
        required = [k for k in hints if k in tp.__required_keys__]
        schema = {"type": "object", "properties": props}
        if required:
            schema["required"] = required
        return _named(tp, _with_doc(tp, schema), defs)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        hints = typing.get_type_hints(tp, include_extras=True)
        props = {}
        required = []
        for f in dataclasses.fields(tp):
            props[f.name] = json_schema(hints.get(f.name, Any), defs)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                required.append(f.name)
            elif f.default is not dataclasses.MISSING and _is_json(f.default):
                props[f.name]["default"] = jsonable(f.default)
        schema = {"type": "object", "properties": props}
        if required:
            schema["required"] = required
        return _named(tp, _with_doc(tp, schema), defs)
    if _pydantic_model(tp):
        schema = dict(tp.model_json_schema())
        inner = schema.pop("$defs", {})
        if defs is None:
            if inner:
                schema["$defs"] = inner
            return schema
        defs.update(inner)
        return _named(tp, schema, defs)
    raise TypeError(f"cannot derive a JSON Schema for {tp!r}")


def _with_doc(tp: type, schema: dict[str, Any]) -> dict[str, Any]:
    # The class's own docstring only (getdoc would inherit dict's); dataclasses get a generated one
    # (their signature), which describes nothing.
    doc = tp.__dict__.get("__doc__")
    if isinstance(doc, str) and not doc.startswith(tp.__name__ + "("):
        schema["description"] = parse_docstring(doc)[0]
    return schema


def _named(tp: type, schema: dict[str, Any], defs: dict[str, Any] | None) -> dict[str, Any]:
    if defs is None:
        return schema
    defs[tp.__name__] = schema
    return {"$ref": f"#/$defs/{tp.__name__}"}


def _is_json(value: Any) -> bool:
    try:
        jsonable(value)
    except TypeError:
        return False
    return True


def jsonable(value: Any) -> Any:
    """A JSON-compatible form of ``value``: dataclasses, pydantic models, enums, tuples and sets
    become dicts, values and lists."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "model_dump") and not isinstance(value, type):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    raise TypeError(f"{type(value).__name__} is not JSON-compatible")


def coerce(tp: Any, value: Any) -> Any:
    """``value`` (already valid against ``json_schema(tp)``) as an instance of ``tp``: enums,
    dataclasses and pydantic models are constructed, tuples and sets rebuilt; the rest is unchanged."""
    if value is None or tp is inspect.Parameter.empty or tp is Any:
        return value
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is typing.Annotated:
        return coerce(args[0], value)
    if origin is Union or origin is types.UnionType:
        for a in args:
            if a is type(None):
                continue
            try:
                return coerce(a, value)
            except (TypeError, ValueError):
                continue
        return value
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(value)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type) and isinstance(value, dict):
        hints = typing.get_type_hints(tp)
        return tp(**{k: coerce(hints.get(k, Any), v) for k, v in value.items()})
    if _pydantic_model(tp):
        return tp.model_validate(value)
    if isinstance(value, list):
        if origin in (list, collections.abc.Sequence) and args:
            return [coerce(args[0], v) for v in value]
        if origin in (set, frozenset) or tp in (set, frozenset):
            ctor = origin or tp
            return ctor(coerce(args[0], v) for v in value) if args else ctor(value)
        if origin is tuple or tp is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(coerce(args[0], v) for v in value)
            if args:
                return tuple(coerce(a, v) for a, v in zip(args, value))
            return tuple(value)
    if isinstance(value, dict) and origin in (dict, collections.abc.Mapping) and len(args) == 2:
        return {k: coerce(args[1], v) for k, v in value.items()}
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


_SECTION = re.compile(r"^(Args|Arguments|Parameters|Params):\s*$")
_PARAM = re.compile(r"^(\s+)(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def parse_docstring(doc: str | None) -> tuple[str | None, dict[str, str]]:
    """The description (text before any section such as ``Args:``) and the per-parameter
    descriptions of a Google-style docstring."""
    if not doc:
        return None, {}
    desc: list[str] = []
    params: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    indent = 0
    for line in inspect.cleandoc(doc).splitlines():
        if line and not line[0].isspace() and line.rstrip().endswith(":"):
            section = line
            current = None
            continue
        if section is None:
            desc.append(line)
            continue
        if not _SECTION.match(section):
            continue
        m = _PARAM.match(line)
        if m and (current is None or len(m.group(1)) <= indent):
            indent = len(m.group(1))
            current = m.group(2).lstrip("*")
            params[current] = m.group(3).strip()
        elif current and line.strip():
            params[current] = (params[current] + " " + line.strip()).strip()
    text = "\n".join(desc).strip()
    return (text or None), params
