"""JSON Schema from Python types: used for structured output and for tool parameters.

Covers what appears in tool signatures and simple result types: str, int, float, bool,
None, list/tuple/set, dict, Optional/Union, Literal, Enum, dataclasses and TypedDicts.

Pydantic v2 models, and any type that contains one (``list[City]``, ``City | None``, a
dataclass with a model field), are handed whole to pydantic's ``TypeAdapter``: it derives
the schema and validates values into instances. Pydantic is an optional extra
(``pip install 'kimi-ext[pydantic]'``) and is never imported here unless a model is given:
a model can only exist once pydantic has been imported. Types the hand-written code covers
keep their schema whether pydantic is installed or not.

Anything else raises TypeError naming the type; pass an explicit JSON Schema instead.

    >>> schema_from_type(list[int])
    {'type': 'array', 'items': {'type': 'integer'}}
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

_SCALARS: dict[Any, dict[str, Any]] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
    Any: {},
}


class _NeedsPydantic(TypeError):
    """Raised inside the hand-written derivation when it meets a pydantic model."""


def is_pydantic_type(tp: Any) -> bool:
    """True when ``tp`` is a pydantic model class or a ``TypeAdapter`` (never imports pydantic)."""
    pydantic = sys.modules.get("pydantic")
    if pydantic is None:
        return False
    if isinstance(tp, type) and issubclass(tp, pydantic.BaseModel):
        return True
    return isinstance(tp, pydantic.TypeAdapter)


def uses_pydantic(tp: Any) -> bool:
    """True when ``tp`` is, or contains, a pydantic model: pydantic handles it whole."""
    if "pydantic" not in sys.modules:
        return False
    try:
        _schema(tp)
    except _NeedsPydantic:
        return True
    except TypeError:
        return False
    return False


def _adapter(tp: Any) -> Any:
    import pydantic

    return tp if isinstance(tp, pydantic.TypeAdapter) else pydantic.TypeAdapter(tp)


def pydantic_schema(tp: Any) -> dict[str, Any]:
    """The JSON Schema pydantic derives for ``tp``, with ``$defs`` inlined unless recursive
    (a self-contained schema can be nested anywhere, e.g. as one tool parameter)."""
    import pydantic

    try:
        schema: dict[str, Any] = _adapter(tp).json_schema()
    except pydantic.PydanticUserError as exc:
        raise TypeError(f"pydantic cannot derive a JSON Schema from {tp!r}: {exc}") from None
    return _inline_defs(schema)


class _Recursive(Exception):
    pass


def _inline_defs(schema: dict[str, Any]) -> dict[str, Any]:
    defs = schema.get("$defs")
    if not isinstance(defs, dict) or not defs:
        return schema
    prefix = "#/$defs/"

    def resolve(node: Any, stack: frozenset[str]) -> Any:
        if isinstance(node, list):
            return [resolve(v, stack) for v in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(prefix):
            name = ref[len(prefix) :]
            if name in stack or name not in defs:
                raise _Recursive
            target = resolve(defs[name], stack | {name})
            rest = {k: resolve(v, stack) for k, v in node.items() if k != "$ref"}
            return {**target, **rest}
        return {k: resolve(v, stack) for k, v in node.items() if k != "$defs"}

    try:
        inlined: dict[str, Any] = resolve(schema, frozenset())
    except _Recursive:  # a recursive model keeps its $defs at the root
        return schema
    return inlined


def schema_from_type(tp: Any) -> dict[str, Any]:
    """The JSON Schema of a Python type annotation (pydantic types through pydantic)."""
    try:
        return _schema(tp)
    except _NeedsPydantic:
        return pydantic_schema(tp)


def _schema(tp: Any) -> dict[str, Any]:
    if is_pydantic_type(tp):
        raise _NeedsPydantic(tp)
    if tp in _SCALARS:
        return dict(_SCALARS[tp])
    origin = get_origin(tp)
    args = get_args(tp)
    if origin in (Union, types.UnionType):
        members = [_schema(a) for a in args]
        return {"anyOf": members}
    if origin is Literal:
        values = list(args)
        kinds = {type(v) for v in values}
        schema: dict[str, Any] = {"enum": values}
        if len(kinds) == 1 and (kind := _SCALARS.get(kinds.pop())):
            schema = {**kind, "enum": values}
        return schema
    if origin is typing.Annotated:
        inner = _schema(args[0])
        for meta in args[1:]:
            if isinstance(meta, str):
                inner["description"] = meta
        return inner
    if origin in (list, tuple, set, frozenset) or tp in (list, tuple, set, frozenset):
        schema = {"type": "array"}
        if args and not (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
            if origin is tuple:
                schema["prefixItems"] = [_schema(a) for a in args]
                schema["items"] = False
                return schema
            schema["items"] = _schema(args[0])
        elif args:
            schema["items"] = _schema(args[0])
        return schema
    if origin is dict or tp is dict:
        schema = {"type": "object"}
        if len(args) == 2:
            schema["additionalProperties"] = _schema(args[1])
        return schema
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"enum": [m.value for m in tp]}
    if isinstance(tp, type) and (dataclasses.is_dataclass(tp) or is_typeddict(tp)):
        return object_schema(tp)
    raise TypeError(
        f"cannot derive a JSON Schema from {tp!r}; pass a JSON Schema dict, or a pydantic "
        "model (pip install 'kimi-ext[pydantic]')"
    )


def object_schema(tp: type) -> dict[str, Any]:
    """The schema of a dataclass or TypedDict: every field, required unless it has a default
    (dataclass) or is not required (TypedDict)."""
    hints = get_type_hints(tp, include_extras=True)
    properties = {name: _schema(hint) for name, hint in hints.items()}
    if dataclasses.is_dataclass(tp):
        required = [
            f.name
            for f in dataclasses.fields(tp)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ]
    else:
        required = [n for n in hints if n in getattr(tp, "__required_keys__", ())]
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    if tp.__doc__ and not tp.__doc__.startswith(f"{tp.__name__}("):
        schema["description"] = tp.__doc__.strip()
    return schema


def build_value(tp: Any, value: Any) -> Any:
    """Turn validated JSON into ``tp`` where ``tp`` is a dataclass (recursively) or a
    pydantic type (validated by pydantic: raises its ValidationError, a ValueError);
    other types are returned as decoded."""
    if uses_pydantic(tp):
        return _adapter(tp).validate_python(value)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp) and isinstance(value, dict):
        hints = get_type_hints(tp)
        return tp(**{k: build_value(hints.get(k, Any), v) for k, v in value.items()})
    origin = get_origin(tp)
    if origin is list and isinstance(value, list):
        (item,) = get_args(tp) or (Any,)
        return [build_value(item, v) for v in value]
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(value)
    return value
