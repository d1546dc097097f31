"""A registered Python function as the server sees it: its parameters (with the ``Context`` one set
apart), its input schema and description, and how to call it with a request's arguments."""

from __future__ import annotations

import inspect
import typing
from dataclasses import dataclass, field
from typing import Any, Callable

from . import _pydantic
from . import schema as _schema
from .context import Context

__all__ = ["Function"]


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    try:
        return typing.get_type_hints(fn, include_extras=True)
    except Exception as e:  # an unresolvable forward reference
        raise TypeError(f"cannot resolve the type hints of {fn.__qualname__}: {e}") from e


def _is_context(tp: Any) -> bool:
    """libmcp's Context, or the official SDK's (a port that kept its ``Context`` import gets
    libmcp's, which has the same methods)."""
    tp = typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Annotated else tp
    origin = typing.get_origin(tp)
    if origin is not None:  # the SDK's Context is generic: Context[ServerSession, None]
        tp = origin
    if not isinstance(tp, type):
        return False
    return issubclass(tp, Context) or (tp.__name__ == "Context" and tp.__module__.startswith("mcp.server"))


@dataclass
class Function:
    """A handler function, inspected once at registration."""

    fn: Callable[..., Any]
    name: str
    description: str | None
    params: dict[str, inspect.Parameter] = field(default_factory=dict)
    hints: dict[str, Any] = field(default_factory=dict)
    param_docs: dict[str, str] = field(default_factory=dict)
    context_param: str | None = None
    is_async: bool = False
    #: A ``**kwargs`` parameter: every argument is passed (only with an explicit input schema).
    takes_any: bool = False
    #: What the function is registered as (``tool``, ``prompt``, ``resource``), for messages.
    kind: str = "tool"
    #: The pydantic model of the parameters (see :meth:`validate_with_pydantic`), or None.
    arguments: _pydantic.Arguments | None = None

    @classmethod
    def inspect(cls, fn: Callable[..., Any], name: str | None, description: str | None,
                kind: str = "tool") -> Function:
        """Inspects ``fn``: a plain or ``async`` function (or any callable)."""
        if not callable(fn):
            raise TypeError(f"a handler must be callable, got {type(fn).__name__}")
        hints = _hints(fn)
        sig = inspect.signature(fn)
        doc, param_docs = _schema.parse_docstring(inspect.getdoc(fn))
        f = cls(
            fn=fn,
            name=name or str(getattr(fn, "__name__", type(fn).__name__)),
            description=description if description is not None else doc,
            hints=hints,
            param_docs=param_docs,
            is_async=inspect.iscoroutinefunction(fn)
            or inspect.iscoroutinefunction(getattr(fn, "__call__", None)),
            kind=kind,
        )
        for p in sig.parameters.values():
            if p.kind == p.VAR_KEYWORD:
                f.takes_any = True
                continue
            if p.kind == p.VAR_POSITIONAL:
                raise TypeError(f"{f.name}: *args cannot be described as a schema")
            if _is_context(hints.get(p.name)):
                f.context_param = p.name
                continue
            f.params[p.name] = p
        return f

    def validate_with_pydantic(self) -> bool:
        """Makes pydantic the gate of the arguments, when it is installed and the function has no
        ``**kwargs``: one model of the signature validates and converts every call's arguments
        and gives the input schema. Returns whether it does (a type pydantic cannot describe is a
        TypeError naming the function and the parameter)."""
        if not _pydantic.AVAILABLE or self.takes_any:
            return False
        try:
            self.arguments = _pydantic.Arguments(self.kind, self.name, self.params, self.hints,
                                                 getattr(self.fn, "__name__", None))
        except TypeError as e:
            # A type pydantic refuses that the stdlib derivation describes (typing.TypedDict
            # before Python 3.12): the stdlib path and the engine's check, as without pydantic.
            try:
                self.input_schema()
            except TypeError:
                raise e from None
            return False
        return True

    def input_schema(self) -> dict[str, Any]:
        """The object schema of the parameters: pydantic's (see :meth:`validate_with_pydantic`), or
        derived from the type hints and described from the docstring's ``Args:``."""
        if self.takes_any:
            raise TypeError(f"{self.name}: **kwargs cannot be described as a schema; give input_schema=")
        if self.arguments is not None:
            return self.arguments.schema
        defs: dict[str, Any] = {}
        props: dict[str, Any] = {}
        required: list[str] = []
        for pname, p in self.params.items():
            hint = self.hints.get(pname, inspect.Parameter.empty)
            try:
                s = _schema.json_schema(hint, defs)
            except TypeError as e:
                raise TypeError(f"{self.kind} {self.name!r}: parameter {pname!r}: {e} (install pydantic "
                                "for more types)") from e
            if pname in self.param_docs and "description" not in s:
                s["description"] = self.param_docs[pname]
            if p.default is p.empty:
                required.append(pname)
            else:
                try:
                    s["default"] = _schema.jsonable(p.default)
                except TypeError:
                    pass
            props[pname] = s
        out: dict[str, Any] = {"type": "object", "properties": props}
        if required:
            out["required"] = required
        if defs:
            out["$defs"] = defs
        return out

    def call_args(self, arguments: dict[str, Any], ctx: Context | None) -> dict[str, Any]:
        """Keyword arguments for the function: validated and converted by pydantic, or known ones
        coerced to their annotated types."""
        if self.arguments is not None:
            kwargs = self.arguments.validate(arguments)
            if self.context_param is not None:
                kwargs[self.context_param] = ctx
            return kwargs
        kwargs = {
            k: _schema.coerce(self.hints.get(k, inspect.Parameter.empty), v)
            for k, v in arguments.items()
            if k in self.params or self.takes_any
        }
        if self.context_param is not None:
            kwargs[self.context_param] = ctx
        return kwargs
