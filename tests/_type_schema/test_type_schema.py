"""kimi_ext._type_schema: schemas of tuples and dicts, values built from lists of dataclasses."""

from __future__ import annotations

import dataclasses
import enum

import pytest

from kimi_ext._type_schema import build_value, schema_from_type


class Color(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Point:
    x: int
    color: Color = Color.RED


def test_schema_of_tuples_and_dicts() -> None:
    # Moonshot refuses "items": false ("At path 'items': items must be an object") and
    # ignores prefixItems: items says what each item may be, the bounds how many.
    assert schema_from_type(tuple[int, str]) == {
        "type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "string"}],
        "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        "minItems": 2,
        "maxItems": 2,
    }
    assert schema_from_type(tuple[int, int, int])["items"] == {"type": "integer"}
    assert schema_from_type(tuple[int, ...]) == {"type": "array", "items": {"type": "integer"}}
    assert schema_from_type(dict) == {"type": "object"}
    assert schema_from_type(dict[str, float]) == {
        "type": "object",
        "additionalProperties": {"type": "number"},
    }
    with pytest.raises(TypeError, match="JSON Schema"):
        schema_from_type(complex)


def test_build_value_of_lists_of_dataclasses() -> None:
    points = build_value(list[Point], [{"x": 1}, {"x": 2, "color": "red"}])
    assert points == [Point(1), Point(2, Color.RED)]
    assert build_value(Color, "red") is Color.RED
    assert build_value(list[int], "not a list") == "not a list"
