"""A small JSON Schema 2020-12 validator, compiled once into closures, that names the path.

Only the keywords the specs in ``openapi/`` use are supported; compiling a schema that uses
another validation keyword raises, so a spec can never say more than this checks. Why not
the ``jsonschema`` package: on a 200-turn history it is about 50x slower, and its errors for
a ``oneOf`` are not the one a user needs. The tests compare this validator's verdicts with
``jsonschema``'s on drawn and mutated bodies, so the two cannot silently disagree.

Two deliberate choices, both what the wire needs:
- ``pattern`` follows ECMA-262 as JSON Schema says: a final ``$`` matches only at the end
  (Python's ``$`` also matches before a trailing newline), ``\\d``/``\\w`` are ASCII.
- An integer is a Python ``int`` (never ``bool``, never a float such as ``1.0``): the
  service parses integers strictly.

Node-local extensions: ``x-kimi-max-utf8-bytes`` (a string's size in UTF-8 bytes),
``x-kimi-unique-by`` (array items unique by a dotted key), ``x-kimi-typed-properties``
(every property of a JSON Schema value says its type) and ``x-kimi-error`` (the rule text
shown when this node fails).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Path = tuple[Any, ...]  # flat, or nested (parent, key) pairs while checking
Check = Callable[[Any, Path], None]

# Keywords that only annotate; everything else must be understood.
_ANNOTATIONS = frozenset(
    {
        "description", "default", "example", "examples", "title", "format", "deprecated",
        "readOnly", "writeOnly", "x-enum-varnames", "discriminator", "$comment",
        "contentMediaType", "contentEncoding", "x-kimi-media-types",
    }
)  # fmt: skip

_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "object": "an object",
    "array": "a list",
    "null": "null",
}


class Violation(Exception):
    """One broken rule: where (a path of keys and indexes), the value there, and the rule.

    Checks pass the path down as nested ``(parent, key)`` pairs, which cost one small tuple
    per level instead of a copy; ``path`` is the flat tuple.
    """

    def __init__(self, path: Any, value: Any, rule: str) -> None:
        super().__init__(rule)
        self.path: Path = _flat(path)
        self.value = value
        self.rule = rule


def _flat(path: Any) -> Path:
    """``((((), "messages"), 3), "content")`` (or an already flat path) as a flat tuple."""
    parts: list[str | int] = []
    while len(path) == 2 and isinstance(path[0], tuple):
        path, key = path
        parts.append(key)
    return (*path, *reversed(parts))


def _join(path: Any, flat: Path) -> Any:
    for part in flat:
        path = (path, part)
    return path


_TYPE_OF: dict[type, str] = {
    str: "string", dict: "object", list: "array", int: "integer", bool: "boolean",
    float: "number", type(None): "null", tuple: "array",
}  # fmt: skip


def json_type(value: Any) -> str:
    """The JSON type name of a Python value (``bool`` is boolean, not integer)."""
    kind = _TYPE_OF.get(type(value))
    if kind is not None:
        return kind
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _is(value: Any, kind: str) -> bool:
    actual = json_type(value)
    return actual == kind or (kind == "number" and actual == "integer")


def _same(a: Any, b: Any) -> bool:
    """JSON equality: ``True`` is not ``1``, ``1`` equals ``1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    numbers = ("integer", "number")
    return bool(a == b) and (json_type(a) in numbers) == (json_type(b) in numbers)


