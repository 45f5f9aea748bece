"""Messages streams: blocks, thinking signatures, tool input, unknown blocks, errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

import kimi_ext.errors as E
from kimi_ext import Message
from kimi_ext.messages.stream import AsyncMessageStream
from tests.support.streams import SECRET, bare_response, load, open_sync, run_async, run_sync

TEXT_FINAL = {
    "id": "msg_1f9c4e2a83b75d6e0a7b8c9d",
    "type": "message",
    "role": "assistant",
    "model": "kimi-k3.1-pro",
    "content": [
        {
            "type": "thinking",
            "thinking": "The user asks for OK. Answer exactly that.",
            "signature": "EpYBCkYIBRgCKkDk3v0bq8Kx2Hn7Jc5Tg1Ww==",
        },
        {"type": "text", "text": "OK"},
    ],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    # message_start usage merged with message_delta usage
    "usage": {
        "input_tokens": 12,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 2048,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": 41,
        "output_tokens_details": {"thinking_tokens": 38},
    },
}


def ev(kind: str, **fields: Any) -> bytes:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **fields})}\n\n".encode()


START = ev(
    "message_start",
    message={
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "kimi-k3.1-pro",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 4, "output_tokens": 1},
    },
)
STOP = ev("message_stop")


def test_text_and_thinking_with_signature() -> None:
    events, final = run_sync("messages", [load("messages_text.sse")])
    assert final == TEXT_FINAL
    assert [kind for kind, _, _ in events][:3] == ["message_start", "ping", "content_block_start"]
    assert all(kind == name for kind, _, name in events)  # SSE event names kept too


def test_result_type_usage_and_accessors() -> None:
    stream = open_sync("messages", [load("messages_text.sse")])
    message = stream.get_final_message()
    assert isinstance(message, Message)
    assert message.text == "OK"
    assert message.reasoning == "The user asks for OK. Answer exactly that."
    assert message.stop_reason == "end_turn"
    assert message.usage.total_input == 12 + 2048 and message.usage.output == 41
    assert message.usage.reasoning == 38


def test_text_stream_and_reasoning_stream() -> None:
    stream = open_sync("messages", [load("messages_text.sse")])
    assert list(stream.text_stream) == ["O", "K"]
    stream = open_sync("messages", [load("messages_text.sse")])
    assert list(stream.reasoning_stream) == ["The user asks for OK.", " Answer exactly that."]


def test_tool_use_input_json_decoded_once_at_block_stop() -> None:
    stream = open_sync("messages", [load("messages_tool_use.sse")])
    message = stream.get_final_message()
    assert message.content[2] == {
        "type": "tool_use",
        "id": "functions.get_weather:0",
        "name": "get_weather",
        "input": {"city": "Beijing", "unit": "celsius"},
    }
    assert message.stop_reason == "tool_use"
    assert message.tool_calls[0].input == {"city": "Beijing", "unit": "celsius"}
    # usage: start counts kept, output from message_delta
    assert message.to_dict()["usage"]["cache_creation_input_tokens"] == 1536
    assert message.usage.output == 88 and message.usage.cache_write_5m == 1536


def test_tool_input_snapshot_before_block_stop() -> None:
    stream = open_sync("messages", [load("messages_tool_use.sse")])
    for event in stream:
        if (
            event.type == "content_block_delta"
            and event.data["delta"].get("partial_json") == '{"city": "Bei'
        ):
            block = stream.current.content[2]
            assert block["partial_json"] == '{"city": "Bei'  # not yet valid: kept raw
            assert block["input"] == {}
            break
    stream.close()


def test_server_tool_use_and_web_search_result_blocks() -> None:
    message = open_sync("messages", [load("messages_web_search.sse")]).get_final_message()
    kinds = [b["type"] for b in message.content]
    assert kinds == ["thinking", "server_tool_use", "web_search_tool_result", "text"]
    assert message.content[1]["input"] == {"query": "Kimi official homepage"}
    assert message.content[2] == {
        "type": "web_search_tool_result",
        "tool_use_id": "srvtoolu_01Qm8v2kT9xR",
        "content": [
            {
                "type": "web_search_result",
                "url": "https://www.kimi.com/",
                "title": "Kimi - Moonshot AI",
                "encrypted_content": "Eo8JCioIAhgBIiQ0NzE2",
                "page_age": "1 day ago",
            }
        ],
    }
    assert message.usage.web_search_requests == 1


def test_unknown_blocks_deltas_and_events_are_kept() -> None:
    stream = open_sync("messages", [load("messages_unknown.sse")])
    events = list(stream)
    message = stream.get_final_message()
    assert message.content == [
        # a thinking block without a signature is kept, never dropped
        {"type": "thinking", "thinking": "No signature will follow on this gateway."},
        {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"},  # verbatim
        {
            "type": "text",
            "text": "Done.",
            "citations": [
                {
                    "type": "web_search_result_location",
                    "url": "https://www.kimi.com/",
                    "cited_text": "Kimi",
                }
            ],
        },
    ]
    progress = [e for e in events if e.type == "message_progress"]
    assert len(progress) == 1 and progress[0].parsed == {
        "type": "message_progress",
        "progress": 0.9,
    }
    assert message.stop_reason == "pause_turn"
    assert message.to_dict()["container"] is None  # unknown message_delta fields kept
    assert message.to_dict()["usage"]["service_tier"] == "standard"


def test_invalid_tool_json_is_kept_raw_not_fatal() -> None:
    message = open_sync("messages", [load("messages_invalid_json.sse")]).get_final_message()
    assert message.content == [
        {
            "type": "tool_use",
            "id": "functions.f:0",
            "name": "f",
            "input": {},
            "partial_json": '{"a": tru',
        },
        {"type": "tool_use", "id": "functions.g:1", "name": "g", "input": {}},
    ]


def test_max_tokens_is_not_an_error() -> None:
    message = open_sync("messages", [load("messages_max_tokens.sse")]).get_final_message()
    assert message.stop_reason == "max_tokens" and message.text == "Once upon"
    assert message.usage.total_input == 10 and message.usage.output == 16


def test_ping_is_yielded_but_ignored() -> None:
    body = (
        START
        + ev("ping")
        + ev("content_block_start", index=0, content_block={"type": "text", "text": ""})
    )
    body += ev("ping") + ev(
        "content_block_delta", index=0, delta={"type": "text_delta", "text": "a"}
    )
    body += ev("content_block_stop", index=0) + ev("ping") + STOP
    stream = open_sync("messages", [body])
    assert [e.type for e in stream].count("ping") == 3
    assert stream.get_final_message().content == [{"type": "text", "text": "a"}]


def test_error_event_raises_overloaded_as_internal_server_error() -> None:
    stream = open_sync("messages", [load("messages_error.sse")])
    seen = []
    with pytest.raises(E.InternalServerError) as info:
        for event in stream:
            seen.append(event.type)
    assert seen[-1] == "content_block_delta"
    error = info.value
    assert error.error_type == "overloaded_error" and error.status_code == 529
    assert error.message == "Overloaded"
    assert error.body == {
        "type": "error",
        "error": {"type": "overloaded_error", "message": "Overloaded"},
    }
    assert stream.current.reasoning == "Let me think about the first part of the question"
    assert stream.response.is_closed
    with pytest.raises(E.InternalServerError):
        stream.get_final_message()
    with pytest.raises(E.InternalServerError):
        list(stream.text_stream)
    with pytest.raises(E.InternalServerError):
        iter(stream)


@pytest.mark.parametrize(
    ("error_type", "cls"),
    [
        ("rate_limit_error", E.RateLimitError),
        ("invalid_request_error", E.BadRequestError),
        ("authentication_error", E.AuthenticationError),
        ("api_error", E.InternalServerError),
    ],
)
def test_error_event_types_map_to_classes(error_type: str, cls: type[Exception]) -> None:
    body = START + ev(
        "error", error={"type": error_type, "message": f"bad {SECRET}"}, request_id="r1"
    )
    with pytest.raises(cls) as info:
        open_sync("messages", [body]).get_final_message()
    assert SECRET not in str(info.value)  # the key is redacted from server messages
    assert info.value.request_id == "r1"  # type: ignore[attr-defined]


def test_done_marker_and_empty_data_are_ignored() -> None:
    body = START + b"data: [DONE]\n\n" + b"event: ping\ndata:\n\n" + STOP
    stream = open_sync("messages", [body])
    assert [e.type for e in stream] == ["message_start", "message_stop"]


def test_delta_without_block_start_creates_the_block() -> None:
    body = (
        START + ev("content_block_delta", index=0, delta={"type": "text_delta", "text": "x"}) + STOP
    )
    assert open_sync("messages", [body]).get_final_message().content == [
        {"type": "text", "text": "x"}
    ]


def test_events_after_message_stop_are_not_read_as_events() -> None:
    body = load("messages_text.sse") + ev(
        "content_block_delta", index=1, delta={"type": "text_delta", "text": "!"}
    )
    stream = open_sync("messages", [body])
    assert list(stream)[-1].type == "message_stop"
    assert stream.get_final_message().text == "OK"


def test_parsed_events_are_generated_models() -> None:
    models = pytest.importorskip("kimi_raw.messages.models")
    stream = open_sync("messages", [load("messages_text.sse")])
    names = {e.type: type(e.parsed).__name__ for e in stream}
    assert names["message_start"] == "MessageStartEvent"
    assert names["content_block_delta"] == "ContentBlockDeltaEvent"
    assert names["ping"] == "PingEvent"
    assert names["message_stop"] == "MessageStopEvent" and hasattr(models, "MessageStopEvent")


async def test_async_same_events_and_result() -> None:
    for name in ("messages_text.sse", "messages_tool_use.sse", "messages_unknown.sse"):
        assert await run_async("messages", [load(name)]) == run_sync("messages", [load(name)])


async def test_async_text_stream_and_error() -> None:
    stream = AsyncMessageStream(bare_response([load("messages_web_search.sse")]), secret=SECRET)
    assert [t async for t in stream.text_stream] == [
        "The official homepage is https://www.kimi.com/."
    ]
    assert (await stream.get_final_message()).stop_reason == "end_turn"
    stream = AsyncMessageStream(bare_response([load("messages_error.sse")]), secret=SECRET)
    with pytest.raises(E.InternalServerError):
        async for _ in stream:
            pass
    with pytest.raises(E.InternalServerError):
        await stream.get_final_message()
    assert stream.response.is_closed


def test_type_missing_falls_back_to_the_event_name() -> None:
    body = START + b'event: message_stop\ndata: {"note": "no type"}\n\n'
    stream = open_sync("messages", [body])
    assert [e.type for e in stream] == ["message_start", "message_stop"]
    assert stream.get_final_message().id == "m"


def test_message_start_content_is_kept() -> None:
    body = ev(
        "message_start",
        message={"id": "m", "role": "assistant", "content": [{"type": "text", "text": "Pre"}]},
    )
    body += ev("content_block_start", index=1, content_block={"type": "text", "text": ""})
    body += ev("content_block_delta", index=1, delta={"type": "text_delta", "text": "fix"})
    body += ev("content_block_stop", index=1) + STOP
    assert open_sync("messages", [body]).get_final_message().text == "Prefix"


def test_delta_of_unknown_type_without_block_is_only_an_event() -> None:
    body = START + ev("content_block_delta", index=0, delta={"type": "kimi_delta", "x": 1}) + STOP
    stream = open_sync("messages", [body])
    assert [e.type for e in stream][1] == "content_block_delta"
    assert stream.get_final_message().content == []
