"""Structured output: schemas from types, parse() in every format, its errors and decoding."""

from __future__ import annotations

import enum
import json
import pickle
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

import jsonschema
import pytest

import kimi_ext
from kimi_ext import Kimi, StructuredOutputError
from kimi_ext._type_schema import schema_from_type
from kimi_ext.testing import Reply
from tests.support.client import KEY, OK, PATHS, minimal


@dataclass
class Weather:
    """Current weather."""

    city: str
    celsius: float
    sky: Literal["clear", "cloudy"] = "clear"


class WeatherDict(TypedDict):
    city: str
    celsius: float


def reply_with(fmt: str, text: str, truncated: bool = False) -> dict[str, Any]:
    body = json.loads(json.dumps(OK[fmt]))
    if fmt == "chat":
        body["choices"][0]["message"]["content"] = text
        body["choices"][0]["finish_reason"] = "length" if truncated else "stop"
    elif fmt == "messages":
        body["content"][1]["text"] = text
        body["stop_reason"] = "max_tokens" if truncated else "end_turn"
    else:
        body["output"][0]["content"][0]["text"] = text
        body["status"] = "incomplete" if truncated else "completed"
    return body


def parse(client: Kimi, fmt: str, schema: Any) -> Any:
    resource: Any = {
        "chat": client.chat.completions,
        "messages": client.messages,
        "responses": client.responses,
    }[fmt]
    return resource.parse(schema=schema, **minimal(fmt))


def test_schema_from_dataclass_and_typeddict() -> None:
    assert schema_from_type(Weather) == {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "celsius": {"type": "number"},
            "sky": {"type": "string", "enum": ["clear", "cloudy"]},
        },
        "required": ["city", "celsius"],
        "additionalProperties": False,
        "description": "Current weather.",
    }
    assert schema_from_type(WeatherDict)["required"] == ["city", "celsius"]
    assert schema_from_type(list[int] | None) == {
        "anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]
    }
    with pytest.raises(TypeError, match="JSON Schema"):
        schema_from_type(complex)


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_parse_places_schema_and_returns_the_value(httpserver: Any, client: Kimi, fmt: str) -> None:
    httpserver.expect_request(PATHS[fmt]).respond_with_json(
        reply_with(fmt, '{"city": "Paris", "celsius": 21.5}')
    )
    out = parse(client, fmt, Weather)
    assert out.value == Weather(city="Paris", celsius=21.5)
    assert out.result.usage.output == 5 or out.result.usage.output == 4
    body = httpserver.log[0][0].get_json()
    schema = schema_from_type(Weather)
    if fmt == "chat":
        assert body["response_format"] == {
            "type": "json_schema",
            "json_schema": {"name": "Weather", "schema": schema, "strict": True},
        }
    elif fmt == "messages":
        assert body["output_config"] == {"format": {"type": "json_schema", "schema": schema}}
    else:
        assert body["text"] == {
            "format": {"type": "json_schema", "name": "Weather", "schema": schema, "strict": True}
        }


def test_parse_with_plain_json_schema(httpserver: Any, client: Kimi) -> None:
    schema = {
        "type": "object",
        "properties": {"result": {"type": "string"}},
        "required": ["result"],
    }
    httpserver.expect_request(PATHS["messages"]).respond_with_json(
        reply_with("messages", '{"result": "OK"}')
    )
    assert parse(client, "messages", schema).value == {"result": "OK"}


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_truncated_output_says_so(httpserver: Any, client: Kimi, fmt: str) -> None:
    httpserver.expect_request(PATHS[fmt]).respond_with_json(
        reply_with(fmt, '{"city": "Par', truncated=True)
    )
    with pytest.raises(StructuredOutputError, match="truncated") as info:
        parse(client, fmt, Weather)
    assert info.value.truncated is True
    assert info.value.text == '{"city": "Par'


def test_schema_mismatch_and_bad_json(httpserver: Any, client: Kimi) -> None:
    httpserver.expect_ordered_request(PATHS["chat"]).respond_with_json(
        reply_with("chat", '{"city": 3, "celsius": 1}')
    )
    httpserver.expect_ordered_request(PATHS["chat"]).respond_with_json(
        reply_with("chat", "sunny, 21C")
    )
    with pytest.raises(StructuredOutputError, match="at city") as info:
        parse(client, "chat", Weather)
    assert info.value.truncated is False
    with pytest.raises(StructuredOutputError, match="not valid JSON"):
        parse(client, "chat", Weather)


async def test_async_parse(httpserver: Any, aclient: Any) -> None:
    httpserver.expect_request(PATHS["responses"]).respond_with_json(
        reply_with("responses", '{"city": "Oslo", "celsius": -2}')
    )
    out = await aclient.responses.parse(schema=WeatherDict, **minimal("responses"))
    assert out.value == {"city": "Oslo", "celsius": -2}


# --- issue 21: failed answers carry their result and usage; nested types are decoded ----------


@dataclass
class Checked:
    """A reading whose constructor refuses some values the schema allows."""

    celsius: float

    def __post_init__(self) -> None:
        if self.celsius < -273.15:
            raise ValueError("below absolute zero")


