"""Error paths and edges the rest of the suite left unexercised: sending and retry hints,
error envelopes, result accessors on odd JSON, usage, schemas, every validation rule, and
long streams read through text_stream / reasoning_stream / fragments."""

from __future__ import annotations

import dataclasses
import enum
import json
from typing import Any

import httpx
import pytest

import kimi_ext
from kimi_ext import ChatCompletion, Message, Response, Usage, usage_of
from kimi_ext._core.call.building import prepare
from kimi_ext._core.streaming.sse import SSEDecoder
from kimi_ext._core.streaming.stream import StreamEvent
from kimi_ext._core.transport.retries import RetryPolicy, retry_after_seconds
from kimi_ext._core.transport.sending import check_base_url
from kimi_ext._core.transport.wire_errors import (
    parse_error_body,
    status_error_from_event,
    status_error_from_response,
)
from kimi_ext._type_schema import build_value, schema_from_type
from kimi_ext.chat.stream import ChatAccumulator
from kimi_ext.errors import RequestValidationError
from kimi_ext.formats import CHAT, MESSAGES, RESPONSES
from kimi_ext.responses.stream import ResponseAccumulator
from tests.support.robustness import ASYNC_STREAM, FINAL, SYNC_STREAM, encode_event, stream_response

# ------------------------------------------------------------------ sending and retries


def test_base_url_scheme_must_be_http_or_https() -> None:
    with pytest.raises(kimi_ext.ClientConfigError, match="scheme"):
        check_base_url("ftp://api.example.com", allow_insecure_http=False)
    with pytest.raises(kimi_ext.ClientConfigError):
        kimi_ext.Kimi(api_key="k", base_url="ws://127.0.0.1:1")


def status_error(status: int, headers: dict[str, str] | None = None, body: bytes = b"") -> Any:
    request = httpx.Request("POST", "https://api.test/v1/x")
    return status_error_from_response(
        httpx.Response(status, headers=headers, content=body, request=request)
    )


def test_the_server_can_ask_for_a_retry_the_policy_would_not_make() -> None:
    policy = RetryPolicy()
    assert not policy.should_retry(status_error(400))
    assert policy.should_retry(status_error(400, {"x-should-retry": "true"}))
    assert not policy.should_retry(status_error(503, {"x-should-retry": "false"}))
    # Quota is never retried, whatever the server says.
    quota = status_error(429, {"x-should-retry": "true"}, b'{"error":{"type":"insufficient_quota","message":"x"}}')  # fmt: skip
    assert isinstance(quota, kimi_ext.QuotaExceededError) and not policy.should_retry(quota)
    assert not policy.should_retry(ValueError("not ours"))


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"retry-after-ms": "soon", "retry-after": "2"}, 2.0),  # unreadable ms: use the other
        ({"retry-after-ms": "soon"}, None),
        ({"retry-after": "tomorrow-ish"}, None),  # neither seconds nor an HTTP date
        ({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0.0),  # a date in the past
        ({}, None),
    ],
)
def test_unreadable_retry_hints(headers: dict[str, str], seconds: float | None) -> None:
    assert retry_after_seconds(httpx.Headers(headers)) == seconds


def test_unreadable_hint_falls_back_to_backoff() -> None:
    delay = RetryPolicy().delay(1, httpx.Headers({"retry-after": "later"}))
    assert 0.75 <= delay <= 1.0


# ------------------------------------------------------------------ error envelopes


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"error": "plain text error"}, "plain text error"),
        ({"message": "top-level message", "request_id": "r-9"}, "top-level message"),
        ({"message": 5}, None),
        (["not", "an", "object"], None),
    ],
)
def test_error_envelopes_of_every_shape(body: Any, message: str | None) -> None:
    assert parse_error_body(body)[0] == message


def test_errors_from_a_response_that_has_no_request() -> None:
    error = status_error_from_event({"error": "boom"}, response=httpx.Response(200))
    assert isinstance(error, kimi_ext.InternalServerError)
    assert error.request is None and error.message == "boom"


# ------------------------------------------------------------------ results and usage

