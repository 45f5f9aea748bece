"""Property: streams fed random event sequences fail only with kimi_ext errors.

Sequences mix recorded events (tests/fixtures), recorded events with fields replaced by
random JSON, events of every known type built from random fields, and garbage: unknown
types, non-object data, invalid JSON, ``[DONE]`` anywhere, comments. They go through each
format's accumulator directly and through the sync and async stream classes over a
``httpx`` response split at random, ending cleanly or with a broken connection.
Accumulators may refuse an event only with ErrorEventReceived (an error event) or
TypeError (an object they cannot use, which the stream yields as ``"malformed"``); the
streams let only :class:`~kimi_ext.KimiError` subclasses escape, every partial or final result is
of the format's result type, and its accessors work on whatever arrived.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kimi_ext import IncompleteStreamError, KimiError, usage_of
from kimi_ext._core.streaming.stream import ErrorEventReceived
from tests.support.robustness import (
    ACCUMULATOR,
    ASYNC_STREAM,
    FINAL,
    RESULT,
    SECRET,
    SYNC_STREAM,
    encode_event,
    json_values,
    recorded_streams,
    stream_response,
)

FORMATS = ("chat", "messages", "responses")
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
RECORDED = {fmt: [e for stream in recorded_streams(fmt) for e in stream] for fmt in FORMATS}
EVENT_TYPES = {
    fmt: sorted({d.get("type") for _, d in RECORDED[fmt] if isinstance(d.get("type"), str)})
    for fmt in FORMATS
}
EVENT_TYPES["responses"] += [
    "response.refusal.delta",
    "response.refusal.done",
    "response.reasoning_summary_text.done",
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_part.done",
    "response.custom_tool_call_input.delta",
    "response.custom_tool_call_input.done",
    "response.queued",
    "error",
]
EVENT_TYPES["messages"] += ["error", "ping"]
FIELDS = [
    "index", "delta", "content_block", "message", "usage", "type", "text", "thinking",
    "partial_json", "signature", "citation", "output_index", "content_index", "summary_index",
    "item_id", "item", "part", "response", "arguments", "input", "refusal", "error", "code",
    "choices", "finish_reason", "content", "reasoning_content", "tool_calls", "id", "function",
    "name", "role", "logprobs", "output", "status", "stop_reason",
]  # fmt: skip

small_ints = st.integers(-1, 3)
field_values = st.one_of(json_values, small_ints, st.text(max_size=6), st.none())


@st.composite
def objects(draw: st.DrawFn, depth: int = 0) -> dict[str, Any]:
    """Objects whose keys are the ones accumulators look at, values random."""
    out: dict[str, Any] = {}
    for key in draw(st.lists(st.sampled_from(FIELDS), max_size=5, unique=True)):
        if depth < 2 and draw(st.integers(0, 3)) == 0:
            out[key] = draw(objects(depth + 1))
        elif depth < 2 and draw(st.integers(0, 5)) == 0:
            out[key] = draw(st.lists(objects(depth + 1), max_size=3))
        else:
            out[key] = draw(field_values)
    return out


@st.composite
def chat_chunks(draw: st.DrawFn) -> dict[str, Any]:
    delta = draw(objects(1))
    for key in ("content", "reasoning_content"):
        if draw(st.booleans()):
            delta[key] = draw(st.one_of(st.text(max_size=6), field_values))
    if draw(st.booleans()):
        delta["tool_calls"] = draw(st.lists(objects(1) | field_values, max_size=3))
    choice = {"index": draw(st.one_of(small_ints, field_values)), "delta": delta}
    if draw(st.booleans()):
        choice["finish_reason"] = draw(
            st.one_of(st.sampled_from(["stop", "", "length"]), field_values)
        )
    if draw(st.booleans()):
        choice.update(draw(objects(1)))
    chunk = draw(objects(1))
    chunk["choices"] = draw(st.one_of(st.just([choice]), st.lists(st.just(choice) | field_values, max_size=3), field_values))  # fmt: skip
    return chunk


@st.composite
def typed_events(draw: st.DrawFn, fmt: str) -> dict[str, Any]:
    """An event of a known (or new) type with random fields."""
    data = draw(objects())
    data["type"] = draw(st.one_of(st.sampled_from(EVENT_TYPES[fmt]), st.text(max_size=8), field_values))  # fmt: skip
    return data


@st.composite
def damaged(draw: st.DrawFn, fmt: str) -> dict[str, Any]:
    """A recorded event with some fields (at any depth) replaced by random values."""
    _, data = draw(st.sampled_from(RECORDED[fmt]))
    data = copy.deepcopy(data)
    nodes = [data]
    for node in nodes:
        for key, value in list(node.items()):
            if isinstance(value, dict):
                nodes.append(value)
            if draw(st.integers(0, 6)) == 0:
                node[key] = draw(field_values)
    return data


def events(fmt: str) -> st.SearchStrategy[tuple[str | None, Any]]:
    recorded = st.sampled_from(RECORDED[fmt]).map(lambda e: (e[0], copy.deepcopy(e[1])))
    built = chat_chunks() if fmt == "chat" else typed_events(fmt)
    names = st.one_of(
        st.none(), st.sampled_from(["error", "ping", "message_stop"]), st.text(max_size=6)
    )
    return st.one_of(
        recorded,
        recorded,
        st.tuples(names, damaged(fmt)),
        st.tuples(names, built),
        st.tuples(names, st.one_of(json_values, objects())),  # any JSON, objects or not
    )


def check_result(fmt: str, result: Any) -> None:
    """A result of the right type whose accessors work on whatever arrived."""
    assert type(result) is RESULT[fmt]
    data = result.to_dict()
    assert isinstance(data, dict)
    json.dumps(data)  # still JSON
    assert isinstance(result.text, str)
    assert isinstance(result.reasoning, str)
    for call in result.tool_calls:
        assert isinstance(call.id, str) and isinstance(call.name, str)
        assert isinstance(call.arguments, str)
    assert result.usage == usage_of(result)
    assert result.id is None or isinstance(result.id, str)
    repr(result)


def feed_all(fmt: str, sequence: list[tuple[str | None, Any]]) -> Any:
    acc = ACCUMULATOR[fmt]()
    for name, data in sequence:
        if not isinstance(data, dict):
            continue  # the stream yields those as "malformed" without feeding them
        try:
            acc.feed(name, data)
        except ErrorEventReceived:
            break  # the stream raises the APIStatusError here
        except TypeError:
            pass  # an object it cannot use (an index that is a list): the stream's "malformed"
        check_result(fmt, acc.result(None))
    return acc


@pytest.mark.parametrize("fmt", FORMATS)
@SETTINGS
@given(data=st.data())
def test_accumulators_survive_any_event_sequence(fmt: str, data: st.DataObject) -> None:
    sequence = data.draw(st.lists(events(fmt), max_size=25), label="events")
    acc = feed_all(fmt, sequence)
    check_result(fmt, acc.result(httpx.Response(200)))
    assert isinstance(acc.snapshot(), dict)


@st.composite
def bodies(draw: st.DrawFn, fmt: str) -> tuple[list[bytes], Exception | None]:
    """SSE bytes of random events and garbage lines, split at random, maybe broken."""
    pieces: list[bytes] = []
    for name, value in draw(st.lists(events(fmt), max_size=20)):
        pieces.append(encode_event(value if isinstance(value, dict) else json.dumps(value), name))
        extra = draw(st.integers(0, 12))
        if extra == 0:
            pieces.append(b"data: [DONE]\n\n")
        elif extra == 1:
            pieces.append(b": keep-alive\n\n")
        elif extra == 2:
            pieces.append(b"data: {not json\n\n")
        elif extra == 3:
            pieces.append(b"event: error\ndata: \n\n")
        elif extra == 4:
            pieces.append(draw(st.binary(max_size=12)))
    body = b"".join(pieces)
    cuts = sorted(draw(st.lists(st.integers(0, len(body)), max_size=6)))
    chunks = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    error = draw(
        st.sampled_from(
            [None, None, httpx.ReadError("reset"), httpx.ReadTimeout("slow"),
             httpx.RemoteProtocolError("incomplete chunked read"), httpx.DecodingError("bad gzip")]
        )
    )  # fmt: skip
    return chunks, error


def check_outcome(fmt: str, stream: Any, outcome: Any) -> None:
    if isinstance(outcome, IncompleteStreamError):
        check_result(fmt, outcome.partial)
    elif isinstance(outcome, KimiError):
        pass  # an error event: an APIStatusError
    else:
        check_result(fmt, outcome)
    check_result(fmt, stream.current)


@pytest.mark.parametrize("fmt", FORMATS)
@SETTINGS
@given(data=st.data())
def test_sync_streams_raise_only_kimi_errors(fmt: str, data: st.DataObject) -> None:
    chunks, error = data.draw(bodies(fmt), label="body")
    response = stream_response(chunks, error)
    stream = SYNC_STREAM[fmt](response, secret=SECRET)
    use = data.draw(st.sampled_from(["final", "events", "text", "fragments"]), label="reader")
    outcome: Any
    try:
        if use == "events":
            for event in stream:
                assert isinstance(event.type, str)
        elif use == "text":
            assert all(isinstance(t, str) for t in stream.text_stream)
        elif use == "fragments":
            assert all(isinstance(t, str) for _, t in stream.fragments)
        outcome = getattr(stream, FINAL[fmt])()
    except KimiError as exc:
        outcome = exc
    check_outcome(fmt, stream, outcome)
    assert response.is_closed


@pytest.mark.parametrize("fmt", FORMATS)
@SETTINGS
@given(data=st.data())
async def test_async_streams_raise_only_kimi_errors(fmt: str, data: st.DataObject) -> None:
    chunks, error = data.draw(bodies(fmt), label="body")
    response = stream_response(chunks, error)
    stream = ASYNC_STREAM[fmt](response, secret=SECRET)
    outcome: Any
    try:
        if data.draw(st.booleans(), label="iterate first"):
            async for event in stream:
                assert isinstance(event.type, str)
        outcome = await getattr(stream, FINAL[fmt])()
    except KimiError as exc:
        outcome = exc
    check_outcome(fmt, stream, outcome)
    assert response.is_closed
