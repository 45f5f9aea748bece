"""A small JSON Schema 2020-12 validator, compiled once into closures, that names the path.

Only the keywords the specs in ``openapi/`` use are supported; compiling a schema that uses
another validation keyword raises, so a spec can never say more than this checks. The tests
compare this validator's verdicts with ``jsonschema``'s on drawn and mutated bodies, so the
two cannot silently disagree.

Why not the ``jsonschema`` package (``python -m benchmarks.validator`` measures it, extended
with these extensions and a tag-dispatching ``oneOf``): it words every error of the corpus
the same, in about 210 fewer lines of code, but the generated fast check calls this
compiler's checks for the nodes it does not inline on *every* request, and through
``jsonschema`` those cost 5-11x more: 30-110 us more per small request, against the 10%
budget of a ~450 us call. A failing 2.5 MB history also takes 30-45x longer to name its
error (25-65 ms instead of 1-2 ms).

Two deliberate choices, both what the wire needs:
- ``pattern`` follows ECMA-262 as JSON Schema says: a final ``$`` matches only at the end
  (Python's ``$`` also matches before a trailing newline), ``\\d``/``\\w`` are ASCII.
- An integer is a Python ``int`` (never ``bool``, never a float such as ``1.0``): the
  service parses integers strictly.

Node-local extensions: ``x-kimi-max-utf8-bytes`` (a string's size in UTF-8 bytes),
``x-kimi-unique-by`` (array items unique by a dotted key; ``x-kimi-unique-error`` is the
service's sentence for a duplicate), ``x-kimi-mfjs`` (a JSON Schema of the user's, held
to Moonshot's schema rules: :mod:`kimi_ext._core.contract.mfjs`), ``x-kimi-error`` (the rule text
shown when this node fails) and ``x-kimi-service-error`` (the service's own sentence for
it, a template with ``{path}`` and ``{value}``: what the stand-in answers).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable, Mapping
from typing import Any

from kimi_ext._core.contract.memo import SameObjectMemo

Path = tuple[str | int, ...]
Check = Callable[[Any, Path], None]

# Set by the compiler (never written in a spec) on a schema that applies to the same object
# as the one around it (``then``, ``else``, ``dependentSchemas``): that object's fields, so
# a key is called unknown only when the whole object does not name it.
_FIELDS = "x-kimi-object-fields"
# Set by the contract (never written in a spec) on an object left open to the keys the
# service adds when it sends that shape: a key it does not name is still refused when it
# is a near miss of a field the object lacks (``reasoning_contnet``), the likelier typo.
NEAR_TYPOS = "x-kimi-near-typos"
# How alike a key and a field must be (difflib's ratio) to call the key a typo where other
# keys are allowed: ``cache_contrl``/``cache_control`` 0.96, ``contnet``/``content`` 0.86,
# while received keys stay well below (``citations``/``signature`` 0.33).
_TYPO_RATIO = 0.8
# Keywords that only annotate; everything else must be understood.
_ANNOTATIONS = frozenset(
    {
        "description", "default", "example", "examples", "title", "format", "deprecated",
        "readOnly", "writeOnly", "x-enum-varnames", "discriminator", "$comment",
        "contentMediaType", "contentEncoding", "x-kimi-media-types", "x-kimi-received",
        _FIELDS,
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
    """One broken rule: where (a path of keys and indexes), the value there, and the rule."""

    def __init__(
        self,
        path: Path,
        value: Any,
        rule: str,
        *,
        expected: tuple[str, ...] | None = None,
        service: str | None = None,
    ) -> None:
        super().__init__(rule)
        self.path = path
        self.value = value
        self.rule = rule
        # For a wrong JSON type: the type names allowed (the stand-in words these itself).
        self.expected = expected
        # The service's sentence for this rule (``x-kimi-service-error``), if the spec has one.
        self.service = service


# The plain JSON types by exact Python type: one dict lookup on the hot path (subclasses
# and other mappings / sequences take the slow path below).
_FAST_TYPES: dict[type, str] = {
    str: "string",
    dict: "object",
    list: "array",
    int: "integer",
    float: "number",
    bool: "boolean",
    type(None): "null",
}
# Subclasses, tuples and other mappings, in order: a bool is an int too, so it comes first.
_SLOW_TYPES: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
    (str, "string"),
    ((list, tuple), "array"),
    (Mapping, "object"),
)


def json_type(value: Any) -> str:
    """The JSON type name of a Python value (``bool`` is boolean, not integer)."""
    fast = _FAST_TYPES.get(type(value))
    if fast is not None:
        return fast
    for kind, name in _SLOW_TYPES:
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _is(value: Any, kind: str) -> bool:
    actual = json_type(value)
    return actual == kind or (kind == "number" and actual == "integer")


def _missing(
    value: Mapping[str, Any],
    path: Path,
    key: str,
    tags: Mapping[str, Check],
    known: frozenset[str],
    closed: bool,
) -> None:
    """Raise for the required ``key`` missing from ``value``, after checking the tags it
    has: a wrong tag is the error to name, not a key its intended member may not need. A
    key the object does not name that is close to ``key`` (``contnet``) is the likelier
    mistake, so it is named instead, with ``key`` as the suggestion (an unknown key far
    from it leaves the missing key the error: in a closed object both are wrong)."""
    for tag, check in tags.items():
        if tag in value:
            check(value[tag], (*path, tag))
    unknown = [k for k in value if isinstance(k, str) and k not in known]
    if unknown:
        near = difflib.get_close_matches(key, unknown, n=1)
        if near:
            raise unknown_key((*path, near[0]), value[near[0]], known, closed, suggest=key)
    raise Violation((*path, key), None, "is required")


@functools.lru_cache(maxsize=1024)
def _near(key: str, absent: tuple[str, ...]) -> str | None:
    """The field among ``absent`` that ``key`` is a near miss of (cached: a long history
    repeats the same received keys)."""
    return next(iter(difflib.get_close_matches(key, absent, n=1, cutoff=_TYPO_RATIO)), None)


def near_typos(known: frozenset[str]) -> Check:
    """The check of :data:`NEAR_TYPOS` for an object naming ``known``."""

    def typos(value: Any, path: Path) -> None:
        if not isinstance(value, Mapping) or value.keys() <= known:
            return
        absent = tuple(sorted(k for k in known if k not in value))
        for key in value:
            if isinstance(key, str) and key not in known:
                near = _near(key, absent)
                if near is not None:
                    raise unknown_key((*path, key), value[key], known, False, suggest=near)

    return typos


def unknown_key(
    path: Path, value: Any, known: frozenset[str], closed: bool, *, suggest: str | None = None
) -> Violation:
    """The violation of a key (the last part of ``path``) its object does not name, with
    the closest name it does (``suggest``, else one :func:`difflib.get_close_matches`
    finds)."""
    name = path[-1]
    if suggest is None and isinstance(name, str):
        suggest = next(iter(difflib.get_close_matches(name, sorted(known), n=1)), None)
    rule = f"is not a field of this object (its fields: {', '.join(sorted(known))})"
    if suggest is not None:
        rule += f"; did you mean {suggest}?"
    if closed:
        rule += (
            "; an unknown key inside a request is refused, so a misspelt one is never"
            " dropped silently"
        )
    return Violation(path, value, rule)


def _members(
    value: Mapping[str, Any],
    path: Path,
    props: tuple[tuple[str, Check], ...],
    extra_check: Check | None,
    known: frozenset[str],
) -> None:
    """Check each property present, then (``additionalProperties``) each key not named."""
    for key, check in props:
        if key in value:
            check(value[key], (*path, key))
    if extra_check is not None:
        for key in value:
            if key not in known:
                extra_check(value[key], (*path, key))


def _within(sub: Any, outer: Mapping[str, Any]) -> Any:
    """``sub`` (a schema that applies to the object ``outer`` describes, with no ``type``
    of its own) marked with the fields of that object (see ``_FIELDS``)."""
    if not isinstance(sub, Mapping) or "type" in sub or "$ref" in sub:
        return sub
    fields = {*outer.get(_FIELDS, ()), *outer.get("properties", {}), *sub.get("properties", {})}
    return {**sub, _FIELDS: sorted(fields)}


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
            checks.append(
                _type_check(
                    schema["type"], of if isinstance(of, str) else None, _range_rule(schema)
                )
            )
        if "const" in schema:
            checks.append(_enum_check([schema["const"]]))
        if "enum" in schema:
            checks.append(_enum_check(list(schema["enum"])))
        checks.extend(self._string(schema))
        checks.extend(_number(schema))
        checks.extend(self._array(schema))
        # A refused shape is named before its members are checked one by one.
        if "not" in schema:
            checks.append(self._not(schema["not"]))
        checks.extend(self._object(schema))
        for key in ("oneOf", "anyOf"):
            if key in schema:
                checks.append(self._union(schema[key], exactly_one=key == "oneOf"))
        if "if" in schema:
            checks.append(self._if(schema))
        check = _all(checks)
        message = schema.get("x-kimi-error")
        service = schema.get("x-kimi-service-error")
        if message is not None or service is not None:
            check = _with_message(
                check,
                None if message is None else str(message),
                None if service is None else str(service),
            )
        return check

    def _string(self, schema: Mapping[str, Any]) -> list[Check]:
        out: list[Check] = []
        # Bytes first: the byte limit is the rule, a character bound only follows from it.
        if "x-kimi-max-utf8-bytes" in schema:
            limit = int(schema["x-kimi-max-utf8-bytes"])

            def utf8(value: Any, path: Path) -> None:
                if isinstance(value, str):
                    try:
                        size = len(value.encode("utf-8"))
                    except UnicodeEncodeError:
                        # Half a surrogate pair has no UTF-8 form, so no size to check.
                        raise Violation(
                            path, value, "contains a lone surrogate, which UTF-8 cannot encode"
                        ) from None
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
                    if type(value) is list or isinstance(value, list | tuple):
                        for i, v in enumerate(value):
                            item(v, (*path, i))

                out.append(items)
        if "contains" in schema:
            wanted = self.compile(schema["contains"])

            def contains(value: Any, path: Path) -> None:
                if isinstance(value, list | tuple):
                    for i, v in enumerate(value):
                        try:
                            wanted(v, (*path, i))
                        except Violation:
                            continue
                        return
                    raise Violation(path, value, "has no item of the required kind")

            out.append(contains)
        if "x-kimi-unique-by" in schema:
            keys = str(schema["x-kimi-unique-by"]).split(".")
            said = schema.get("x-kimi-unique-error")
            unique_service = None if said is None else str(said)

            def unique(value: Any, path: Path) -> None:
                if not isinstance(value, list | tuple):
                    return
                seen: set[Any] = set()
                for i, v in enumerate(value):
                    at: Path = (*path, i)
                    for key in keys:
                        if not isinstance(v, Mapping) or key not in v:
                            break
                        v, at = v[key], (*at, key)
                    else:
                        if isinstance(v, str):
                            if v in seen:
                                raise Violation(
                                    at,
                                    v,
                                    "must be unique (the service rejects duplicates)",
                                    service=unique_service,
                                )
                            seen.add(v)

            out.append(unique)
        return out

    def _extra(self, extra: Any, known: frozenset[str]) -> Check | None:
        """The check of the keys an object does not name (``additionalProperties``): none
        when they are free, and for ``false`` a rule that lists the fields there are."""
        if extra is True:
            return None
        if extra is not False:
            return self.compile(extra)

        def refuse_unknown(value: Any, path: Path) -> None:
            raise unknown_key(path, value, known, closed=True)

        return refuse_unknown

    def _object(self, schema: Mapping[str, Any]) -> list[Check]:
        out: list[Check] = []
        # A wrong tag (``type``/``role`` constant) is named before any field it would need:
        # checked only once a field is found missing, so a valid value pays nothing.
        tags = {
            k: self.compile(v)
            for k, v in schema.get("properties", {}).items()
            if isinstance(self.resolve(v), Mapping) and "const" in self.resolve(v)
        }
        # Before the required fields: a field that says what the object is (a custom
        # tool's optional ``type``) is named first.
        deps = {
            k: self.compile(_within(v, schema))
            for k, v in schema.get("dependentSchemas", {}).items()
        }
        if deps:

            def dependent(value: Any, path: Path) -> None:
                if isinstance(value, Mapping):
                    for key, check in deps.items():
                        if key in value:
                            try:
                                check(value, path)
                            except Violation as exc:
                                # Name the field that brings the requirement.
                                raise Violation(
                                    (*path, key), value[key], exc.rule, service=exc.service
                                ) from None

            out.append(dependent)
        required = tuple(schema.get("required", ()))
        known = frozenset(schema.get(_FIELDS, schema.get("properties", {})))
        closed = schema.get("additionalProperties", True) is False
        if required:

            def need(value: Any, path: Path) -> None:
                if type(value) is dict or isinstance(value, Mapping):
                    for key in required:
                        if key not in value:
                            _missing(value, path, key, tags, known, closed)

            out.append(need)
        props = {k: self.compile(v) for k, v in schema.get("properties", {}).items()}
        # Tags first here too (a dict keeps this order).
        props = {k: props[k] for k in [*tags, *(k for k in props if k not in tags)]}
        checked = tuple((k, v) for k, v in props.items() if v is not _accept)
        extra = schema.get("additionalProperties", True)
        # additionalProperties is about this node's own properties (JSON Schema's rule).
        own = frozenset(schema.get("properties", {}))
        extra_check = self._extra(extra, own)
        if checked or extra_check is not None:

            def members(value: Any, path: Path) -> None:
                if type(value) is dict or isinstance(value, Mapping):
                    _members(value, path, checked, extra_check, own)

            out.append(members)
        if schema.get(NEAR_TYPOS):
            out.append(near_typos(known))
        role = schema.get("x-kimi-mfjs")
        if isinstance(role, str):
            out.append(_mfjs_check(role))
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
        shown_types = " or ".join(_TYPE_NAMES.get(k, k) for k in by_type)
        kinds_shown = tuple(by_type)
        if "number" in by_type:
            by_type.setdefault("integer", []).extend(by_type["number"])
        tags = [_tag(m, self) for m in resolved]
        dispatch = _discriminator(resolved, tags)
        needs = [tuple(m.get("required", ())) if isinstance(m, Mapping) else () for m in resolved]

        def rank(i: int, value: Mapping[str, Any]) -> int:
            """2: the member's tag matches; 1: it has no tag; 0: it cannot match."""
            tag = tags[i]
            if tag is None:
                return 1
            key, allowed, required = tag
            if key not in value:
                return 0 if required else 1
            tag_value = value[key]
            return 2 if isinstance(tag_value, str) and tag_value in allowed else 0

        by_kind = {kind: [*found, *untyped] for kind, found in by_type.items()}

        def union(value: Any, path: Path) -> None:
            candidates = by_kind.get(json_type(value), untyped)
            if not candidates:
                raise Violation(path, value, f"must be {shown_types}", expected=kinds_shown)
            if (
                len(candidates) > 1
                and dispatch is not None
                and (type(value) is dict or isinstance(value, Mapping))
            ):
                candidates = dispatch(value, path, candidates)
            if len(candidates) == 1:
                checks[candidates[0]](value, path)
                return
            ranks = dict.fromkeys(candidates, 1)
            if isinstance(value, Mapping):
                ranks = {i: rank(i, value) for i in candidates}
                if any(ranks.values()):
                    # A member whose tag cannot match fails anyway: skip it.
                    candidates = [i for i in candidates if ranks[i]]
            passed = 0
            best: Violation | None = None
            best_score: tuple[int, int, int] = (-1, -1, -1)
            for i in candidates:
                try:
                    checks[i](value, path)
                except Violation as exc:
                    # Report the failure of the most plausible member: its tag matched,
                    # then it has all its required fields, then it got furthest.
                    complete = isinstance(value, Mapping) and all(k in value for k in needs[i])
                    score = (ranks[i], int(complete), len(exc.path))
                    if best is None or score > best_score:
                        best, best_score = exc, score
                else:
                    passed += 1
                    if not exactly_one:
                        return
            if passed == 0:
                assert best is not None
                raise best
            if passed > 1:
                raise Violation(path, value, "matches more than one shape (the spec is ambiguous)")

        return union

    def _not(self, sub: Any) -> Check:
        inner = self.compile(sub)
        sub = self.resolve(sub)
        if not isinstance(sub, Mapping):
            sub = {}
        custom = sub.get("x-kimi-error")
        service = sub.get("x-kimi-service-error")
        service = None if service is None else str(service)
        shape = set(sub) - {"x-kimi-error", "x-kimi-service-error", "description"}
        keys = tuple(sub.get("required", ()))
        props = sub.get("properties", {})
        if shape == {"required"} and len(keys) == 1 and custom is None:
            (key,) = keys

            def forbidden(value: Any, path: Path) -> None:
                if isinstance(value, Mapping) and key in value:
                    raise Violation(
                        (*path, key), value[key], "is not allowed here", service=service
                    )

            return forbidden
        if shape == {"required", "properties"} and len(keys) == 1 and set(props) == set(keys):
            # A refused value of one field (``{"type": "tool"}``): name that field.
            (key,) = keys
            shown = self.resolve(props[key])
            listed = shown.get("enum", [shown.get("const")]) if isinstance(shown, Mapping) else []
            rule = str(custom) if custom is not None else f"must not be {_show(listed)}"

            def refused(value: Any, path: Path) -> None:
                if not isinstance(value, Mapping):
                    return  # not an object: the node's type check says so
                try:
                    inner(value, path)
                except Violation:
                    return
                raise Violation((*path, key), value.get(key), rule, service=service)

            return refused
        rule = "is not allowed here" if custom is None else str(custom)

        def negate(value: Any, path: Path) -> None:
            try:
                inner(value, path)
            except Violation:
                return
            raise Violation(path, value, rule, service=service)

        return negate

    def _if(self, schema: Mapping[str, Any]) -> Check:
        cond = _tag_test(self.resolve(schema["if"])) or self.compile(schema["if"])
        then = self.compile(_within(schema.get("then", True), schema))
        other = self.compile(_within(schema.get("else", True), schema))

        cause = self.resolve(schema["if"]).get("required", [None])[0]

        then_schema = self.resolve(schema.get("then"))
        # A whole-node rule (``x-kimi-error`` on ``then``) is about the field that brought it,
        # unless a field ``then`` itself constrains is there and breaks it.
        whole = isinstance(then_schema, Mapping) and "x-kimi-error" in then_schema
        direct = (
            set(then_schema.get("properties", {})) if isinstance(then_schema, Mapping) else set()
        )

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
                if not whole and exc.path != path:
                    raise  # a deeper field broke its own rule: name that field
                below = exc.path[len(path)] if len(exc.path) > len(path) else None
                if whole and below in direct and below in value:
                    raise  # the field the rule constrains is there and breaks it (tools: [])
                # Name the field whose value brought the requirement (``tool_choice``).
                raise Violation(
                    (*path, cause), value[cause], exc.rule, service=exc.service
                ) from None

        return conditional


