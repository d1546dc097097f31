"""pydantic as the gate of tool arguments (one model per signature: its schema, its constraints, its
lax coercion and its error messages) and the describer of results; the stdlib derivation without it.
Driven through the engine with the in-memory client, in both eras."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import pathlib
import uuid
from typing import Annotated, Any, Literal, Union

import pydantic
import pytest
from pydantic import BaseModel, Field

from libmcp import Client, FastMCP, MCPServer, Server, _pydantic
from support import LEGACY, MODERN, run

ERAS = [MODERN, LEGACY]


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Item(BaseModel):
    name: str
    qty: int = Field(1, ge=1)


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]
    good: bool = True


class Order(BaseModel):
    item: Item
    pet: Annotated[Union[Cat, Dog], Field(discriminator="kind")]


class Opaque:
    """A class pydantic has no schema for."""


@dataclasses.dataclass
class Reading:
    at: datetime.datetime
    value: decimal.Decimal


def server() -> Server:
    s = Server("pyd")

    @s.tool()
    def bounded(n: int = Field(5, ge=0, le=10), code: Annotated[str, Field(pattern=r"^[A-Z]{3}$")] = "ABC") -> str:
        return f"{n}:{code}"

    @s.tool()
    def kinds(when: datetime.datetime, ident: uuid.UUID, amount: decimal.Decimal, where: pathlib.Path,
              color: Color, mode: Literal["fast", "slow"]) -> str:
        return "|".join(type(v).__name__ for v in (when, ident, amount, where, color, mode))

    @s.tool()
    def order(o: Order) -> str:
        return f"{o.item.name}x{o.item.qty}:{type(o.pet).__name__}"

    @s.tool()
    def count(n: int) -> int:
        return n * 2

    @s.tool()
    def readings() -> list[Reading]:
        return [Reading(datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc), decimal.Decimal("1.5"))]

    return s


def call(s: Server, version: str, name: str, args: dict[str, Any]) -> Any:
    async def main() -> Any:
        async with Client(s, protocol_version=version) as c:
            return await c.call_tool(name, args)

    return run(main())


@pytest.mark.parametrize("version", ERAS)
def test_field_defaults_bounds_and_patterns(version: str) -> None:
    s = server()
    assert call(s, version, "bounded", {}).content[0].text == "5:ABC"
    assert call(s, version, "bounded", {"n": 10, "code": "XYZ"}).content[0].text == "10:XYZ"
    too_big = call(s, version, "bounded", {"n": 11})
    assert too_big.is_error
    assert too_big.content[0].text.startswith("1 validation error for boundedArguments\nn\n")
    assert "less than or equal to 10" in too_big.content[0].text
    bad_code = call(s, version, "bounded", {"code": "abc"})
    assert bad_code.is_error and "should match pattern" in bad_code.content[0].text


def test_the_schema_is_pydantics() -> None:
    s = server()
    schema = s._native.tool_definition("bounded")["inputSchema"]
    assert schema["properties"]["n"] == {"type": "integer", "default": 5, "minimum": 0, "maximum": 10}
    assert schema["properties"]["code"] == {"type": "string", "default": "ABC", "pattern": "^[A-Z]{3}$"}
    kinds = s._native.tool_definition("kinds")["inputSchema"]["properties"]
    assert kinds["when"] == {"type": "string", "format": "date-time"}
    assert kinds["ident"] == {"type": "string", "format": "uuid"}
    assert kinds["where"] == {"type": "string", "format": "path"}
    assert kinds["mode"] == {"type": "string", "enum": ["fast", "slow"]}
    pet = s._native.tool_definition("order")["inputSchema"]["$defs"]["Order"]["properties"]["pet"]
    assert pet["discriminator"]["propertyName"] == "kind"


@pytest.mark.parametrize("version", ERAS)
def test_every_kind_of_type_is_converted(version: str) -> None:
    s = server()
    args = {"when": "2024-01-01T00:00:00Z", "ident": "12345678-1234-5678-1234-567812345678", "amount": "1.25",
            "where": "/tmp", "color": "green", "mode": "slow"}
    text = call(s, version, "kinds", args).content[0].text
    assert text.split("|")[:4] == ["datetime", "UUID", "Decimal", "PosixPath"]
    assert text.split("|")[4:] == ["Color", "str"]
    bad = call(s, version, "kinds", {**args, "mode": "medium"})
    assert bad.is_error and "Input should be 'fast' or 'slow'" in bad.content[0].text


@pytest.mark.parametrize("version", ERAS)
def test_nested_models_and_discriminated_unions(version: str) -> None:
    s = server()
    good = call(s, version, "order", {"o": {"item": {"name": "a", "qty": 2}, "pet": {"kind": "dog"}}})
    assert good.content[0].text == "ax2:Dog"
    wrong = call(s, version, "order", {"o": {"item": {"name": "a", "qty": 0}, "pet": {"kind": "fish"}}})
    assert wrong.is_error
    assert "o.item.qty" in wrong.content[0].text and "o.pet" in wrong.content[0].text


@pytest.mark.parametrize("version", ERAS)
def test_lax_coercion_as_the_sdk(version: str) -> None:
    s = server()
    # A number as text, a float with no fraction, an object sent as a JSON string.
    assert call(s, version, "count", {"n": "2"}).structured_content == {"result": 4}
    assert call(s, version, "count", {"n": 2.0}).structured_content == {"result": 4}
    assert call(s, version, "count", {"n": 2.5}).is_error
    as_text = call(s, version, "order", {"o": '{"item": {"name": "b"}, "pet": {"kind": "cat"}}'})
    assert as_text.content[0].text == "bx1:Cat"


@pytest.mark.parametrize("version", ERAS)
def test_results_are_serialised_by_pydantic(version: str) -> None:
    s = server()
    out = s._native.tool_definition("readings")["outputSchema"]
    assert out["properties"]["result"]["items"] == {"$ref": "#/$defs/Reading"}
    assert out["$defs"]["Reading"]["properties"]["at"] == {"type": "string", "format": "date-time"}
    result = call(s, version, "readings", {})
    assert result.structured_content == {"result": [{"at": "2024-01-02T03:04:05Z", "value": "1.5"}]}


def test_a_type_pydantic_cannot_describe_names_tool_and_parameter() -> None:
    s = Server("x")

    def f(ok: int, bad: Opaque) -> None:
        pass

    with pytest.raises(TypeError, match=r"tool 'f': parameter 'bad': cannot describe .*Opaque"):
        s.add_tool(f)


def test_without_pydantic_the_stdlib_derivation_names_tool_and_parameter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_pydantic, "AVAILABLE", False)
    s = Server("x")

    def f(when: datetime.datetime) -> None:
        pass

    with pytest.raises(TypeError, match=r"tool 'f': parameter 'when': cannot derive a JSON Schema for"):
        s.add_tool(f)

    @s.tool()
    def g(n: int) -> int:
        return n

    # The engine checks the schema: no coercion without pydantic.
    assert call(s, MODERN, "g", {"n": "2"}).content[0].text.startswith("Input validation error:")
    assert call(s, MODERN, "g", {"n": 2}).structured_content == {"result": 2}


def test_the_sdk_classes_keep_pydantics_titles() -> None:
    s = FastMCP("x")

    @s.tool()
    def add(a: int) -> int:
        return a

    definition = s._native.tool_definition("add")
    assert definition["inputSchema"] == {"type": "object", "title": "addArguments", "required": ["a"],
                                         "properties": {"a": {"title": "A", "type": "integer"}}}
    assert definition["outputSchema"]["title"] == "addOutput"
    assert pydantic.VERSION


def test_a_validation_error_of_the_tool_itself_is_a_crash() -> None:
    # Only refused arguments are the caller's mistake; MCPServer masks the rest, as the SDK 2.x.
    s = MCPServer("m")

    @s.tool()
    def build() -> str:
        Item(name="x", qty=0)
        return "never"

    @s.tool()
    def wrong() -> int:
        return "not a number"  # type: ignore[return-value]

    assert call(s, MODERN, "build", {}).content[0].text == "Error executing tool build"
    assert call(s, MODERN, "wrong", {}).content[0].text == "Error executing tool wrong"


    @s.tool()
    def takes(n: int) -> int:
        return n

    refused = call(s, MODERN, "takes", {"n": "x"})
    assert refused.is_error and refused.content[0].text.startswith("Error executing tool takes: 1 validation error")
