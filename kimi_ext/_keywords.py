"""What ``help()`` and ``inspect.signature`` show for a resource's ``create``, ``stream``,
``parse`` and ``continue_``: each keyword argument of the format, with its type.

The methods take ``**params: Unpack[ChatParams]`` (and so on), which type checkers read;
at run time that is only ``**params``. :func:`keywords` makes such a method list, instead,
every field of its format's params TypedDict (``kimi_ext.<format>.params``: the body fields
derived from the spec, plus the call options) as a keyword-only parameter, required when
the derived contract requires it, else defaulting to None ("not given"); its docstring gains
one line per field from the spec's ``description``. Nothing here names a field.

Both are computed on first use (``help()``, ``inspect.signature``), never at import: the
params modules cost tens of milliseconds to import. Calls are unchanged: the method still
takes ``**params``, so an unknown keyword is refused as before.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import itertools
import operator
import textwrap
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from kimi_ext._core.contract.options import NONE_IS_NO_LIMIT, CallOptions

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["keywords"]


def keywords(fn: F) -> F:
    """Decorate a resource method taking ``**params``: its signature and docstring list
    its format's keyword arguments (the format is the ``format`` of the class it is read
    from, so a method of a shared base class shows each format's own)."""
    return typing.cast(F, _Keywords(fn))


class _ClientsSetting:
    """The default shown for an option whose None means "no limit": the client's."""

    def __repr__(self) -> str:
        return "<the client's>"


CLIENTS = _ClientsSetting()


class _Keywords:
    """The descriptor :func:`keywords` puts in the class: one :class:`_View` per class."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self._fn = fn
        self._views: dict[type, _View] = {}
        functools.update_wrapper(self, fn)  # type: ignore[arg-type]

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        owner = owner if owner is not None else type(instance)
        view = self._views.get(owner)
        if view is None:
            view = self._views[owner] = _View(self._fn, getattr(owner, "format", None))
        return view if instance is None else types.MethodType(view, instance)


class _View:
    """The method as one class has it: called like the function; ``__signature__`` and
    ``__doc__`` built on first read. It carries the function's code and defaults, so
    ``inspect.iscoroutinefunction`` still tells an async method."""

    def __init__(self, fn: Callable[..., Any], fmt: Any) -> None:
        self._fn = fn
        self._fmt = fmt
        self.__wrapped__ = fn
        for name in ("__name__", "__qualname__", "__module__", "__code__", "__defaults__",
                     "__kwdefaults__", "__annotations__"):  # fmt: skip
            setattr(self, name, getattr(fn, name))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._fn(*args, **kwargs)

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        return self if instance is None else types.MethodType(self, instance)

    def __repr__(self) -> str:
        name = getattr(self._fn, "__qualname__", "?")
        return f"<function {name}>"

    @functools.cached_property
    def __signature__(self) -> inspect.Signature:
        own = inspect.signature(self._fn)
        fields = _fields(self._fmt) if self._fmt is not None else []
        taken = set(own.parameters)
        kept = [p for p in own.parameters.values() if p.kind is not p.VAR_KEYWORD]
        kept = [p.replace(annotation=_resolve(p.annotation, self._fn)) for p in kept]
        added = [p for p, _ in fields if p.name not in taken]
        return own.replace(
            parameters=kept + added, return_annotation=_resolve(own.return_annotation, self._fn)
        )

    @functools.cached_property
    def __doc__(self) -> str:  # type: ignore[override]
        doc = inspect.cleandoc(self._fn.__doc__ or "")
        if self._fmt is None:
            return doc
        lines = [f"    {p.name}{' (required)' if p.default is p.empty else ''}: {text}"
                 for p, text in _fields(self._fmt)]  # fmt: skip
        return (
            f"{doc}\n\nKeyword arguments ({self._fmt.name} format; a body field that is None "
            f"is not given, and left off the wire):\n" + "\n".join(lines)
        )


@functools.cache
def _fields(fmt: Any) -> list[tuple[inspect.Parameter, str]]:
    """Each keyword argument of ``fmt`` (its params TypedDict's fields, in order) as a
    keyword-only parameter, with the one-line description the spec gives it (or '')."""
    module = importlib.import_module(f"kimi_ext.{fmt.name}.params")
    # The format's params TypedDict: <Format>Params (ChatParams, MessagesParams ...).
    params = getattr(module, f"{fmt.name.capitalize()}Params")
    hints = typing.get_type_hints(params)
    data = fmt.contract.data
    required = set(data["required"])
    options = _option_docs()
    out = []
    for name, hint in hints.items():
        if name in required:
            param = inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=_given(hint))
        else:
            default = CLIENTS if name in NONE_IS_NO_LIMIT else None
            param = inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint
            )
        text = _description(data["schema"], data["request"], name) or options.get(name, "")
        out.append((param, text))
    return out


@functools.cache
def _option_docs() -> dict[str, str]:
    """The first sentence of each call option's docstring (written under its field in
    :class:`CallOptions`; Python keeps no attribute docstrings, so read from its source)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(CallOptions)))
    except (OSError, TypeError):  # no source (a frozen app): the options go undescribed
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs = {}
    for field, after in itertools.pairwise(body):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[field.target.id] = _first_sentence(after.value.value)
    return docs


def _first_sentence(text: str) -> str:
    one = " ".join(text.split())
    end = one.find(". ")
    return one if end < 0 else one[: end + 1]


def _given(hint: Any) -> Any:
    """``hint`` without its ``None``: a required field has to be given."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) not in (typing.Union, types.UnionType) or type(None) not in args:
        return hint
    kept = [a for a in args if a is not type(None)]
    return functools.reduce(operator.or_, kept) if len(kept) > 1 else kept[0]


def _description(schema: Mapping[str, Any], request: str, name: str) -> str:
    """The first sentence of the spec's description of the body field ``name`` (following
    a ``$ref`` to its component), '' when the spec has none (a call option)."""
    defs = schema.get("$defs", {})
    node = defs.get(request, {}).get("properties", {}).get(name, {})
    text = node.get("description")
    ref = node.get("$ref")
    if text is None and isinstance(ref, str):
        text = defs.get(ref.removeprefix("#/$defs/"), {}).get("description")
    return _first_sentence(text) if text else ""


def _resolve(annotation: Any, fn: Callable[..., Any]) -> Any:
    """A string annotation of ``fn`` evaluated in its module, or left as written when it
    names something imported for type checkers only."""
    if not isinstance(annotation, str):
        return annotation
    try:
        return eval(annotation, getattr(fn, "__globals__", {}))
    except Exception:
        return annotation
