"""Every fault, as it looks on the wire."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from kimi_ext.testing import Fault, KimiStandIn, Reply, ToolCallSpec
from tests.support.standin import (
    BODY,
    PATHS,
    Wire,
    chat_body,
    chat_stream_calls,
    messages_body,
    parse_sse,
    responses_body,
)

FORMATS = ("chat", "messages", "responses")
CALLS = [ToolCallSpec("get_weather", {"city": "Beijing"}), ToolCallSpec("get_time", {"tz": "UTC"})]
TERMINAL = {"chat": "[DONE]", "messages": "message_stop", "responses": "response.completed"}


def terminal_seen(fmt: str, stream: object) -> bool:
    events = stream.events  # type: ignore[attr-defined]
    if fmt == "chat":
        return any(e.data == "[DONE]" for e in events)
    return any(e.event == TERMINAL[fmt] for e in events)


# --------------------------------------------------------------------------- status faults


@pytest.mark.parametrize("fmt", FORMATS)
def test_rate_limit_with_retry_after_then_success(
    wire: Wire, standin: KimiStandIn, fmt: str
) -> None:
    standin.fault(Fault.rate_limit(retry_after=1))
    response = wire.post(fmt, BODY[fmt]())
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "1"
    assert "retry-after-ms" not in response.headers
    error = response.json()["error"]
    expected = "rate_limit_error" if fmt == "messages" else "rate_limit_reached_error"
    assert error["type"] == expected
    assert wire.post(fmt, BODY[fmt]()).status_code == 200


def test_rate_limit_hint_forms(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.rate_limit(retry_after=0.05, retry_after_ms=50))
    standin.fault(Fault.rate_limit(retry_after=None))
    first = wire.post("chat", chat_body())
    assert (first.headers["Retry-After"], first.headers["retry-after-ms"]) == ("0.05", "50")
    second = wire.post("chat", chat_body())
    assert second.status_code == 429 and "Retry-After" not in second.headers


@pytest.mark.parametrize("fmt", FORMATS)
def test_quota_exhausted(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    standin.fault(Fault.quota())
    response = wire.post(fmt, BODY[fmt]())
    assert response.status_code == 429 and "Retry-After" not in response.headers
    error = response.json()["error"]
    assert error["type"] == "exceeded_current_quota_error"
    assert "quota" in error["message"]
    if fmt != "messages":
        assert error["code"] == "insufficient_quota"


@pytest.mark.parametrize("fmt", FORMATS)
def test_server_error_then_success(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    standin.fault(Fault.server_error())
    first = wire.post(fmt, BODY[fmt]())
    assert first.status_code == 500
    assert first.json()["error"]["type"] == ("api_error" if fmt == "messages" else "server_error")
    assert wire.post(fmt, BODY[fmt]()).status_code == 200


def test_any_error_status(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(
        Fault.error(
            529,
            "Overloaded",
            error_type={"messages": "overloaded_error", "chat": "engine_overloaded_error"},
            headers={"retry-after-ms": "10"},
        ),
        times=2,
    )
    messages = wire.post("messages", messages_body())
    assert messages.status_code == 529 and messages.headers["retry-after-ms"] == "10"
    assert messages.json()["error"] == {"type": "overloaded_error", "message": "Overloaded"}
    chat = wire.post("chat", chat_body())
    assert chat.json()["error"]["type"] == "engine_overloaded_error"


def test_times_and_order(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.server_error(), times=2)
    standin.fault(Fault.rate_limit(retry_after=0))
    statuses = [wire.post("chat", chat_body()).status_code for _ in range(4)]
    assert statuses == [500, 500, 429, 200]
    assert standin.pending_faults == 0


def test_a_fault_is_used_up_even_by_a_request_that_would_be_rejected(
    wire: Wire, standin: KimiStandIn
) -> None:
    standin.fault(Fault.rate_limit())
    assert wire.post("chat", chat_body(), key="wrong").status_code == 429
    assert wire.post("chat", chat_body(), key="wrong").status_code == 401
    standin.fault(Fault.cut_stream(after=1))
    assert wire.post("chat", chat_body(stream=True, temperature=0.5)).status_code == 400
    assert standin.pending_faults == 0


def test_slow_first_byte(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.slow_first_byte(0.2))
    started = time.monotonic()
    assert wire.post("chat", chat_body()).status_code == 200
    assert time.monotonic() - started >= 0.2
    standin.fault(Fault.slow_first_byte(0.5))
    with pytest.raises(httpx.ReadTimeout):
        wire.client.post(PATHS["chat"], json=chat_body(), headers=wire.headers(), timeout=0.05)


def test_slow_first_byte_combines_with_an_error(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.slow_first_byte(0.1), Fault.server_error())
    started = time.monotonic()
    assert wire.post("chat", chat_body()).status_code == 500
    assert time.monotonic() - started >= 0.1


def test_disconnect_without_a_response(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.disconnect())
    with pytest.raises(httpx.RemoteProtocolError):
        wire.client.post(PATHS["chat"], json=chat_body(), headers=wire.headers())
    assert wire.post("chat", chat_body()).status_code == 200


# --------------------------------------------------------------------------- stream faults


def test_stream_faults_wait_for_a_streaming_request(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.cut_stream(after=2))
    assert wire.post("chat", chat_body()).status_code == 200  # not a stream: fault stays
    assert standin.pending_faults == 1
    assert wire.stream("chat", chat_body()).error is not None
    standin.fault(Fault.usage_on_choice())  # a Chat-only fault
    assert wire.stream("messages", messages_body()).error is None
    assert standin.pending_faults == 1
    wire.stream("chat", chat_body())
    assert standin.pending_faults == 0


@pytest.mark.parametrize("fmt", FORMATS)
def test_cut_stream_after_k_events(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    standin.fault(Fault.cut_stream(after=3))
    stream = wire.stream(fmt, BODY[fmt]())
    assert stream.status == 200
    assert isinstance(stream.error, httpx.RemoteProtocolError)  # incomplete chunked read
    assert len(stream.events) == 3
    assert not terminal_seen(fmt, stream)


@pytest.mark.parametrize("fmt", FORMATS)
def test_cut_stream_never_includes_the_terminal_event(
    wire: Wire, standin: KimiStandIn, fmt: str
) -> None:
    complete = wire.stream(fmt, BODY[fmt]())
    standin.fault(Fault.cut_stream(after=10_000))
    cut = wire.stream(fmt, BODY[fmt]())
    assert len(cut.events) == len(complete.events) - 1
    assert not terminal_seen(fmt, cut)


def test_cut_stream_with_close_delimited_transport_looks_clean() -> None:
    with KimiStandIn(sse_transport="close") as standin:
        standin.fault(Fault.cut_stream(after=2))
        headers = {"Authorization": "Bearer test-key"}
        with (
            httpx.Client(base_url=standin.base_url, headers=headers) as client,
            client.stream("POST", PATHS["chat"], json=chat_body(stream=True)) as response,
        ):
            text = response.read().decode()  # no transport error: only the missing [DONE] tells
        assert len(parse_sse(text)) == 2 and "[DONE]" not in text


@pytest.mark.parametrize("fmt", FORMATS)
def test_cut_mid_event(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    standin.fault(Fault.cut_mid_event(after=2))
    stream = wire.stream(fmt, BODY[fmt](), validate=False)
    assert stream.error is not None
    assert not stream.raw.endswith("\n\n")  # half an event is the last thing received
    whole = stream.raw.split("\n\n")
    assert len(whole) == 3 and whole[-1]  # two whole events, then the half one
    for event in parse_sse("\n\n".join(whole[:2]) + "\n\n"):
        wire.check_event(fmt, event)


@pytest.mark.parametrize("fmt", FORMATS)
def test_malformed_chunk_then_the_stream_goes_on(
    wire: Wire, standin: KimiStandIn, fmt: str
) -> None:
    standin.fault(Fault.malformed_chunk(after=2))
    stream = wire.stream(fmt, BODY[fmt]())
    broken = stream.events[2]
    with pytest.raises(json.JSONDecodeError):
        json.loads(broken.data)
    assert terminal_seen(fmt, stream) and stream.error is None


def test_error_event_messages(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.error_event(after=3))
    stream = wire.stream("messages", messages_body())
    assert stream.error is None  # the body ended properly, after a 200
    assert len(stream.events) == 4
    last = stream.events[-1]
    assert last.event == "error"
    assert last.json == {
        "type": "error",
        "error": {"type": "overloaded_error", "message": "Overloaded"},
    }
    assert "message_stop" not in stream.types()


def test_error_event_responses(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.error_event(after=4))
    stream = wire.stream("responses", responses_body())
    last = stream.events[-1]
    assert last.event == "error"
    assert last.json == {
        "type": "error",
        "sequence_number": 4,
        "code": "engine_overloaded",
        "message": "The engine is currently overloaded, please try again later.",
        "param": None,
    }
    assert "response.completed" not in stream.types()


def test_error_event_chat(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.error_event(after=2))
    stream = wire.stream("chat", chat_body())
    assert stream.error is None and len(stream.events) == 3
    assert stream.events[-1].json["error"]["type"] == "engine_overloaded_error"
    assert not terminal_seen("chat", stream)


def test_slow_events(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.slow_events(0.01))
    started = time.monotonic()
    stream = wire.stream("chat", chat_body("x"))
    assert time.monotonic() - started >= 0.01 * len(stream.events)
    standin.fault(Fault.slow_events(0.3))
    with (
        pytest.raises(httpx.ReadTimeout),
        wire.client.stream(
            "POST", PATHS["chat"], json=chat_body(stream=True), headers=wire.headers(), timeout=0.1
        ) as response,
    ):
        response.read()


def test_split_tool_name(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(tool_calls=CALLS))
    standin.fault(Fault.split_tool_name())
    stream = wire.stream("chat", chat_body())
    names = [
        piece["function"].get("name")
        for p in stream.payloads()
        for c in p["choices"]
        for piece in c["delta"].get("tool_calls") or []
        if piece.get("function", {}).get("name")
    ]
    assert names == ["get_w", "eather", "get_", "time"]
    calls = chat_stream_calls(stream)
    assert [c["name"] for c in calls.values()] == ["get_weather", "get_time"]


@pytest.mark.parametrize("null", [False, True])
def test_tool_call_delta_without_index(wire: Wire, standin: KimiStandIn, null: bool) -> None:
    standin.queue(Reply(tool_calls=CALLS))
    standin.fault(Fault.tool_call_without_index(null=null))
    stream = wire.stream("chat", chat_body())
    pieces = [
        piece
        for p in stream.payloads()
        for c in p["choices"]
        for piece in c["delta"].get("tool_calls") or []
    ]
    heads = [p for p in pieces if "id" in p]
    rest = [p for p in pieces if "id" not in p]
    assert [h["index"] for h in heads] == [0, 1]
    assert rest and all(("index" in p) == null for p in rest)
    assert all(p.get("index") is None for p in rest)
    calls = chat_stream_calls(stream)
    assert [json.loads(c["arguments"]) for c in calls.values()] == [
        {"city": "Beijing"},
        {"tz": "UTC"},
    ]


def test_usage_on_the_choice(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.usage_on_choice())
    stream = wire.stream("chat", chat_body(stream_options={"include_usage": True}))
    payloads = stream.payloads()
    assert all(p["choices"] for p in payloads)  # no usage chunk with empty choices
    finish = payloads[-1]["choices"][0]
    assert finish["finish_reason"] == "stop"
    assert finish["usage"]["completion_tokens"] > 0
    assert "usage" not in payloads[-1]
    assert stream.events[-1].data == "[DONE]"


def test_unknown_event_messages_and_responses(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.unknown_event())
    messages = wire.stream("messages", messages_body())
    assert messages.types()[:3] == ["message_start", "ping", "message_progress"]
    assert messages.events[2].event == "message_progress"
    # A type the spec does not document (reasoning_summary_part.added is documented now).
    standin.fault(Fault.unknown_event("response.audio.delta"))
    responses = wire.stream("responses", responses_body())
    assert responses.types()[2] == "response.audio.delta"
    assert terminal_seen("messages", messages) and terminal_seen("responses", responses)


def test_unknown_event_chat_is_a_comment_line(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.unknown_event())
    stream = wire.stream("chat", chat_body())
    assert "\n: keep-alive\n\n" in stream.raw
    assert terminal_seen("chat", stream)


def test_unknown_block_messages(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.unknown_block())
    result = wire.ok("messages", messages_body())
    assert [b["type"] for b in result["content"]] == ["thinking", "future_block", "text"]
    standin.fault(Fault.unknown_block("citation_marker"))
    stream = wire.stream("messages", messages_body())
    starts = [
        p["content_block"]["type"] for p in stream.payloads() if p["type"] == "content_block_start"
    ]
    assert starts == ["thinking", "citation_marker", "text"]


def test_unknown_item_responses(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.unknown_block())
    result = wire.ok("responses", responses_body())
    assert [i["type"] for i in result["output"]] == ["reasoning", "future_item", "message"]
    standin.fault(Fault.unknown_block())
    stream = wire.stream("responses", responses_body())
    added = [
        p["item"]["type"] for p in stream.payloads() if p["type"] == "response.output_item.added"
    ]
    assert added == ["reasoning", "future_item", "message"]


def test_several_faults_on_one_request(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(tool_calls=CALLS))
    standin.fault(Fault.split_tool_name(), Fault.tool_call_without_index(), Fault.usage_on_choice())
    stream = wire.stream("chat", chat_body())
    assert [c["name"] for c in chat_stream_calls(stream).values()] == ["get_weather", "get_time"]
    assert "usage" in stream.payloads()[-1]["choices"][0]
