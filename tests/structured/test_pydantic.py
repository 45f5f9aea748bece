"""Pydantic v2 models for structured output and tool parameters (the optional extra)."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import textwrap
from typing import Any

import pydantic  # the dev extra includes the pydantic extra
import pytest
from pydantic import BaseModel, Field, field_validator

from kimi_ext import AsyncKimi, Kimi, StructuredOutputError, Usage, tool
from kimi_ext._type_schema import build_value, schema_from_type
from kimi_ext.testing import KimiStandIn, Reply, ToolCallSpec


class Place(BaseModel):
    city: str = Field(description="the city name")
    country: str


class Trip(BaseModel):
    """A trip plan."""

    places: list[Place]
    start: dt.date
    nights: int = Field(ge=1)

    @field_validator("places")
    @classmethod
    def _not_empty(cls, value: list[Place]) -> list[Place]:
        if not value:
            raise ValueError("a trip needs at least one place")
        return value


class Node(BaseModel):
    name: str
    children: list[Node] = []


@pytest.fixture
def client(kimi_standin: KimiStandIn) -> Any:
    c = Kimi(api_key=kimi_standin.api_key, base_url=kimi_standin.base_url, fallback_base_url=None)
    yield c
    c.close()


TRIP = {"places": [{"city": "Lyon", "country": "France"}], "start": "2026-04-02", "nights": 3}


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_parse_with_a_model_returns_an_instance(
    client: Kimi, kimi_standin: KimiStandIn, fmt: str
) -> None:
    kimi_standin.queue(Reply.structured(TRIP))
    resource = {"chat": client.chat.completions, "messages": client.messages,
                "responses": client.responses}[fmt]  # fmt: skip
    request: dict[str, Any] = {"model": "kimi-k3.1-pro"}
    if fmt == "responses":
        request["input"] = "Plan a trip"
    else:
        request["messages"] = [{"role": "user", "content": "Plan a trip"}]
        if fmt == "messages":
            request["max_tokens"] = 1024
    answer = resource.parse(schema=Trip, **request)
    assert isinstance(answer.value, Trip)
    assert answer.value.places[0] == Place(city="Lyon", country="France")
    assert answer.value.start == dt.date(2026, 4, 2)  # converted by pydantic, not left a str
    body = kimi_standin.requests[-1].json
    sent = {
        "chat": lambda: body["response_format"]["json_schema"],
        "messages": lambda: body["output_config"]["format"],
        "responses": lambda: body["text"]["format"],
    }[fmt]()
    schema = sent["schema"]
    assert "$defs" not in schema and "$ref" not in json.dumps(schema)  # self-contained
    assert schema["properties"]["places"]["items"]["properties"]["city"]["description"] == (
        "the city name"
    )
    assert schema["properties"]["nights"]["minimum"] == 1
    if fmt != "messages":
        assert sent["name"] == "Trip"


def test_a_model_validator_failure_is_a_structured_output_error(
    client: Kimi, kimi_standin: KimiStandIn
) -> None:
    # Matches the JSON Schema (an empty list is an array) but fails the model's own validator.
    kimi_standin.queue(Reply.structured({**TRIP, "places": []}))
    with pytest.raises(StructuredOutputError, match="does not match Trip at places") as info:
        client.responses.parse(schema=Trip, model="kimi-k3.1-pro", input="Plan")
    assert "at least one place" in str(info.value)
    assert info.value.text == json.dumps({**TRIP, "places": []}, separators=(",", ":"))


async def test_a_model_validator_failure_carries_the_result_and_its_usage(
    client: Kimi, kimi_standin: KimiStandIn
) -> None:
    kimi_standin.queue(Reply.structured({**TRIP, "places": []}), Reply.structured({**TRIP, "places": []}))  # fmt: skip
    with pytest.raises(StructuredOutputError, match="at least one place") as info:
        client.messages.parse(
            schema=Trip, model="kimi-k3.1-pro", max_tokens=1024,
            messages=[{"role": "user", "content": "Plan"}],
        )  # fmt: skip
    error = info.value
    assert error.result is not None and error.result.text == error.text
    assert isinstance(error.usage, Usage) and error.usage == error.result.usage
    assert error.usage.output > 0 and error.usage.total_input > 0
    async with AsyncKimi(
        api_key=kimi_standin.api_key, base_url=kimi_standin.base_url, fallback_base_url=None
    ) as aclient:
        with pytest.raises(StructuredOutputError, match="at least one place") as ainfo:
            await aclient.chat.completions.parse(
                schema=Trip, model="kimi-k3.1-pro", messages=[{"role": "user", "content": "Plan"}]
            )
    assert ainfo.value.usage == ainfo.value.result.usage and ainfo.value.usage.output > 0


def test_a_schema_mismatch_names_the_path(client: Kimi, kimi_standin: KimiStandIn) -> None:
    kimi_standin.queue(Reply.structured({**TRIP, "nights": 0}))
    with pytest.raises(StructuredOutputError, match="at nights"):
        client.responses.parse(schema=Trip, model="kimi-k3.1-pro", input="Plan")


def test_type_adapter_types_and_a_type_adapter(client: Kimi, kimi_standin: KimiStandIn) -> None:
    places = [{"city": "Oslo", "country": "Norway"}, {"city": "Bergen", "country": "Norway"}]
    kimi_standin.queue(Reply.structured(places), Reply.structured(places))
    out = client.responses.parse(schema=list[Place], model="kimi-k3.1-pro", input="Two")
    assert out.value == [Place(city="Oslo", country="Norway"), Place(city="Bergen", country="Norway")]  # fmt: skip
    adapter = pydantic.TypeAdapter(list[Place])
    out = client.responses.parse(schema=adapter, model="kimi-k3.1-pro", input="Two")
    assert [p.city for p in out.value] == ["Oslo", "Bergen"]


def test_recursive_models_keep_their_defs() -> None:
    schema = schema_from_type(Node)
    assert "$defs" in schema and schema["$ref"] == "#/$defs/Node"
    tree = build_value(Node, {"name": "a", "children": [{"name": "b"}]})
    assert tree.children[0] == Node(name="b")


def test_hand_written_types_keep_their_schema_with_pydantic_loaded() -> None:
    from dataclasses import dataclass

    @dataclass
    class Plain:
        x: int

    assert schema_from_type(Plain) == {
        "type": "object",
        "properties": {"x": {"type": "integer"}},
        "required": ["x"],
        "additionalProperties": False,
    }
    with pytest.raises(TypeError, match="pydantic model"):
        schema_from_type(complex)  # pydantic could, but only model types go to pydantic


def test_a_tool_parameter_annotated_with_a_model(client: Kimi, kimi_standin: KimiStandIn) -> None:
    seen: list[Any] = []

    def book(place: Place, nights: int) -> str:
        """Book a hotel.

        Args:
            place: where to stay.
        """
        seen.append((place, nights))
        return "booked"

    t = tool(book)
    prop = t.parameters["properties"]["place"]
    assert prop["properties"]["city"] == {
        "description": "the city name", "title": "City", "type": "string"
    }  # fmt: skip
    assert prop["description"] == "where to stay."
    kimi_standin.queue(
        Reply(tool_calls=[ToolCallSpec("book", {"place": {"city": "Lyon", "country": "France"}, "nights": 2})]),
        Reply(text="Done."),
    )  # fmt: skip
    run = client.chat.completions.run_tools(
        model="kimi-k3.1-pro", tools=[book], messages=[{"role": "user", "content": "Book Lyon"}]
    )
    assert run.final.text == "Done."
    assert seen == [(Place(city="Lyon", country="France"), 2)]
    sent = kimi_standin.requests[0].json["tools"][0]["function"]["parameters"]
    assert sent == t.parameters


def test_a_model_as_the_whole_arguments_object(client: Kimi, kimi_standin: KimiStandIn) -> None:
    seen: list[Any] = []

    def plan(trip: Trip) -> Trip:
        """Store a trip."""
        seen.append(trip)
        return trip

    t = tool(plan, schema=Trip)
    assert t.parameters == schema_from_type(Trip)
    assert t.parameters["required"] == ["places", "start", "nights"]
    renamed = tool(t, name="store_trip")
    assert renamed.model is Trip and renamed.parameters == t.parameters
    kimi_standin.queue(
        Reply(tool_calls=[ToolCallSpec("plan", TRIP)]),
        Reply(tool_calls=[ToolCallSpec("plan", {**TRIP, "places": []})]),
        Reply(text="Planned."),
    )
    run = client.messages.run_tools(
        model="kimi-k3.1-pro", max_tokens=1024, tools=[t],
        messages=[{"role": "user", "content": "Plan"}],
    )  # fmt: skip
    assert run.final.text == "Planned."
    assert len(seen) == 1 and isinstance(seen[0], Trip) and seen[0].start == dt.date(2026, 4, 2)
    results = [
        block
        for m in kimi_standin.requests[-1].json["messages"]
        if m["role"] == "user" and isinstance(m["content"], list)
        for block in m["content"]
        if block.get("type") == "tool_result"
    ]
    assert json.loads(results[0]["content"])["start"] == "2026-04-02"  # a model dumped as JSON
    assert results[1]["is_error"] is True and "at least one place" in results[1]["content"]


def test_schema_must_be_a_dict_or_a_model() -> None:
    with pytest.raises(TypeError, match="JSON Schema dict or a pydantic model"):
        tool(lambda x: x, name="f", schema=int)


def test_pydantic_is_not_imported_without_a_model() -> None:
    code = textwrap.dedent(
        """
        import sys
        from dataclasses import dataclass
        from typing import TypedDict
        import kimi_ext
        from kimi_ext._type_schema import build_value, schema_from_type
        from kimi_ext.structured import place_schema

        @dataclass
        class City:
            name: str

        class D(TypedDict):
            n: int

        def f(city: City, d: D) -> str:
            return ""

        place_schema("chat", {}, City)
        kimi_ext.tool(f).bind({"city": {"name": "x"}, "d": {"n": 1}})
        build_value(City, {"name": "x"})
        assert "pydantic" not in sys.modules, "pydantic was imported"
        print("ok")
        """
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"
