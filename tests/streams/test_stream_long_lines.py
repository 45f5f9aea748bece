"""Long ``data`` lines: parsed as they arrive, with what the stream holds shared.

A line longer than ``long_line_at`` bytes that spans reads goes to
:class:`~kimi_ext._core.longjson.LongJSONLine`. These tests check the decoder's hand-over (any
split, the ``data:`` spellings, a BOM, a second data line, the end of the body) and the
streams: the same results and events as reading the line whole, the repeated text of
Responses' last event shared with what was accumulated, a cut line kept in ``.partial``,
and a line that is not a JSON object yielded verbatim as ``"malformed"``.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from stream_helpers import ASYNC, FINAL, SECRET, SYNC, bare_response

from kimi_ext import IncompleteStreamError
from kimi_ext._core.longjson import LONG_STRING, LongJSONLine, ParsedLine
from kimi_ext._core.sse import SSEDecoder

LONG_TEXT = ('Fjords are deep, "glacier"-carved inlets; see Sognefjord.\n' * 400) + "é😀"
REASONING = "Think about the fjord depths and the \\ escapes. " * 500


def events_of(decoder: SSEDecoder, chunks: list[bytes]) -> tuple[list[tuple[Any, ...]], int]:
    """The events as ``(text, event, id, retry)``, and how many came parsed (whose value
    is checked against json.loads of their text)."""
    out = []
    for chunk in chunks:
        out += decoder.feed_raw(chunk)
    out += decoder.flush_raw()
    events, parsed = [], 0
    for data, *rest in out:
        if isinstance(data, ParsedLine):
            parsed += 1
            assert data.value == json.loads(data.text())
            data = data.text()
        events.append((data, *rest))
    return events, parsed


def plain_events(body: bytes) -> list[tuple[Any, ...]]:
    return events_of(SSEDecoder(), [body])[0]


def splits(body: bytes, size: int) -> list[bytes]:
    return [body[i : i + size] for i in range(0, len(body), size)]


BODY = (
    b': keep-alive\n\nevent: delta\ndata: {"small": 1}\n\n'
    + b"event: big\nid: 7\ndata: "
    + json.dumps({"type": "big", "text": LONG_TEXT}).encode()
    + b"\n\ndata:"
    + json.dumps({"type": "no-space", "text": LONG_TEXT[::-1]}, ensure_ascii=False).encode()
    + b"\r\n\r\ndata: [DONE]\n\n"
)


@pytest.mark.parametrize("size", [1, 7, 100, 4096, 65536, len(BODY)])
def test_decoder_hands_long_data_lines_to_the_sink_for_any_split(size: int) -> None:
    decoder = SSEDecoder(long_line=LongJSONLine, long_line_at=64)
    got, parsed = events_of(decoder, splits(BODY, size))
    assert got == plain_events(BODY)
    assert got[1][1:] == ("big", "7", None)
    if size <= 4096:  # both long lines span reads: both went to the sink
        assert parsed == 2
    elif size == len(BODY):
        assert parsed == 0


def test_a_line_that_fits_one_read_is_not_handed_over() -> None:
    decoder = SSEDecoder(long_line=LongJSONLine, long_line_at=64)
    events = decoder.feed_raw(BODY)
    assert all(isinstance(data, str) for data, *_ in events)


def test_long_lines_that_are_not_data_stay_text() -> None:
    comment = b": " + b"x" * 5000 + b"\n"
    event = b"event: " + b"e" * 5000 + b"\ndata: {}\n\n"
    decoder = SSEDecoder(long_line=LongJSONLine, long_line_at=64)
    assert events_of(decoder, splits(comment + event, 100)) == ([("{}", "e" * 5000, None, None)], 0)


def test_a_second_data_line_joins_the_text_of_a_long_first_one() -> None:
    first = json.dumps({"text": LONG_TEXT})
    body = f"data: {first}\ndata: tail\n\n".encode()
    decoder = SSEDecoder(long_line=LongJSONLine, long_line_at=64)
    assert events_of(decoder, splits(body, 1000)) == ([(first + "\ntail", None, None, None)], 0)


def test_a_first_long_data_line_after_a_short_one_stays_text() -> None:
    second = json.dumps({"text": LONG_TEXT})
    body = f"data: head\ndata: {second}\n\n".encode()
    decoder = SSEDecoder(long_line=LongJSONLine, long_line_at=64)
    assert events_of(decoder, splits(body, 1000)) == ([("head\n" + second, None, None, None)], 0)


def test_a_byte_order_mark_before_a_long_first_line() -> None:
    value = {"text": LONG_TEXT}
    body = b"\xef\xbb\xbfdata: " + json.dumps(value).encode()  # and no blank line at the end
    decoder = SSEDecoder(long_line=LongJSONLine, long_line_at=64)
    assert events_of(decoder, splits(body, 512)) == ([(json.dumps(value), None, None, None)], 1)


def test_invalid_utf8_in_a_long_line_is_replaced_as_in_any_line() -> None:
    body = b'data: {"text": "' + b"ab\xff\xfe" * 3000 + b'"}\n\n'
    decoder = SSEDecoder(long_line=LongJSONLine, long_line_at=64)
    text = '{"text": "' + "ab\ufffd\ufffd" * 3000 + '"}'
    assert events_of(decoder, splits(body, 333)) == ([(text, None, None, None)], 1)


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
    cls = type("Stream", ((SYNC if sync else ASYNC)[fmt],), {"long_line_at": long_line_at})
    return cls(bare_response(chunks, error), secret=SECRET)


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


def test_responses_last_event_shares_the_text_it_repeats() -> None:
    stream = make_stream("responses", splits(RESPONSES_BODY, 4096), 1024)
    texts = {}
    for event in stream:
        if event.type == "response.output_text.done":
            texts["done"] = event.data["text"]
        elif event.type == "response.completed":
            texts["completed"] = event.data["response"]["output"][1]["content"][0]["text"]
    assert texts["done"] == LONG_TEXT
    assert texts["completed"] is texts["done"]  # one string, not a second copy
    assert stream.get_final_response().output_text is texts["done"]


def test_long_strings_of_an_accumulator_are_the_ones_it_holds() -> None:
    stream = make_stream("responses", splits(RESPONSES_BODY, 4096), 1024)
    for event in stream:
        if event.type == "response.output_item.done" and event.data["output_index"] == 1:
            break
    found = stream._acc.long_strings()
    assert REASONING in found and LONG_TEXT in found
    assert all(len(s) >= LONG_STRING for s in found)
    stream.close()


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


def test_the_space_after_data_colon_may_arrive_in_the_next_read() -> None:
    decoder = SSEDecoder(long_line=LongJSONLine, long_line_at=1)
    got = events_of(decoder, [b"data:", b" ", b'{"a": 1}\n\n', b"data:", b'{"b"', b": 2}\n\n"])
    assert got == ([('{"a": 1}', None, None, None), ('{"b": 2}', None, None, None)], 2)


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


def test_a_factory_may_decline_a_line_which_is_then_read_whole() -> None:
    asked = []

    def factory() -> None:
        asked.append(1)
        return None

    decoder = SSEDecoder(long_line=factory, long_line_at=64)
    events, parsed = events_of(decoder, splits(BODY, 100))
    assert (events, parsed) == (plain_events(BODY), 0)
    assert len(asked) == 2  # once per long data line, not once per read


@pytest.mark.parametrize("fmt", ["chat", "messages"])
def test_formats_whose_events_repeat_nothing_read_long_lines_whole(fmt: str) -> None:
    stream = make_stream(fmt, [b""], 1)
    assert stream._long_line() is None
    assert stream._acc.long_strings() == []  # and nothing they hold would be repeated
    assert make_stream("responses", [b""], 1)._long_line() is not None


def test_parsed_line_text_repr_and_release() -> None:
    line = LongJSONLine()
    line.feed(json.dumps({"text": LONG_TEXT}).encode())
    parsed = line.close()
    assert isinstance(parsed, ParsedLine)
    assert repr(parsed).startswith("ParsedLine({'text': 'Fjords") and repr(parsed).endswith("...)")
    assert json.loads(parsed.text()) == {"text": LONG_TEXT}
    parsed.release()
    with pytest.raises(RuntimeError, match="released"):
        parsed.text()
    assert parsed.value == {"text": LONG_TEXT}  # the value stays


def test_a_top_level_long_string() -> None:
    line = LongJSONLine([LONG_TEXT])
    for chunk in splits(json.dumps(LONG_TEXT).encode(), 100):
        line.feed(chunk)
    parsed = line.close()
    assert isinstance(parsed, ParsedLine) and parsed.value == LONG_TEXT
