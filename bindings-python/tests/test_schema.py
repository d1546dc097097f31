"""Schema derivation from type hints and docstrings, and coercion back to the hinted types: tables."""

from __future__ import annotations

import dataclasses
import enum
from typing import Annotated, Any, Literal, Optional, TypedDict, Union

import pytest

from libmcp import Audio, Context, Image, InputRequired, Server, ToolResult
from libmcp import _pydantic
from libmcp._functions import Function
from libmcp.schema import coerce, json_schema, jsonable, parse_docstring


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Movie(TypedDict, total=False):
    title: str
    year: int


class Required(TypedDict):
    """A required pair."""

    a: str
    b: list[int]


@dataclasses.dataclass
class Point:
    """A point."""

    x: float
    y: float = 0.0


class Described:
    """Stands in for pydantic's Field: any metadata with a `description`."""

    description = "from metadata"


TABLE: list[tuple[Any, dict[str, Any]]] = [
    (str, {"type": "string"}),
    (int, {"type": "integer"}),
    (float, {"type": "number"}),
    (bool, {"type": "boolean"}),
    (None, {"type": "null"}),
    (Any, {}),
    (list, {"type": "array"}),
    (list[str], {"type": "array", "items": {"type": "string"}}),
    (set[int], {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}),
    (tuple[int, ...], {"type": "array", "items": {"type": "integer"}}),
    (tuple[int, str], {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "minItems": 2, "maxItems": 2}),
    (dict, {"type": "object"}),
    (dict[str, float], {"type": "object", "additionalProperties": {"type": "number"}}),
    (Optional[int], {"anyOf": [{"type": "integer"}, {"type": "null"}]}),
    (Union[int, str], {"anyOf": [{"type": "integer"}, {"type": "string"}]}),
    (int | None, {"anyOf": [{"type": "integer"}, {"type": "null"}]}),
    (Literal["a", "b"], {"type": "string", "enum": ["a", "b"]}),
    (Literal[1, "x"], {"enum": [1, "x"]}),
    (Color, {"type": "string", "enum": ["red", "green"]}),
    (Level, {"type": "integer", "enum": [1, 2]}),
    (Movie, {"type": "object", "properties": {"title": {"type": "string"}, "year": {"type": "integer"}}}),
    (
        Required,
        {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "array", "items": {"type": "integer"}}},
            "required": ["a", "b"],
            "description": "A required pair.",
        },
    ),
    (
        Point,
        {
            "type": "object",
            "properties": {"x": {"type": "number"}, "y": {"type": "number", "default": 0.0}},
            "required": ["x"],
            "description": "A point.",
        },
    ),
    (Annotated[int, "a count"], {"type": "integer", "description": "a count"}),
    (Annotated[str, Described()], {"type": "string", "description": "from metadata"}),
    (list[Point], {"type": "array", "items": {
        "type": "object",
        "properties": {"x": {"type": "number"}, "y": {"type": "number", "default": 0.0}},
        "required": ["x"],
        "description": "A point.",
    }}),
]


@pytest.mark.parametrize(("hint", "schema"), TABLE, ids=[repr(h) for h, _ in TABLE])
def test_schema_of_each_hint(hint: Any, schema: dict[str, Any]) -> None:
    assert json_schema(hint) == schema


def test_named_types_go_to_defs() -> None:
    defs: dict[str, Any] = {}
    assert json_schema(list[Point], defs) == {"type": "array", "items": {"$ref": "#/$defs/Point"}}
    assert defs["Point"]["required"] == ["x"]


def test_unsupported_hints_are_a_type_error() -> None:
    with pytest.raises(TypeError, match="cannot derive"):
        json_schema(complex)


COERCE: list[tuple[Any, Any, Any]] = [
    (Color, "red", Color.RED),
    (Level, 2, Level.HIGH),
    (Point, {"x": 1, "y": 2}, Point(1, 2)),
    (Optional[Point], None, None),
    (Optional[Point], {"x": 3}, Point(3)),
    (list[Color], ["green", "red"], [Color.GREEN, Color.RED]),
    (tuple[int, str], [1, "a"], (1, "a")),
    (set[int], [1, 2, 2], {1, 2}),
    (dict[str, Color], {"k": "red"}, {"k": Color.RED}),
    (float, 3, 3.0),
    (Movie, {"title": "x"}, {"title": "x"}),
    (Annotated[Color, "c"], "green", Color.GREEN),
]


