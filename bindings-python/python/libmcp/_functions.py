"""A registered Python function as the server sees it: its parameters (with the ``Context`` one set
apart), its input schema and description, and how to call it with a request's arguments."""

from __future__ import annotations

import inspect
import typing
from dataclasses import dataclass, field
from typing import Any, Callable

from . import schema as _schema
from .context import Context

__all__ = ["Function"]


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    try:
        return typing.get_type_hints(fn, include_extras=True)
    except Exception as e:  # an unresolvable forward reference
        raise TypeError(f"cannot resolve the type hints of {fn.__qualname__}: {e}") from e


def _is_context(tp: Any) -> bool:
    tp = typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Annotated else tp
    return isinstance(tp, type) and issubclass(tp, Context)


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

    @classmethod
    def inspect(cls, fn: Callable[..., Any], name: str | None, description: str | None) -> Function:
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

    def input_schema(self) -> dict[str, Any]:
        """The object schema of the parameters, described from the docstring's ``Args:``."""
        if self.takes_any:
            raise TypeError(f"{self.name}: **kwargs cannot be described as a schema; give input_schema=")
        defs: dict[str, Any] = {}
        props: dict[str, Any] = {}
        required: list[str] = []
        for pname, p in self.params.items():
            s = _schema.json_schema(self.hints.get(pname, inspect.Parameter.empty), defs)
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
        """Keyword arguments for the function: known ones coerced to their annotated types."""
        kwargs = {
            k: _schema.coerce(self.hints.get(k, inspect.Parameter.empty), v)
            for k, v in arguments.items()
            if k in self.params or self.takes_any
        }
        if self.context_param is not None:
            kwargs[self.context_param] = ctx
        return kwargs
