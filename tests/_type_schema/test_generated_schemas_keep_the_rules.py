"""Property (issue 31): every schema the generator derives from type hints, as tool() and
parse() send it, keeps Moonshot's schema rules at walle's strict level, and instances
agree: a value of the type is accepted by the schema sent and decodes back to itself."""

from __future__ import annotations

import dataclasses
import enum
import json
from typing import Any, Literal, Optional, TypedDict, Union

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kimi_ext import tool
from kimi_ext._type_schema import build_value
from kimi_ext.schemas import check_schema
from kimi_ext.structured import resolve_schema


class Mixed(enum.Enum):
    AUTO = "auto"
    ZERO = 0


class Level(enum.Enum):
    LOW = 1
    HIGH = 2


@dataclasses.dataclass
class Point:
    x: int
    label: str = "p"


@dataclasses.dataclass
class Node:  # recursion only through a required list (walle: "infinite recursion")
    children: list[Node]


@dataclasses.dataclass
class Named:
    name: str
    parent: Named | None = None


class Span(TypedDict):
    start: int
    end: int


LEAVES: list[Any] = [
    str, int, float, bool, type(None), Any, Mixed, Level, Point, Node, Named, Span,
    Literal["auto", 0], Literal[1, None], Literal[1, 1.5], Literal[True, "x", None],
]  # fmt: skip


def hints() -> st.SearchStrategy[Any]:
    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(
            inner.map(lambda t: list[t]),  # type: ignore[valid-type]
            inner.map(lambda t: dict[str, t]),  # type: ignore[valid-type]
            inner.map(lambda t: Optional[t]),  # noqa: UP045
            inner.map(lambda t: tuple[t, ...]),  # type: ignore[valid-type]
            st.tuples(inner, inner).map(lambda ts: tuple[ts[0], ts[1]]),  # type: ignore[valid-type]
            st.tuples(inner, inner).map(lambda ts: Union[ts[0], ts[1]]),  # noqa: UP007
            st.just(set[str]),
        )

    return st.recursive(st.sampled_from(LEAVES), extend, max_leaves=4)


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def tool_of(hint: Any) -> Any:
    def f(value: Any) -> None:
        """A tool."""

    f.__annotations__ = {"value": hint, "return": None}
    return tool(f)


@pytest.mark.parametrize("hint", LEAVES, ids=repr)
def test_each_leaf_type_keeps_the_rules(hint: Any) -> None:
    test_tool_and_parse_schemas_keep_the_rules.hypothesis.inner_test(hint)  # type: ignore[attr-defined]


@SETTINGS
@given(hints())
def test_tool_and_parse_schemas_keep_the_rules(hint: Any) -> None:
    parameters = tool_of(hint).parameters
    errors = [i.message for i in check_schema(parameters) if i.severity == "error"]
    assert errors == [], (hint, parameters)
    holder = dataclasses.make_dataclass("Answer", [("value", hint)])
    output = resolve_schema(holder)
    errors = [
        i.message for i in check_schema(output, role="output-schema") if i.severity == "error"
    ]
    assert errors == [], (hint, output)


def to_json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_json(v) for v in value]
    return value


VALUES: list[tuple[Any, st.SearchStrategy[Any]]] = [
    (tuple[int, str], st.tuples(st.integers(), st.text())),
    (Literal["auto", 0], st.sampled_from(["auto", 0])),
    (Literal[1, None], st.sampled_from([1, None])),
    (Mixed, st.sampled_from(list(Mixed))),
    (list[Point], st.lists(st.builds(Point, x=st.integers(), label=st.text()), max_size=3)),
    (Node, st.just(Node([Node([]), Node([Node([])])]))),
    (Named, st.just(Named("a", Named("b")))),
    (dict[str, tuple[int, int]], st.dictionaries(st.text(max_size=3),
                                                 st.tuples(st.integers(), st.integers()),
                                                 max_size=3)),
    (Optional[Level], st.sampled_from([None, *Level])),  # noqa: UP045
]  # fmt: skip


@SETTINGS
@given(st.sampled_from(range(len(VALUES))).flatmap(lambda i: st.tuples(st.just(i), VALUES[i][1])))
def test_a_value_of_the_type_passes_the_schema_sent_and_decodes_back(case: Any) -> None:
    index, value = case
    hint = VALUES[index][0]
    parameters = tool_of(hint).parameters
    arguments = json.loads(json.dumps({"value": to_json(value)}))
    validator = jsonschema.validators.validator_for(parameters)(parameters)
    assert validator.is_valid(arguments), (hint, arguments, parameters)
    assert build_value(hint, arguments["value"]) == value
