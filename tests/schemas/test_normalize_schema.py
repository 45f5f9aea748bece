"""normalize_schema: lossless rewrites into what the service accepts, each reported, and a
refusal (SchemaRejectedError) for what has no lossless rewrite. Through the public API.

Each pair below is a shape the service refuses and the form we send instead (N1..N14 are the
rewrites listed in openapi/mfjs.yaml). The property tests in test_normalize_properties.py
show on random schemas that the rewritten schema accepts exactly the values the original
does.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import kimi_ext
from kimi_ext import SchemaRejectedError, check_schema, normalize_schema
from tests.support.paths import FIXTURES

S: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer"}
NULL: dict[str, Any] = {"type": "null"}
AB = {"a": S, "b": S}

# (name, before, after, the rewrites reported as (rule, fix))
PAIRS: list[tuple[str, dict[str, Any], dict[str, Any], list[tuple[str, str]]]] = [
    (
        "N1 type beside anyOf goes into the branches",
        {
            "type": "object",
            "properties": {
                "v": {"type": "string", "anyOf": [{"maxLength": 3}, {"enum": ["long"]}]}
            },
        },
        {
            "type": "object",
            "properties": {
                "v": {
                    "anyOf": [
                        {"type": "string", "maxLength": 3},
                        {"type": "string", "enum": ["long"]},
                    ]
                }
            },
        },
        [("type-beside-anyof", "N1")],
    ),
    (
        "N1 the root's type and properties beside an anyOf of required alternatives",
        {"type": "object", "properties": AB, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
        {
            "anyOf": [
                {"type": "object", "properties": AB, "required": ["a"]},
                {"type": "object", "properties": AB, "required": ["b"]},
            ]
        },
        [("type-beside-anyof", "N1")],
    ),
    (
        "N1 a branch the parent's type excludes is dropped",
        {
            "type": "object",
            "properties": {"v": {"type": "string", "anyOf": [{"minLength": 1}, NULL]}},
        },
        {"type": "object", "properties": {"v": {"anyOf": [{"type": "string", "minLength": 1}]}}},
        [("type-beside-anyof", "N1")],
    ),
    (
        "N2 a type beside $ref that the target has already is dropped",
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A", "type": "object"}},
            "$defs": {"A": {"type": "object", "properties": {"x": S}}},
        },
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"type": "object", "properties": {"x": S}}},
        },
        [("type-beside-ref", "N2")],
    ),
    (
        "N2 other keywords beside $ref are folded into a new definition",
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A", "required": ["x"], "description": "d"}},
            "$defs": {"A": {"type": "object", "properties": {"x": S}}},
        },
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A_1", "description": "d"}},
            "$defs": {
                "A": {"type": "object", "properties": {"x": S}},
                "A_1": {"type": "object", "properties": {"x": S}, "required": ["x"]},
            },
        },
        [("required-defined", "N2")],
    ),
    (
        "N3 a tuple gets maxItems and the union of its positions as items",
        {
            "type": "object",
            "properties": {"p": {"type": "array", "prefixItems": [INT, S], "items": False}},
        },
        {
            "type": "object",
            "properties": {
                "p": {
                    "type": "array",
                    "prefixItems": [INT, S],
                    "items": {"anyOf": [INT, S]},
                    "maxItems": 2,
                }
            },
        },
        [("items-object", "N3")],
    ),
    (
        "N3 a draft-04 tuple (items as a list) becomes prefixItems first",
        {
            "type": "object",
            "properties": {"p": {"type": "array", "items": [INT, S], "additionalItems": False}},
        },
        {
            "type": "object",
            "properties": {
                "p": {
                    "type": "array",
                    "prefixItems": [INT, S],
                    "items": {"anyOf": [INT, S]},
                    "maxItems": 2,
                }
            },
        },
        [("items-object", "N3"), ("items-object", "N3")],
    ),
    (
        "N4 an enum mixing types is split into typed enums",
        {
            "type": "object",
            "properties": {"m": {"type": ["integer", "string"], "enum": ["auto", 0]}},
        },
        {
            "type": "object",
            "properties": {
                "m": {
                    "anyOf": [
                        {"type": "integer", "enum": [0]},
                        {"type": "string", "enum": ["auto"]},
                    ]
                }
            },
        },
        [("enum-type-list-shape", "N4")],
    ),
    (
        "N4 null is listed first beside integer (walle tries the types in order)",
        {"type": "object", "properties": {"m": {"type": ["integer", "null"], "enum": [1, None]}}},
        {"type": "object", "properties": {"m": {"type": ["null", "integer"], "enum": [1, None]}}},
        [("enum-value-type", "N4")],
    ),
    (
        "N4 an enum without type gets the type of its values",
        {"type": "object", "properties": {"m": {"enum": ["x", "y"]}}},
        {"type": "object", "properties": {"m": {"type": "string", "enum": ["x", "y"]}}},
        [("enum-needs-type", "N4")],
    ),
    (
        "N4 an enum without type mixing kinds becomes typed branches",
        {"type": "object", "properties": {"m": {"enum": ["auto", 0, 1.5]}}},
        {
            "type": "object",
            "properties": {
                "m": {
                    "anyOf": [
                        {"type": "string", "enum": ["auto"]},
                        {"type": "number", "enum": [0, 1.5]},
                    ]
                }
            },
        },
        [("enum-needs-type", "N4"), ("enum-type-list-shape", "N4")],
    ),
    (
        "N4 values the type excludes are removed (they could never be accepted)",
        {"type": "object", "properties": {"m": {"type": "string", "enum": ["x", 1]}}},
        {"type": "object", "properties": {"m": {"type": "string", "enum": ["x"]}}},
        [("enum-value-type", "N4")],
    ),
    (
        "N1 an enum beside anyOf is filtered into the branches",
        {"type": "object", "properties": {"m": {"enum": ["x", None], "anyOf": [S, NULL]}}},
        {
            "type": "object",
            "properties": {
                "m": {
                    "anyOf": [{"type": "string", "enum": ["x"]}, {"type": "null", "enum": [None]}]
                }
            },
        },
        [("enum-needs-type", "N1")],
    ),
    (
        "N5 boolean subschemas: a true property, items true and false, a false branch",
        {
            "type": "object",
            "properties": {
                "t": True,
                "l": {"type": "array", "items": False},
                "k": {"type": "array", "items": True},
                "u": {"anyOf": [S, False]},
            },
        },
        {
            "type": "object",
            "properties": {
                "t": {},
                "l": {"type": "array", "maxItems": 0},
                "k": {"type": "array"},
                "u": {"anyOf": [S]},
            },
        },
        [
            ("property-schema-object", "N5"),
            ("items-object", "N5"),
            ("items-object", "N5"),
            ("anyof-branch-object", "N5"),
        ],
    ),
    (
        "N5 a false property is dropped where additionalProperties false forbids it anyway",
        {"type": "object", "properties": {"a": S, "gone": False}, "additionalProperties": False},
        {"type": "object", "properties": {"a": S}, "additionalProperties": False},
        [("property-schema-object", "N5")],
    ),
    (
        "N6 a required name not in properties is defined as any other key",
        {"type": "object", "properties": {"a": S}, "required": ["b"], "additionalProperties": INT},
        {
            "type": "object",
            "properties": {"a": S, "b": INT},
            "required": ["b"],
            "additionalProperties": INT,
        },
        [("required-defined", "N6")],
    ),
    (
        "N6 ... which is anything when additionalProperties is absent",
        {"type": "object", "properties": {"a": S}, "required": ["b"]},
        {"type": "object", "properties": {"a": S, "b": {}}, "required": ["b"]},
        [("required-defined", "N6")],
    ),
    (
        "N7 refs outside #/$defs are resolved into $defs",
        {
            "type": "object",
            "properties": {
                "a": {"$ref": "#/definitions/A"},
                "b": {"$ref": "#/properties/c"},
                "c": {
                    "type": "object",
                    "$defs": {"D": S},
                    "properties": {"d": {"$ref": "#/properties/c/$defs/D"}},
                },
            },
            "definitions": {"A": S},
        },
        {
            "type": "object",
            "properties": {
                "a": {"$ref": "#/$defs/A"},
                "b": {"$ref": "#/$defs/c"},
                "c": {
                    "type": "object",
                    "$defs": {"D": S},
                    "properties": {"d": {"$ref": "#/$defs/D"}},
                },
            },
            "$defs": {
                "A": S,
                "D": S,
                "c": {
                    "type": "object",
                    "$defs": {"D": S},
                    "properties": {"d": {"$ref": "#/$defs/D"}},
                },
            },
        },
        [("ref-local", "N7")] * 5,
    ),
    (
        "N8 a type list with keywords of one type becomes one branch per type",
        {
            "type": "object",
            "properties": {
                "s": {
                    "type": ["string", "null"],
                    "maxLength": 5,
                    "default": None,
                    "description": "d",
                }
            },
        },
        {
            "type": "object",
            "properties": {
                "s": {
                    "anyOf": [{"type": "string", "maxLength": 5}, NULL],
                    "default": None,
                    "description": "d",
                }
            },
        },
        [("type-list-keywords", "N8")],
    ),
    (
        "N9 recursion only through a required array gets an explicit empty array",
        {
            "type": "object",
            "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}},
            "required": ["kids"],
            "$defs": {
                "T": {
                    "type": "object",
                    "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}},
                    "required": ["kids"],
                }
            },
        },
        {
            "type": "object",
            "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}},
            "required": ["kids"],
            "$defs": {
                "T": {
                    "type": "object",
                    "properties": {
                        "kids": {
                            "anyOf": [
                                {"type": "array", "maxItems": 0},
                                {"type": "array", "items": {"$ref": "#/$defs/T"}},
                            ]
                        }
                    },
                    "required": ["kids"],
                }
            },
        },
        [("ref-termination", "N9")],
    ),
    (
        "N11 a default on both the anyOf parent and a branch is kept once, on the parent",
        {
            "type": "object",
            "properties": {
                "a": {"default": "z", "anyOf": [{"type": "string", "default": "x"}, NULL]}
            },
        },
        {"type": "object", "properties": {"a": {"default": "z", "anyOf": [S, NULL]}}},
        [("anyof-parent-conflict", "N11")],
    ),
    (
        "N13 fractional bounds of an integer are made exact",
        {
            "type": "object",
            "properties": {
                "n": {"type": "integer", "minimum": 1.5, "maximum": 9.5, "exclusiveMaximum": 9}
            },
        },
        {"type": "object", "properties": {"n": {"type": "integer", "minimum": 2, "maximum": 8}}},
        [("range-value", "N13"), ("range-value", "N13"), ("unsupported-keyword", "N13")],
    ),
    (
        "N14 a tool's parameters without a type are an object (tool arguments always are)",
        {"properties": {"q": S}},
        {"type": "object", "properties": {"q": S}},
        [("tool-root-object", "N14")],
    ),
]


@pytest.mark.parametrize(("name", "before", "after", "done"), PAIRS, ids=[p[0] for p in PAIRS])
def test_each_rewrite(
    name: str, before: dict[str, Any], after: dict[str, Any], done: list[tuple[str, str]]
) -> None:
    role = "tool-parameters" if "N14" in name else "output-schema"
    kept = copy.deepcopy(before)
    # Strict refuses each (N13: it accepts, but the service's enforcer truncates the bounds).
    assert [i for i in check_schema(before, role=role) if i.severity == "error"] or "N13" in name
    result = normalize_schema(before, role=role)
    assert result.schema == after
    assert [(c.rule, c.fix) for c in result.changes] == done
    assert all(c.action for c in result.changes)
    assert before == kept, "the input was changed"
    assert [i for i in check_schema(result.schema, role=role) if i.severity == "error"] == []
    again = normalize_schema(result.schema, role=role)
    assert again.schema == result.schema and again.changes == ()


def test_a_schema_the_service_accepts_comes_back_equal_and_unchanged() -> None:
    good = {
        "type": "object",
        "properties": {"q": S, "n": {"anyOf": [INT, NULL]}},
        "required": ["q"],
    }
    result = normalize_schema(good)
    assert result.schema == good and result.changes == ()
    assert result.schema is not good


def test_what_strict_ignores_is_left_as_it_is() -> None:
    # allOf, const and untyped subschemas pass strict: no rewrite (N10 and N12 are not done).
    schema = {"type": "object", "properties": {"a": {"allOf": [S]}, "k": {"const": "cat"}, "x": {}}}
    assert normalize_schema(schema, role="output-schema").changes == ()


def test_the_result_is_a_copy_the_cache_does_not_share() -> None:
    before = {"type": "object", "properties": {"m": {"enum": ["x"]}}}
    first = normalize_schema(before)
    first.schema["properties"]["m"]["enum"].append("y")
    assert normalize_schema(before).schema["properties"]["m"]["enum"] == ["x"]


REFUSED = {
    "a false property the object does not forbid already": (
        {"type": "object", "properties": {"gone": False}},
        "property-schema-object",
    ),
    "a reserved property name (renaming would change the values)": (
        {"type": "object", "properties": {"required": S}},
        "property-name-reserved",
    ),
    "a remote ref": (
        {"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}},
        "ref-local",
    ),
    "a required name additionalProperties false forbids (nothing is accepted)": (
        {
            "type": "object",
            "properties": {"a": S},
            "required": ["b"],
            "additionalProperties": False,
        },
        "required-defined",
    ),
    "an anyOf branch adding a property the parent forbids": (
        {
            "type": "object",
            "additionalProperties": False,
            "properties": {"a": S},
            "anyOf": [{"properties": {"b": S}}],
        },
        "type-beside-anyof",
    ),
    "a recursion no finite value ends": (
        {
            "type": "object",
            "properties": {"n": {"$ref": "#/$defs/N"}},
            "required": ["n"],
            "$defs": {
                "N": {
                    "type": "object",
                    "properties": {"next": {"$ref": "#/$defs/N"}},
                    "required": ["next"],
                }
            },
        },
        "ref-termination",
    ),
    "a name with / inside a definition": (
        {"type": "object", "$defs": {"A": {"type": "object", "properties": {"x/y": S}}}},
        "defs-name",
    ),
    "too many enum values": (
        {"type": "object", "properties": {"a": {"type": "integer", "enum": list(range(1001))}}},
        "enum-max-items",
    ),
    "a tool root that is not an object": ({"type": "string"}, "tool-root-object"),
    "not a schema": (["a"], "root-object"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_has_no_lossless_rewrite_is_refused_with_the_errors_left(case: str) -> None:
    schema, rule = REFUSED[case]
    kept = copy.deepcopy(schema)
    with pytest.raises(SchemaRejectedError) as raised:
        normalize_schema(schema)
    error = raised.value
    assert rule in [i.rule for i in error.issues]
    assert all(i.severity == "error" for i in error.issues)
    assert error.issues[0].path == error.field
    assert error.issues[0].message in error.rule
    assert isinstance(error, kimi_ext.RequestValidationError) and isinstance(error, ValueError)
    assert schema == kept
    with pytest.raises(SchemaRejectedError):  # the cached refusal is raised again
        normalize_schema(schema)


def test_every_case_of_the_table_is_normalized_or_refused_never_passed_on_broken() -> None:
    cases = json.loads((FIXTURES / "mfjs" / "cases.json").read_text("utf-8"))
    made = refused = 0
    for case in cases:
        try:
            out = normalize_schema(case["schema"], role="output-schema").schema
        except SchemaRejectedError as e:
            refused += 1
            assert e.issues
            continue
        made += 1
        assert [i for i in check_schema(out, role="output-schema") if i.severity == "error"] == []
    assert made + refused == len(cases) and made > refused
