"""Properties of normalize_schema on random schemas built from the shapes the service
refuses (issue 31's list and the rewrites N1..N14), and on random values:

- what it returns passes check_schema with no error (or it raises SchemaRejectedError with
  the errors left), and normalizing that again changes nothing;
- a standard JSON Schema 2020-12 validator accepts the same values under the original and
  the normalized schema (the rewrites are lossless).
"""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kimi_ext import SchemaRejectedError, check_schema, normalize_schema

NAMES = ["a", "b", "c", "kids", "next"]
TYPES = ["string", "integer", "number", "boolean", "null", "object", "array"]

scalars = st.sampled_from(["x", "auto", "", "long-form", 0, 1, 2, 1.5, -3, True, False, None])

leaves = st.one_of(
    st.sampled_from(
        [
            {"type": "string"},
            {"type": "integer", "minimum": 1.5, "maximum": 9.5},
            {"type": "integer", "exclusiveMinimum": 0},
            {},
            {"description": "free"},
            True,
            {"type": ["string", "null"], "maxLength": 3},
            {"type": ["string", "null"], "default": None},
            {"type": ["integer", "null"], "enum": [1, None]},
            {"type": ["integer", "string"], "enum": ["auto", 0]},
            {"type": "string", "enum": ["x", 1]},
            {"type": "string", "anyOf": [{"maxLength": 3}, {"enum": ["long-form"]}]},
            {"type": "string", "anyOf": [{"minLength": 1}, {"type": "null"}]},
            {"default": "z", "anyOf": [{"type": "string", "default": "x"}, {"type": "null"}]},
            {"enum": ["x", None], "anyOf": [{"type": "string"}, {"type": "null"}]},
            {
                "type": "array",
                "prefixItems": [{"type": "integer"}, {"type": "string"}],
                "items": False,
            },
            {"type": "array", "items": False},
            {"type": "array", "items": True},
            {"anyOf": [{"type": "string"}, False]},
            {"$ref": "#/$defs/A", "type": "object"},
            {"$ref": "#/$defs/A", "required": ["x"]},
            {"$ref": "#/definitions/B"},
            {"$ref": "#/$defs/N"},
            {"type": "array", "items": {"$ref": "#/$defs/T"}},
        ]
    ),
    st.lists(scalars, min_size=1, max_size=4, unique_by=lambda v: (type(v), v)).map(
        lambda values: {"enum": values}
    ),
)


def objects(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        props = draw(st.dictionaries(st.sampled_from(NAMES), children, max_size=3))
        out: dict[str, Any] = {"type": "object", "properties": props}
        out["required"] = draw(st.lists(st.sampled_from([*props, "zz"]), max_size=2, unique=True))
        extra = draw(st.sampled_from([None, None, True, False, {"type": "integer"}]))
        if extra is not None:
            out["additionalProperties"] = extra
        if draw(st.booleans()) and props:
            out["anyOf"] = [{"required": [name]} for name in props]
        return out

    return build()


@st.composite
def schemas(draw: st.DrawFn) -> dict[str, Any]:
    node = st.recursive(leaves, objects, max_leaves=6)
    root = draw(objects(node))
    root["$defs"] = {
        "A": {"type": "object", "properties": {"x": {"type": "string"}}},
        "N": {
            "type": "object",
            "properties": {
                "v": {"type": "string"},
                "next": {"anyOf": [{"$ref": "#/$defs/N"}, {"type": "null"}]},
            },
            "required": ["v"],
        },
        "T": {
            "type": "object",
            "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}},
            "required": ["kids"],
        },
    }
    root["definitions"] = {"B": {"enum": ["x", 1]}}
    return root


values = st.recursive(
    scalars | st.sampled_from(["abcd", 3, 10, 0.5]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from([*NAMES, "x", "v", "zz"]), inner, max_size=4)
    ),
    max_leaves=10,
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(schemas(), st.sampled_from(["tool-parameters", "output-schema"]))
def test_what_normalize_returns_passes_the_check_and_stays_as_it_is(
    schema: dict[str, Any], role: str
) -> None:
    kept = copy.deepcopy(schema)
    try:
        result = normalize_schema(schema, role=role)
    except SchemaRejectedError as refused:
        assert refused.issues and all(i.severity == "error" for i in refused.issues)
        assert schema == kept
        return
    assert schema == kept
    assert [
        i.message for i in check_schema(result.schema, role=role) if i.severity == "error"
    ] == []
    assert normalize_schema(result.schema, role=role).changes == ()
    if result.changes:
        assert result.schema != schema or all(c.fix == "N13" for c in result.changes)


@SETTINGS
@given(schemas(), st.lists(values, min_size=1, max_size=25))
def test_the_normalized_schema_accepts_exactly_the_same_values(
    schema: dict[str, Any], instances: list[Any]
) -> None:
    try:
        result = normalize_schema(schema, role="output-schema")
    except SchemaRejectedError:
        return
    before = jsonschema.Draft202012Validator(schema)
    after = jsonschema.Draft202012Validator(result.schema)
    for value in instances:
        assert before.is_valid(value) == after.is_valid(value), (value, result.changes)


KEYWORDS = [
    "type", "properties", "required", "items", "prefixItems", "anyOf", "enum", "$ref", "$defs",
    "definitions", "additionalProperties", "description", "default", "minimum", "maxLength",
    "a", "b", "x/y", "a{0}",
]  # fmt: skip
anything = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 2)
    | st.sampled_from([*TYPES, "#", "#/$defs/a", "#/definitions/a", "#/properties/a", 1.5]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYWORDS), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(anything, st.sampled_from(["tool-parameters", "output-schema"]))
def test_any_json_is_checked_and_normalized_or_refused_never_crashes(
    schema: Any, role: str
) -> None:
    issues = check_schema(schema, role=role)
    assert all(i.severity in ("error", "warning") and i.message for i in issues)
    try:
        result = normalize_schema(schema, role=role)
    except SchemaRejectedError as refused:
        assert refused.issues
        return
    assert [i for i in check_schema(result.schema, role=role) if i.severity == "error"] == []
