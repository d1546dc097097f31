"""pydantic, when it is installed, as the one gate of a handler's arguments and the describer of its
results: a model per function signature validates (and converts, lax mode included) the arguments
of each call and gives the input schema (``mode="validation"``); a type adapter per return type
gives the output schema (``mode="serialization"``) and the structured content.

Without pydantic, :data:`AVAILABLE` is False and the stdlib derivation of :mod:`libmcp.schema` is
used instead."""

from __future__ import annotations

import collections.abc
import inspect
import json
import typing
from typing import Any

try:
    import pydantic
    import pydantic_core
    from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError
except ImportError:  # pragma: no cover - the test venv has pydantic; the stdlib path is tested apart
    AVAILABLE = False
else:
    AVAILABLE = True

__all__ = ["AVAILABLE", "Arguments", "ArgumentsRefused", "Output", "output_for", "to_text"]


def is_class(tp: Any) -> bool:
    """Whether ``tp`` is a class and not a parametrised generic (``dict[str, int]`` passes
    ``isinstance(tp, type)`` on Python 3.10)."""
    return isinstance(tp, type) and typing.get_origin(tp) is None


class ArgumentsRefused(Exception):
    """pydantic refused a call's arguments (the caller's mistake, reported as a tool error with
    pydantic's message); a ``ValidationError`` raised by the function itself is not this."""


def _field_name(param: str) -> str:
    # pydantic refuses field names with a leading underscore and warns on names that shadow
    # BaseModel's attributes; such parameters get another field name and keep theirs as the alias.
    if param.startswith("_") or hasattr(BaseModel, param):
        return f"p_{param.lstrip('_')}_{len(param)}"
    return param


def _is_str(tp: Any) -> bool:
    if typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp is str