_KEYWORDS = frozenset(
    {
        "const", "enum", "minLength", "maxLength", "pattern", "minimum", "maximum", "items",
        "minItems", "maxItems", "required", "properties", "additionalProperties",
        "dependentSchemas", "oneOf", "anyOf", "not", "if", "then", "else", "contains", "x-kimi-max-utf8-bytes", "x-kimi-unique-by",
        "x-kimi-mfjs", "x-kimi-error", "x-kimi-service-error", "x-kimi-unique-error",
        NEAR_TYPOS,
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
    if len(checks) == 2:
        first, second = checks

        def both(value: Any, path: Path) -> None:
            first(value, path)
            second(value, path)

        return both
    frozen = tuple(checks)

    def every(value: Any, path: Path) -> None:
        for check in frozen:
            check(value, path)

    return every


def _with_message(check: Check, message: str | None, service: str | None) -> Check:
    def reworded(value: Any, path: Path) -> None:
        try:
            check(value, path)
        except Violation as exc:
            raise Violation(
                exc.path,
                exc.value,
                exc.rule if message is None else message,
                # A reworded rule is no longer a bare type mismatch.
                expected=exc.expected if message is None else None,
                service=service or exc.service,
            ) from None

    return reworded


def _type_check(kinds: Any, item_kind: str | None = None, rule: str = "") -> Check:
    allowed = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    names = dict(_TYPE_NAMES)
    if item_kind is not None:
        names["array"] = f"a list of {item_kind}s"
    shown = rule or "must be " + " or ".join(names[k] for k in allowed)
    # A ranged number names its range even when the type is wrong ("1..1048576", not "an
    # integer"): the range is what the caller needs to know.
    expected = None if rule else allowed
    # The exact Python types that pass, for a one-lookup check; others take the full test.
    fast = frozenset(
        t
        for t, k in _FAST_TYPES.items()
        if k in allowed or (k == "integer" and "number" in allowed)
    )

    def typed(value: Any, path: Path) -> None:
        if type(value) in fast:
            return
        for kind in allowed:
            if _is(value, kind):
                return
        raise Violation(path, value, shown, expected=expected)

    return typed


def _range_rule(schema: Mapping[str, Any]) -> str:
    """``must be an integer between 1 and 1048576`` for a node with both bounds, else ``""``."""
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is None or high is None or low == high:
        return ""
    kind = "an integer" if schema.get("type") == "integer" else "a number"
    return f"must be {kind} between {low} and {high}"


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
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is None and high is None:
        return []
    rule = f"must be {low}" if low is not None and low == high else _range_rule(schema)

    def number(value: Any, path: Path) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return
        if low is not None and value < low:
            raise Violation(path, value, rule or f"must be >= {low}")
        if high is not None and value > high:
            raise Violation(path, value, rule or f"must be <= {high}")

    return [number]


def _discriminator(
    members: list[Any], tags: list[tuple[str, frozenset[Any], bool] | None]
) -> Callable[[Mapping[str, Any], Path, list[int]], list[int]] | None:
    """Tell object members apart by their tag (:func:`_tag`), when each has one on the
    same key (``type`` or ``role``)."""
    objects = [
        (i, tags[i])
        for i, m in enumerate(members)
        if isinstance(m, Mapping) and m.get("type") == "object"
    ]
    found = [(i, tag) for i, tag in objects if tag is not None]
    keys = {tag[0] for _, tag in found}
    if len(objects) < 2 or len(found) < len(objects) or len(keys) != 1:
        return None
    table: dict[Any, list[int]] = {}
    absent: list[int] = []
    for i, (_, values, required) in found:
        for v in values:
            table.setdefault(v, []).append(i)
        if not required:
            absent.append(i)
    return _make_dispatch(keys.pop(), table, absent, sorted(table))


def _tag_test(schema: Any) -> Check | None:
    """A fast check for the common ``if``: ``{required: [k], properties: {k: {const: "v"}}}``."""
    if not isinstance(schema, Mapping) or set(schema) != {"required", "properties"}:
        return None
    required, props = schema["required"], schema["properties"]
    if not (isinstance(required, list) and len(required) == 1 and set(props) == set(required)):
        return None
    (key,) = required
    prop = props[key]
    if not (
        isinstance(prop, Mapping) and set(prop) == {"const"} and isinstance(prop["const"], str)
    ):
        return None
    wanted = prop["const"]

    def tag_is(value: Any, path: Path) -> None:
        if not (isinstance(value, Mapping) and value.get(key) == wanted):
            raise Violation(path, value, f"{key} is not {wanted}")

    return tag_is


def _tag(member: Any, compiler: Compiler) -> tuple[str, frozenset[Any], bool] | None:
    """The member's tag: a ``type`` (or ``role``) property with a ``const`` or string enum."""
    if not isinstance(member, Mapping) or member.get("type") != "object":
        return None
    for key in ("type", "role"):
        prop = compiler.resolve(member.get("properties", {}).get(key))
        if not isinstance(prop, Mapping):
            continue
        values = [prop["const"]] if "const" in prop else prop.get("enum")
        if values and all(isinstance(v, str) for v in values):
            return key, frozenset(values), key in member.get("required", ())
    return None


def _make_dispatch(
    key: str, table: dict[Any, list[int]], absent: list[int], known: list[str]
) -> Callable[[Mapping[str, Any], Path, list[int]], list[int]]:
    rule = f"must be one of {', '.join(known)}"
    # The filtered lists are the same for every value of one union: keep them.
    memo: dict[tuple[int, Any], list[int]] = {}

    def dispatch(value: Mapping[str, Any], path: Path, candidates: list[int]) -> list[int]:
        if key not in value:
            if absent:
                return [i for i in candidates if i in absent]
            raise Violation((*path, key), None, f"is required ({', '.join(known)})")
        tag = value[key]
        hit = table.get(tag) if isinstance(tag, str) else None
        if not hit:
            raise Violation((*path, key), tag, rule)
        found = memo.get((id(candidates), tag))
        if found is None:
            found = memo[(id(candidates), tag)] = [i for i in candidates if i in hit]
        return found

    return dispatch


# The MFJS verdict of each schema object while it is unchanged (the first error, or None).
_MFJS_VERDICTS: SameObjectMemo[Any] = SameObjectMemo()
_UNKNOWN: Any = object()


def _mfjs_check(role: str) -> Check:
    """The check of a JSON Schema the request carries (``x-kimi-mfjs: <role>``): the first
    rule of Moonshot's that it breaks at walle's strict level, in the service's words.
    The verdict is remembered per schema object while it stays equal to what was checked
    (:class:`~kimi_ext._core.contract.memo.SameObjectMemo`), so a call with 255 tools
    pays once per tool, not on every call."""
    from kimi_ext._core.contract import mfjs

    def check(value: Any, path: Path) -> None:
        if not isinstance(value, Mapping):
            return  # not an object: the node's type check names it
        issue = _MFJS_VERDICTS.get(value, role, _UNKNOWN)
        if issue is _UNKNOWN:
            errors = [i for i in mfjs.check(value, role) if i.severity == "error"]
            issue = _MFJS_VERDICTS.put(value, role, errors[0] if errors else None)
        if issue is None:
            return
        # The service names the field without indexes (tools.function.parameters).
        field = ".".join(p for p in path if isinstance(p, str))
        detail = f"is not a valid moonshot flavored json schema, details: <{issue.message}>"
        service = f"Invalid request: {field} {detail}".replace("{", "{{").replace("}", "}}")
        raise Violation(path, value, detail, service=service)

    return check
