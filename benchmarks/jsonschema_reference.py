"""The contender to kimi_ext's reference validator: ``jsonschema`` with the specs' extensions.

:mod:`benchmarks.validator` compares it with ``kimi_ext/_core/contract/schema.py``. It is
``jsonschema``'s Draft 2020-12 validator extended with:

- the node-local ``x-kimi-*`` keywords (UTF-8 byte limits, unique-by, typed properties);
- ``x-kimi-error`` / ``x-kimi-service-error``: each node that has them is wrapped, before
  validation, in an ``x-kimi-reworded`` keyword that rewords the errors from inside it;
- a ``oneOf`` / ``anyOf`` that dispatches on the tag (``type`` / ``role``), so its error is
  the one of the branch the tag names, and the same path-moving rules as the reference for
  ``not``, ``if`` / ``then``, ``dependentSchemas`` and a missing key next to a wrong tag;
- ECMA-262 patterns and strict integers, as the service parses them.

Each schema's keywords are put in the reference's order, so the first error jsonschema
yields (it yields lazily, keyword by keyword) is the one the reference raises; that error
becomes the same :class:`Violation` (path, value, rule, expected types, service sentence).
It also offers ``compile`` / ``resolve`` / ``defs``, so the generated fast check can call it
for the nodes it does not inline, as it calls the reference compiler.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators

from kimi_ext._core.contract.schema import Violation, ecma_pattern, json_type

Path = tuple[str | int, ...]
Found = tuple[Any, str, "tuple[str, ...] | None", "str | None"]  # value, rule, expected, service

# The reference's order of keywords in a node (see Compiler.compile).
_ORDER = (
    "$ref", "type", "const", "enum", "x-kimi-max-utf8-bytes", "minLength", "maxLength",
    "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems",
    "maxItems", "items", "contains", "x-kimi-unique-by", "not", "dependentSchemas", "required",
    "properties", "additionalProperties", "x-kimi-typed-properties", "oneOf", "anyOf", "allOf",
    "if", "then", "else",
)  # fmt: skip
_RANK = {k: i for i, k in enumerate(_ORDER)}
_SUBS = ("items", "contains", "not", "if", "then", "else", "additionalProperties")
_TYPE_NAMES = {
    "string": "a string", "integer": "an integer", "number": "a number",
    "boolean": "true or false", "object": "an object", "array": "a list", "null": "null",
}  # fmt: skip
_BOUND = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}


def _show(values: Any) -> str:
    return ", ".join(str(v) for v in values)


def _prepare(schema: Any) -> Any:
    """``schema`` with its keywords in the reference's order (tag properties first) and
    each node with a custom message wrapped in ``x-kimi-reworded``."""
    if not isinstance(schema, Mapping):
        return schema
    out = {k: schema[k] for k in sorted(schema, key=lambda k: _RANK.get(k, -1))}
    for key in _SUBS:
        if isinstance(out.get(key), Mapping):
            out[key] = _prepare(out[key])
    for key in ("oneOf", "anyOf", "allOf"):
        if key in out:
            out[key] = [_prepare(s) for s in out[key]]
    if "properties" in out:
        props = {k: _prepare(v) for k, v in out["properties"].items()}
        tags = [k for k, v in props.items() if "const" in _unwrap(v)]
        out["properties"] = {k: props[k] for k in [*tags, *(k for k in props if k not in tags)]}
    if "dependentSchemas" in out:
        out["dependentSchemas"] = {k: _prepare(v) for k, v in out["dependentSchemas"].items()}
    said = {k: out.pop(k) for k in ("x-kimi-error", "x-kimi-service-error") if k in out}
    return {"x-kimi-reworded": {"schema": out, **said}} if said else out


def _unwrap(schema: Any) -> Any:
    while isinstance(schema, Mapping) and "x-kimi-reworded" in schema:
        schema = schema["x-kimi-reworded"]["schema"]
    return schema if isinstance(schema, Mapping) else {}


def _error(path: Path, value: Any, rule: str, expected: Any = None, service: Any = None) -> Any:
    error = ValidationError(rule, path=path, instance=value)
    error.kimi = (value, rule, expected, service)  # type: ignore[attr-defined]
    return error


def _first(errors: Iterator[Any]) -> Any:
    return next(iter(errors), None)


class Adapter:
    """The reference validator's interface (``ref``, ``compile``, ``resolve``, ``defs``)
    over jsonschema, for the component schemas ``defs``."""

    def __init__(self, defs: Mapping[str, Any]) -> None:
        self.defs = defs
        self.prepared = {name: _prepare(schema) for name, schema in defs.items()}
        self.cls = validators.extend(
            Draft202012Validator,
            validators={
                "x-kimi-max-utf8-bytes": _utf8,
                "x-kimi-unique-by": _unique,
                "x-kimi-typed-properties": _typed_properties,
                "x-kimi-reworded": self._reworded,
                "pattern": _pattern,
                "required": self._required,
                "additionalProperties": _additional,
                "dependentSchemas": self._dependent,
                "not": self._not,
                "if": self._if,
                "oneOf": self._one_of,
                "anyOf": self._any_of,
            },
            type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
                "integer", lambda _, v: isinstance(v, int) and not isinstance(v, bool)
            ),
        )

    def resolve(self, schema: Any) -> Any:
        """``schema`` with ``$ref`` chains followed (as the reference's ``resolve``)."""
        while isinstance(schema, Mapping) and "$ref" in schema:
            schema = self.defs[str(schema["$ref"]).removeprefix("#/$defs/")]
        return schema

    def _resolved(self, schema: Any) -> Any:
        schema = _unwrap(schema)
        while "$ref" in schema:
            schema = _unwrap(self.prepared[str(schema["$ref"]).removeprefix("#/$defs/")])
        return schema

    def compile(self, schema: Any) -> Callable[[Any, Path], None]:
        """A check that raises the first error of ``schema`` as a :class:`Violation`."""
        root = _prepare(schema)
        root = root if isinstance(root, Mapping) else {} if root else {"not": {}}
        validator = self.cls({**root, "$defs": self.prepared})

        def check(value: Any, path: Path) -> None:
            error = _first(validator.iter_errors(value))
            if error is not None:
                found = self.found(error)
                raise Violation(
                    (*path, *error.path), *found[:2], expected=found[2], service=found[3]
                )

        return check

    def ref(self, name: str) -> Callable[[Any, Path], None]:
        return self.compile({"$ref": f"#/$defs/{name}"})

    # ------------------------------------------------------------------ wording

    def found(self, error: Any) -> Found:
        """The value, rule, expected types and service sentence of a keyword's error."""
        if hasattr(error, "kimi"):
            return error.kimi  # type: ignore[no-any-return]
        key, value, node = error.validator, error.instance, error.schema
        if key == "type":
            allowed = (node["type"],) if isinstance(node["type"], str) else tuple(node["type"])
            of = self._resolved(node.get("items")).get("type") if "items" in node else None
            names = {
                **_TYPE_NAMES,
                **({"array": f"a list of {of}s"} if isinstance(of, str) else {}),
            }
            ranged = _range_rule(node)
            return (
                value,
                ranged or "must be " + " or ".join(names[k] for k in allowed),
                None if ranged else allowed,
                None,
            )
        if key in ("const", "enum"):
            values = [node["const"]] if key == "const" else list(node["enum"])
            rule = (
                f"must be {values[0]}" if len(values) == 1
                else f"must be {values[0]} or {values[1]}" if len(values) == 2
                else f"must be one of {_show(values)}"
            )  # fmt: skip
            return value, rule, None, None
        if key in ("minLength", "minItems"):
            low = int(error.validator_value)
            unit = "characters" if key == "minLength" else "items"
            return value, "must not be empty" if low == 1 else f"at least {low} {unit}", None, None
        if key == "maxLength":
            return value, f"at most {node[key]} characters (got {len(value)})", None, None
        if key == "maxItems":
            return (
                f"<{len(value)} items>",
                f"at most {node[key]} items (got {len(value)})",
                None,
                None,
            )
        if key in _BOUND:
            low, high = node.get("minimum"), node.get("maximum")
            rule = f"must be {low}" if low is not None and low == high else _range_rule(node)
            return value, rule or f"must be {_BOUND[key]} {node[key]}", None, None
        if key == "contains":
            return value, "has no item of the required kind", None, None
        return value, "is not allowed here", None, None  # a false schema

    # ------------------------------------------------------------------ keywords

    def _reworded(self, validator: Any, said: Any, instance: Any, schema: Any) -> Iterator[Any]:
        for error in validator.descend(instance, said["schema"]):
            value, rule, expected, service = self.found(error)
            message = said.get("x-kimi-error")
            error.kimi = (
                value,
                rule if message is None else message,
                expected if message is None else None,
                said.get("x-kimi-service-error") or service,
            )
            yield error

    def _required(self, validator: Any, required: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not isinstance(instance, dict):
            return
        for key in required:
            if key not in instance:
                # A wrong tag is the error to name, not a key its member may not need.
                for tag, sub in schema.get("properties", {}).items():
                    if tag in instance and "const" in self._resolved(sub):
                        yield from validator.descend(instance[tag], sub, path=tag)
                yield _error((key,), None, "is required")

    def _dependent(self, validator: Any, deps: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not isinstance(instance, dict):
            return
        for key, sub in deps.items():
            if key in instance:
                error = _first(validator.descend(instance, sub))
                if error is not None:  # name the field that brings the requirement
                    _, rule, _, service = self.found(error)
                    yield _error((key,), instance[key], rule, service=service)

    def _not(self, validator: Any, sub: Any, instance: Any, schema: Any) -> Iterator[Any]:
        said = sub.get("x-kimi-reworded", {}) if isinstance(sub, Mapping) else {}
        custom, service = said.get("x-kimi-error"), said.get("x-kimi-service-error")
        inner = self._resolved(sub)
        shape = set(inner) - {"description"}
        keys = tuple(inner.get("required", ()))
        props = inner.get("properties", {})
        valid = validator.evolve(schema=sub).is_valid
        if shape == {"required"} and len(keys) == 1 and custom is None:
            if isinstance(instance, dict) and keys[0] in instance:
                yield _error(keys[:1], instance[keys[0]], "is not allowed here", service=service)
        elif shape == {"required"}:
            if isinstance(instance, dict) and all(k in instance for k in keys):
                rule = custom or f"set {' and '.join(keys)}, not all of them"
                yield _error(keys[:1], instance[keys[0]], rule, service=service)
        elif shape == {"required", "properties"} and len(keys) == 1 and set(props) == set(keys):
            if isinstance(instance, dict) and valid(instance):
                shown = self._resolved(props[keys[0]])
                listed = shown.get("enum", [shown.get("const")])
                rule = custom or f"must not be {_show(listed)}"
                yield _error(keys[:1], instance.get(keys[0]), rule, service=service)
        elif valid(instance):
            plain = "enum" in inner and shape <= {"enum", "type"}
            rule = custom or (
                f"must not be {_show(inner['enum'])}" if plain else "is not allowed here"
            )
            yield _error((), instance, rule, service=service)

    def _if(self, validator: Any, cond: Any, instance: Any, schema: Any) -> Iterator[Any]:
        tag = _tag_test(cond)
        met = (
            isinstance(instance, dict) and instance.get(tag[0]) == tag[1]
            if tag is not None
            else validator.evolve(schema=cond).is_valid(instance)
        )
        if not met:
            yield from validator.descend(instance, schema.get("else", True), schema_path="else")
            return
        error = _first(validator.descend(instance, schema.get("then", True), schema_path="then"))
        cause = cond.get("required", [None])[0]
        if error is None:
            return
        if cause is None or not isinstance(instance, dict):
            yield error
            return
        then = schema.get("then")
        whole = isinstance(then, Mapping) and "x-kimi-error" in then.get("x-kimi-reworded", {})
        direct = set(self._resolved(then).get("properties", {}))
        below = error.path[0] if error.path else None
        if (not whole and error.path) or (whole and below in direct and below in instance):
            yield error  # the field the rule constrains is there and breaks it
            return
        _, rule, _, service = self.found(error)
        yield _error((cause,), instance[cause], rule, service=service)

    def _one_of(self, validator: Any, members: Any, instance: Any, schema: Any) -> Iterator[Any]:
        yield from self._union(validator, members, instance, exactly_one=True)

    def _any_of(self, validator: Any, members: Any, instance: Any, schema: Any) -> Iterator[Any]:
        yield from self._union(validator, members, instance, exactly_one=False)

    def _union(
        self, validator: Any, members: Any, instance: Any, *, exactly_one: bool
    ) -> Iterator[Any]:
        resolved = [self._resolved(m) for m in members]
        kinds = [m.get("type") for m in resolved]
        listed = [k for kind in kinds for k in ([kind] if isinstance(kind, str) else kind or [])]
        shown = tuple(dict.fromkeys(listed))
        actual = json_type(instance)

        def of(kind: str) -> list[int]:
            return [
                i for i, k in enumerate(kinds) if kind in ([k] if isinstance(k, str) else k or [])
            ]

        untyped = [i for i, k in enumerate(kinds) if k is None]
        candidates = [*of(actual), *(of("number") if actual == "integer" else []), *untyped]
        if not candidates:
            rule = "must be " + " or ".join(_TYPE_NAMES.get(k, k) for k in shown)
            yield _error((), instance, rule, expected=shown)
            return
        tags = [_tag(m, self) for m in resolved]
        if isinstance(instance, dict) and len(candidates) > 1:
            dispatched = _dispatch(resolved, tags, instance, candidates)
            if isinstance(dispatched, ValidationError):
                yield dispatched
                return
            candidates = dispatched
            ranks = {i: _rank(tags[i], instance) for i in candidates}
            if any(ranks.values()):
                candidates = [i for i in candidates if ranks[i]]
        else:
            ranks = dict.fromkeys(candidates, 1)
        passed, best, best_score = 0, None, (-1, -1, -1)
        for i in candidates:
            error = _first(validator.descend(instance, members[i], schema_path=i))
            if error is None:
                passed += 1
                if not exactly_one or len(candidates) == 1:
                    return
                continue
            if len(candidates) == 1:
                yield error
                return
            needs = resolved[i].get("required", ())
            complete = isinstance(instance, dict) and all(k in instance for k in needs)
            score = (ranks[i], int(complete), len(error.path))
            if best is None or score > best_score:
                best, best_score = error, score
        if passed == 0:
            yield best
        elif passed > 1:
            yield _error((), instance, "matches more than one shape (the spec is ambiguous)")


def _tag(member: Mapping[str, Any], adapter: Adapter) -> tuple[str, frozenset[Any], bool] | None:
    """The member's tag: a ``type`` (or ``role``) property with a ``const`` or string enum."""
    if member.get("type") != "object":
        return None
    for key in ("type", "role"):
        prop = adapter._resolved(member.get("properties", {}).get(key))
        values = [prop["const"]] if "const" in prop else prop.get("enum")
        if values and all(isinstance(v, str) for v in values):
            return key, frozenset(values), key in member.get("required", ())
    return None


def _dispatch(resolved: list[Any], tags: list[Any], instance: Any, candidates: list[int]) -> Any:
    """The candidates the tag names, or the error of a missing or unknown tag; unchanged
    unless every object member has a tag on the same key."""
    objects = [i for i, m in enumerate(resolved) if m.get("type") == "object"]
    keys = {tags[i][0] if tags[i] else None for i in objects}
    if len(objects) < 2 or len(keys) != 1 or None in keys:
        return candidates
    (key,) = keys
    known = sorted({str(v) for i in objects for v in tags[i][1]})
    if key not in instance:
        absent = [i for i in candidates if i in objects and not tags[i][2]]
        if absent:
            return absent
        return _error((key,), None, f"is required ({', '.join(known)})")
    tag = instance[key]
    hit = [i for i in candidates if isinstance(tag, str) and tags[i] and tag in tags[i][1]]
    return hit or _error((key,), tag, f"must be one of {', '.join(known)}")


def _rank(tag: Any, value: Mapping[str, Any]) -> int:
    """2: the member's tag matches; 1: it has no tag; 0: it cannot match."""
    if tag is None:
        return 1
    key, allowed, required = tag
    if key not in value:
        return 0 if required else 1
    return 2 if isinstance(value[key], str) and value[key] in allowed else 0


def _tag_test(cond: Any) -> tuple[str, str] | None:
    """``(k, c)`` for the common ``if``: ``{required: [k], properties: {k: {const: c}}}``."""
    if not isinstance(cond, Mapping) or set(cond) != {"required", "properties"}:
        return None
    keys, props = cond["required"], cond["properties"]
    if len(keys) != 1 or set(props) != set(keys):
        return None
    prop = props[keys[0]]
    if isinstance(prop, Mapping) and set(prop) == {"const"} and isinstance(prop["const"], str):
        return keys[0], prop["const"]
    return None


def _range_rule(node: Mapping[str, Any]) -> str:
    low, high = node.get("minimum"), node.get("maximum")
    if low is None or high is None or low == high:
        return ""
    kind = "an integer" if node.get("type") == "integer" else "a number"
    return f"must be {kind} between {low} and {high}"


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    if isinstance(instance, str) and ecma_pattern(pattern).search(instance) is None:
        yield _error((), instance, f"must match {pattern}")


def _additional(validator: Any, extra: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not isinstance(instance, dict) or extra is True:
        return
    known = schema.get("properties", {})
    for key in instance:
        if key in known:
            continue
        if extra is False:
            rule = (
                f"is not a field of this object (its fields: {', '.join(sorted(known))}); an "
                "unknown key inside a request is refused, so a misspelt one is never dropped silently"
            )
            yield _error((key,), instance[key], rule)
        else:
            yield from validator.descend(instance[key], extra, path=key)


def _utf8(validator: Any, limit: int, instance: Any, schema: Any) -> Iterator[Any]:
    if not isinstance(instance, str):
        return
    try:
        size = len(instance.encode("utf-8"))
    except UnicodeEncodeError:
        yield _error((), instance, "contains a lone surrogate, which UTF-8 cannot encode")
        return
    if size > limit:
        yield _error((), instance, f"at most {limit} UTF-8 bytes (got {size})")


def _unique(validator: Any, by: str, instance: Any, schema: Any) -> Iterator[Any]:
    if not isinstance(instance, list):
        return
    seen: set[str] = set()
    for i, item in enumerate(instance):
        at: Path = (i,)
        for key in by.split("."):
            if not isinstance(item, Mapping) or key not in item:
                break
            item, at = item[key], (*at, key)
        else:
            if isinstance(item, str) and item in seen:
                rule = "must be unique (the service rejects duplicates)"
                yield _error(at, item, rule, service=schema.get("x-kimi-unique-error"))
                return
            if isinstance(item, str):
                seen.add(item)


def _typed_properties(validator: Any, on: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """Moonshot refuses a property schema without a type (``enum`` alone is not enough)."""

    def walk(node: Any, where: Path) -> Iterator[Any]:
        if not isinstance(node, Mapping):
            return
        props = node.get("properties")
        for name, sub in props.items() if isinstance(props, Mapping) else ():
            at: Path = (*where, "properties", name)
            if isinstance(sub, Mapping) and not any(
                k in sub for k in ("type", "anyOf", "oneOf", "allOf", "$ref")
            ):
                dotted = ".".join(str(p) for p in at)
                yield _error(at, sub, f"At path '{dotted}': type is not defined")
            yield from walk(sub, at)
        if isinstance(node.get("items"), Mapping):
            yield from walk(node["items"], (*where, "items"))

    if on:
        yield from walk(instance, ())