def ecma_pattern(pattern: str) -> re.Pattern[str]:
    """Compile an ECMA-262 ``pattern`` with Python's ``re`` (see the module docstring)."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern, re.ASCII)


def _show(value: Any) -> str:
    return ", ".join(str(v) for v in value)


class Compiler:
    """Compiles the schemas of one ``$defs`` document; each ``$ref`` is compiled once."""

    def __init__(self, defs: Mapping[str, Any]) -> None:
        self.defs = defs
        self._compiled: dict[str, Check] = {}

    def resolve(self, schema: Any) -> Any:
        """``schema`` with ``$ref`` chains followed."""
        while isinstance(schema, Mapping) and "$ref" in schema:
            schema = self.defs[str(schema["$ref"]).removeprefix("#/$defs/")]
        return schema

    def ref(self, name: str) -> Check:
        """The check of the component ``name`` (compiled lazily, so recursion works)."""
        check = self._compiled.get(name)
        if check is None:
            placeholder: list[Check] = []

            def deferred(value: Any, path: Path) -> None:
                placeholder[0](value, path)

            self._compiled[name] = deferred
            placeholder.append(self.compile(self.defs[name]))
            check = self._compiled[name] = placeholder[0]
        return check

    # ------------------------------------------------------------------ compilation

    def compile(self, schema: Any) -> Check:
        """One check function for ``schema``."""
        if schema is True or schema == {}:
            return _accept
        if schema is False:
            return _reject
        if not isinstance(schema, Mapping):
            raise TypeError(f"not a schema: {schema!r}")
        if "$ref" in schema:
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            target = self.ref(str(schema["$ref"]).removeprefix("#/$defs/"))
            if not any(k not in _ANNOTATIONS for k in rest):
                return target
            return _all([target, self.compile(rest)])
        unknown = [
            k for k in schema if k not in _ANNOTATIONS and k not in _KEYWORDS and k != "type"
        ]
        if unknown:
            raise ValueError(f"unsupported JSON Schema keyword(s) {unknown} in {schema!r}")
        checks: list[Check] = []
        if "type" in schema:
            items = self.resolve(schema.get("items"))
            of = items.get("type") if isinstance(items, Mapping) else None
            typed = _type_check(schema["type"], of if isinstance(of, str) else None)
            checks.append(typed)
        if "const" in schema:
            checks.append(_enum_check([schema["const"]]))
        if "enum" in schema:
            checks.append(_enum_check(list(schema["enum"])))
        if (
            len(checks) == 2
            and schema.get("type") == "string"
            and ("const" in schema) != ("enum" in schema)
        ):
            # A string with a fixed set of values: one membership test covers the type too.
            allowed = frozenset([schema["const"]] if "const" in schema else schema["enum"])
            if all(isinstance(v, str) for v in allowed):
                slow = _all(checks)

                def choice(value: Any, path: Path) -> None:
                    if type(value) is str and value in allowed:
                        return
                    slow(value, path)

                checks = [choice]
        checks.extend(self._string(schema))
        checks.extend(_number(schema))
        checks.extend(self._array(schema))
        # A refused shape is named before its members are checked one by one.
        if "not" in schema:
            checks.append(self._not(schema["not"]))
        fields = self._object(schema)
        if fields and schema.get("type") == "object" and checks == [typed]:
            # The object check tests the type itself: one call per object, not two.
            checks = [self._object(schema, typed=typed)[0], *fields[1:]]
        else:
            checks.extend(fields)
        for key in ("oneOf", "anyOf"):
            if key in schema:
                checks.append(self._union(schema[key], exactly_one=key == "oneOf"))
        if "allOf" in schema:
            checks.append(_all([self.compile(s) for s in schema["allOf"]]))
        if "if" in schema:
            checks.append(self._if(schema))
        check = _all(checks)
        message = schema.get("x-kimi-error")
        if message is not None:
            check = _with_message(check, str(message))
        return check

    def _string(self, schema: Mapping[str, Any]) -> list[Check]:
        out: list[Check] = []
        # Bytes first: the byte limit is the rule, a character bound only follows from it.
        if "x-kimi-max-utf8-bytes" in schema:
            limit = int(schema["x-kimi-max-utf8-bytes"])

            def utf8(value: Any, path: Path) -> None:
                if isinstance(value, str) and len(value) * 4 > limit:
                    size = len(value.encode("utf-8", "surrogatepass"))
                    if size > limit:
                        raise Violation(path, value, f"at most {limit} UTF-8 bytes (got {size})")

            out.append(utf8)
        low, high = schema.get("minLength"), schema.get("maxLength")
        if low is not None or high is not None:
            lo, hi = int(low or 0), high

            def length(value: Any, path: Path) -> None:
                if isinstance(value, str):
                    if len(value) < lo:
                        raise Violation(
                            path,
                            value,
                            "must not be empty" if lo == 1 else f"at least {lo} characters",
                        )
                    if hi is not None and len(value) > hi:
                        raise Violation(path, value, f"at most {hi} characters (got {len(value)})")

            out.append(length)
        if "pattern" in schema:
            regex = ecma_pattern(str(schema["pattern"]))
            shown = schema["pattern"]

            def pattern(value: Any, path: Path) -> None:
                if isinstance(value, str) and regex.search(value) is None:
                    raise Violation(path, value, f"must match {shown}")

            out.append(pattern)
        return out

    def _array(self, schema: Mapping[str, Any]) -> list[Check]:
        out: list[Check] = []
        low, high = schema.get("minItems"), schema.get("maxItems")
        if low is not None or high is not None:
            lo, hi = int(low or 0), high

            def size(value: Any, path: Path) -> None:
                if isinstance(value, list | tuple):
                    if len(value) < lo:
                        raise Violation(
                            path, value, "must not be empty" if lo == 1 else f"at least {lo} items"
                        )
                    if hi is not None and len(value) > hi:
                        raise Violation(
                            path, f"<{len(value)} items>", f"at most {hi} items (got {len(value)})"
                        )

            out.append(size)
        if "items" in schema:
            item = self.compile(schema["items"])
            if item is not _accept:

                def items(value: Any, path: Path) -> None:
                    if isinstance(value, list | tuple):
                        for i, v in enumerate(value):
                            item(v, (path, i))

                out.append(items)
        if "contains" in schema:
            wanted = self.compile(schema["contains"])

            def contains(value: Any, path: Path) -> None:
                if isinstance(value, list | tuple):
                    for i, v in enumerate(value):
                        try:
                            wanted(v, (path, i))
                        except Violation:
                            continue
                        return
                    raise Violation(path, value, "has no item of the required kind")

            out.append(contains)
        if "x-kimi-unique-by" in schema:
            keys = str(schema["x-kimi-unique-by"]).split(".")

            def unique(value: Any, path: Path) -> None:
                if not isinstance(value, list | tuple):
                    return
                seen: set[Any] = set()
                for i, v in enumerate(value):
                    at: Path = (path, i)
                    for key in keys:
                        if not isinstance(v, Mapping) or key not in v:
                            break
                        v, at = v[key], (at, key)
                    else:
                        if isinstance(v, str):
                            if v in seen:
                                raise Violation(
                                    at, v, "must be unique (the service rejects duplicates)"
                                )
                            seen.add(v)

            out.append(unique)
        return out

    def _object(self, schema: Mapping[str, Any], typed: Check | None = None) -> list[Check]:
        out: list[Check] = []
        required = tuple(schema.get("required", ()))
        props = {k: self.compile(v) for k, v in schema.get("properties", {}).items()}
        # (key, check, types that need no call): a plain ``type: string`` field costs a
        # set lookup, not a function call.
        members = tuple(
            (k, v, _EXACT.get(v, frozenset())) for k, v in props.items() if v is not _accept
        )
        extra = schema.get("additionalProperties", True)
        extra_check = None if extra is True else self.compile(extra)
        known = frozenset(schema.get("properties", {}))
        if required or members or extra_check is not None:
            # One function per object schema: this is the hot path of a long history.
            def fields(value: Any, path: Path) -> None:
                if type(value) is not dict and not isinstance(value, Mapping):
                    if typed is not None:
                        typed(value, path)
                    return
                for key in required:
                    if key not in value:
                        raise Violation((path, key), None, "is required")
                for key, check, exact in members:
                    if key in value:
                        v = value[key]
                        if type(v) not in exact:
                            check(v, (path, key))
                if extra_check is not None:
                    for key in value:
                        if key not in known:
                            extra_check(value[key], (path, key))

            out.append(fields)
        deps = {k: self.compile(v) for k, v in schema.get("dependentSchemas", {}).items()}
        if deps:

            def dependent(value: Any, path: Path) -> None:
                if isinstance(value, Mapping):
                    for key, check in deps.items():
                        if key in value:
                            try:
                                check(value, path)
                            except Violation as exc:
                                # Name the field that brings the requirement.
                                raise Violation((path, key), value[key], exc.rule) from None

            out.append(dependent)
        if schema.get("x-kimi-typed-properties"):
            out.append(_typed_properties)
        return out

    def _union(self, members: list[Any], *, exactly_one: bool) -> Check:
        resolved = [self.resolve(m) for m in members]
        checks = [self.compile(m) for m in members]
        by_type: dict[str, list[int]] = {}
        untyped: list[int] = []
        for i, m in enumerate(resolved):
            kinds = m.get("type") if isinstance(m, Mapping) else None
            if kinds is None:
                untyped.append(i)
            for kind in [kinds] if isinstance(kinds, str) else kinds or []:
                by_type.setdefault(kind, []).append(i)
        if "number" in by_type:
            by_type.setdefault("integer", []).extend(by_type["number"])
        shown_types = " or ".join(_TYPE_NAMES.get(k, k) for k in by_type)
        dispatch = _discriminator(resolved, self)

        def among(candidates: list[int]) -> Check:
            """The check for values that only ``candidates`` may match."""
            if len(candidates) == 1:
                return checks[candidates[0]]
            picked = [checks[i] for i in candidates]

            def generic(value: Any, path: Path) -> None:
                passed = 0
                best: Violation | None = None
                for check in picked:
                    try:
                        check(value, path)
                    except Violation as exc:
                        if best is None or len(exc.path) > len(best.path):
                            best = exc
                    else:
                        passed += 1
                        if not exactly_one:
                            return
                if passed == 0:
                    assert best is not None
                    raise best
                if passed > 1:
                    raise Violation(
                        path, value, "matches more than one shape (the spec is ambiguous)"
                    )

            return generic

        handlers: dict[str, Check] = {}
        for kind in ("string", "integer", "number", "boolean", "object", "array", "null"):
            candidates = by_type.get(kind, []) + untyped
            if not candidates:
                continue
            if kind == "object" and len(candidates) > 1 and dispatch is not None:
                handlers[kind] = dispatch(candidates, among)
            else:
                handlers[kind] = among(candidates)

        by_python_type = {t: handlers[k] for t, k in _TYPE_OF.items() if k in handlers}
        tags = _TAGS.get(handlers.get("object"))  # type: ignore[arg-type]
        tag_key, by_tag = tags if tags is not None else ("", {})

        def union(value: Any, path: Path) -> None:
            if by_tag and type(value) is dict:
                # A tagged object (a block, an item, a message): straight to its member.
                tag = value.get(tag_key)
                check = by_tag.get(tag) if type(tag) is str else None
                if check is not None:
                    check(value, path)
                    return
            handler = by_python_type.get(type(value)) or handlers.get(json_type(value))
            if handler is None:
                raise Violation(path, value, f"must be {shown_types}")
            handler(value, path)

        return union

    def _not(self, sub: Any) -> Check:
        inner = self.compile(sub)
        sub = self.resolve(sub)
        if isinstance(sub, Mapping) and "x-kimi-error" in sub:
            rule = str(sub["x-kimi-error"])
        elif isinstance(sub, Mapping) and set(sub) == {"required"} and len(sub["required"]) == 1:
            (key,) = sub["required"]

            def forbidden(value: Any, path: Path) -> None:
                if isinstance(value, Mapping) and key in value:
                    raise Violation((path, key), value[key], "is not allowed here")

            return forbidden
        elif isinstance(sub, Mapping) and set(sub) == {"required"}:
            names = " and ".join(sub["required"])
            rule = f"set {names}, not all of them"
        if isinstance(sub, Mapping) and set(sub) - {"x-kimi-error"} == {"required"}:
            first = sub["required"][0]
            keys = tuple(sub["required"])

            def exclusive(value: Any, path: Path) -> None:
                if isinstance(value, Mapping) and all(k in value for k in keys):
                    raise Violation((path, first), value[first], rule)

            return exclusive
        elif isinstance(sub, Mapping) and "enum" in sub and set(sub) <= {"enum", "type"}:
            rule = f"must not be {_show(sub['enum'])}"
        else:
            rule = "is not allowed here"

        def negate(value: Any, path: Path) -> None:
            try:
                inner(value, path)
            except Violation:
                return
            raise Violation(path, value, rule)

        return negate

    def _if(self, schema: Mapping[str, Any]) -> Check:
        cond = self.compile(schema["if"])
        then = self.compile(schema.get("then", True))
        other = self.compile(schema.get("else", True))

        cause = self.resolve(schema["if"]).get("required", [None])[0]

        def conditional(value: Any, path: Path) -> None:
            try:
                cond(value, path)
            except Violation:
                other(value, path)
                return
            try:
                then(value, path)
            except Violation as exc:
                if cause is None or not isinstance(value, Mapping):
                    raise
                # Name the field whose value brought the requirement (``tool_choice``).
                raise Violation((path, cause), value[cause], exc.rule) from None

        return conditional


_KEYWORDS = frozenset(
    {
        "const", "enum", "minLength", "maxLength", "pattern", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "items", "minItems", "maxItems", "required",
        "properties", "additionalProperties", "dependentSchemas", "oneOf", "anyOf", "allOf",
        "not", "if", "then", "else", "contains", "x-kimi-max-utf8-bytes", "x-kimi-unique-by",
        "x-kimi-typed-properties", "x-kimi-error",
    }
)  # fmt: skip


def _accept(value: Any, path: Path) -> None:
    return None


def _reject(value: Any, path: Path) -> None:
    raise Violation(path, value, "is not allowed here")


def _all(checks: list[Check]) -> Check:
    checks = [c for c in checks if c is not _accept]
    if not checks:
        return _accept
    if len(checks) == 1:
        return checks[0]
    frozen = tuple(checks)

    def every(value: Any, path: Path) -> None:
        for check in frozen:
            check(value, path)

    return every


def _with_message(check: Check, message: str) -> Check:
    def reworded(value: Any, path: Path) -> None:
        try:
            check(value, path)
        except Violation as exc:
            raise Violation(exc.path, exc.value, message) from None

    return reworded


def _type_check(kinds: Any, item_kind: str | None = None) -> Check:
    allowed = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    names = dict(_TYPE_NAMES)
    if item_kind is not None:
        names["array"] = f"a list of {item_kind}s"
    shown = " or ".join(names[k] for k in allowed)
    # The exact Python types of each JSON type: one set lookup on the hot path.
    exact = frozenset(
        t for t, k in _TYPE_OF.items() if k in allowed or (k == "integer" and "number" in allowed)
    )

    def typed(value: Any, path: Path) -> None:
        if type(value) in exact:
            return
        for kind in allowed:
            if _is(value, kind):
                return
        raise Violation(path, value, f"must be {shown}")

    _EXACT[typed] = exact
    return typed


# Pure type checks and the Python types that pass them, so a caller can skip the call.
_EXACT: dict[Check, frozenset[type]] = {}


def _enum_check(values: list[Any]) -> Check:
    hashable = all(isinstance(v, str) for v in values)
    allowed = frozenset(values) if hashable else None
    if len(values) == 1:
        rule = f"must be {values[0]}"
    elif len(values) == 2:
        rule = f"must be {values[0]} or {values[1]}"
    else:
        rule = f"must be one of {_show(values)}"

    def enum(value: Any, path: Path) -> None:
        if allowed is not None:
            if isinstance(value, str) and value in allowed:
                return
        elif any(_same(value, v) for v in values):
            return
        raise Violation(path, value, rule)

    return enum


def _number(schema: Mapping[str, Any]) -> list[Check]:
    bounds = [
        (k, schema[k])
        for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
        if k in schema
    ]
    if not bounds:
        return []
    low, high = schema.get("minimum"), schema.get("maximum")
    kind = "an integer" if schema.get("type") == "integer" else "a number"
    if low is not None and low == high:
        rule = f"must be {low}"
    elif low is not None and high is not None:
        rule = f"must be {kind} between {low} and {high}"
    else:
        rule = ""

    def number(value: Any, path: Path) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return
        for key, bound in bounds:
            ok = (
                value >= bound
                if key == "minimum"
                else value <= bound
                if key == "maximum"
                else value > bound
                if key == "exclusiveMinimum"
                else value < bound
            )
            if not ok:
                text = {
                    "minimum": ">=",
                    "maximum": "<=",
                    "exclusiveMinimum": ">",
                    "exclusiveMaximum": "<",
                }
                raise Violation(path, value, rule or f"must be {text[key]} {bound}")

    return [number]


Among = Callable[[list[int]], Check]


def _discriminator(
    members: list[Any], compiler: Compiler
) -> Callable[[list[int], Among], Check] | None:
    """Tell object members apart by a property that is a ``const`` in each (``type``, ``role``)."""
    objects = [m for m in members if isinstance(m, Mapping) and m.get("type") == "object"]
    if len(objects) < 2:
        return None
    for key in ("type", "role"):
        table: dict[Any, list[int]] = {}
        absent: list[int] = []
        for i, m in enumerate(members):
            if not (isinstance(m, Mapping) and m.get("type") == "object"):
                continue
            prop = compiler.resolve(m.get("properties", {}).get(key))
            if not isinstance(prop, Mapping):
                break
            values = [prop["const"]] if "const" in prop else prop.get("enum")
            if not values:
                break
            for v in values:
                table.setdefault(v, []).append(i)
            if key not in m.get("required", ()):
                absent.append(i)
        else:
            return _make_dispatch(key, table, absent)
    return None


def _make_dispatch(
    key: str, table: dict[Any, list[int]], absent: list[int]
) -> Callable[[list[int], Among], Check]:
    known = ", ".join(sorted(str(v) for v in table))
    rule = f"must be one of {known}"

    def build(candidates: list[int], among: Among) -> Check:
        by_tag = {
            tag: among(hit)
            for tag, members in table.items()
            if (hit := [i for i in candidates if i in members])
        }
        when_absent = among([i for i in candidates if i in absent]) if absent else None

        def dispatch(value: Any, path: Path) -> None:
            if key not in value:
                if when_absent is None:
                    raise Violation((path, key), None, f"is required ({known})")
                when_absent(value, path)
                return
            tag = value[key]
            check = by_tag.get(tag) if isinstance(tag, str) else None
            if check is None:
                raise Violation((path, key), tag, rule)
            check(value, path)

        _TAGS[dispatch] = (key, {t: c for t, c in by_tag.items() if isinstance(t, str)})
        return dispatch

    return build


# The tag table of each discriminating dispatch, so a union can look its member up inline.
_TAGS: dict[Check, tuple[str, dict[str, Check]]] = {}


def _typed_properties(value: Any, path: Path) -> None:
    """Moonshot refuses a property schema without a type (``enum`` alone is not enough)."""

    def walk(schema: Any, where: Path) -> None:
        if not isinstance(schema, Mapping):
            return
        props = schema.get("properties")
        if isinstance(props, Mapping):
            for name, sub in props.items():
                at: Path = (*where, "properties", name)
                if isinstance(sub, Mapping) and not any(
                    k in sub for k in ("type", "anyOf", "oneOf", "allOf", "$ref")
                ):
                    dotted = ".".join(str(p) for p in at)
                    raise Violation(
                        _join(path, at), sub, f"At path '{dotted}': type is not defined"
                    )
                walk(sub, at)
        items = schema.get("items")
        if isinstance(items, Mapping):
            walk(items, (*where, "items"))

    walk(value, ())