ODD_RESULTS: list[tuple[type[Any], dict[str, Any]]] = [
    (ChatCompletion, {"choices": [{"message": {"content": 5, "tool_calls": [None, "x", {"function": "f"}, {"id": 1, "function": {"name": "n", "arguments": "{}"}}]}}]}),
    (ChatCompletion, {"choices": ["x"]}),
    (ChatCompletion, {"choices": []}),
    (Message, {"content": [None, "x", {"type": "text", "text": None}, {"type": "text", "text": "ok"}, {"type": "thinking", "thinking": 3}, {"type": "tool_use", "input": [1]}]}),
    (Message, {"content": "not blocks", "stop_sequence": 7}),
    (Response, {"output": [None, 5, {"type": "message", "content": 7}, {"type": "message", "content": [None, {"type": "output_text", "text": 1}, {"type": "output_text", "text": "ok"}]}]}),
    (Response, {"output": [{"type": "reasoning", "content": 4, "summary": [{"text": "s"}, {"text": None}]}, {"type": "function_call", "name": 3}]}),
    (Response, {"output": {"not": "a list"}, "incomplete_details": "x"}),
]  # fmt: skip


@pytest.mark.parametrize(("cls", "data"), ODD_RESULTS)
def test_result_accessors_never_fail_on_odd_json(cls: type[Any], data: dict[str, Any]) -> None:
    result = cls(data)
    assert isinstance(result.text, str) and isinstance(result.reasoning, str)
    for call in result.tool_calls:
        assert isinstance(call.name, str) and isinstance(call.arguments, str)
    assert isinstance(result.usage, Usage)
    repr(result)
    assert result.to_dict() is data


def test_odd_results_say_what_they_can() -> None:
    chat = ChatCompletion(ODD_RESULTS[0][1])
    assert chat.text == "" and [c.name for c in chat.tool_calls] == ["", "n"]
    assert ChatCompletion({"choices": []}).finish_reason is None
    message = Message(ODD_RESULTS[3][1])
    assert (message.text, message.reasoning, len(message.tool_calls)) == ("ok", "", 1)
    assert Message({"stop_sequence": "END"}).stop_sequence == "END"
    assert Message(ODD_RESULTS[4][1]).stop_sequence is None
    response = Response(ODD_RESULTS[5][1])
    assert response.text == "ok" and response.output_text == "ok"
    assert Response(ODD_RESULTS[6][1]).reasoning == "s"


def test_result_identity_request_id_and_parsed_errors() -> None:
    data = {"id": "msg_1", "request_id": "req-body"}
    assert Message(data).request_id == "req-body"
    assert Message(data) == Message(dict(data)) and Message(data) != Response(data)
    assert Message(data) != object()
    with pytest.raises(
        kimi_ext.KimiError, match="does not match the MessageResponse schema"
    ) as info:
        Message({"content": "x"}).parsed  # noqa: B018
    assert isinstance(info.value.__cause__, KeyError)


def test_usage_of_anything() -> None:
    assert usage_of(None) == Usage() and usage_of([1]) == Usage()
    assert usage_of({"usage": {"prompt_tokens": 3, "completion_tokens": 2}}).total == 5
    messages = usage_of({"usage": {"input_tokens": 1, "cache_creation_input_tokens": 4}})
    assert (messages.total_input, messages.cache_write) == (5, 4)
    responses = usage_of({"usage": {"input_tokens": 1, "output_tokens": 2}})
    assert (responses.total_input, responses.output) == (1, 2)
    assert usage_of({"choices": [{"usage": {"prompt_tokens": 9}}]}).total_input == 9


# ------------------------------------------------------------------ schemas


