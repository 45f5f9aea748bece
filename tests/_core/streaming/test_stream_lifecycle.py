"""What every stream shares: any split of the bytes, cuts, broken connections, closing."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import kimi_ext.errors as E
from kimi_ext._core.streaming.stream import AsyncStreamManager, StreamEvent, StreamManager
from kimi_ext.chat.stream import AsyncChatCompletionStream, ChatCompletionStream
from kimi_ext.messages.stream import MessageStream
from tests.support.streams import (
    ASYNC,
    FINAL,
    RESULT,
    SECRET,
    SYNC,
    ChunkStream,
    async_client_response,
    bare_response,
    client_response,
    data_of,
    fmt_of,
    load,
    open_sync,
    run_async,
    run_sync,
    sse_blocks,
)

COMPLETE = [
    "chat_text.sse",
    "chat_tool_calls.sse",
    "chat_usage_on_choice.sse",
    "chat_quirks.sse",
    "messages_text.sse",
    "messages_tool_use.sse",
    "messages_web_search.sse",
    "messages_unknown.sse",
    "messages_invalid_json.sse",
    "messages_max_tokens.sse",
    "responses_text.sse",
    "responses_function_call.sse",
    "responses_incomplete.sse",
    "responses_reasoning_summary.sse",
    "responses_apply_patch.sse",
    "responses_web_search.sse",
    "responses_mixed.sse",
]
# A failure the service reports (an error event, a Responses response.failed) raises.
FAILING = ["messages_error.sse", "responses_error.sse", "responses_failed.sse"]
SMALL = ["chat_quirks.sse", "messages_tool_use.sse", "responses_mixed.sse"]


# -- naive reference: what the delivered events say, computed the obvious way ----------


def naive(fmt: str, datas: list[Any]) -> tuple[str, str]:
    text: list[str] = []
    reasoning: list[str] = []
    for data in datas:
        if fmt == "chat":
            for choice in data.get("choices") or []:
                if choice.get("index", 0) == 0:
                    delta = choice.get("delta") or {}
                    text.append(delta.get("content") or "")
                    reasoning.append(delta.get("reasoning_content") or "")
        elif fmt == "messages":
            delta = data.get("delta") or {}
            if data["type"] == "content_block_delta" and delta.get("type") == "text_delta":
                text.append(delta["text"])
            if data["type"] == "content_block_delta" and delta.get("type") == "thinking_delta":
                reasoning.append(delta["thinking"])
        else:
            if data["type"] == "response.output_text.delta":
                text.append(data["delta"])
            if data["type"] == "response.reasoning_text.delta":
                reasoning.append(data["delta"])
    return "".join(text), "".join(reasoning)


def terminal_output(fmt: str, datas: list[Any]) -> list[Any]:
    """The output listed by a Responses terminal event ([] when none came)."""
    for data in datas:
        if fmt == "responses" and data["type"] in (
            "response.completed",
            "response.incomplete",
            "response.failed",
        ):
            return list((data.get("response") or {}).get("output") or [])
    return []


def ends_cleanly(fmt: str, blocks: list[bytes]) -> bool:
    for block in blocks:
        if fmt == "chat" and b"data: [DONE]" in block:
            return True
        data = data_of(block)
        if data is None:
            continue
        if fmt == "chat" and any(c.get("finish_reason") for c in data.get("choices") or []):
            return True  # a finish_reason, then the end of the body: accepted
        if fmt == "messages" and data["type"] == "message_stop":
            return True
        if fmt == "responses" and data["type"] in ("response.completed", "response.incomplete"):
            return True
    return False


def has_error(blocks: list[bytes]) -> bool:
    return any((data_of(b) or {}).get("type") in ("error", "response.failed") for b in blocks)


# -- any split of the bytes -----------------------------------------------------------


@pytest.mark.parametrize("name", SMALL)
def test_every_byte_boundary_gives_the_same_events_and_result(name: str) -> None:
    fmt, body = fmt_of(name), load(name)
    expected = run_sync(fmt, [body])
    for i in range(1, len(body)):
        assert run_sync(fmt, [body[:i], body[i:]]) == expected, i


@pytest.mark.parametrize("name", COMPLETE)
def test_one_byte_per_read_and_line_end_styles(name: str) -> None:
    fmt, body = fmt_of(name), load(name)
    expected = run_sync(fmt, [body])
    assert run_sync(fmt, [body[i : i + 1] for i in range(len(body))]) == expected
    for style in (b"\r\n", b"\r"):
        assert run_sync(fmt, [body.replace(b"\n", style)]) == expected
    crlf = body.replace(b"\n", b"\r\n")
    assert run_sync(fmt, [crlf[i : i + 7] for i in range(0, len(crlf), 7)]) == expected


@pytest.mark.parametrize("name", SMALL)
async def test_async_byte_boundaries(name: str) -> None:
    fmt, body = fmt_of(name), load(name)
    expected = run_sync(fmt, [body])
    for i in range(1, len(body), 37):
        assert await run_async(fmt, [body[:i], body[i:]]) == expected, i
    assert await run_async(fmt, [body[i : i + 1] for i in range(len(body))]) == expected


def test_missing_trailing_blank_line_still_completes() -> None:
    body = load("messages_text.sse").rstrip(b"\n")
    assert run_sync("messages", [body]) == run_sync("messages", [load("messages_text.sse")])


def test_keep_alive_comments_between_events() -> None:
    body = b": hi\n\n" + load("chat_text.sse").replace(b"\n\n", b"\n\n: keep-alive\n\n")
    assert run_sync("chat", [body]) == run_sync("chat", [load("chat_text.sse")])


def test_a_one_mib_delta_arrives_whole() -> None:
    big = "x" * (1 << 20)
    body = (
        b'data: {"id":"c","choices":[{"index":0,"delta":{"content":"'
        + big.encode()
        + b'"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    )
    chunks = [body[i : i + 4096] for i in range(0, len(body), 4096)]
    assert open_sync("chat", chunks).get_final_completion().text == big


# -- a stream cut at every event boundary ----------------------------------------------


def check_cut(name: str, k: int, run: Any) -> None:
    fmt = fmt_of(name)
    blocks = sse_blocks(load(name))[:k]
    datas = [d for d in map(data_of, blocks) if d is not None]
    if has_error(blocks):
        with pytest.raises(E.APIStatusError):
            run(fmt, blocks)
        return
    if ends_cleanly(fmt, blocks):
        partial = RESULT[fmt](run(fmt, blocks)[1])  # complete: checked like a partial
    else:
        with pytest.raises(E.IncompleteStreamError) as info:
            run(fmt, blocks)
        partial = info.value.partial
        assert type(partial) is RESULT[fmt]
        assert info.value.__cause__ is None
        assert "before" in str(info.value)
    text, reasoning = naive(fmt, datas)
    terminal = terminal_output(fmt, datas)
    if terminal:  # the terminal event's output is the truth; what was streamed is not added
        text, reasoning = RESULT[fmt]({"output": terminal}).text, ""
    assert partial.text == text, (name, k)
    if fmt == "responses":  # an announced item may already carry a reasoning summary
        assert reasoning in partial.reasoning, (name, k)
    else:
        assert partial.reasoning == reasoning, (name, k)


def run_collecting(fmt: str, blocks: list[bytes]) -> tuple[list[Any], Any]:
    stream = open_sync(fmt, [b"".join(blocks)])
    events: list[StreamEvent] = []
    try:
        for event in stream:
            events.append(event)
    except E.IncompleteStreamError:
        datas = [d for d in map(data_of, blocks) if d is not None]
        assert [e.data for e in events] == datas  # everything delivered was yielded
        raise
    return events, getattr(stream, FINAL[fmt])().to_dict()


@pytest.mark.parametrize("name", COMPLETE + FAILING)
def test_cut_at_every_event_boundary(name: str) -> None:
    for k in range(len(sse_blocks(load(name))) + 1):
        check_cut(name, k, run_collecting)


@pytest.mark.parametrize("name", ["chat_text.sse", "messages_tool_use.sse", "responses_mixed.sse"])
async def test_async_cut_at_every_event_boundary(name: str) -> None:
    fmt = fmt_of(name)
    blocks = sse_blocks(load(name))
    for k in range(len(blocks)):
        if ends_cleanly(fmt, blocks[:k]):
            continue
        stream = ASYNC[fmt](bare_response([b"".join(blocks[:k])]), secret=SECRET)
        with pytest.raises(E.IncompleteStreamError) as info:
            await getattr(stream, FINAL[fmt])()
        datas = [d for d in map(data_of, blocks[:k]) if d is not None]
        assert (info.value.partial.text, info.value.partial.reasoning) == naive(fmt, datas)
        assert type(info.value.partial) is RESULT[fmt]


def test_cut_inside_an_event_is_incomplete() -> None:
    body = load("messages_text.sse")
    cut = body.index(b'"text":"K"') + len(b'"text":"K')
    stream = open_sync("messages", [body[:cut]])
    events = []
    with pytest.raises(E.IncompleteStreamError) as info:
        for event in stream:
            events.append(event)
    # the unfinished JSON is not lost either: it was yielded as a malformed event
    assert events[-1].type == "malformed" and events[-1].data.endswith('"text":"K')
    assert info.value.partial.text == "O"


def test_chat_finish_reason_counts_only_if_the_body_ends() -> None:
    blocks = sse_blocks(load("chat_text.sse"))
    finish = next(i for i, b in enumerate(blocks) if b'"finish_reason":"stop"' in b)
    stream = open_sync("chat", [b"".join(blocks[: finish + 1])], httpx.ReadError("reset"))
    with pytest.raises(E.IncompleteStreamError) as info:
        stream.get_final_completion()
    assert info.value.partial.finish_reason == "stop"  # content complete, usage lost
    assert info.value.partial.to_dict()["usage"] is None


# -- broken connections -----------------------------------------------------------------


ERRORS = [
    (httpx.ReadError("connection reset by peer"), "connection broke (ReadError"),
    (httpx.RemoteProtocolError("incomplete chunked read"), "connection broke (RemoteProtocolError"),
    (httpx.ReadTimeout("timed out"), "timed out (ReadTimeout)"),
]


@pytest.mark.parametrize(
    "name", ["chat_text.sse", "messages_tool_use.sse", "responses_function_call.sse"]
)
@pytest.mark.parametrize(("error", "words"), ERRORS)
def test_connection_broken_mid_stream(name: str, error: Exception, words: str) -> None:
    fmt = fmt_of(name)
    blocks = sse_blocks(load(name))
    half = len(blocks) // 2
    response, transport_stream = client_response([b"".join(blocks[:half])], error)
    stream = SYNC[fmt](response, secret=SECRET)
    events = []
    with pytest.raises(E.IncompleteStreamError) as info:
        for event in stream:
            events.append(event)
    exc = info.value
    assert isinstance(exc, E.APIConnectionError)  # catchable as a connection error
    assert exc.__cause__ is error
    assert words in str(exc)
    assert exc.request is response.request
    datas = [d for d in map(data_of, blocks[:half]) if d is not None]
    assert [e.data for e in events] == datas
    assert type(exc.partial) is RESULT[fmt]
    assert (exc.partial.text, exc.partial.reasoning) == naive(fmt, datas)
    assert response.is_closed and transport_stream.closed
    # the same error again, from every entry point
    for call in (
        lambda: getattr(stream, FINAL[fmt])(),
        lambda: list(stream.text_stream),
        lambda: iter(stream),
    ):
        with pytest.raises(E.IncompleteStreamError) as again:
            call()
        assert again.value is exc


@pytest.mark.parametrize(("error", "words"), ERRORS)
async def test_async_connection_broken_mid_stream(error: Exception, words: str) -> None:
    for name in ("chat_quirks.sse", "messages_text.sse", "responses_mixed.sse"):
        fmt = fmt_of(name)
        blocks = sse_blocks(load(name))
        half = len(blocks) // 2
        response, transport_stream = await async_client_response([b"".join(blocks[:half])], error)
        stream = ASYNC[fmt](response, secret=SECRET)
        with pytest.raises(E.IncompleteStreamError) as info:
            async for _ in stream:
                pass
        assert info.value.__cause__ is error and words in str(info.value)
        datas = [d for d in map(data_of, blocks[:half]) if d is not None]
        assert (info.value.partial.text, info.value.partial.reasoning) == naive(fmt, datas)
        assert response.is_closed and transport_stream.closed
        with pytest.raises(E.IncompleteStreamError):
            await getattr(stream, FINAL[fmt])()
        with pytest.raises(E.IncompleteStreamError):
            [t async for t in stream.reasoning_stream]


def test_secret_is_redacted_from_transport_messages() -> None:
    stream = open_sync("chat", [b""], httpx.ReadError(f"proxy said {SECRET}"))
    with pytest.raises(E.IncompleteStreamError) as info:
        stream.get_final_completion()
    assert SECRET not in str(info.value) and "<redacted>" in str(info.value)


def test_broken_connection_is_never_retried() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(
            200, stream=ChunkStream([load("chat_text.sse")[:500]], httpx.ReadError("x"))
        )

    client = httpx.Client(transport=httpx.MockTransport(handler))
    manager = StreamManager(
        lambda: ChatCompletionStream(
            client.send(client.build_request("POST", "https://api.test/x"), stream=True),
            secret=SECRET,
        )
    )
    assert calls == []  # nothing is sent before the block is entered
    with pytest.raises(E.IncompleteStreamError), manager as stream:
        stream.get_final_completion()
    assert len(calls) == 1


# -- closing ---------------------------------------------------------------------------


def test_leaving_the_with_block_early_closes_the_response() -> None:
    response, transport_stream = client_response(
        [load("chat_text.sse")[:400], load("chat_text.sse")[400:]]
    )
    with ChatCompletionStream(response, secret=SECRET) as stream:
        first = next(iter(stream))
        assert first.type == "chunk"
    assert response.is_closed and transport_stream.closed
    assert transport_stream.delivered == 1  # the rest was never read
    with pytest.raises(E.IncompleteStreamError) as info:
        stream.get_final_completion()
    assert "closed" in str(info.value)


def test_stream_manager_opens_on_enter_and_closes_on_exit() -> None:
    opened: list[Any] = []

    def open_response() -> httpx.Response:
        response, transport_stream = client_response([load("messages_text.sse")])
        opened.append((response, transport_stream))
        return response

    manager = StreamManager(lambda: MessageStream(open_response(), secret=SECRET))
    assert opened == []
    with manager as stream:
        assert isinstance(stream, MessageStream) and stream.response is opened[0][0]
        for event in stream:
            if event.type == "content_block_start":
                break
    response, transport_stream = opened[0]
    assert response.is_closed and transport_stream.closed


def test_stream_manager_exit_on_exception_closes() -> None:
    holder: list[httpx.Response] = []

    def open_response() -> httpx.Response:
        holder.append(client_response([load("chat_text.sse")])[0])
        return holder[0]

    with (
        pytest.raises(KeyError),
        StreamManager(lambda: ChatCompletionStream(open_response(), secret=SECRET)),
    ):
        raise KeyError("user code failed")
    assert holder[0].is_closed


async def test_async_manager_and_early_exit() -> None:
    opened: list[Any] = []

    async def open_response() -> httpx.Response:
        response, transport_stream = await async_client_response(
            [load("chat_text.sse")[:300], load("chat_text.sse")[300:]]
        )
        opened.append((response, transport_stream))
        return response

    async def open_stream() -> AsyncChatCompletionStream:
        return AsyncChatCompletionStream(await open_response(), secret=SECRET)

    async with AsyncStreamManager(open_stream) as stream:
        async for _ in stream:
            break
    response, transport_stream = opened[0]
    assert response.is_closed and transport_stream.closed and transport_stream.delivered == 1
    with pytest.raises(E.IncompleteStreamError):
        await stream.get_final_completion()

    response, transport_stream = await async_client_response([load("chat_text.sse")])
    async with AsyncChatCompletionStream(response, secret=SECRET) as stream:
        assert (await stream.get_final_completion()).finish_reason == "stop"
    assert response.is_closed


def test_iterating_without_with_closes_at_the_end_and_on_failure() -> None:
    response, transport_stream = client_response([load("responses_text.sse")])
    stream = SYNC["responses"](response, secret=SECRET)
    assert len(list(stream)) == 34
    assert response.is_closed and transport_stream.closed
    assert stream.get_final_response().status == "completed"

    response, transport_stream = client_response([load("responses_error.sse")])
    stream = SYNC["responses"](response, secret=SECRET)
    with pytest.raises(E.InternalServerError):
        list(stream)
    assert response.is_closed


def test_close_before_reading_makes_the_stream_incomplete() -> None:
    stream = open_sync("chat", [load("chat_text.sse")])
    stream.close()
    with pytest.raises(E.IncompleteStreamError) as info:
        stream.get_final_completion()
    assert info.value.partial.text == ""


def test_get_final_after_partial_iteration_reads_the_rest() -> None:
    stream = open_sync("messages", [load("messages_tool_use.sse")])
    for event in stream:
        if event.type == "content_block_stop":
            break
    assert stream.get_final_message().stop_reason == "tool_use"
    assert stream.get_final_message().stop_reason == "tool_use"  # idempotent
    assert list(stream) == []


def test_next_on_the_stream_object() -> None:
    stream = open_sync("chat", [load("chat_text.sse")])
    assert next(stream).type == "chunk"
    assert stream.get_final_completion().finish_reason == "stop"
    with pytest.raises(StopIteration):
        next(stream)


def test_stream_event_repr_equality_and_parsed_of_unknown() -> None:
    event = StreamEvent("x.unknown", {"a": 1}, "x.unknown")
    assert event == StreamEvent("x.unknown", {"a": 1}, "x.unknown")
    assert event != StreamEvent("x.unknown", {"a": 2})
    assert "x.unknown" in repr(event)
    assert event.parsed == {"a": 1}
    assert "..." in repr(StreamEvent("chunk", "y" * 500))


async def test_async_flush_and_data_after_the_terminal_event() -> None:
    body = load("messages_text.sse").rstrip(b"\n")
    assert await run_async("messages", [body]) == run_sync("messages", [load("messages_text.sse")])
    junk = load("chat_text.sse") + b"data: junk after done\n\n" * 3
    response, transport_stream = await async_client_response([junk[:100], junk[100:], b": more\n"])
    stream = ASYNC["chat"](response, secret=SECRET)
    assert len([e async for e in stream]) == 13
    # handed over at [DONE]: what follows is not read, the response is closed
    assert transport_stream.delivered == 2 and response.is_closed


def test_nothing_after_the_terminal_event_is_read() -> None:
    body = load("messages_text.sse")
    tail = [b": filler\n" * 1000] * 20  # ~180 KiB of keep-alives after message_stop
    response, transport_stream = client_response([body, *tail])
    stream = MessageStream(response, secret=SECRET)
    assert stream.get_final_message().text == "OK"
    assert transport_stream.delivered == 1 and response.is_closed


async def test_async_next_after_an_error() -> None:
    stream = ASYNC["chat"](bare_response([b'data: {"choices": []}\n\n']), secret=SECRET)
    assert (await stream.__anext__()).type == "chunk"
    with pytest.raises(E.IncompleteStreamError):
        await stream.__anext__()
    with pytest.raises(E.IncompleteStreamError):
        await stream.__anext__()
    with pytest.raises(E.IncompleteStreamError):
        stream.__aiter__()
