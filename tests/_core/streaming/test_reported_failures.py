"""A failure the service reports inside a stream gives what the same failure gives a plain
call: the same KimiError class, status, type and code (with what was received attached as
``partial``), and the same retry when nothing was delivered yet.

A loopback server writes the exact bytes of each case (LiteLLM relays an upstream 429 on a
Responses stream as HTTP 200 and a lone ``response.failed``), and counts the requests.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import kimi_ext.errors as E
from kimi_ext import AsyncKimi, Kimi
from kimi_ext.hooks import Hook
from tests.support.client import KEY, SleepRecorder, minimal
from tests.support.hostile_server import SSE, RawServer, answer, head, replies
from tests.support.streams import load

FORMATS = ["chat", "messages", "responses"]
RESOURCE = {"chat": ("chat", "completions"), "messages": ("messages",), "responses": ("responses",)}

RATE_LIMITED = "Rate limit reached for requests; retry shortly"

# What each format's service writes for a rate limit reported after a 200, as its first
# event: Chat an error chunk, Messages an error event, Responses a lone response.failed.
FAILED_FIRST = {
    "chat": b'data: {"error":{"message":"' + RATE_LIMITED.encode() + b'",'
    b'"type":"rate_limit_error","code":"rate_limit_exceeded"}}\n\n',
    "messages": b'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error",'
    b'"message":"' + RATE_LIMITED.encode() + b'"}}\n\n',
    "responses": b'event: response.failed\ndata: {"type":"response.failed","sequence_number":0,'
    b'"response":{"id":"resp_1","object":"response","created_at":1,"status":"failed",'
    b'"error":{"code":"rate_limit_exceeded","message":"' + RATE_LIMITED.encode() + b'"},'
    b'"output":[],"model":"kimi-k3.1-pro"}}\n\n',
}

# The same failure as a plain error response (what create() gets for it).
ERROR_BODY = {
    "chat": {"error": {"message": RATE_LIMITED, "type": "rate_limit_error",
                       "code": "rate_limit_exceeded"}},
    "messages": {"type": "error", "error": {"type": "rate_limit_error", "message": RATE_LIMITED}},
    "responses": {"error": {"message": RATE_LIMITED, "type": "rate_limit_error",
                            "code": "rate_limit_exceeded"}},
}  # fmt: skip

# The first event of each format's whole stream (delivered before the failure comes).
GOOD = {
    "chat": load("chat_text.sse"),
    "messages": load("messages_text.sse"),
    "responses": load("responses_text.sse"),
}


def first_event(fmt: str) -> bytes:
    return GOOD[fmt].split(b"\n\n", 1)[0] + b"\n\n"


def stream_answer(body: bytes) -> bytes:
    """A 200 event stream with ``body``, ending with the connection."""
    return head(200, SSE) + body


def resource(client: Any, fmt: str) -> Any:
    out = client
    for name in RESOURCE[fmt]:
        out = getattr(out, name)
    return out


@pytest.fixture
def sleeps() -> SleepRecorder:
    return SleepRecorder()


def sync_client(server: RawServer, sleeps: SleepRecorder, **options: Any) -> Kimi:
    client = Kimi(api_key=KEY, base_url=server.base_url, **options)
    client._sender.sleep = sleeps
    return client


def async_client(server: RawServer, sleeps: SleepRecorder, **options: Any) -> AsyncKimi:
    client = AsyncKimi(api_key=KEY, base_url=server.base_url, **options)
    client._sender.sleep = sleeps.asleep
    return client


def create_error(fmt: str, sleeps: SleepRecorder) -> E.APIStatusError:
    """What create() raises for the same failure answered as an HTTP 429."""
    with (
        RawServer(replies(answer(429, ERROR_BODY[fmt]))) as server,
        sync_client(server, sleeps, max_retries=0) as client,
        pytest.raises(E.APIStatusError) as info,
    ):
        resource(client, fmt).create(**minimal(fmt))
    return info.value


def same_verdict(got: E.APIStatusError, expected: E.APIStatusError) -> None:
    assert type(got) is type(expected) is E.RateLimitError
    assert got.status_code == expected.status_code == 429
    assert got.message == expected.message == RATE_LIMITED
    assert got.code == "rate_limit_exceeded" or got.error_type == "rate_limit_error"
    assert got.error_type and (got.code or got.error_type)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_failure_reported_in_the_stream_raises_what_create_raises(
    fmt: str, sleeps: SleepRecorder
) -> None:
    # Before: Responses returned status "failed" with empty text and raised nothing.
    expected = create_error(fmt, sleeps)
    with (
        RawServer(replies(stream_answer(FAILED_FIRST[fmt]))) as server,
        sync_client(server, sleeps, max_retries=0) as client,
        resource(client, fmt).stream(**minimal(fmt)) as stream,
    ):
        with pytest.raises(E.APIStatusError) as info:
            stream.final()
        with pytest.raises(E.RateLimitError):  # again: it never looks like a success
            stream.final()
    same_verdict(info.value, expected)
    assert type(info.value.partial).__name__ == {
        "chat": "ChatCompletion", "messages": "Message", "responses": "Response",
    }[fmt]  # fmt: skip
    if fmt == "responses":
        assert info.value.partial.status == "failed"
        assert (info.value.status_code, info.value.code) == (429, "rate_limit_exceeded")
    assert len(server.requests) == 1


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_a_failure_reported_in_the_stream_raises_what_create_raises(
    fmt: str, sleeps: SleepRecorder
) -> None:
    expected = create_error(fmt, sleeps)
    with RawServer(replies(stream_answer(FAILED_FIRST[fmt]))) as server:
        async with async_client(server, sleeps, max_retries=0) as client:
            stream = await resource(client, fmt).create(**minimal(fmt), stream=True)
            with pytest.raises(E.APIStatusError) as info:
                await stream.final()
    same_verdict(info.value, expected)
    assert info.value.partial is not None
    assert len(server.requests) == 1


def test_overloaded_in_a_messages_stream_is_what_an_http_529_is(sleeps: SleepRecorder) -> None:
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    with (
        RawServer(replies(answer(529, body))) as server,
        sync_client(server, sleeps, max_retries=0) as client,
        pytest.raises(E.APIStatusError) as plain,
    ):
        client.messages.create(**minimal("messages"))
    event = b"event: error\ndata: " + json.dumps(body).encode() + b"\n\n"
    with (
        RawServer(replies(stream_answer(first_event("messages") + event))) as server,
        sync_client(server, sleeps, max_retries=0) as client,
        client.messages.stream(**minimal("messages")) as stream,
        pytest.raises(E.APIStatusError) as streamed,
    ):
        stream.final()
    assert type(streamed.value) is type(plain.value) is E.InternalServerError
    assert streamed.value.status_code == plain.value.status_code == 529
    assert streamed.value.error_type == plain.value.error_type == "overloaded_error"
    assert streamed.value.partial.id  # message_start was received and is kept


def test_a_relays_http_status_as_the_code_gives_that_status(sleeps: SleepRecorder) -> None:
    # LiteLLM's error chunk in a Chat stream: no type, the upstream status as the code.
    chunk = b'data: {"error":{"message":"slow down","type":null,"param":null,"code":"429"}}\n\n'
    with (
        RawServer(replies(stream_answer(first_event("chat") + chunk))) as server,
        sync_client(server, sleeps, max_retries=0) as client,
        client.chat.completions.stream(**minimal("chat")) as stream,
        pytest.raises(E.RateLimitError) as info,
    ):
        stream.final()
    assert (info.value.status_code, info.value.code) == (429, "429")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_failure_before_any_event_is_retried_like_create(fmt: str, sleeps: SleepRecorder) -> None:
    # Before: never retried (Responses even returned the failure as a result).
    with (
        RawServer(replies(stream_answer(FAILED_FIRST[fmt]), stream_answer(GOOD[fmt]))) as server,
        sync_client(server, sleeps) as client,
        resource(client, fmt).stream(**minimal(fmt)) as stream,
    ):
        texts = list(stream.text_stream)
        result = stream.final()
    assert len(server.requests) == 2
    assert "".join(texts) == result.text and result.text
    assert len(sleeps.waits) == 1  # waited as the policy says, once
    keys = [request.header("idempotency-key") for request in server.requests]
    assert keys[0] == keys[1]  # one call: one key for its attempts
    assert [request.header("x-kimi-retry-count") for request in server.requests] == ["0", "1"]


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_a_failure_before_any_event_is_retried_like_create(
    fmt: str, sleeps: SleepRecorder
) -> None:
    with RawServer(replies(stream_answer(FAILED_FIRST[fmt]), stream_answer(GOOD[fmt]))) as server:
        async with (
            async_client(server, sleeps) as client,
            resource(client, fmt).stream(**minimal(fmt)) as stream,
        ):
            events = [event async for event in stream]
            result = await stream.final()
    assert len(server.requests) == 2
    assert events and result.text


READERS = {
    "final": lambda stream: stream.final().text,
    "text_stream": lambda stream: "".join(stream.text_stream),
    "fragments": lambda stream: "".join(text for kind, text in stream.fragments if kind == "text"),
}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("fmt", FORMATS)
def test_events_read_but_not_handed_over_do_not_stop_the_retry(
    fmt: str, reader: str, sleeps: SleepRecorder
) -> None:
    # A first event (response.created, message_start, a role chunk), then the failure: the
    # caller reading only the result or the text was handed nothing, so it is retried.
    failing = stream_answer(first_event(fmt) + FAILED_FIRST[fmt])
    with (
        RawServer(replies(failing, stream_answer(GOOD[fmt]))) as server,
        sync_client(server, sleeps) as client,
        resource(client, fmt).stream(**minimal(fmt)) as stream,
    ):
        text = READERS[reader](stream)
        assert text == stream.final().text and text
    assert len(server.requests) == 2


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_events_read_but_not_handed_over_do_not_stop_the_retry(
    fmt: str, sleeps: SleepRecorder
) -> None:
    failing = stream_answer(first_event(fmt) + FAILED_FIRST[fmt])
    with RawServer(replies(failing, stream_answer(GOOD[fmt]))) as server:
        async with async_client(server, sleeps) as client:
            stream = await resource(client, fmt).create(**minimal(fmt), stream=True)
            text = "".join([t async for t in stream.text_stream])
            assert text and text == (await stream.final()).text
    assert len(server.requests) == 2


def test_a_failure_after_text_was_handed_over_is_not_retried(sleeps: SleepRecorder) -> None:
    head_of_text = GOOD["responses"].split(b"event: response.output_text.done")[0]
    failing = stream_answer(head_of_text + FAILED_FIRST["responses"])
    with (
        RawServer(replies(failing, stream_answer(GOOD["responses"]))) as server,
        sync_client(server, sleeps) as client,
        client.responses.stream(**minimal("responses")) as stream,
    ):
        texts = []
        with pytest.raises(E.RateLimitError) as info:
            for text in stream.text_stream:
                texts.append(text)
    assert texts and len(server.requests) == 1
    assert info.value.partial.text == "".join(texts)


class Seen(Hook):
    def __init__(self) -> None:
        self.events: list[str] = []

    def on_retry(self, call: Any, error: BaseException, wait: float) -> None:
        self.events.append(f"retry {type(error).__name__}")

    def on_call_end(self, call: Any, end: Any) -> None:
        self.events.append(f"end {end.error is None} {end.result.text!r}")


def test_hooks_see_the_stream_retry_and_one_end(sleeps: SleepRecorder) -> None:
    seen = Seen()
    with (
        RawServer(
            replies(stream_answer(FAILED_FIRST["responses"]), stream_answer(GOOD["responses"]))
        ) as server,
        sync_client(server, sleeps, hooks=[seen]) as client,
        client.responses.stream(**minimal("responses")) as stream,
    ):
        text = stream.final().text
    assert seen.events == ["retry RateLimitError", f"end True {text!r}"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_retry_follows_the_policy(fmt: str, sleeps: SleepRecorder) -> None:
    # max_retries bounds it as it bounds create(): one retry, then the error is raised.
    with (
        RawServer(replies(stream_answer(FAILED_FIRST[fmt]))) as server,
        sync_client(server, sleeps, max_retries=1) as client,
        pytest.raises(E.RateLimitError),
        resource(client, fmt).stream(**minimal(fmt)) as stream,
    ):
        stream.final()
    assert len(server.requests) == 2


def test_the_retry_waits_what_the_server_asks(sleeps: SleepRecorder) -> None:
    first = head(200, {**SSE, "Retry-After": "3"}) + FAILED_FIRST["responses"]
    with (
        RawServer(replies(first, stream_answer(GOOD["responses"]))) as server,
        sync_client(server, sleeps) as client,
        client.responses.stream(**minimal("responses")) as stream,
    ):
        assert stream.final().text
    assert sleeps.waits == [3.0]
    # A hint beyond what the client waits for: raised at once, as create() does.
    first = head(200, {**SSE, "Retry-After": "3600"}) + FAILED_FIRST["responses"]
    with (
        RawServer(replies(first, stream_answer(GOOD["responses"]))) as server,
        sync_client(server, sleeps) as client,
        client.responses.stream(**minimal("responses")) as stream,
        pytest.raises(E.RateLimitError),
    ):
        stream.final()
    assert len(server.requests) == 1


def test_no_retry_the_deadline_would_not_leave_time_for(sleeps: SleepRecorder) -> None:
    # The server asks for 30 s; the call's deadline is 20 s away: raised at once, as
    # create() does, instead of waiting past the deadline.
    first = head(200, {**SSE, "Retry-After": "30"}) + FAILED_FIRST["responses"]
    with (
        RawServer(replies(first, stream_answer(GOOD["responses"]))) as server,
        sync_client(server, sleeps, deadline=20) as client,
        client.responses.stream(**minimal("responses")) as stream,
        pytest.raises(E.RateLimitError),
    ):
        stream.final()
    assert len(server.requests) == 1 and sleeps.waits == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_failure_after_an_event_was_delivered_is_not_retried(
    fmt: str, sleeps: SleepRecorder
) -> None:
    body = first_event(fmt) + FAILED_FIRST[fmt]
    with (
        RawServer(replies(stream_answer(body), stream_answer(GOOD[fmt]))) as server,
        sync_client(server, sleeps) as client,
        resource(client, fmt).stream(**minimal(fmt)) as stream,
    ):
        seen = []
        with pytest.raises(E.RateLimitError) as info:
            for event in stream:
                seen.append(event)
    assert len(seen) == 1 and len(server.requests) == 1
    assert info.value.partial is not None


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_a_failure_after_an_event_was_delivered_is_not_retried(
    fmt: str, sleeps: SleepRecorder
) -> None:
    body = first_event(fmt) + FAILED_FIRST[fmt]
    with RawServer(replies(stream_answer(body), stream_answer(GOOD[fmt]))) as server:
        async with async_client(server, sleeps) as client:
            stream = await resource(client, fmt).create(**minimal(fmt), stream=True)
            seen = []
            with pytest.raises(E.RateLimitError):
                async for event in stream:
                    seen.append(event)
    assert len(seen) == 1 and len(server.requests) == 1


def sse_error_body(fmt: str) -> bytes:
    error = {"type": "api_error", "message": "upstream exploded", "code": "upstream_error"}
    return b"data: " + json.dumps({"error": error}).encode() + b"\n\n"


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("streamed", [False, True])
def test_an_error_status_whose_body_is_an_event_stream_is_parsed(
    fmt: str, streamed: bool, sleeps: SleepRecorder
) -> None:
    # Before: the message was the raw "data: ..." text and error_type/code were empty.
    data = head(500, SSE, length=len(sse_error_body(fmt))) + sse_error_body(fmt)
    with (
        RawServer(replies(data)) as server,
        sync_client(server, sleeps, max_retries=0) as client,
        pytest.raises(E.InternalServerError) as info,
    ):
        if streamed:
            with resource(client, fmt).stream(**minimal(fmt)) as stream:
                stream.final()
        else:
            resource(client, fmt).create(**minimal(fmt))
    error = info.value
    assert error.message == "upstream exploded"
    assert (error.status_code, error.error_type, error.code) == (500, "api_error", "upstream_error")


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_an_error_status_whose_body_is_an_event_stream_is_parsed(
    fmt: str, sleeps: SleepRecorder
) -> None:
    data = head(500, SSE, length=len(sse_error_body(fmt))) + sse_error_body(fmt)
    with RawServer(replies(data)) as server:
        async with async_client(server, sleeps, max_retries=0) as client:
            with pytest.raises(E.InternalServerError) as info:
                await resource(client, fmt).create(**minimal(fmt), stream=True)
    assert (info.value.error_type, info.value.code) == ("api_error", "upstream_error")
    assert info.value.message == "upstream exploded"
