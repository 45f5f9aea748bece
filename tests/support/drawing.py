"""Hypothesis strategies that draw JSON values from a spec's JSON Schema, and mutate them.

Written for the subset of JSON Schema the specs use (the same subset kimi_ext's validator
compiles). Values are drawn to be valid; whatever the drawing cannot guarantee (``not``,
``if``/``then``, dependent schemas) is left to a filter by the standard validator, so every
drawn value is valid by construction or discarded.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from kimi_ext._core.contract.schema import ecma_pattern

ASCII = st.characters(min_codepoint=0x20, max_codepoint=0x7E)


class Drawer:
    """Strategies for the component schemas of one ``$defs`` document."""

    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs

    def resolve(self, schema: Any) -> Any:
        while isinstance(schema, dict) and "$ref" in schema:
            schema = self.defs[schema["$ref"].removeprefix("#/$defs/")]
        return schema

    def draw(self, schema: Any, depth: int = 0) -> st.SearchStrategy[Any]:
        schema = self.resolve(schema)
        if schema is True or schema == {} or not isinstance(schema, dict):
            return st.just({}) if depth > 3 else st.sampled_from([{}, "x", 1, True])
        if "$ref" in schema:
            return self.draw(self.resolve(schema), depth)
        if "const" in schema:
            return st.just(schema["const"])
        if "enum" in schema:
            return st.sampled_from(schema["enum"])
        for key in ("oneOf", "anyOf"):
            if key in schema:
                members = [m for m in schema[key] if not self._refused(m)]
                return st.one_of([self.draw(m, depth + 1) for m in members])
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next(k for k in kind if k != "null")
        if kind == "string":
            return self._string(schema)
        if kind == "integer":
            lo = schema.get("minimum", -5)
            hi = schema.get("maximum", max(lo, 0) + 1_100_000)
            return st.integers(min_value=lo, max_value=hi)
        if kind == "number":
            lo, hi = schema.get("minimum"), schema.get("maximum")
            if lo is not None and lo == hi:
                return st.just(lo)
            return st.floats(min_value=lo, max_value=hi, allow_nan=False, allow_infinity=False)
        if kind == "boolean":
            return st.booleans()
        if kind == "array":
            lo = schema.get("minItems", 0)
            hi = min(schema.get("maxItems", 3), lo + 3)
            if depth > 4:
                hi = lo
            return st.lists(self.draw(schema.get("items", {}), depth + 1), min_size=lo, max_size=hi)
        if kind == "object" or "properties" in schema:
            return self._object(schema, depth)
        return st.just(None) if kind == "null" else st.just({})

    def _refused(self, member: Any) -> bool:
        """A member that no value can satisfy (``not: {}``), e.g. a forced tool choice."""
        return self.resolve(member).get("not") == {}

    def _string(self, schema: dict[str, Any]) -> st.SearchStrategy[str]:
        lo = schema.get("minLength", 0)
        hi = min(schema.get("maxLength", 12), 12)
        if "pattern" in schema:
            regex = ecma_pattern(schema["pattern"])
            return st.from_regex(regex, alphabet=ASCII).filter(lambda s: lo <= len(s) <= 60)
        return st.text(ASCII, min_size=lo, max_size=max(lo, hi))

    def _object(self, schema: dict[str, Any], depth: int) -> st.SearchStrategy[dict[str, Any]]:
        props = schema.get("properties", {})
        required = set(schema.get("required", ()))
        optional = [k for k in props if k not in required]
        fixed = {
            k: self.draw(props[k], depth + 1) if k in props else st.just("x") for k in required
        }

        @st.composite
        def build(draw: st.DrawFn) -> dict[str, Any]:
            out = draw(st.fixed_dictionaries(fixed))
            chosen = (
                draw(st.lists(st.sampled_from(optional), unique=True, max_size=3))
                if optional
                else []
            )
            if depth > 3:
                chosen = []
            for key in chosen:
                out[key] = draw(self.draw(props[key], depth + 1))
            return out

        return build()


def locations(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place inside ``value`` (object keys and list indexes), the root excluded."""
    if path:
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from locations(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from locations(item, (*path, i))


# Values that are wrong almost anywhere in a request body.
WRONG = st.sampled_from([12345, -1, 0.5, "zz-not-a-valid-value", True, None, [], {"zz": 1}])


@st.composite
def mutated(
    draw: st.DrawFn,
    body: dict[str, Any],
    values: st.SearchStrategy[Any] = WRONG,
    removals: bool = True,
) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """A copy of ``body`` with the value at one place replaced by one of ``values``, or
    (``removals``) one object key removed; and that place."""
    body = copy.deepcopy(body)
    where = draw(st.sampled_from(list(locations(body))))
    parent = body
    for part in where[:-1]:
        parent = parent[part]
    if removals and isinstance(parent, dict) and draw(st.booleans()):
        del parent[where[-1]]
    else:
        parent[where[-1]] = draw(values)
    return body, where
