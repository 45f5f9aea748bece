"""JSON Schema from Python types: used for structured output and for tool parameters.

Covers what appears in tool signatures and simple result types: str, int, float, bool,
None, list/tuple/set/frozenset, dict, Optional/Union, Literal, Enum, dataclasses and
TypedDicts. Enums and Literals carry their JSON ``type`` (Kimi refuses an ``enum``
without one), sets are arrays with ``uniqueItems``, and a dataclass or TypedDict that
contains itself is written once under ``$defs`` and referred to with ``$ref``.
:func:`build_value` decodes validated JSON back into those types, wherever they are nested.

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

from kimi_ext._core.contract import json_type

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
        return _USES_PYDANTIC[tp]
    except (KeyError, TypeError):  # not seen yet, or not hashable
        pass
    try:
        _schema(tp, SchemaBuilder())
        found = False
    except _NeedsPydantic:
        found = True
    except TypeError:
        found = False
    try:
        if len(_USES_PYDANTIC) < 512:
            _USES_PYDANTIC[tp] = found
    except TypeError:
        pass
    return found


# Decoding asks this for every tool call and answer: remember the answer per type.
_USES_PYDANTIC: dict[Any, bool] = {}


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
    """The JSON Schema of a Python type annotation (pydantic types through pydantic).

    A recursive type gets ``$defs`` at the root and ``$ref`` where it recurs; the root
    itself stays an inline object schema (so it has a ``type``).
    """
    try:
        builder = SchemaBuilder()
        schema = builder.schema(tp)
    except _NeedsPydantic:
        return pydantic_schema(tp)
    if builder.defs:
        schema = {**schema, "$defs": builder.defs}
    return schema


class SchemaBuilder:
    """Derives the schemas of several types that share one ``$defs`` (a tool's parameters).

    A dataclass or TypedDict that contains itself is derived once into :attr:`defs` under
    its name and referred to with ``#/$defs/<name>``; other types are inlined, as before.
    """

    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}
        self._names: dict[Any, str] = {}  # recursive type -> its $defs name
        self._open: list[Any] = []  # object types being derived (the recursion check)

    def schema(self, tp: Any) -> dict[str, Any]:
        """The schema of ``tp``; a recursive root is its definition inlined."""
        schema = _schema(tp, self)
        ref = schema.get("$ref") if len(schema) == 1 else None
        if isinstance(ref, str) and ref.startswith(_PREFIX):
            schema = dict(self.defs[ref[len(_PREFIX) :]])
        return schema

    def add_defs(self, defs: dict[str, Any], owner: Any) -> None:
        """Merge the ``$defs`` of a pydantic schema; a name bound to another schema is refused."""
        for name, body in defs.items():
            if name in self.defs and self.defs[name] != body:
                raise TypeError(
                    f"two different types are named {name!r} (one in {owner!r}); rename one"
                )
            self.defs[name] = body

    def _ref(self, tp: Any) -> dict[str, Any]:
        name = self._names.get(tp)
        if name is None:
            base = name = getattr(tp, "__name__", "Def")
            taken = set(self.defs) | set(self._names.values())
            n = 1
            while name in taken:
                n += 1
                name = f"{base}{n}"
            self._names[tp] = name
        return {"$ref": _PREFIX + name}

    def _object(self, tp: type) -> dict[str, Any]:
        if tp in self._names:
            return self._ref(tp)
        if tp in self._open:  # tp contains itself: it becomes a definition
            return self._ref(tp)
        self._open.append(tp)
        try:
            body = object_schema(tp, self)
        finally:
            self._open.pop()
        if tp in self._names:
            self.defs[self._names[tp]] = body
            return self._ref(tp)
        return body


_PREFIX = "#/$defs/"
_WRAPPERS = tuple(
    w for w in (getattr(typing, n, None) for n in ("Required", "NotRequired", "ReadOnly")) if w
)


_SCALAR_KINDS = frozenset({"boolean", "integer", "number", "string", "null"})


def _json_type(value: Any, owner: Any) -> str:
    """The JSON type of an enum value (a TypeError for one JSON cannot hold)."""
    kind = json_type(value)
    if kind not in _SCALAR_KINDS:
        raise TypeError(
            f"cannot derive a JSON Schema from {owner!r}: its value {value!r} is not a JSON "
            "string, number, boolean or null"
        )
    return kind


def _enum_schema(values: list[Any], owner: Any) -> dict[str, Any]:
    """An enum in the shapes Moonshot's schema rules accept: one ``type`` beside it (an
    enum without one is refused), or ``["null", T]`` (null first: with T first, a null
    value is refused as "not a valid integer"), or, for values of two or more other types,
    ``anyOf`` one typed enum per type (a type list with an enum may only add null)."""
    kinds: dict[str, list[Any]] = {}
    for value in values:
        kinds.setdefault(_json_type(value, owner), []).append(value)
    if "integer" in kinds and "number" in kinds:  # every integer is a number
        kinds["number"] = [v for v in values if json_type(v) in ("integer", "number")]
        del kinds["integer"]
    if len(kinds) == 1:
        return {"type": next(iter(kinds)), "enum": values}
    if len(kinds) == 2 and "null" in kinds:
        other = next(k for k in kinds if k != "null")
        return {"type": ["null", other], "enum": values}
    return {"anyOf": [{"type": kind, "enum": members} for kind, members in kinds.items()]}


def _schema(tp: Any, builder: SchemaBuilder) -> dict[str, Any]:
    if is_pydantic_type(tp):
        raise _NeedsPydantic(tp)
    if tp in _SCALARS:
        return dict(_SCALARS[tp])
    origin = get_origin(tp)
    args = get_args(tp)
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema(a, builder) for a in args]}
    if origin is Literal:
        return _enum_schema(list(args), tp)
    if origin is typing.Annotated:
        inner = _schema(args[0], builder)
        for meta in args[1:]:
            if isinstance(meta, str):
                inner["description"] = meta
        return inner
    if origin in _WRAPPERS:  # TypedDict's Required[...] / NotRequired[...]
        return _schema(args[0], builder)
    if origin in (list, tuple, set, frozenset) or tp in (list, tuple, set, frozenset):
        schema: dict[str, Any] = {"type": "array"}
        if origin is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
            return _tuple_schema([_schema(a, builder) for a in args])
        if args:
            schema["items"] = _schema(args[0], builder)
        if origin in (set, frozenset) or tp in (set, frozenset):
            schema["uniqueItems"] = True
        return schema
    if origin is dict or tp is dict:
        schema = {"type": "object"}
        if len(args) == 2:
            schema["additionalProperties"] = _schema(args[1], builder)
        return schema
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum_schema([m.value for m in tp], tp)
    if isinstance(tp, type) and (dataclasses.is_dataclass(tp) or is_typeddict(tp)):
        return builder._object(tp)
    raise TypeError(
        f"cannot derive a JSON Schema from {tp!r}; pass a JSON Schema dict, or a pydantic "
        "model (pip install 'kimi-ext[pydantic]')"
    )


def _tuple_schema(members: list[dict[str, Any]]) -> dict[str, Any]:
    """A fixed-length tuple: ``prefixItems`` for validators that read it, and what
    Moonshot's rules enforce (they ignore ``prefixItems`` and refuse ``items: false``):
    ``items`` any of the member schemas, exactly as many items as members. Which
    arrays are accepted is unchanged (``maxItems`` leaves ``items`` nothing to add)."""
    distinct: list[dict[str, Any]] = []
    for member in members:
        if member not in distinct:
            distinct.append(member)
    items = distinct[0] if len(distinct) == 1 else {"anyOf": distinct}
    return {
        "type": "array",
        "prefixItems": members,
        "items": items,
        "minItems": len(members),
        "maxItems": len(members),
    }


def object_schema(tp: type, builder: SchemaBuilder | None = None) -> dict[str, Any]:
    """The schema of a dataclass or TypedDict: every field, required unless it has a default
    (dataclass) or is not required (TypedDict)."""
    builder = builder or SchemaBuilder()
    hints, required = _fields(tp)
    properties = {name: _schema(hint, builder) for name, hint in hints.items()}
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": [n for n in hints if n in required],
        "additionalProperties": False,
    }
    if tp.__doc__ and not tp.__doc__.startswith(f"{tp.__name__}("):
        schema["description"] = tp.__doc__.strip()
    return schema


def _fields(tp: Any) -> tuple[dict[str, Any], frozenset[str]]:
    """The field hints of a dataclass or TypedDict, and the names a value must have.
    Cached: decoding every tool call or answer would otherwise resolve the hints again."""
    found = _FIELDS.get(tp)
    if found is None:
        found = _read_fields(tp)
        if len(_FIELDS) < 512:
            _FIELDS[tp] = found
    return found


_FIELDS: dict[Any, tuple[dict[str, Any], frozenset[str]]] = {}


def _read_fields(tp: Any) -> tuple[dict[str, Any], frozenset[str]]:
    try:
        hints = get_type_hints(tp, include_extras=True)
    except NameError as exc:  # a forward reference that names nothing importable
        raise TypeError(f"cannot resolve the type hints of {tp!r}: {exc}") from None
    if dataclasses.is_dataclass(tp):
        fields = {f.name: f for f in dataclasses.fields(tp)}
        hints = {n: h for n, h in hints.items() if n in fields and fields[n].init}
        required = frozenset(
            n
            for n, f in fields.items()
            if f.init
            and f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING
        )
    else:
        # The wrappers decide where they are seen: __required_keys__ misses them in string
        # annotations (``from __future__ import annotations``) before Python 3.12.
        keys = getattr(tp, "__required_keys__", ())
        required = frozenset(
            n
            for n, h in hints.items()
            if get_origin(h) is typing.Required
            or (get_origin(h) is not typing.NotRequired and n in keys)
        )
    return hints, required


# --- decoding -------------------------------------------------------------------------------


def build_value(tp: Any, value: Any) -> Any:
    """Turn validated JSON into ``tp``: dataclasses are built, TypedDicts filled, enums made
    members, sets and tuples rebuilt, recursively (through lists, dicts, unions, ...);
    pydantic types are validated by pydantic (raises its ValidationError, a ValueError).
    A value that does not fit ``tp`` is returned as decoded; a constructor that refuses its
    fields raises ValueError."""
    if uses_pydantic(tp):
        return _adapter(tp).validate_python(value)
    return _build(tp, value)


def _build(tp: Any, value: Any) -> Any:
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is typing.Annotated or origin in _WRAPPERS:
        return _build(args[0], value)
    if origin in (Union, types.UnionType):
        for member in args:
            if _fits(member, value):
                return _build(member, value)
        return value
    if isinstance(tp, type):
        if dataclasses.is_dataclass(tp) and isinstance(value, dict):
            hints = _fields(tp)[0]
            kwargs = {k: _build(hints.get(k, Any), v) for k, v in value.items()}
            try:
                return tp(**kwargs)
            except TypeError as exc:  # an unknown or missing field
                raise ValueError(f"cannot build {tp.__name__}: {exc}") from None
        if is_typeddict(tp) and isinstance(value, dict):
            hints = _fields(tp)[0]
            return {k: _build(hints.get(k, Any), v) for k, v in value.items()}
        if issubclass(tp, enum.Enum):
            return tp(value)
    kind = origin or tp
    if kind in (list, set, frozenset, tuple) and isinstance(value, list):
        if kind is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
            if len(args) != len(value):
                return tuple(value)
            return tuple(_build(a, v) for a, v in zip(args, value, strict=True))
        item = args[0] if args else Any
        items = [_build(item, v) for v in value]
        if kind is list:
            return items
        try:
            return kind(items)
        except TypeError as exc:  # items that cannot be set members (unhashable)
            raise ValueError(f"cannot make a {kind.__name__} of {tp!r}: {exc}") from None
    if kind is dict and isinstance(value, dict) and len(args) == 2:
        key, item = args
        return {_build(key, k): _build(item, v) for k, v in value.items()}
    return value


def _fits(tp: Any, value: Any) -> bool:
    """Whether JSON ``value`` matches the schema of ``tp`` (which member of a union it is)."""
    if tp is Any:
        return True
    if tp is type(None):
        return value is None
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if tp is str:
        return isinstance(value, str)
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is typing.Annotated or origin in _WRAPPERS:
        return _fits(args[0], value)
    if origin in (Union, types.UnionType):
        return any(_fits(a, value) for a in args)
    if origin is Literal:
        return any(_same(a, value) for a in args)
    kind = origin or tp
    if kind in (list, set, frozenset, tuple):
        if not isinstance(value, list):
            return False
        if kind is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
            return len(args) == len(value) and all(map(_fits, args, value))
        return not args or all(_fits(args[0], v) for v in value)
    if kind is dict:
        if not isinstance(value, dict):
            return False
        return len(args) != 2 or all(_fits(args[1], v) for v in value.values())
    if isinstance(tp, type):
        if issubclass(tp, enum.Enum):
            return any(_same(m.value, value) for m in tp)
        if dataclasses.is_dataclass(tp) or is_typeddict(tp):
            if not isinstance(value, dict):
                return False
            hints, required = _fields(tp)
            return (
                required <= value.keys()
                and value.keys() <= hints.keys()
                and all(_fits(hints[k], v) for k, v in value.items())
            )
    return True  # a type the schema leaves open


def _same(expected: Any, value: Any) -> bool:
    # 1 == True in Python, not in JSON.
    return bool(expected == value) and isinstance(expected, bool) == isinstance(value, bool)
