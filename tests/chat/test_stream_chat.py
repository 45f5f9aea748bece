"""Chat Completions streams: accumulation rules, errors, text and reasoning streams."""

from __future__ import annotations

import json
from typing import Any

import pytest

import kimi_ext.errors as E
from kimi_ext import ChatCompletion
from kimi_ext.chat.stream import AsyncChatCompletionStream, ChatCompletionStream
from tests.support.streams import SECRET, bare_response, load, open_sync, run_async, run_sync

TEXT_USAGE = {
    "prompt_tokens": 1874,
    "completion_tokens": 163,
    "total_tokens": 2037,
    "prompt_tokens_details": {"cached_tokens": 1536, "cache_write_tokens": 338},
    "completion_tokens_details": {"reasoning_tokens": 96},
}
TEXT_FINAL = {
    "id": "chatcmpl-2c7e9a1b4d6f4a0e8b3c5d7f",
    "object": "chat.completion",
    "created": 1792915440,
    "model": "kimi-k3.1-pro",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": "The client sends a unique key; the server stores the first outcome "
                "under it and replays it on retries.",
                "reasoning_content": "The user asks how an idempotency key prevents a double "
                "charge. Explain storage of the first result and replay.",
            },
            "finish_reason": "stop",
        }
    ],
    "usage": TEXT_USAGE,
}


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **extra: Any) -> bytes:
    body: dict[str, Any] = {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "kimi-k3.1-pro",
        "choices": [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    body.update(extra)
    return b"data: " + json.dumps(body).encode() + b"\n\n"


DONE = b"data: [DONE]\n\n"


def final_of(*chunks: bytes) -> dict[str, Any]:
    return run_sync("chat", [b"".join(chunks)])[1]


def test_text_stream_final_result_is_the_non_streaming_shape() -> None:
    events, final = run_sync("chat", [load("chat_text.sse")])
    assert final == TEXT_FINAL
    assert len(events) == 13 and all(kind == "chunk" for kind, _, _ in events)
    stream = open_sync("chat", [load("chat_text.sse")])
    result = stream.get_final_completion()
    assert isinstance(result, ChatCompletion)
    assert result.usage.total_input == 1874 and result.usage.cache_read == 1536
    assert result.usage.reasoning == 96
    assert result.http_response is stream.response


def test_text_stream_and_reasoning_stream() -> None:
    stream = open_sync("chat", [load("chat_text.sse")])
    assert "".join(stream.text_stream) == TEXT_FINAL["choices"][0]["message"]["content"]
    stream = open_sync("chat", [load("chat_text.sse")])
    pieces = list(stream.reasoning_stream)
    assert pieces[0] == "The user asks"  # fragment by fragment, empty ones skipped
    assert "".join(pieces) == TEXT_FINAL["choices"][0]["message"]["reasoning_content"]
    assert stream.get_final_completion().to_dict() == TEXT_FINAL


def test_tool_calls_fixture_split_name_and_null_index() -> None:
    final = run_sync("chat", [load("chat_tool_calls.sse")])[1]
    message = final["choices"][0]["message"]
    assert message["content"] is None  # content: null and tool calls
    assert message["reasoning_content"] == "Two cities; call get_weather for each."
    assert message["tool_calls"] == [
        {
            "id": "functions.get_weather:0",
            "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city": "Beijing"}'},
        },
        {
            "id": "functions.get_weather:1",
            "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city": "Shanghai"}'},
        },
    ]
    assert final["choices"][0]["finish_reason"] == "tool_calls"


def test_quirks_missing_and_null_index_ids_and_parallel_calls() -> None:
    stream = open_sync("chat", [load("chat_quirks.sse")])
    result = stream.get_final_completion()
    message = result.message
    assert message["content"] is None
    assert message["reasoning_content"] == "Weather for 北京 and the time. 🌏"
    assert [
        (c["id"], c["function"]["name"], c["function"]["arguments"]) for c in message["tool_calls"]
    ] == [
        ("functions.get_weather:0", "get_weather", '{"city": "北京"}'),
        ("functions.get_time:1", "get_time", '{"tz": "Asia/Shanghai"}'),
        ("functions.get_weather:2", "get_weather", '{"city": "Paris"}'),
        ("functions.get_weather:3", "get_weather", '{"city": "Lima"}'),
    ]
    assert [c.input for c in result.tool_calls] == [
        {"city": "北京"},
        {"tz": "Asia/Shanghai"},
        {"city": "Paris"},
        {"city": "Lima"},
    ]
    # usage arrived inside choices[0]: reported as the top-level usage
    assert result.to_dict()["usage"]["prompt_tokens"] == 90
    assert result.usage.total_input == 90 and result.usage.cache_read == 64
    assert result.finish_reason == "tool_calls"


def test_same_index_with_a_new_id_starts_a_new_call() -> None:
    call = {"type": "function", "function": {"name": "f", "arguments": "{}"}}
    final = final_of(
        chunk({"tool_calls": [{"index": 0, "id": "a", **call}]}),
        chunk({"tool_calls": [{"index": 0, "id": "b", **call}]}),
        chunk({}, "tool_calls"),
        DONE,
    )
    assert [c["id"] for c in final["choices"][0]["message"]["tool_calls"]] == ["a", "b"]