FAILURES = {
    # what the model answers, truncated?, the error message
    "truncated": ('{"celsius": 2', True, "truncated"),
    "not json": ("cold", False, "not valid JSON"),
    "schema": ('{"celsius": "cold"}', False, "at celsius"),
    "constructor": ('{"celsius": -300}', False, "below absolute zero"),
}


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("failure", list(FAILURES))
@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
async def test_every_structured_output_error_carries_the_result_and_its_usage(
    httpserver: Any, client: Kimi, aclient: Any, fmt: str, failure: str, mode: str
) -> None:
    text, truncated, message = FAILURES[failure]
    httpserver.expect_request(PATHS[fmt]).respond_with_json(reply_with(fmt, text, truncated))
    with pytest.raises(StructuredOutputError, match=message) as info:
        if mode == "sync":
            parse(client, fmt, Checked)
        else:
            resource = {"chat": aclient.chat.completions, "messages": aclient.messages,
                        "responses": aclient.responses}[fmt]  # fmt: skip
            await resource.parse(schema=Checked, **minimal(fmt))
    error = info.value
    assert error.truncated is truncated and error.text == text
    assert error.result is not None and error.result.text == text
    assert isinstance(error.usage, kimi_ext.Usage) and error.usage == error.result.usage
    assert error.usage.output == (5 if fmt == "chat" else 4)  # the tokens the failure cost
    # Kept picklable, and the key stays out of what the error shows or carries.
    blob = pickle.dumps(error)
    again = pickle.loads(blob)
    assert (again.usage, again.result.text, str(again)) == (error.usage, text, str(error))
    assert KEY.encode() not in blob and KEY not in str(error) and KEY not in repr(error)


@dataclass
class City:
    name: str


class Sky(enum.Enum):
    CLEAR = "clear"
    CLOUDY = "cloudy"


class Leg(TypedDict):
    to: City
    by: Literal["train", "bus"]


@dataclass
class Itinerary:
    home: City | None
    by_name: dict[str, City]
    route: list[City]
    pair: tuple[City, int]
    legs: list[Leg]
    tags: set[str]
    days: frozenset[int]
    sky: Sky
    maybe: list[City | None]


@dataclass
class Tree:
    name: str
    children: list[Tree] = field(default_factory=list)
    parent: Tree | None = None


ITINERARY = {
    "home": {"name": "Oslo"},
    "by_name": {"b": {"name": "Bergen"}},
    "route": [{"name": "Lyon"}],
    "pair": [{"name": "Rome"}, 2],
    "legs": [{"to": {"name": "Nice"}, "by": "train"}],
    "tags": ["x", "y"],
    "days": [1, 2],
    "sky": "clear",
    "maybe": [None, {"name": "Pisa"}],
}


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_parse_decodes_nested_dataclasses_sets_tuples_and_enums(
    httpserver: Any, client: Kimi, fmt: str
) -> None:
    httpserver.expect_request(PATHS[fmt]).respond_with_json(reply_with(fmt, json.dumps(ITINERARY)))
    out = parse(client, fmt, Itinerary).value
    assert out == Itinerary(
        home=City("Oslo"),
        by_name={"b": City("Bergen")},
        route=[City("Lyon")],
        pair=(City("Rome"), 2),
        legs=[{"to": City("Nice"), "by": "train"}],
        tags={"x", "y"},
        days=frozenset({1, 2}),
        sky=Sky.CLEAR,
        maybe=[None, City("Pisa")],
    )
    assert type(out.days) is frozenset and type(out.pair) is tuple


def test_set_enum_and_literal_schemas() -> None:
    props = schema_from_type(Itinerary)["properties"]
    assert props["tags"] == {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
    assert props["days"]["uniqueItems"] is True
    assert props["sky"] == {"type": "string", "enum": ["clear", "cloudy"]}
    assert props["legs"]["items"]["properties"]["by"] == {
        "type": "string",
        "enum": ["train", "bus"],
    }
    with pytest.raises(StructuredOutputError, match="at tags"):
        parse_result_of('{"tags": ["x", "x"]}', {"tags"})


def parse_result_of(text: str, keep: set[str]) -> Any:
    """parse_result on a ready answer, against Itinerary cut down to the ``keep`` fields."""
    from kimi_ext import ChatCompletion
    from kimi_ext.structured import parse_result

    schema = schema_from_type(Itinerary)
    schema["properties"] = {k: v for k, v in schema["properties"].items() if k in keep}
    schema["required"] = sorted(keep)
    return parse_result(ChatCompletion(reply_with("chat", text)), schema)


def test_parse_a_recursive_dataclass_through_the_stand_in(kimi_standin: Any) -> None:
    schema = schema_from_type(Tree)
    node = schema["$defs"]["Tree"]
    assert schema["type"] == "object" and schema["properties"] == node["properties"]
    assert node["properties"]["children"]["items"] == {"$ref": "#/$defs/Tree"}
    answer = {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}],
              "parent": {"name": "root"}}  # fmt: skip
    kimi_standin.queue(Reply.structured(answer))
    with Kimi(api_key=kimi_standin.api_key, base_url=kimi_standin.base_url,
              fallback_base_url=None) as c:  # fmt: skip
        out = c.chat.completions.parse(schema=Tree, **minimal("chat")).value
    assert out == Tree("a", [Tree("b", [Tree("c")])], parent=Tree("root"))
    sent = kimi_standin.requests[-1].json["response_format"]["json_schema"]["schema"]
    assert sent == schema
    jsonschema.Draft202012Validator.check_schema(sent)