class Color(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Point:
    x: int
    color: Color = Color.RED


def test_schema_of_tuples_and_dicts() -> None:
    assert schema_from_type(tuple[int, str]) == {
        "type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "string"}],
        "items": False,
    }
    assert schema_from_type(tuple[int, ...]) == {"type": "array", "items": {"type": "integer"}}
    assert schema_from_type(dict) == {"type": "object"}
    assert schema_from_type(dict[str, float]) == {
        "type": "object",
        "additionalProperties": {"type": "number"},
    }
    with pytest.raises(TypeError, match="JSON Schema"):
        schema_from_type(complex)


def test_build_value_of_lists_of_dataclasses() -> None:
    points = build_value(list[Point], [{"x": 1}, {"x": 2, "color": "red"}])
    assert points == [Point(1), Point(2, Color.RED)]
    assert build_value(Color, "red") is Color.RED
    assert build_value(list[int], "not a list") == "not a list"


# ------------------------------------------------------------------ validation rules


def base(fmt: str, **extra: Any) -> dict[str, Any]:
    params: dict[str, Any] = {"model": "kimi-k3.1-pro"}
    if fmt == "responses":
        params["input"] = "Hi"
    else:
        params["messages"] = [{"role": "user", "content": "Hi"}]
    if fmt == "messages":
        params["max_tokens"] = 64
    params.update(extra)
    return params


ENDPOINTS = {"chat": CHAT, "messages": MESSAGES, "responses": RESPONSES}
RULES: list[tuple[str, dict[str, Any], str]] = [
    ("chat", {"stop": ["ok", ""]}, "stop[1]"),
    ("chat", {"prompt_cache_options": "5m"}, "prompt_cache_options"),
    ("chat", {"prompt_cache_key": 5}, "prompt_cache_key"),
    ("chat", {"safety_identifier": ["x"]}, "safety_identifier"),
    ("chat", {"response_format": {"type": "json_schema", "json_schema": {"schema": {}}}}, "response_format.json_schema.name"),
    ("chat", {"prediction": {"type": "text"}}, "prediction.type"),
    ("chat", {"tools": [{"type": "function", "function": {"name": f"f{i}"}} for i in range(129)]}, "tools"),
    ("chat", {"model": ["kimi-k3"], "reasoning_effort": "low"}, "model"),
    ("messages", {"messages": [{"role": "user", "content": 5}]}, "messages[0].content"),
    ("messages", {"tools": [{"type": "web_search_20250305", "name": "search"}]}, "tools[0].name"),
    ("messages", {"model": {"m": 1}, "effort": "low"}, "model"),
    ("responses", {"input": 5}, "input"),
    ("responses", {"tools": [{"type": "namespace", "name": "crm", "tools": [3]}]}, "tools[0].tools[0]"),
    ("responses", {"tools": [{"type": "namespace", "name": "crm", "tools": [{"type": "function", "name": "1bad"}]}]}, "tools[0].tools[0].name"),
    ("responses", {"tools": [{"type": "custom", "name": ["apply_patch"]}]}, "tools[0].name"),
    ("responses", {"tools": [{"type": "custom", "name": "a b"}]}, "tools[0].name"),
    ("responses", {"timeout": -1}, "timeout"),
    ("responses", {"timeout": float("inf")}, "timeout"),
    ("responses", {"timeout": "30"}, "timeout"),
    ("responses", {"max_retries": -1}, "max_retries"),
    ("responses", {"max_retries": True}, "max_retries"),
    ("chat", {"stream": "yes"}, "stream"),
    ("chat", {"logprobs": 1}, "logprobs"),
    ("messages", {"tools": {"name": "t"}}, "tools"),
    ("messages", {"system": 5}, "system"),
    ("messages", {"cache_control": {"type": "persistent"}}, "cache_control.type"),
    ("messages", {"output_config": {"format": {"type": "json_object"}}}, "output_config.format.type"),
    ("messages", {"output_config": "max"}, "output_config"),
    ("responses", {"reasoning": ["low"]}, "reasoning"),
    ("chat", {"extra_body": [["x", 1]]}, "extra_body"),
    ("chat", {"extra_headers": "X-A: 1"}, "extra_headers"),
    ("chat", {"extra_headers": {"X-A": 1}}, "extra_headers['X-A']"),
]  # fmt: skip


@pytest.mark.parametrize(("fmt", "extra", "field"), RULES, ids=[r[2] for r in RULES])
def test_each_rule_names_its_field(fmt: str, extra: dict[str, Any], field: str) -> None:
    with pytest.raises(RequestValidationError) as info:
        prepare(ENDPOINTS[fmt], base(fmt, **extra))
    assert info.value.field == field


def test_client_options_that_are_fine() -> None:
    prepared = prepare(CHAT, base("chat", timeout=httpx.Timeout(3.0), max_retries=0, extra_headers={"X-A": "1"}))  # fmt: skip
    assert prepared.timeout == httpx.Timeout(3.0) and prepared.max_retries == 0
    assert prepare(CHAT, base("chat", timeout=None)).timeout is None
    assert prepare(CHAT, base("chat", timeout=0)).timeout == 0


# ------------------------------------------------------------------ long streams

N = 300  # fragments of each kind: far more than any batch or log-trimming threshold


def long_body(fmt: str) -> tuple[bytes, list[str], list[str]]:
    reasoning = [f"r{i} " for i in range(N)]
    text = [f"t{i} " for i in range(N)]
    events: list[tuple[str | None, Any]] = []
    if fmt == "chat":
        events += [(None, {"choices": [{"index": 0, "delta": {"reasoning_content": r}}]}) for r in reasoning]  # fmt: skip
        events += [(None, {"choices": [{"index": 0, "delta": {"content": t}}]}) for t in text]
        events.append((None, {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}))
        body = b"".join(encode_event(d, n) for n, d in events) + b"data: [DONE]\n\n"
        return body, text, reasoning
    if fmt == "messages":
        events.append(("message_start", {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "content": []}}))  # fmt: skip
        for index, (kind, pieces) in enumerate((("thinking", reasoning), ("text", text))):
            events.append((None, {"type": "content_block_start", "index": index, "content_block": {"type": kind, kind: ""}}))  # fmt: skip
            events += [(None, {"type": "content_block_delta", "index": index, "delta": {"type": f"{kind}_delta", kind: p}}) for p in pieces]  # fmt: skip
            events.append((None, {"type": "content_block_stop", "index": index}))
        events.append((None, {"type": "message_stop"}))
    else:
        events.append((None, {"type": "response.created", "response": {"id": "r", "object": "response", "status": "in_progress", "output": []}}))  # fmt: skip
        events += [(None, {"type": "response.reasoning_text.delta", "output_index": 0, "content_index": 0, "delta": r}) for r in reasoning]  # fmt: skip
        events += [(None, {"type": "response.output_text.delta", "output_index": 1, "content_index": 0, "delta": t}) for t in text]  # fmt: skip
        events.append((None, {"type": "response.completed", "response": {"id": "r", "object": "response", "status": "completed", "output": []}}))  # fmt: skip
    return b"".join(encode_event(d, n) for n, d in events), text, reasoning