@pytest.mark.parametrize(("hint", "value", "expected"), COERCE, ids=[repr(h) for h, _, _ in COERCE])
def test_coercion_to_the_hinted_type(hint: Any, value: Any, expected: Any) -> None:
    out = coerce(hint, value)
    assert out == expected and type(out) is type(expected)


def test_jsonable_values() -> None:
    assert jsonable({"p": Point(1, 2), "c": Color.RED, "t": (1, 2), "s": {3}}) == {
        "p": {"x": 1, "y": 2},
        "c": "red",
        "t": [1, 2],
        "s": [3],
    }
    with pytest.raises(TypeError):
        jsonable(object())


def test_docstring_sections() -> None:
    doc = """Summary line.

    More detail.

    Args:
        first: The first
            continued here.
        second (int): The second.
        *rest: ignored style.

    Returns:
        Something.
    """
    assert parse_docstring(doc) == (
        "Summary line.\n\nMore detail.",
        {"first": "The first continued here.", "second": "The second.", "rest": "ignored style."},
    )
    assert parse_docstring(None) == (None, {})


def test_function_schema_skips_context_and_uses_defaults() -> None:
    def f(ctx: Context, name: str, count: int = 3, color: Color = Color.RED, tags: Optional[list[str]] = None) -> str:
        """Does f.

        Args:
            name: Who.
        """
        return name

    fn = Function.inspect(f, None, None)
    assert fn.context_param == "ctx" and fn.name == "f" and fn.description == "Does f."
    assert fn.input_schema() == {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Who."},
            "count": {"type": "integer", "default": 3},
            "color": {"$ref": "#/$defs/Color", "default": "red"},
            "tags": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}], "default": None},
        },
        "required": ["name"],
        "$defs": {"Color": {"type": "string", "enum": ["red", "green"]}},
    }


OUTPUTS: list[tuple[Any, Any]] = [
    (str, None),
    (None, None),
    (int, {"type": "object", "properties": {"result": {"type": "integer"}}, "required": ["result"]}),
    (list[int], {"type": "object", "properties": {"result": {"type": "array", "items": {"type": "integer"}}}, "required": ["result"]}),
    (list, None),
    (Required, {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "array", "items": {"type": "integer"}}},
        "required": ["a", "b"],
        "description": "A required pair.",
    }),
    (dict[str, int], {"type": "object", "additionalProperties": {"type": "integer"}}),
    (Image, None),
    (list[str | Image], None),
    (Image | Audio, None),
    (ToolResult, None),
    (InputRequired, None),
    (str | InputRequired, None),
]


@pytest.mark.parametrize(("ret", "schema"), OUTPUTS, ids=[repr(r) for r, _ in OUTPUTS])
def test_output_schema_from_the_return_annotation(ret: Any, schema: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # The stdlib derivation (pydantic not installed); test_pydantic.py has pydantic's.
    monkeypatch.setattr(_pydantic, "AVAILABLE", False)
    server = Server("s")

    def tool() -> None:
        return None

    tool.__annotations__["return"] = ret
    server.add_tool(tool)
    assert server._native.tool_definition("tool").get("outputSchema") == schema


def test_pydantic_models_when_installed() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Item(pydantic.BaseModel):
        name: str = pydantic.Field(description="The name")
        qty: int = 1

    assert json_schema(Item) == {
        "type": "object",
        "title": "Item",
        "properties": {
            "name": {"type": "string", "title": "Name", "description": "The name"},
            "qty": {"type": "integer", "title": "Qty", "default": 1},
        },
        "required": ["name"],
    }
    assert coerce(Item, {"name": "x"}) == Item(name="x")
    assert jsonable(Item(name="x")) == {"name": "x", "qty": 1}
    assert json_schema(Annotated[int, pydantic.Field(description="n")]) == {"type": "integer", "description": "n"}
