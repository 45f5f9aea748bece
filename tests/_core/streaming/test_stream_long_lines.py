"""Long ``data`` lines that span many reads: the same results and events as reading the
line whole, a cut line kept in ``.partial``, and a line that is not a JSON object (or one
the accumulator cannot use) yielded verbatim as ``"malformed"``.

Until issue 25 such lines were parsed as they arrived (``kimi_ext._core.longjson``, from
``long_line_at`` bytes); the tests of that parser and of the decoder's hand-over to it
went with it. ``make_stream`` still takes the threshold the calls below pass, so they are
the calls that covered the parser; it no longer changes how a stream reads.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from kimi_ext import IncompleteStreamError
from tests.support.streams import ASYNC, FINAL, SECRET, SYNC, bare_response

LONG_TEXT = ('Fjords are deep, "glacier"-carved inlets; see Sognefjord.\n' * 400) + "é😀"
REASONING = "Think about the fjord depths and the \\ escapes. " * 500


def splits(body: bytes, size: int) -> list[bytes]:
    return [body[i : i + size] for i in range(0, len(body), size)]


# -- streams ---------------------------------------------------------------------------


def sse(events: list[dict[str, Any]]) -> bytes:
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


def responses_events(text: str, reasoning: str) -> list[dict[str, Any]]:
    base = {
        "id": "resp_1",
        "object": "response",
        "status": "in_progress",
        "model": "kimi-k3.1-pro",
        "output": [],
    }
    part = {"type": "output_text", "text": text, "annotations": []}
    rpart = {"type": "reasoning_text", "text": reasoning}
    reasoning_item = {"type": "reasoning", "id": "rs_1", "summary": [], "content": [rpart]}
    message = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [part],
    }
    ev: list[dict[str, Any]] = [{"type": "response.created", "response": base}]
    ev.append(
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**reasoning_item, "content": []},
        }
    )
    for i in range(0, len(reasoning), 37):
        ev.append(
            {
                "type": "response.reasoning_text.delta",
                "output_index": 0,
                "content_index": 0,
                "item_id": "rs_1",
                "delta": reasoning[i : i + 37],
            }
        )
    ev.append(
        {
            "type": "response.reasoning_text.done",
            "output_index": 0,
            "content_index": 0,
            "item_id": "rs_1",
            "text": reasoning,
        }
    )
    ev.append({"type": "response.output_item.done", "output_index": 0, "item": reasoning_item})
    ev.append(
        {
            "type": "response.output_item.added",
            "output_index": 1,
            "item": {**message, "content": [], "status": "in_progress"},
        }
    )
    for i in range(0, len(text), 41):
        ev.append(
            {
                "type": "response.output_text.delta",
                "output_index": 1,
                "content_index": 0,
                "item_id": "msg_1",
                "delta": text[i : i + 41],
            }
        )
    ev.append(
        {
            "type": "response.output_text.done",
            "output_index": 1,
            "content_index": 0,
            "item_id": "msg_1",
            "text": text,
        }
    )
    ev.append({"type": "response.output_item.done", "output_index": 1, "item": message})
    final = {
        **base,
        "status": "completed",
        "output": [reasoning_item, message],
        "usage": {"input_tokens": 5, "output_tokens": 9, "total_tokens": 14},
    }
    ev.append({"type": "response.completed", "response": final})
    return ev  # fmt: skip


RESPONSES_BODY = sse(responses_events(LONG_TEXT, REASONING))


def make_stream(fmt: str, chunks: list[bytes], long_line_at: int, error: Exception | None = None, sync: bool = True) -> Any:  # fmt: skip
    del long_line_at  # see the module docstring
    return (SYNC if sync else ASYNC)[fmt](bare_response(chunks, error), secret=SECRET)


def read(stream: Any, fmt: str) -> tuple[list[Any], Any]:
    events = [(e.type, e.data, e.event) for e in stream]
    return events, getattr(stream, FINAL[fmt])()


@pytest.mark.parametrize("size", [997, 65536])
def test_responses_long_lines_give_the_same_events_and_result(size: int) -> None:
    chunks = splits(RESPONSES_BODY, size)
    whole_events, whole = read(make_stream("responses", [RESPONSES_BODY], 1 << 30), "responses")
    events, final = read(make_stream("responses", chunks, 1024), "responses")
    assert events == whole_events
    assert final.to_dict() == whole.to_dict()
    assert final.output_text == LONG_TEXT
    assert final.reasoning == REASONING


@pytest.mark.parametrize("sync", [True, False], ids=["sync", "async"])
async def test_a_stream_cut_inside_a_long_line_keeps_what_arrived(sync: bool) -> None:
    cut = RESPONSES_BODY.index(b"event: response.completed") + 30_000
    chunks = splits(RESPONSES_BODY[:cut], 4096)
    stream = make_stream("responses", chunks, 1024, httpx.ReadError("reset"), sync=sync)
    with pytest.raises(IncompleteStreamError) as info:
        if sync:
            stream.get_final_response()
        else:
            await stream.get_final_response()
    partial = info.value.partial
    assert partial.output_text == LONG_TEXT
    assert partial.reasoning == REASONING
    assert partial.status == "in_progress"


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_a_long_line_that_is_not_a_json_object_is_yielded_verbatim(fmt: str) -> None:
    broken = (
        'data: {"type": "x", "text": "'
        + LONG_TEXT.replace("\n", "\\n").replace('"', '\\"')
        + '", oops}'
    )
    array = "data: " + json.dumps([LONG_TEXT])
    body = (broken + "\n\n" + array + "\n\n").encode()
    stream = make_stream(fmt, splits(body, 1000), 1024)
    malformed = []
    with pytest.raises(IncompleteStreamError):
        for event in stream:
            malformed.append(event)
    assert [(e.type, e.data) for e in malformed] == [
        ("malformed", broken[6:]),
        ("malformed", array[6:]),
    ]


def test_chat_one_huge_delta() -> None:
    chunk = {
        "id": "c1",
        "object": "chat.completion.chunk",
        "model": "kimi-k3.1-pro",
        "choices": [
            {
                "index": 0,
                "delta": {"role": "assistant", "content": LONG_TEXT * 20},
                "finish_reason": None,
            }
        ],
    }
    end = {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    body = f"data: {json.dumps(chunk)}\n\ndata: {json.dumps(end)}\n\ndata: [DONE]\n\n".encode()
    final = make_stream("chat", splits(body, 65536), 65536).get_final_completion()
    assert final.text == LONG_TEXT * 20  # fmt: skip


def test_an_object_the_accumulator_cannot_use_is_yielded_verbatim_from_a_long_line() -> None:
    line = json.dumps(
        {"type": "response.output_text.delta", "output_index": [0], "delta": LONG_TEXT}
    )
    body = f"event: response.output_text.delta\ndata: {line}\n\n".encode()
    stream = make_stream("responses", splits(body, 1000), 1024)
    events = []
    with pytest.raises(IncompleteStreamError):
        for event in stream:
            events.append(event)
    assert [(e.type, e.data) for e in events] == [("malformed", line)]
