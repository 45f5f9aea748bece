"""JSON Schema from Python types: used for structured output and for tool parameters.

Covers what appears in tool signatures and simple result types: str, int, float, bool,
None, list/tuple/set, dict, Optional/Union, Literal, Enum, dataclasses and TypedDicts.
Anything else raises TypeError naming the type; pass an explicit JSON Schema instead.

    >>> schema_from_type(list[int])
    {'type': 'array', 'items': {'type': 'integer'}}
"""

from __future__ import annotations

import dataclasses
import enum
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


def schema_from_type(tp: Any) -> dict[str, Any]:
    """The JSON Schema of a Python type annotation."""
    if tp in _SCALARS:
        return dict(_SCALARS[tp])
    origin = get_origin(tp)
    args = get_args(tp)
    if origin in (Union, types.UnionType):
        members = [schema_from_type(a) for a in args]
        return {"anyOf": members}
    if origin is Literal:
        values = list(args)
        kinds = {type(v) for v in values}
        schema: dict[str, Any] = {"enum": values}
        if len(kinds) == 1 and (kind := _SCALARS.get(kinds.pop())):
            schema = {**kind, "enum": values}
        return schema
    if origin is typing.Annotated:
        inner = schema_from_type(args[0])
        for meta in args[1:]:
            if isinstance(meta, str):
                inner["description"] = meta
        return inner
    if origin in (list, tuple, set, frozenset) or tp in (list, tuple, set, frozenset):
        schema = {"type": "array"}
        if args and not (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
            if origin is tuple:
                schema["prefixItems"] = [schema_from_type(a) for a in args]
                schema["items"] = False
                return schema
            schema["items"] = schema_from_type(args[0])
        elif args:
            schema["items"] = schema_from_type(args[0])
        return schema
    if origin is dict or tp is dict:
        schema = {"type": "object"}
        if len(args) == 2:
            schema["additionalProperties"] = schema_from_type(args[1])
        return schema
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"enum": [m.value for m in tp]}
    if isinstance(tp, type) and (dataclasses.is_dataclass(tp) or is_typeddict(tp)):
        return object_schema(tp)
    raise TypeError(f"cannot derive a JSON Schema from {tp!r}; pass a JSON Schema dict instead")


def object_schema(tp: type) -> dict[str, Any]:
    """The schema of a dataclass or TypedDict: every field, required unless it has a default
    (dataclass) or is not required (TypedDict)."""
    hints = get_type_hints(tp, include_extras=True)
    properties = {name: schema_from_type(hint) for name, hint in hints.items()}
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
    """Turn validated JSON into ``tp`` where ``tp`` is a dataclass (recursively); other
    types are returned as decoded."""
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
