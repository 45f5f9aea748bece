"""The stand-in's payloads against openapi/*.yaml and against the recorded fixtures.

Every test in this directory already validates each JSON body and SSE payload it receives
(``Wire.check``); this module drives a matrix that produces every kind of payload, checks
that the validator is not vacuous, and compares shapes with tests/fixtures.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import ValidationError

from kimi_ext.testing import Fault, KimiStandIn, Reply, ToolCallSpec
from tests.support.paths import FIXTURES
from tests.support.standin import (
    BODY,
    EVENT_SCHEMA,
    RESPONSE_SCHEMA,
    SpecValidator,
    Wire,
    chat_body,
    messages_body,
    parse_sse,
    responses_body,
)

FORMATS = ("chat", "messages", "responses")
TOOLS: dict[str, list[dict[str, Any]]] = {
    "chat": [
        {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}},
        {"type": "web_search"},
    ],
    "messages": [
        {"name": "get_weather", "input_schema": {"type": "object"}},
        {"type": "web_search_20250305", "name": "web_search"},
    ],
    "responses": [
        {"type": "function", "name": "get_weather", "parameters": {"type": "object"}},
        {"type": "web_search"},
    ],
}
RICH = Reply(
    text="Beijing is clear; Shanghai expects rain.",
    reasoning="Search, then call the weather tool for both cities.",
    tool_calls=[
        ToolCallSpec("get_weather", {"city": "Beijing"}),
        ToolCallSpec("get_weather", {"city": "Shanghai"}),
    ],
    web_search="weather tomorrow",
)


def fixture(fmt: str, name: str) -> Any:
    text = (FIXTURES / fmt / name).read_text("utf-8")
    return json.loads(text) if name.endswith(".json") else parse_sse(text)


# ----------------------------------------------------------- the validator is not vacuous


@pytest.mark.parametrize(
    ("fmt", "schema", "bad"),
    [
        (
            "chat",
            "ChatCompletion",
            {"id": "x", "object": "chat.completion", "created": 1, "model": "m"},
        ),
        (
            "chat",
            "ChatCompletionChunk",
            {"id": "x", "object": "o", "created": "1", "model": "m", "choices": []},
        ),
        ("chat", "ErrorResponse", {"detail": "no error key"}),
        (
            "messages",
            "MessageResponse",
            {"id": "x", "type": "message", "role": "assistant", "content": [{"type": "text"}]},
        ),
        (
            "messages",
            "MessageStreamEvent",
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta"}},
        ),
        ("messages", "MessageStreamEvent", {"type": "message_start", "message": {"content": []}}),
        (
            "responses",
            "ResponseObject",
            {"id": "x", "object": "response", "created_at": 1, "model": "m", "output": []},
        ),
        ("responses", "ResponseStreamEvent", {"type": "response.output_text.delta", "delta": 5}),
        (
            "responses",
            "ResponseStreamEvent",
            {
                "type": "response.output_item.added",
                "item": {"type": "function_call", "call_id": "c"},
            },
        ),
    ],
)
def test_the_validator_rejects_broken_payloads(
    specs: dict[str, SpecValidator], fmt: str, schema: str, bad: Any
) -> None:
    with pytest.raises(ValidationError):
        specs[fmt].validate(schema, bad)


@pytest.mark.parametrize(
    ("fmt", "schema", "good"),
    [
        ("messages", "ContentBlock", {"type": "future_block", "data": "x"}),
        ("messages", "MessageStreamEvent", {"type": "message_progress"}),
        ("responses", "OutputItem", {"type": "future_item", "id": "x"}),
        ("messages", "ContentBlock", {"type": "text", "text": "x"}),
    ],
)
def test_the_validator_accepts_known_and_unknown_members(
    specs: dict[str, SpecValidator], fmt: str, schema: str, good: Any
) -> None:
    specs[fmt].validate(schema, good)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_recorded_fixtures_pass_the_same_validator(
    specs: dict[str, SpecValidator], fmt: str
) -> None:
    for path in sorted((FIXTURES / fmt).iterdir()):
        if (
            path.name.startswith("response_")
            and "reference" not in path.name
            and "ref_" not in path.name
        ):
            specs[fmt].validate(RESPONSE_SCHEMA[fmt], json.loads(path.read_text("utf-8")))
        elif path.name.startswith("error_"):
            specs[fmt].validate("ErrorResponse", json.loads(path.read_text("utf-8")))
        elif path.suffix == ".sse":
            for event in parse_sse(path.read_text("utf-8")):
                if event.data != "[DONE]":
                    specs[fmt].validate(EVENT_SCHEMA[fmt], event.json)


# ------------------------------------------------------------------------ the payload matrix


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_payload_kind_validates(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    body = BODY[fmt](tools=TOOLS[fmt])
    if fmt == "chat":
        body["stream_options"] = {"include_usage": True}
        body["logprobs"] = True
        body["top_logprobs"] = 3
    if fmt == "responses":
        body["include"] = ["web_search_call.results", "web_search_call.action.sources"]
    limits = {
        "chat": "max_completion_tokens",
        "messages": "max_tokens",
        "responses": "max_output_tokens",
    }
    scenarios: list[tuple[Reply | None, dict[str, Any], tuple[Fault, ...]]] = [
        (RICH, {}, ()),
        (RICH, {limits[fmt]: 5}, ()),  # cut inside the reasoning
        (RICH, {limits[fmt]: 20}, ()),  # cut inside the text
        (Reply.structured({"ok": True}), {}, ()),
        (None, {}, (Fault.unknown_block(), Fault.unknown_event())),
        (None, {}, (Fault.error_event(after=3),)),
        (RICH, {}, (Fault.split_tool_name(), Fault.tool_call_without_index(null=True))),
        (RICH, {}, (Fault.usage_on_choice(),)),
    ]
    for reply, extra, faults in scenarios:
        for stream in (False, True):
            if reply is not None:
                standin.queue(reply)
            if faults:
                standin.fault(*faults)
            if stream:
                result = wire.stream(fmt, {**body, **extra})
                assert result.status == 200
            else:
                assert wire.post(fmt, {**body, **extra}).status_code == 200
            standin.clear_faults()
    for status_fault in (Fault.rate_limit(), Fault.quota(), Fault.server_error()):
        standin.fault(status_fault)
        wire.post(fmt, body)
    wire.post(fmt, body, key="nope")
    wire.post(fmt, {**body, "model": "kimi-k9"})
    wire.post(fmt, {**body, "bogus_field": 1})
    names = {name for f, name in wire.checked if f == fmt}
    assert names == {RESPONSE_SCHEMA[fmt], EVENT_SCHEMA[fmt], "ErrorResponse"}
    assert len(wire.checked) > 50


# ---------------------------------------------------------------- shapes of the fixtures


def keys(value: dict[str, Any]) -> list[str]:
    return list(value)


def test_chat_json_has_the_fixture_shape(wire: Wire) -> None:
    ours = wire.ok("chat", chat_body())
    theirs = fixture("chat", "response_text.json")
    assert keys(ours) == keys(theirs)
    assert keys(ours["choices"][0]) == keys(theirs["choices"][0])
    assert keys(ours["choices"][0]["message"]) == keys(theirs["choices"][0]["message"])
    assert keys(ours["usage"]) == keys(theirs["usage"])
    assert keys(ours["usage"]["prompt_tokens_details"]) == keys(
        theirs["usage"]["prompt_tokens_details"]
    )
    assert ours["id"].startswith("chatcmpl-") and ours["object"] == "chat.completion"


def test_chat_chunks_have_the_fixture_shape(wire: Wire) -> None:
    ours = wire.stream("chat", chat_body(stream_options={"include_usage": True})).payloads()
    theirs = [e.json for e in fixture("chat", "stream_text.sse") if e.data != "[DONE]"]
    assert keys(ours[0]) == keys(theirs[0])
    assert ours[0]["choices"][0]["delta"] == theirs[0]["choices"][0]["delta"]  # role + ""
    assert keys(ours[-1]) == keys(theirs[-1]) and ours[-1]["choices"] == []
    assert keys(ours[-2]["choices"][0]) == keys(theirs[-2]["choices"][0])


def test_chat_tool_call_deltas_have_the_fixture_shape(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(tool_calls=[ToolCallSpec("get_weather", {"city": "Beijing"})]))
    ours = wire.stream("chat", chat_body()).payloads()
    theirs = [e.json for e in fixture("chat", "stream_tool_calls.sse") if e.data != "[DONE]"]
    head = next(p for p in ours if p["choices"][0]["delta"].get("tool_calls"))
    their_head = theirs[3]
    ours_call = head["choices"][0]["delta"]["tool_calls"][0]
    their_call = their_head["choices"][0]["delta"]["tool_calls"][0]
    assert keys(ours_call) == keys(their_call)
    assert keys(ours_call["function"]) == keys(their_call["function"])


def test_messages_json_and_events_have_the_fixture_shape(wire: Wire) -> None:
    ours = wire.ok("messages", messages_body())
    theirs = fixture("messages", "response_text.json")
    assert keys(ours) == keys(theirs)
    assert keys(ours["usage"]) == keys(theirs["usage"])
    assert [b["type"] for b in ours["content"]] == [b["type"] for b in theirs["content"]]
    assert keys(ours["content"][0]) == keys(theirs["content"][0])
    stream = wire.stream("messages", messages_body())
    their_events = fixture("messages", "stream_text.sse")
    assert _collapse(stream.types()) == _collapse([e.json["type"] for e in their_events])
    assert keys(stream.payloads()[0]["message"]) == keys(their_events[0].json["message"])


def test_responses_json_and_events_have_the_fixture_shape(wire: Wire) -> None:
    ours = wire.ok("responses", responses_body())
    theirs = fixture("responses", "response_text.json")
    assert keys(ours) == keys(theirs)
    assert [keys(i) for i in ours["output"]] == [keys(i) for i in theirs["output"]]
    assert keys(ours["usage"]) == keys(theirs["usage"])
    stream = wire.stream("responses", responses_body())
    their_events = fixture("responses", "stream_text.sse")
    assert _collapse(stream.types()) == _collapse([e.json["type"] for e in their_events])
    for mine, recorded in zip(stream.payloads(), [e.json for e in their_events], strict=False):
        if mine["type"] == recorded["type"]:
            assert keys(mine) == keys(recorded)


def _collapse(types: list[str]) -> list[str]:
    """Event types with runs of deltas collapsed (their count depends on the text)."""
    out: list[str] = []
    for kind in types:
        if not out or out[-1] != kind or not kind.endswith("delta"):
            out.append(kind)
    return out


@pytest.mark.parametrize(
    ("fmt", "name"),
    [
        ("chat", "error_invalid_request.json"),
        ("chat", "error_tool_call_id.json"),
        ("messages", "error_400_invalid_request.json"),
        ("responses", "error_400.json"),
    ],
)
def test_error_envelopes_have_the_fixture_shape(wire: Wire, fmt: str, name: str) -> None:
    bodies = {
        "error_invalid_request.json": chat_body(
            messages=[
                {"role": "user", "content": "x"},
                {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "a",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{}"},
                        }
                    ],
                },
            ]
        ),
        "error_tool_call_id.json": chat_body(
            messages=[{"role": "tool", "tool_call_id": "x", "content": "y"}]
        ),
        "error_400_invalid_request.json": messages_body(max_tokens=0),
        "error_400.json": responses_body(
            input=[{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]
        ),
    }
    ours = wire.post(fmt, bodies[name]).json()
    theirs = fixture(fmt, name)
    assert keys(ours) == keys(theirs)
    assert keys(ours["error"]) == keys(theirs["error"])