def chunked(body: bytes, size: int = 1000) -> list[bytes]:
    return [body[i : i + size] for i in range(0, len(body), size)]


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_long_streams_through_every_reader(fmt: str) -> None:
    body, text, reasoning = long_body(fmt)
    stream = SYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    assert list(stream.text_stream) == text
    final = getattr(stream, FINAL[fmt])()
    assert (final.text, final.reasoning) == ("".join(text), "".join(reasoning))
    stream = SYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    assert list(stream.reasoning_stream) == reasoning
    stream = SYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    pairs = list(stream.fragments)
    assert pairs == [("reasoning", r) for r in reasoning] + [("text", t) for t in text]
    # A reader started mid-stream reads what arrives after it started.
    stream = SYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    for _ in range(N // 2):
        next(stream)
    assert "".join(stream.text_stream) == "".join(text)
    assert getattr(stream, FINAL[fmt])().text == "".join(text)


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
async def test_async_long_streams_through_every_reader(fmt: str) -> None:
    body, text, reasoning = long_body(fmt)
    stream = ASYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    assert [t async for t in stream.text_stream] == text
    assert (await getattr(stream, FINAL[fmt])()).reasoning == "".join(reasoning)
    stream = ASYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    assert [r async for r in stream.reasoning_stream] == reasoning
    stream = ASYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    pairs = [p async for p in stream.fragments]
    assert pairs == [("reasoning", r) for r in reasoning] + [("text", t) for t in text]


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
async def test_fragments_of_a_broken_stream_raise_with_the_partial(fmt: str) -> None:
    body, _, _ = long_body(fmt)
    cut = body[: len(body) * 3 // 4]
    stream = SYNC_STREAM[fmt](stream_response([cut], httpx.ReadError("reset")), secret="s")
    seen: list[tuple[str, str]] = []
    with pytest.raises(kimi_ext.IncompleteStreamError) as info:
        for pair in stream.fragments:
            seen.append(pair)
    assert "".join(t for kind, t in seen if kind == "text") == info.value.partial.text
    with pytest.raises(kimi_ext.IncompleteStreamError):
        next(stream)  # a failed stream fails again
    astream = ASYNC_STREAM[fmt](stream_response([cut]), secret="s")
    with pytest.raises(kimi_ext.IncompleteStreamError) as ainfo:
        async for _ in astream.fragments:
            pass
    assert ainfo.value.partial.text == info.value.partial.text
    assert ainfo.value.request is not None


async def test_async_drain_after_the_terminal_event_is_bounded() -> None:
    body = b'data: {"type":"message_stop"}\n\n' + b": padding\n" * 20000
    stream = ASYNC_STREAM["messages"](stream_response(chunked(body, 4096)), secret="s")
    await stream.get_final_message()
    assert stream.response.is_closed


def test_a_response_without_request_still_reports_incomplete() -> None:
    response = httpx.Response(200, content=b'data: {"type":"ping"}\n\n')
    stream = SYNC_STREAM["messages"](response, secret="s")
    with pytest.raises(kimi_ext.IncompleteStreamError) as info:
        stream.get_final_message()
    assert info.value.request is None


def test_stream_events_compare_only_with_stream_events() -> None:
    event = StreamEvent("chunk", {"a": 1})
    assert event == StreamEvent("chunk", {"a": 1}) and event != {"a": 1}
    assert json.loads(json.dumps(event.data)) == {"a": 1}


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_two_readers_at_once_each_get_everything_after_their_start(fmt: str) -> None:
    """reasoning_stream and text_stream both started before the text arrives: the text
    the reasoning reader pulled in is still delivered by the text reader."""
    body, text, reasoning = long_body(fmt)
    stream = SYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    thinking, answer = stream.reasoning_stream, stream.text_stream
    got_reasoning, got_text = [next(thinking)], [next(answer)]
    got_reasoning += list(thinking)  # reads the stream to its end
    got_text += list(answer)  # nothing left to read: only what the other reader brought in
    assert (got_reasoning, got_text) == (reasoning, text)
    stream = SYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    pairs, answer = stream.fragments, stream.text_stream
    got_pairs, got_text = [next(pairs)], [next(answer)]
    got_text += list(answer)
    got_pairs += list(pairs)
    assert got_text == text
    assert got_pairs == [("reasoning", r) for r in reasoning] + [("text", t) for t in text]
    with pytest.raises(StopIteration):
        next(stream.fragments)  # a reader started after the end reads nothing


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
async def test_async_two_readers_at_once_each_get_everything_after_their_start(fmt: str) -> None:
    body, text, reasoning = long_body(fmt)
    stream = ASYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    thinking, answer = stream.reasoning_stream, stream.text_stream
    got_reasoning, got_text = [await anext(thinking)], [await anext(answer)]
    got_reasoning += [r async for r in thinking]
    got_text += [t async for t in answer]
    assert (got_reasoning, got_text) == (reasoning, text)
    stream = ASYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    pairs, answer = stream.fragments, stream.text_stream
    got_pairs, got_text = [await anext(pairs)], [await anext(answer)]
    got_text += [t async for t in answer]
    got_pairs += [p async for p in pairs]
    assert got_text == text
    assert got_pairs == [("reasoning", r) for r in reasoning] + [("text", t) for t in text]


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
async def test_every_reader_of_a_failed_stream_fails_the_same_way(fmt: str) -> None:
    body, _, _ = long_body(fmt)
    cut = body[: len(body) // 3]
    stream = SYNC_STREAM[fmt](stream_response([cut]), secret="s")
    with pytest.raises(kimi_ext.IncompleteStreamError) as first:
        list(stream.text_stream)
    for reader in (lambda: list(stream.fragments), lambda: list(stream.reasoning_stream)):
        with pytest.raises(kimi_ext.IncompleteStreamError) as again:
            reader()
        assert again.value is first.value
    astream = ASYNC_STREAM[fmt](stream_response([cut]), secret="s")
    with pytest.raises(kimi_ext.IncompleteStreamError) as afirst:
        await getattr(astream, FINAL[fmt])()
    with pytest.raises(kimi_ext.IncompleteStreamError) as aagain:
        [p async for p in astream.fragments]
    assert aagain.value is afirst.value


# ------------------------------------------------------------------ accumulator corners


def test_chat_logprobs_merge_lists_and_keep_scalars() -> None:
    acc = ChatAccumulator()
    for logprobs in (
        {"content": [{"token": "a"}], "refusal": None},
        {"content": [{"token": "b"}], "refusal": [{"token": "no"}], "note": "x"},
        {"content": None, "note": None},
    ):
        acc.feed(None, {"choices": [{"index": 0, "delta": {"content": "."}, "logprobs": logprobs}]})
    merged = acc.snapshot()["choices"][0]["logprobs"]
    assert merged == {
        "content": [{"token": "a"}, {"token": "b"}],
        "refusal": [{"token": "no"}],
        "note": "x",
    }


def test_responses_refusal_and_summary_parts_announced_twice() -> None:
    acc = ResponseAccumulator()
    events = [
        {"type": "response.refusal.delta", "output_index": 0, "content_index": 0, "delta": "I can"},
        {"type": "response.refusal.done", "output_index": 0, "content_index": 0, "refusal": "I cannot."},
        {"type": "response.reasoning_summary_part.added", "output_index": 1, "summary_index": 0, "part": {"type": "summary_text", "text": ""}},
        {"type": "response.reasoning_summary_part.added", "output_index": 1, "summary_index": 0, "part": {"type": "summary_text", "text": "", "v": 2}},
        {"type": "response.reasoning_summary_text.delta", "output_index": 1, "summary_index": 0, "delta": "Short."},
    ]  # fmt: skip
    for event in events:
        acc.feed(None, event)
    output = acc.snapshot()["output"]
    assert output[0]["content"] == [{"type": "refusal", "refusal": "I cannot."}]
    assert output[1]["summary"] == [{"type": "summary_text", "text": "Short.", "v": 2}]
    assert acc.result(None).reasoning == "Short."


def test_sse_flush_of_a_first_line_with_a_byte_order_mark() -> None:
    decoder = SSEDecoder()
    assert decoder.feed("\ufeffdata: only".encode()) == []
    assert [e.data for e in decoder.flush()] == ["only"]


@pytest.mark.parametrize(
    "choice",
    [
        {"index": 0, "delta": {"content": "a"}, "logprobs": {"content": [{"token": "a"}]}},
        {"delta": {"content": "a"}, "logprobs": {"content": [{"token": "a"}]}},
        {"delta": {"content": "a"}, "usage": {"prompt_tokens": 3}, "finish_reason": None},
        {"index": 0, "delta": {"content": "a"}, "usage": {"prompt_tokens": 3}},
    ],
)
def test_chat_choice_fields_are_kept_whichever_keys_the_gateway_leaves_out(
    choice: dict[str, Any],
) -> None:
    """Some gateways leave ``finish_reason`` (or ``index``) out of a chunk's choice; its
    logprobs and usage must not be dropped for it."""
    acc = ChatAccumulator()
    acc.feed(None, {"choices": [choice]})
    result = acc.snapshot()
    if "logprobs" in choice:
        assert result["choices"][0]["logprobs"] == choice["logprobs"]
    if "usage" in choice:
        assert result["usage"] == choice["usage"]


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
async def test_a_reader_that_stops_early_does_not_disturb_another(fmt: str) -> None:
    body, text, _ = long_body(fmt)
    stream = SYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    answer = stream.text_stream
    got = [next(answer)]  # reads through the reasoning to the first text fragment
    pairs = stream.fragments
    for _ in range(N // 2):
        next(pairs)
    pairs.close()  # this reader quits; the other goes on alone
    got += list(answer)
    assert got == text
    astream = ASYNC_STREAM[fmt](stream_response(chunked(body)), secret="s")
    aanswer = astream.text_stream
    agot = [await anext(aanswer)]
    apairs = astream.fragments
    for _ in range(N // 2):
        await anext(apairs)
    await apairs.aclose()
    agot += [t async for t in aanswer]
    assert agot == text


def test_chat_deltas_with_several_fields_still_reach_the_readers() -> None:
    chunks = [
        {"choices": [{"index": 0, "delta": {"role": "assistant", "reasoning_content": "think "}}]},
        {"choices": [{"index": 0, "delta": {"reasoning_content": "more", "refusal": None}}]},
        {"choices": [{"index": 0, "delta": {"content": "Hello", "role": "assistant"}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    body = b"".join(encode_event(c) for c in chunks) + b"data: [DONE]\n\n"
    stream = SYNC_STREAM["chat"](stream_response([body]), secret="s")
    assert list(stream.fragments) == [
        ("reasoning", "think "),
        ("reasoning", "more"),
        ("text", "Hello"),
    ]


def test_chat_tool_arguments_in_many_fragments_are_joined_exactly() -> None:
    arguments = json.dumps({"text": "".join(f"w{i} " for i in range(700))})
    pieces = [arguments[i : i + 3] for i in range(0, len(arguments), 3)]
    head = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "echo", "arguments": ""}}  # fmt: skip
    chunks = [{"choices": [{"index": 0, "delta": {"tool_calls": [head]}}]}]
    for piece in pieces:
        call = {"index": 0, "function": {"arguments": piece}}
        chunks.append({"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]})
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    body = b"".join(encode_event(c) for c in chunks) + b"data: [DONE]\n\n"
    final = SYNC_STREAM["chat"](stream_response(chunked(body)), secret="s").get_final_completion()
    assert len(pieces) > 512
    assert [(c.name, c.arguments) for c in final.tool_calls] == [("echo", arguments)]


def test_absurdly_deep_json_is_a_kimi_error_not_a_recursion_error() -> None:
    import httpx

    from kimi_ext import APIResponseError
    from kimi_ext._core.transport.sending import parse_json_body

    deep = b"[" * 200_000 + b"]" * 200_000
    response = httpx.Response(200, content=deep, request=httpx.Request("POST", "https://x"))
    try:
        parse_json_body(response, "secret")
    except APIResponseError as error:
        assert error.body.startswith("[[[")
    else:
        raise AssertionError("expected APIResponseError")


def _stream_answer(content_type: str, body: bytes) -> Any:
    import httpx

    from kimi_ext.chat.stream import ChatCompletionStream

    transport = httpx.MockTransport(
        lambda request: httpx.Response(200, headers={"content-type": content_type}, content=body)
    )
    with httpx.Client(transport=transport) as http:
        response = http.send(
            http.build_request("POST", "https://x/v1/chat/completions"), stream=True
        )
        return ChatCompletionStream(response, secret="sk-secret")


def test_a_200_that_is_not_an_event_stream_keeps_its_body() -> None:
    import pytest

    from kimi_ext import APIResponseError, InternalServerError

    page = b"<html>maintenance</html>"
    with pytest.raises(APIResponseError) as info:
        _stream_answer("text/html", page).get_final_completion()
    assert info.value.body == page.decode()
    envelope = b'{"error": {"message": "upstream overloaded", "type": "server_error"}}'
    with pytest.raises(InternalServerError, match="upstream overloaded"):
        _stream_answer("application/json", envelope).get_final_completion()


async def test_async_stream_that_is_not_an_event_stream() -> None:
    import httpx
    import pytest

    from kimi_ext import APIResponseError
    from kimi_ext.chat.stream import AsyncChatCompletionStream

    transport = httpx.MockTransport(
        lambda request: httpx.Response(200, headers={"content-type": "text/plain"}, content=b"ok")
    )
    async with httpx.AsyncClient(transport=transport) as http:
        response = await http.send(http.build_request("POST", "https://x/v1"), stream=True)
        stream = AsyncChatCompletionStream(response, secret="k")
        with pytest.raises(APIResponseError) as info:
            await stream.get_final_completion()
    assert info.value.body == "ok"