class Arguments:
    """The arguments of one function: a pydantic model built once from its signature."""

    __slots__ = ("model", "schema", "_fields", "_renamed", "_json_keys", "_validate")

    def __init__(self, kind: str, name: str, params: dict[str, inspect.Parameter], hints: dict[str, Any],
                 model_name: str | None = None) -> None:
        """``name`` is what the function is registered as (for messages), ``model_name`` what the
        model and so its schema's ``title`` are named after (``NAMEArguments``): the function's own
        name, as the SDK's ``func_metadata`` does, also for a tool registered under another."""
        fields: dict[str, Any] = {}
        #: (the model's field name, the parameter's name)
        self._fields: list[tuple[str, str]] = []
        #: Parameters that are not strings: a JSON text given for one is parsed first.
        self._json_keys: frozenset[str] = frozenset(
            p for p in params if not _is_str(hints.get(p, inspect.Parameter.empty)))
        for pname, p in params.items():
            hint = _described(hints.get(pname, Any))
            fname = _field_name(pname)
            annotated: Any = typing.Annotated[hint, pydantic.Field(alias=pname)] if fname != pname else hint
            fields[fname] = (annotated, ... if p.default is p.empty else p.default)
            self._fields.append((fname, pname))
        try:
            self.model: type[BaseModel] = pydantic.create_model(
                f"{model_name or name}Arguments", __config__=ConfigDict(arbitrary_types_allowed=True), **fields)
            self.schema: dict[str, Any] = self.model.model_json_schema(by_alias=True, mode="validation")
        except Exception as e:  # noqa: BLE001 - which parameter: asked below
            raise _describe_failure(kind, name, params, hints, e) from e
        # The per-call path (benches/python/README.md, "pydantic on and off"): the model's own
        # validator (``model_validate`` is a Python wrapper around it), and the validated fields read
        # from the instance's ``__dict__`` unless a parameter was renamed (``_field_name``).
        self._validate = self.model.__pydantic_validator__.validate_python
        self._renamed = any(fname != pname for fname, pname in self._fields)

    def validate(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """The keyword arguments for the function (raises ``ValidationError``)."""
        data = arguments
        for key in self._json_keys.intersection(arguments) if self._json_keys else ():
            value = arguments[key]
            if not isinstance(value, str):
                continue
            try:
                parsed = json.loads(value)
            except (ValueError, RecursionError):
                continue
            # A number or a string given as text stays text: pydantic converts it or says why not.
            if isinstance(parsed, (str, int, float)):
                continue
            if data is arguments:
                data = dict(arguments)
            data[key] = parsed
        try:
            model = self._validate(data)
        except ValidationError as e:
            raise ArgumentsRefused(str(e)) from e
        if not self._renamed:
            return dict(model.__dict__)
        return {pname: getattr(model, fname) for fname, pname in self._fields}


def _described(hint: Any) -> Any:
    """``Annotated[T, "text"]`` (libmcp's shorthand) as ``Annotated[T, Field(description="text")]``."""
    if typing.get_origin(hint) is not typing.Annotated:
        return hint
    args = typing.get_args(hint)
    texts = [m for m in args[1:] if isinstance(m, str)]
    if not texts:
        return hint
    rest = tuple(m for m in args[1:] if not isinstance(m, str))
    return typing.Annotated[(args[0], *rest, pydantic.Field(description=texts[0]))]


def _describe_failure(kind: str, name: str, params: dict[str, inspect.Parameter], hints: dict[str, Any],
                      e: Exception) -> TypeError:
    for pname in params:
        hint = hints.get(pname, Any)
        try:
            TypeAdapter(hint).json_schema(mode="validation")
        except Exception as inner:  # noqa: BLE001
            return TypeError(f"{kind} {name!r}: parameter {pname!r}: cannot describe {_type_name(hint)} "
                             f"as JSON Schema ({inner})")
    return TypeError(f"{kind} {name!r}: cannot describe its parameters as JSON Schema ({e})")


def _type_name(tp: Any) -> str:
    return tp.__qualname__ if is_class(tp) else repr(tp)


class Output:
    """How a tool's return value becomes structured content: its output schema, whether it is
    wrapped as ``{"result": value}``, and the adapter that validates and serialises it."""

    __slots__ = ("schema", "wrapped", "_adapter")

    def __init__(self, schema: dict[str, Any], wrapped: bool, adapter: TypeAdapter[Any]) -> None:
        self.schema, self.wrapped, self._adapter = schema, wrapped, adapter

    def structured(self, result: Any) -> Any:
        """The JSON form of ``result`` as the output schema describes it (raises
        ``ValidationError`` when the value does not fit the return type)."""
        value = {"result": result} if self.wrapped else result
        validated = self._adapter.validate_python(value)
        return self._adapter.dump_python(validated, mode="json", by_alias=True)


def _inline_root(schema: dict[str, Any]) -> dict[str, Any]:
    # A self-referencing model's schema is a bare `$ref` into `$defs`; an outputSchema needs an
    # object at its root (MCP: Tool.outputSchema has `"type": "object"`), so the definition is copied
    # there ($defs stay: nested references still point into them).
    ref = schema.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
        return schema
    target = schema["$defs"][ref[len("#/$defs/"):]]
    return {**target, **{k: v for k, v in schema.items() if k != "$ref"}}


def _object_type(tp: Any) -> bool:
    """Whether values of ``tp`` are JSON objects as they are (no ``{"result": ...}`` wrapping)."""
    if is_class(tp):
        if issubclass(tp, BaseModel):
            return True
        if issubclass(tp, dict) and hasattr(tp, "__required_keys__"):  # a TypedDict
            return True
        if tp is dict:
            return True
        if tp in (str, int, float, bool, bytes, type(None), list, tuple, set, frozenset):
            return False
        import dataclasses

        return dataclasses.is_dataclass(tp) or bool(getattr(tp, "__annotations__", None))
    if typing.get_origin(tp) in (dict, collections.abc.Mapping):
        args = typing.get_args(tp)
        return len(args) == 2 and args[0] is str
    return False


def output_for(tp: Any, name: str, typeddict_doc: bool = True) -> Output | None:
    """The structured output of return type ``tp``: objects (models, dataclasses, TypedDicts,
    annotated classes, ``dict[str, T]``) as they are, every other type wrapped as
    ``{"result": value}``; None when pydantic cannot serialise the type."""
    base = typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Annotated else tp
    wrapped = not _object_type(base)
    target: Any = tp
    if wrapped:
        target = pydantic.create_model(f"{name}Output", result=(tp, ...))
    elif typing.get_origin(base) in (dict, collections.abc.Mapping):
        # A root model named as the official SDK names it (its schema's title).
        root: Any = pydantic.RootModel[base]  # type: ignore[valid-type]
        target = type(f"{name}DictOutput", (root,), {})
    elif _is_typeddict(base):
        target = _model_of_typeddict(base, typeddict_doc)
    elif is_class(base) and not issubclass(base, (BaseModel, dict)) and not _is_dataclass(base):
        target = _model_of_class(base)
    try:
        adapter: TypeAdapter[Any] = TypeAdapter(target)
        schema = adapter.json_schema(mode="serialization", schema_generator=_Strict)
    except Exception:  # noqa: BLE001 - a type pydantic cannot describe has no structured output
        return None
    return Output(_inline_root(schema), wrapped, adapter)


def _is_typeddict(tp: Any) -> bool:
    return is_class(tp) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def _model_of_typeddict(td: type, doc: bool) -> Any:
    # pydantic takes only typing_extensions' TypedDict before Python 3.12: a model of the same
    # keys (those not required default to None), described by the class's docstring unless
    # ``doc`` is false (the SDK 1.x drops it).
    hints = typing.get_type_hints(td, include_extras=True)
    required = getattr(td, "__required_keys__", frozenset(hints))
    fields = {k: (v, ... if k in required else None) for k, v in hints.items()}
    return pydantic.create_model(td.__name__, __doc__=td.__doc__ if doc else None, **fields)  # type: ignore[call-overload]


def strip_titles(schema: Any) -> Any:
    """``schema`` without pydantic's generated ``title`` keywords (libmcp's own Server lists
    schemas without them; property names, defaults and enums are left alone)."""
    if isinstance(schema, list):
        return [strip_titles(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in ("properties", "$defs", "patternProperties", "dependentSchemas") and isinstance(value, dict):
            out[key] = {k: strip_titles(v) for k, v in value.items()}
        elif key in ("default", "enum", "const", "examples"):
            out[key] = value
        else:
            out[key] = strip_titles(value)
    return out


def _is_dataclass(tp: type) -> bool:
    import dataclasses

    return dataclasses.is_dataclass(tp)


def _model_of_class(cls: type) -> Any:
    # An ordinary class with annotated attributes: a model of those attributes, read from the
    # returned instance's attributes.
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {}
    for k, v in hints.items():
        if k.startswith("_"):
            continue
        default = getattr(cls, k, inspect.Parameter.empty)
        fields[k] = (v, ... if default is inspect.Parameter.empty else default)
    return pydantic.create_model(cls.__name__, __config__=ConfigDict(from_attributes=True),
                                 **fields)


if AVAILABLE:
    from pydantic.json_schema import GenerateJsonSchema

    class _Strict(GenerateJsonSchema):
        """Refuses what it would only warn about (a type with no JSON form)."""

        def emit_warning(self, kind: Any, detail: str) -> None:
            raise ValueError(f"{kind}: {detail}")


def to_text(value: Any) -> str:
    """The text content of a non-content return value: indented JSON (``str()`` of anything
    JSON cannot hold), as the official SDK renders it."""
    return pydantic_core.to_json(value, fallback=str, indent=2).decode()