def test_arguments_concatenated_exactly_as_sent() -> None:
    pieces = ['{"q": ', '"a  b', "\\n", '"', "}"]
    chunks = [chunk({"tool_calls": [{"index": 0, "id": "x", "function": {"name": "s"}}]})]
    chunks += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]}) for p in pieces]
    final = final_of(*chunks, chunk({}, "tool_calls"), DONE)
    assert final["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == "".join(
        pieces
    )


def test_usage_from_the_final_usage_chunk() -> None:
    usage = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}
    final = final_of(chunk({"content": "hi"}), chunk({}, "stop"), chunk(None, usage=usage), DONE)
    assert final["usage"] == usage
    assert final["choices"][0]["message"] == {"role": "assistant", "content": "hi"}


def test_usage_on_choice_fixture_keeps_extra_fields() -> None:
    stream = open_sync("chat", [load("chat_usage_on_choice.sse")])
    result = stream.get_final_completion()
    data = result.to_dict()
    assert data["system_fingerprint"] == "fp_k31p_2026_10"
    assert data["x_gateway_trace"] == "tr-01"
    assert data["usage"]["completion_tokens"] == 9
    assert result.usage.output == 9 and result.usage.reasoning == 7
    assert result.finish_reason == "model_context_window_exceeded"
    assert result.text == "OK" and result.reasoning == "Short answer."


def test_empty_reasoning_content_is_kept_when_sent() -> None:
    final = final_of(chunk({"role": "assistant", "reasoning_content": ""}), chunk({}, "stop"), DONE)
    assert final["choices"][0]["message"] == {
        "role": "assistant",
        "content": "",
        "reasoning_content": "",
    }
    final = final_of(chunk({"content": "x"}), chunk({}, "stop"), DONE)
    assert "reasoning_content" not in final["choices"][0]["message"]


