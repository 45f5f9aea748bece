"""Long streams read through every reader (text_stream, reasoning_stream, fragments, the final
getter), sync and async: several readers at once, one that stops early, broken and failed
streams, the drain after the terminal event, and stream events' equality."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import kimi_ext
from kimi_ext._core.streaming.stream import StreamEvent
from tests.support.robustness import ASYNC_STREAM, FINAL, SYNC_STREAM, encode_event, stream_response

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
