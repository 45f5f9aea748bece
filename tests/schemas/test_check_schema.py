"""check_schema: every problem of a schema, in the service's words, through the public API.

The bad shapes of issue 31's "Why" list each have a test: kimi-ext and the stand-in accepted
all of them before, and the service refuses every one.
"""

from __future__ import annotations

from typing import Any

import pytest

import kimi_ext
from kimi_ext import RequestValidationError, SchemaIssue, check_schema
from kimi_ext.schemas import ROLES


def refusals(schema: Any, role: str = "tool-parameters") -> list[str]:
    return [i.message for i in check_schema(schema, role=role) if i.severity == "error"]


WHY = {
    "type beside anyOf": (
        {"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"maxLength": 3}]}}},
        "At path 'properties.a': when using anyOf, type should be defined in anyOf items "
        "instead of the parent schema",
    ),
    "$ref with a sibling type": (
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A", "type": "object"}},
            "$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}}},
        },
        "At path 'properties.a': when using $ref, type should be defined in the referenced "
        "schema instead of the parent schema",
    ),
    "a boolean subschema": (
        {"type": "object", "properties": {"a": True}},
        "At path 'properties': property schema for 'a' must be an object",
    ),
    "required naming an undefined property": (
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]},
        "At path 'required': required property 'b' is not defined in properties",
    ),
    "root type and properties beside an anyOf of required alternatives": (
        {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
        },
        "At path 'root': when using anyOf, type should be defined in anyOf items instead of "
        "the parent schema",
    ),
    "a tuple as prefixItems and items false": (
        {
            "type": "object",
            "properties": {
                "pair": {
                    "type": "array",
                    "prefixItems": [{"type": "integer"}, {"type": "string"}],
                    "items": False,
                }
            },
        },
        "At path 'properties.pair.items': items must be an object",
    ),
    "Literal['auto', 0]: an enum mixing strings and numbers": (
        {
            "type": "object",
            "properties": {"m": {"type": ["integer", "string"], "enum": ["auto", 0]}},
        },
        "At path 'properties.m': when type is array and enum is specified, currently only 2 "
        "types are supported, one must be null, and the other can be string/integer/number/boolean",
    ),
}


@pytest.mark.parametrize("shape", sorted(WHY))
def test_each_shape_the_service_refuses_is_refused_in_its_words(shape: str) -> None:
    schema, words = WHY[shape]
    assert words in refusals(schema)


def test_an_issue_names_its_place_rule_severity_and_words() -> None:
    (issue,) = check_schema({"type": "object", "properties": {"a": {"enum": ["x", "y"]}}})
    assert issue == SchemaIssue(
        pointer=("properties", "a"),
        path="properties.a",
        rule="enum-needs-type",
        severity="error",
        message="At path 'properties.a': type is not defined",
    )


def test_a_schema_the_service_accepts_has_no_error() -> None:
    good = {
        "type": "object",
        "properties": {
            "q": {"type": "string", "description": "what to look for"},
            "limit": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
        },
        "required": ["q"],
        "additionalProperties": False,
    }
    assert check_schema(good) == []


def test_what_only_a_stricter_level_refuses_is_a_warning() -> None:
    schema = {"type": "object", "properties": {"when": {"type": "string", "format": "date"}}}
    (issue,) = check_schema(schema)
    assert (issue.severity, issue.rule) == ("warning", "unsupported-keyword")
    assert issue.message == "At path 'properties.when': unsupported keywords: format"


def test_the_role_decides_the_root_rule() -> None:
    assert refusals({}, "output-schema") == []
    assert refusals({}, "tool-parameters") == [
        "At path 'root': type is required and must be \"object\""
    ]


def test_an_unknown_role_is_a_request_validation_error_naming_it() -> None:
    with pytest.raises(RequestValidationError) as raised:
        check_schema({}, role="parameters")
    assert raised.value.field == "role" and raised.value.value == "parameters"
    assert isinstance(raised.value, kimi_ext.KimiError) and isinstance(raised.value, ValueError)


def test_the_names_are_public() -> None:
    for name in ("check_schema", "normalize_schema", "SchemaIssue", "SchemaChange"):
        assert name in kimi_ext.__all__
    assert "SchemaRejectedError" in kimi_ext.__all__
    assert ROLES == ("output-schema", "tool-parameters")