def test_content_is_kept_with_tool_calls_when_text_arrived() -> None:
    final = final_of(
        chunk({"content": "Let me check."}),
        chunk(
            {"tool_calls": [{"index": 0, "id": "a", "function": {"name": "f", "arguments": ""}}]}
        ),
        chunk({}, "tool_calls"),
        DONE,
    )
    assert final["choices"][0]["message"]["content"] == "Let me check."
    assert final["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == ""


def test_finish_reason_then_end_of_body_is_complete() -> None:
    final = final_of(chunk({"content": "a"}), chunk({}, "length"))  # no usage, no [DONE]
    assert final["choices"][0]["finish_reason"] == "length"  # running out is not an error
    assert final["usage"] is None


def test_no_finish_reason_and_no_done_is_incomplete() -> None:
    stream = open_sync("chat", [chunk({"content": "par"}), chunk({"content": "tial"})])
    with pytest.raises(E.IncompleteStreamError) as info:
        stream.get_final_completion()
    assert isinstance(info.value.partial, ChatCompletion)
    assert info.value.partial.text == "partial"
    assert "[DONE]" in str(info.value)


def test_done_ends_the_stream_even_if_more_follows() -> None:
    stream = open_sync(
        "chat", [chunk({"content": "a"}), chunk({}, "stop"), DONE, chunk({"content": "zzz"})]
    )
    events = list(stream)
    assert len(events) == 2
    assert stream.get_final_completion().text == "a"
    assert stream.response.is_closed


def test_error_chunk_raises_the_matching_status_error() -> None:
    error = {"error": {"message": "Rate limit reached", "type": "rate_limit_error", "code": "rl"}}
    stream = open_sync(
        "chat", [chunk({"content": "a"}), b"data: " + json.dumps(error).encode() + b"\n\n"]
    )
    seen = []
    with pytest.raises(E.RateLimitError) as info:
        for event in stream:
            seen.append(event)
    assert len(seen) == 1  # the chunk before the error was delivered first
    assert info.value.status_code == 429 and info.value.error_type == "rate_limit_error"
    assert info.value.body == error
    assert stream.current.text == "a"  # what arrived is still there
    with pytest.raises(E.RateLimitError):
        stream.get_final_completion()


def test_quota_error_event_is_quota_exceeded() -> None:
    error = {
        "error": {
            "message": "You exceeded your current quota",
            "type": "exceeded_current_quota_error",
        }
    }
    stream = open_sync("chat", [b"event: error\ndata: " + json.dumps(error).encode() + b"\n\n"])
    with pytest.raises(E.QuotaExceededError):
        stream.get_final_completion()


def test_malformed_data_is_yielded_raw_and_the_stream_goes_on() -> None:
    stream = open_sync(
        "chat",
        [chunk({"content": "a"}), b"data: {not json\n\n", b"data: 42\n\n", chunk({}, "stop"), DONE],
    )
    events = list(stream)
    assert [e.type for e in events] == ["chunk", "malformed", "malformed", "chunk"]
    assert events[1].data == "{not json" and events[1].parsed == "{not json"
    assert events[2].data == "42"
    assert stream.get_final_completion().text == "a"


def test_unknown_fields_in_deltas_and_choices_are_kept() -> None:
    final = final_of(
        chunk({"content": "a", "refusal": "No"}),
        chunk({"refusal": "pe", "audio": {"id": "x"}}),
        chunk({}, "stop"),
        DONE,
    )
    message = final["choices"][0]["message"]
    assert message["refusal"] == "Nope" and message["audio"] == {"id": "x"}


def test_logprobs_are_accumulated() -> None:
    def lp(token: str) -> bytes:
        return (
            b"data: "
            + json.dumps(
                {
                    "id": "c",
                    "choices": [
                        {
                            "index": 0,
                            "delta": {"content": token},
                            "logprobs": {"content": [{"token": token, "logprob": -0.1}]},
                            "finish_reason": None,
                        }
                    ],
                }
            ).encode()
            + b"\n\n"
        )

    final = final_of(lp("a"), lp("b"), chunk({}, "stop"), DONE)
    assert [t["token"] for t in final["choices"][0]["logprobs"]["content"]] == ["a", "b"]


def test_current_is_a_snapshot_while_iterating() -> None:
    stream = open_sync("chat", [load("chat_text.sse")])
    texts = []
    for event in stream:
        texts.append(stream.current.text)
        assert event.type == "chunk"
    assert texts[-1] == TEXT_FINAL["choices"][0]["message"]["content"]
    assert texts[6] == "The client sends"


def test_parsed_event_is_the_generated_chunk_model() -> None:
    pytest.importorskip("kimi_raw.chat.models")
    stream = open_sync("chat", [load("chat_text.sse")])
    event = next(iter(stream))
    parsed = event.parsed
    assert type(parsed).__name__ == "ChatCompletionChunk"
    assert event.parsed is parsed  # built once
    stream.close()


async def test_async_stream_same_result_and_text() -> None:
    events, final = await run_async("chat", [load("chat_text.sse")])
    assert final == TEXT_FINAL
    assert (events, final) == run_sync("chat", [load("chat_text.sse")])
    stream = AsyncChatCompletionStream(bare_response([load("chat_tool_calls.sse")]), secret=SECRET)
    reasoning = [t async for t in stream.reasoning_stream]
    assert "".join(reasoning) == "Two cities; call get_weather for each."
    result = await stream.get_final_completion()
    assert len(result.tool_calls) == 2


async def test_async_text_stream_and_error() -> None:
    stream = AsyncChatCompletionStream(bare_response([load("chat_text.sse")]), secret=SECRET)
    assert (
        "".join([t async for t in stream.text_stream])
        == TEXT_FINAL["choices"][0]["message"]["content"]
    )
    error = {"error": {"message": "boom", "type": "server_error"}}
    stream = AsyncChatCompletionStream(
        bare_response([chunk({"content": "a"}), b"data: " + json.dumps(error).encode() + b"\n\n"]),
        secret=SECRET,
    )
    with pytest.raises(E.InternalServerError):
        await stream.get_final_completion()


def test_sync_class_is_iterable_without_with() -> None:
    stream = ChatCompletionStream(bare_response([load("chat_text.sse")]), secret=SECRET)
    assert sum(1 for _ in stream) == 13
    assert stream.response.is_closed


def test_several_choices_and_unknown_choice_and_call_fields() -> None:
    def raw(choices: list[dict[str, Any]]) -> bytes:
        return b"data: " + json.dumps({"id": "c", "choices": choices}).encode() + b"\n\n"

    final = final_of(
        raw([{"delta": {"content": "zero"}}]),  # no index: choice 0
        raw([{"index": 1, "delta": {"content": "one"}, "finish_reason": None}]),
        raw(
            [
                {
                    "index": 1,
                    "delta": {
                        "tool_calls": [
                            {"index": 0, "id": "t", "function": {"name": "f"}, "x_trace": "tr"}
                        ]
                    },
                }
            ]
        ),
        raw([{"index": 0, "delta": {}, "finish_reason": "stop", "matched_stop": "END"}]),
        raw([{"index": 1, "delta": {}, "finish_reason": "tool_calls"}]),
        DONE,
    )
    zero, one = final["choices"]
    assert zero["message"]["content"] == "zero" and zero["matched_stop"] == "END"
    assert one["index"] == 1 and one["message"]["content"] == "one"
    assert one["message"]["tool_calls"] == [
        {"id": "t", "type": "function", "function": {"name": "f", "arguments": ""}, "x_trace": "tr"}
    ]
    stream = open_sync("chat", [raw([{"index": 1, "delta": {"content": "one"}}]), DONE])
    assert list(stream.text_stream) == []  # text_stream follows the first choice only


def test_empty_finish_reason_is_not_a_finish() -> None:
    stream = open_sync("chat", [chunk({"content": "a"}, "")])
    with pytest.raises(E.IncompleteStreamError):
        stream.get_final_completion()


def test_null_error_field_is_not_an_error() -> None:
    usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    final = final_of(chunk({"content": "a"}, "stop"), chunk(None, usage=usage, error=None), DONE)
    assert final["usage"] == usage and final["error"] is None
