"""A callable, schema or tool list that cannot make a tool raises a KimiError naming it,
before anything is sent (issue 30: ValueError, jsonschema.SchemaError, RecursionError and
AttributeError escaped)."""

from __future__ import annotations

from typing import Any

import pytest

from kimi_ext import Kimi, RequestValidationError, ToolDefinitionError, tool
from kimi_ext.testing import KimiStandIn
from tests.support.history import MODEL, client, standin, standin_server

_ = (client, standin, standin_server)  # fixtures

FORMATS = ("chat", "messages", "responses")


def get_weather(city: str) -> str:
    """Current weather for a city."""
    return "sunny"


class Oops(Exception):
    """An exception class: callable, but its parameters cannot be read."""


def nested(depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda: tool(get_weather, schema="x"), r"schema='x': must be a dict, a type or None"),
        (lambda: tool(get_weather, name=5), r"name=5: must be a str or None"),
        (lambda: tool(get_weather, custom="yes"), r"custom='yes': must be a bool"),
        (lambda: tool(get_weather, format=[1]), r"format=\[1\]: must be a dict or None"),
        (lambda: tool(5), r"fn=5: must be a callable or None"),
        (
            lambda: tool(get_weather, schema={"type": "bogus"}),
            r"tool 'get_weather': the schema is not a valid JSON Schema: 'bogus' is not valid"
            r".* \(at schema\['type'\]\)",
        ),
        (
            lambda: tool(get_weather, schema=nested(600)),
            r"tool 'get_weather': the schema is nested too deeply to be checked",
        ),
        (lambda: tool(Oops), r"tool 'Oops': the parameters of .* cannot be read; pass schema="),
    ],
)
def test_what_cannot_make_a_tool_is_a_tool_definition_error(make: Any, problem: str) -> None:
    with pytest.raises(ToolDefinitionError, match=problem):
        make()


def test_an_exception_class_with_an_explicit_schema_is_a_tool() -> None:
    made = tool(Oops, schema={"type": "object", "properties": {}})
    assert made.name == "Oops"


def fmt_request(c: Kimi, fmt: str, **extra: Any) -> Any:
    if fmt == "chat":
        return c.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "hi"}], **extra
        )
    if fmt == "messages":
        return c.messages.create(
            model=MODEL, max_tokens=100, messages=[{"role": "user", "content": "hi"}], **extra
        )
    return c.responses.create(model=MODEL, input="hi", **extra)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_tools_list_entry_that_is_no_tool_is_refused_before_sending(
    fmt: str, client: Kimi, standin: KimiStandIn
) -> None:
    for bad in (None, 5, "get_weather"):
        with pytest.raises(RequestValidationError, match=r"tools\[1\]=.*: must be a tool") as info:
            fmt_request(client, fmt, tools=[get_weather, bad])
        assert info.value.field == "tools[1]"
    assert standin.requests == []


@pytest.mark.parametrize("fmt", ["chat", "messages"])
def test_a_custom_tool_outside_responses_is_refused_before_sending(
    fmt: str, client: Kimi, standin: KimiStandIn
) -> None:
    custom = tool(get_weather, custom=True)
    with pytest.raises(
        ToolDefinitionError, match=f"custom tools exist only in Responses, not in {fmt}"
    ):
        fmt_request(client, fmt, tools=[custom])
    with pytest.raises(ToolDefinitionError, match="only in Responses"):
        custom.definition(fmt)
    assert standin.requests == []


def test_parse_docstring_takes_a_str() -> None:
    from kimi_ext.tools import parse_docstring

    with pytest.raises(ToolDefinitionError, match=r"doc=5: must be a str"):
        parse_docstring(5)  # type: ignore[arg-type]
