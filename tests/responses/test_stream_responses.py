"""Responses streams: output items, terminal events, unknown events and items, errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

import kimi_ext.errors as E
from kimi_ext import Response
from kimi_ext.responses.stream import AsyncResponseStream
from tests.support.streams import (
    SECRET,
    bare_response,
    data_of,
    load,
    open_sync,
    run_async,
    run_sync,
    sse_blocks,
)


def ev(kind: str, **fields: Any) -> bytes:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **fields})}\n\n".encode()


def completed_response(name: str) -> dict[str, Any]:
    for block in sse_blocks(load(name)):
        data = data_of(block)
        if data and data["type"] in (
            "response.completed",
            "response.incomplete",
            "response.failed",
        ):
            return data["response"]  # type: ignore[no-any-return]
    raise AssertionError(name)


@pytest.mark.parametrize(
    "name",
    [
        "responses_text.sse",
        "responses_function_call.sse",
        "responses_reasoning_summary.sse",
        "responses_apply_patch.sse",
        "responses_web_search.sse",
        "responses_incomplete.sse",
    ],
)
def test_final_is_the_terminal_response(name: str) -> None:
    # Every item of these streams is in the terminal response: the result is exactly it.
    assert run_sync("responses", [load(name)])[1] == completed_response(name)


def test_reasoning_message_and_function_calls() -> None:
    stream = open_sync("responses", [load("responses_function_call.sse")])
    response = stream.get_final_response()
    assert isinstance(response, Response)
    assert response.status == "completed"
    assert [(c.id, c.name, c.arguments) for c in response.tool_calls] == [
        ("functions.get_weather:0", "get_weather", '{"city": "Beijing", "unit": "c"}'),
        ("functions.get_time:1", "get_time", '{"tz": "Asia/Shanghai"}'),
    ]
    assert response.reasoning.startswith("The user wants the weather")
    assert response.usage.total_input == 402 and response.usage.reasoning == 41


def test_text_stream_and_reasoning_stream() -> None:
    name = "responses_text.sse"
    full = completed_response(name)
    stream = open_sync("responses", [load(name)])
    assert "".join(stream.text_stream) == full["output"][1]["content"][0]["text"]
    stream = open_sync("responses", [load(name)])
    assert "".join(stream.reasoning_stream) == full["output"][0]["content"][0]["text"]


def test_reasoning_stream_skips_summary_when_full_reasoning_streams() -> None:
    stream = open_sync("responses", [load("responses_reasoning_summary.sse")])
    reasoning = "".join(stream.reasoning_stream)
    assert reasoning.startswith("The user asks how") and "Explained" not in reasoning


def test_reasoning_stream_uses_summary_when_it_is_all_there_is() -> None:
    body = ev("response.created", response={"id": "r", "status": "in_progress", "output": []})
    body += ev(
        "response.output_item.added",
        output_index=0,
        item={"type": "reasoning", "id": "rs", "summary": []},
    )
    for piece in ("Sum", "mary."):
        body += ev(
            "response.reasoning_summary_text.delta",
            item_id="rs",
            output_index=0,
            summary_index=0,
            delta=piece,
        )
    body += ev("response.completed", response={"id": "r", "status": "completed", "output": []})
    stream = open_sync("responses", [body])
    assert list(stream.reasoning_stream) == ["Sum", "mary."]
    response = stream.get_final_response()
    # the completed response listed no output: the streamed item is kept
    assert response.output == [
        {"type": "reasoning", "id": "rs", "summary": [{"type": "summary_text", "text": "Summary."}]}
    ]


def test_mixed_stream_takes_the_terminal_output_as_it_came() -> None:
    stream = open_sync("responses", [load("responses_mixed.sse")])
    events = list(stream)
    response = stream.get_final_response()
    # response.completed lists two items: they are the output. The reasoning, the unknown
    # item and the orphan text were streamed but not listed: they are not added.
    assert response.output == [
        {
            "type": "message",
            "id": "msg_1",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Calling a tool.", "annotations": []}],
        },
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "functions.f:0",
            "name": "f",
            "arguments": '{"x": 1}',
            "status": "completed",
        },
    ]
    assert response.status == "completed" and response.usage.total_input == 50
    assert response.text == "Calling a tool."
    unknown = [e for e in events if e.type == "response.kimi_trace"]
    assert len(unknown) == 1 and unknown[0].parsed == unknown[0].data
    assert unknown[0].event == "response.kimi_trace"


def test_mixed_stream_cut_before_its_terminal_event_keeps_every_streamed_item() -> None:
    body = load("responses_mixed.sse")
    cut = body[: body.index(b"event: response.completed")]
    stream = open_sync("responses", [cut])
    with pytest.raises(E.IncompleteStreamError) as info:
        stream.get_final_response()
    output = info.value.partial.output
    assert [item.get("id") for item in output] == ["rs_1", "msg_1", "fc_1", "memo_1", "msg_2"]
    assert output[0]["content"] == [{"type": "reasoning_text", "text": "Think twice."}]
    assert output[3] == {"type": "kimi_memo", "id": "memo_1", "note": "final", "extra": [1, 2]}
    assert info.value.partial.text == "Calling a tool.Orphan text."


def test_snapshot_before_the_terminal_event_is_built_from_deltas() -> None:
    stream = open_sync("responses", [load("responses_function_call.sse")])
    for event in stream:
        if (
            event.type == "response.function_call_arguments.delta"
            and event.data["sequence_number"] == 15
        ):
            current = stream.current
            assert current.status == "in_progress"
            assert current.output[1]["arguments"] == '{"city": "Beijin'
            assert current.output[0]["content"][0]["text"].endswith("in parallel.")
            break
    stream.close()


def test_incomplete_status_is_not_an_error() -> None:
    response = open_sync("responses", [load("responses_incomplete.sse")]).get_final_response()
    assert response.status == "incomplete" and response.incomplete_reason == "max_output_tokens"


def test_failed_raises_what_create_raises_with_the_response_received() -> None:
    # The service reports the failure inside the stream: the same error as create()'s
    # (server_error: a 500), not a "failed" result that looks like an empty answer.
    stream = open_sync("responses", [load("responses_failed.sse")])
    seen = []
    with pytest.raises(E.InternalServerError) as info:
        for event in stream:
            seen.append(event.type)
    assert seen == ["response.created", "response.in_progress"]
    error = info.value
    assert (error.status_code, error.code) == (500, "server_error")
    assert error.message == "The model failed to generate a response."
    assert error.partial.status == "failed" and error.partial.to_dict()["error"]["code"] == (
        "server_error"
    )
    with pytest.raises(E.InternalServerError):  # and again, not an empty success
        stream.final()


def test_terminal_event_without_response_object_sets_the_status() -> None:
    body = ev("response.created", response={"id": "r", "status": "in_progress", "output": []})
    body += ev(
        "response.output_text.delta", item_id="m", output_index=0, content_index=0, delta="hi"
    )
    body += ev("response.incomplete")
    response = open_sync("responses", [body]).get_final_response()
    assert response.status == "incomplete" and response.text == "hi"


def test_error_event_raises_and_keeps_the_raw_body() -> None:
    stream = open_sync("responses", [load("responses_error.sse")])
    with pytest.raises(E.InternalServerError) as info:
        stream.get_final_response()
    assert info.value.code == "engine_overloaded"
    assert "overloaded" in info.value.message
    assert info.value.body["type"] == "error" and info.value.body["sequence_number"] == 6
    assert stream.current.reasoning == "The user asks how an idempotency key prevents du"


def test_error_event_with_envelope_maps_rate_limit() -> None:
    body = ev("response.created", response={"id": "r", "status": "in_progress", "output": []})
    body += ev("error", error={"type": "rate_limit_error", "message": "slow down"})
    with pytest.raises(E.RateLimitError):
        open_sync("responses", [body]).get_final_response()


def test_refusal_and_custom_tool_input() -> None:
    body = ev(
        "response.output_item.added",
        output_index=0,
        item={"type": "message", "id": "m", "role": "assistant", "content": []},
    )
    body += ev(
        "response.content_part.added",
        item_id="m",
        output_index=0,
        content_index=0,
        part={"type": "refusal", "refusal": ""},
    )
    body += ev("response.refusal.delta", item_id="m", output_index=0, content_index=0, delta="Can")
    body += ev("response.refusal.delta", item_id="m", output_index=0, content_index=0, delta="not.")
    body += ev(
        "response.custom_tool_call_input.delta", item_id="c", output_index=1, delta="*** Begin"
    )
    body += ev("response.completed", response={"id": "r", "status": "completed", "output": []})
    response = open_sync("responses", [body]).get_final_response()
    assert response.output[0]["content"] == [{"type": "refusal", "refusal": "Cannot."}]
    assert response.output[1] == {"type": "custom_tool_call", "input": "*** Begin", "id": "c"}


def test_parsed_events_are_generated_models() -> None:
    pytest.importorskip("kimi_raw.responses.models")
    stream = open_sync("responses", [load("responses_text.sse")])
    names = {e.type: type(e.parsed).__name__ for e in stream}
    assert names["response.created"] == "ResponseCreatedEvent"
    assert names["response.output_text.delta"] == "ResponseOutputTextDeltaEvent"
    assert names["response.completed"] == "ResponseCompletedEvent"


async def test_async_same_events_and_result() -> None:
    for name in ("responses_text.sse", "responses_mixed.sse"):
        assert await run_async("responses", [load(name)]) == run_sync("responses", [load(name)])


async def test_async_streams_and_error() -> None:
    stream = AsyncResponseStream(bare_response([load("responses_web_search.sse")]), secret=SECRET)
    text = "".join([t async for t in stream.text_stream])
    assert text == "The official Kimi homepage is https://www.kimi.com."
    assert (await stream.get_final_response()).status == "completed"
    stream = AsyncResponseStream(bare_response([load("responses_web_search.sse")]), secret=SECRET)
    reasoning = [t async for t in stream.reasoning_stream]
    assert reasoning[0] == "Search for the official "
    stream = AsyncResponseStream(bare_response([load("responses_error.sse")]), secret=SECRET)
    with pytest.raises(E.InternalServerError):
        await stream.get_final_response()


def test_item_announced_after_its_deltas_and_parts_announced_twice() -> None:
    body = ev(
        "response.reasoning_text.delta", item_id="rs", output_index=0, content_index=0, delta="a"
    )
    body += ev(
        "response.output_item.added",
        output_index=0,
        item={"type": "reasoning", "id": "rs", "content": []},
    )
    body += ev(
        "response.reasoning_text.delta", item_id="rs", output_index=0, content_index=0, delta="b"
    )
    body += ev(
        "response.content_part.added",
        item_id="m",
        output_index=1,
        content_index=0,
        part={"type": "output_text", "text": ""},
    )
    body += ev(
        "response.content_part.added",
        item_id="m",
        output_index=1,
        content_index=0,
        part={"type": "output_text", "text": "", "annotations": []},
    )
    body += ev(
        "response.output_text.delta", item_id="m", output_index=1, content_index=0, delta="hi"
    )
    body += ev("response.completed", response={"id": "r", "status": "completed", "output": []})
    response = open_sync("responses", [body]).get_final_response()
    assert response.output == [
        {"type": "reasoning", "id": "rs", "content": [{"type": "reasoning_text", "text": "ab"}]},
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "hi", "annotations": []}],
            "id": "m",
        },
    ]


def test_event_without_type_uses_the_sse_event_name() -> None:
    body = b'event: response.kimi_note\ndata: {"note": 1}\n\n'
    body += ev("response.completed", response={"id": "r", "status": "completed", "output": []})
    stream = open_sync("responses", [body])
    assert [e.type for e in stream] == ["response.kimi_note", "response.completed"]
