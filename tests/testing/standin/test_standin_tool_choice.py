"""The default reply honours a tool choice that requires a call (Chat and Responses
``"required"``, Messages ``{"type": "any"}``): the model calls the first declared function
with arguments valid for its parameters schema, and stops for the tool, in every format,
streamed or not. Through the public client, as an application sees it."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from kimi_ext import Kimi
from kimi_ext.testing import KimiStandIn
from tests.support.cassettes import FORMATS, ask, call, client_for

# Every kind of constraint the default instance must meet: required nested objects, an
# enum, bounds, an array's minimum length, a $ref into $defs, an optional field left out.
PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 2},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
        "above": {"type": "number", "exclusiveMinimum": 10},
        "below": {"type": "integer", "exclusiveMaximum": -3},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
        "where": {"$ref": "#/$defs/Place"},
        "note": {"type": "string"},
    },
    "required": ["city", "unit", "days", "above", "below", "tags", "where"],
    "additionalProperties": False,
    "$defs": {
        "Place": {
            "type": "object",
            "properties": {"lat": {"type": "number"}, "exact": {"type": "boolean"}},
            "required": ["lat", "exact"],
        }
    },
}
OTHER: dict[str, Any] = {"type": "object", "properties": {}}


def tools(fmt: str) -> list[dict[str, Any]]:
    """Two functions (the first is called) and, where the format has it, web search."""
    declared = [("get_weather", PARAMETERS), ("get_time", OTHER)]
    if fmt == "chat":
        return [{"type": "function", "function": {"name": n, "parameters": p}} for n, p in declared]
    if fmt == "messages":
        return [{"name": n, "input_schema": p} for n, p in declared]
    return [{"type": "function", "name": n, "parameters": p} for n, p in declared]


REQUIRED = {"chat": "required", "messages": {"type": "any"}, "responses": "required"}
AUTO = {"chat": "auto", "messages": {"type": "auto"}, "responses": "auto"}


def calls_and_stop(fmt: str, result: dict[str, Any]) -> tuple[list[tuple[str, Any]], str]:
    """(name, decoded arguments) of each tool call, and the format's own stop marker."""
    if fmt == "chat":
        choice = result["choices"][0]
        made = [
            (c["function"]["name"], json.loads(c["function"]["arguments"]))
            for c in choice["message"].get("tool_calls") or ()
        ]
        return made, choice["finish_reason"]
    if fmt == "messages":
        made = [(b["name"], b["input"]) for b in result["content"] if b["type"] == "tool_use"]
        return made, result["stop_reason"]
    items = result["output"]
    made = [(i["name"], json.loads(i["arguments"])) for i in items if i["type"] == "function_call"]
    return made, items[-1]["type"]


@pytest.fixture
def client(kimi_standin: KimiStandIn) -> Kimi:
    return client_for(kimi_standin.base_url, kimi_standin.api_key)


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_required_tool_choice_gets_a_valid_tool_call(
    client: Kimi, fmt: str, stream: bool
) -> None:
    seen = call(client, fmt, stream, **ask(fmt, "Weather?"), tools=tools(fmt),
                tool_choice=REQUIRED[fmt])  # fmt: skip
    made, stop = calls_and_stop(fmt, seen.result)
    assert [name for name, _ in made] == ["get_weather"]
    jsonschema.validate(made[0][1], PARAMETERS)
    assert stop == {"chat": "tool_calls", "messages": "tool_use", "responses": "function_call"}[fmt]


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_auto_tool_choice_still_gets_the_echo(client: Kimi, fmt: str) -> None:
    seen = call(client, fmt, False, **ask(fmt, "Weather?"), tools=tools(fmt),
                tool_choice=AUTO[fmt])  # fmt: skip
    made, _ = calls_and_stop(fmt, seen.result)
    assert made == []


def test_chat_tools_declared_in_a_system_message_count(client: Kimi) -> None:
    messages = [
        {"role": "system", "tools": tools("chat")[1:]},
        {"role": "user", "content": "What time is it?"},
    ]
    seen = call(client, "chat", True, model="kimi-k3.1-pro", messages=messages,
                tool_choice="required")  # fmt: skip
    assert calls_and_stop("chat", seen.result) == ([("get_time", {})], "tool_calls")


def test_the_responses_object_form_of_required(client: Kimi) -> None:
    seen = call(client, "responses", False, **ask("responses", "Weather?"),
                tools=tools("responses"), tool_choice={"type": "required"})  # fmt: skip
    made, stop = calls_and_stop("responses", seen.result)
    assert [n for n, _ in made] == ["get_weather"] and stop == "function_call"


SEARCH_ONLY = {
    "chat": [{"type": "web_search"}],
    "messages": [{"type": "web_search_20250305", "name": "web_search"}],
    "responses": [{"type": "web_search"}],
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_with_web_search_the_only_tool_a_required_choice_searches(client: Kimi, fmt: str) -> None:
    seen = call(client, fmt, True, **ask(fmt, "News?"), tools=SEARCH_ONLY[fmt],
                tool_choice=REQUIRED[fmt])  # fmt: skip
    result = seen.result
    if fmt == "chat":
        (made,) = result["choices"][0]["message"]["tool_calls"]
        assert made["function"]["name"] == "$web_search"
        assert result["choices"][0]["finish_reason"] == "tool_calls"
    elif fmt == "messages":
        kinds = [b["type"] for b in result["content"]]
        assert "server_tool_use" in kinds and "web_search_tool_result" in kinds
    else:
        assert "web_search_call" in [i["type"] for i in result["output"]]
