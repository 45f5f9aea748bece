"""The SSE decoder: any split of the bytes, every line-end style, every field rule."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kimi_ext._core.streaming.sse import ServerSentEvent, SSEDecoder


def decode(*chunks: bytes) -> list[ServerSentEvent]:
    decoder = SSEDecoder()
    events: list[ServerSentEvent] = []
    for chunk in chunks:
        events.extend(decoder.feed(chunk))
    events.extend(decoder.flush())
    return events


def E(data: str = "", event: str | None = None, id: str | None = None, retry: int | None = None):
    return ServerSentEvent(data, event, id, retry)


def reference(text: str) -> list[ServerSentEvent]:
    """A slow, obvious implementation of the same rules, over the whole text."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    lines.append("")  # the end of the stream dispatches a pending event
    out = []
    data: list[str] = []
    event = None
    last_id = None
    retry = None
    dirty = False
    for line in lines:
        if line == "":
            if dirty:
                out.append(E("\n".join(data), event, last_id, retry))
            data, event, retry, dirty = [], None, None, False
            continue
        if line.startswith(":"):
            continue
        name, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if name == "data":
            data.append(value)
            dirty = True
        elif name == "event":
            event, dirty = value, True
        elif name == "id" and "\0" not in value:
            last_id, dirty = value, True
        elif name == "retry" and value.isascii() and value.isdigit():
            retry, dirty = int(value), True
    return out


SAMPLE = (
    "event: message_start\n"
    'data: {"a": "é北京🌏"}\n'
    "\n"
    ": a comment\n"
    "id: 7\n"
    "retry: 1500\n"
    "data: line one\n"
    "data:line two\n"
    "data\n"
    "\n"
    "data: after id\n"
    "\n"
    "event: ping\n"
    "data:  two spaces\n"
    "\n"
    "data: no trailing blank line"
).encode()


def test_basic_fields() -> None:
    assert decode(SAMPLE) == [
        E('{"a": "é北京🌏"}', "message_start"),
        E("line one\nline two\n", None, "7", 1500),
        E("after id", None, "7"),  # the id persists
        E(" two spaces", "ping", "7"),  # only one space is dropped
        E("no trailing blank line", None, "7"),  # flushed at the end
    ]


def test_every_split_point_gives_the_same_events() -> None:
    whole = decode(SAMPLE)
    for i in range(len(SAMPLE) + 1):
        assert decode(SAMPLE[:i], SAMPLE[i:]) == whole, i
    assert decode(*[SAMPLE[i : i + 1] for i in range(len(SAMPLE))]) == whole


def test_line_end_styles_give_the_same_events() -> None:
    lf = SAMPLE
    crlf = lf.replace(b"\n", b"\r\n")
    cr = lf.replace(b"\n", b"\r")
    mixed = lf.replace(b"\n\n", b"\r\n\r").replace(b"data: line one\n", b"data: line one\r")
    expected = decode(lf)
    for body in (crlf, cr, mixed):
        assert decode(body) == expected
        for i in range(len(body) + 1):
            assert decode(body[:i], body[i:]) == expected, (body, i)


def test_cr_and_lf_split_across_reads_are_one_line_end() -> None:
    assert decode(b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n") == [E("a\nb")]
    # a lone CR at the end of a read followed by a new line is two line ends
    assert decode(b"data: a\r", b"\rdata: b\r\r") == [E("a"), E("b")]


def test_split_inside_a_multibyte_character() -> None:
    body = "data: 🌏北\n\n".encode()
    for i in range(len(body)):
        assert decode(body[:i], body[i:]) == [E("🌏北")]


def test_invalid_utf8_is_replaced_not_fatal() -> None:
    assert decode(b"data: a\xffb\n\n") == [E("a\ufffdb")]


def test_comments_only_and_blank_lines_dispatch_nothing() -> None:
    assert decode(b": ping\n\n\n\n: more\r\n\r\n") == []


def test_field_without_colon_and_unknown_fields() -> None:
    assert decode(b"data\n\n") == [E("")]
    assert decode(b"event\ndata: x\n\n") == [E("x", "")]
    assert decode(b"foo: bar\ndata: x\n\n") == [E("x")]
    assert decode(b"foo: bar\n\n") == []  # nothing known: no event


def test_event_without_data_is_dispatched() -> None:
    assert decode(b"event: ping\n\n") == [E("", "ping")]


def test_id_with_nul_ignored_and_bad_retry_ignored() -> None:
    assert decode(b"id: 1\n\nid: a\x00b\ndata: x\n\n") == [E("", None, "1"), E("x", None, "1")]
    assert decode(b"retry: 12a\ndata: x\n\nretry: \xd9\xa3\ndata: y\n\n") == [E("x"), E("y")]


def test_retry_applies_to_its_event_only() -> None:
    assert decode(b"retry: 10\ndata: a\n\ndata: b\n\n") == [E("a", retry=10), E("b")]


def test_byte_order_mark_skipped_once() -> None:
    bom = "\ufeff".encode()
    assert decode(bom + b"data: x\n\n") == [E("x")]
    assert decode(bom[:1], bom[1:] + b"data: x\n\n") == [E("x")]
    # only at the very start: later, "\ufeffdata" is just an unknown field name
    assert decode(b"data: x\n\n" + bom + b"data: y\n\n") == [E("x")]


def test_flush_without_pending_data() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: a\n\n") == [E("a")]
    assert decoder.flush() == []
    assert decoder.feed(b"") == []


def test_flush_dispatches_an_event_whose_blank_line_never_came() -> None:
    assert decode(b"data: a\n") == [E("a")]
    assert decode(b"data: a") == [E("a")]
    assert decode(b"data: a\r") == [E("a")]


def test_feed_raw_matches_feed() -> None:
    decoder = SSEDecoder()
    raw = decoder.feed_raw(SAMPLE) + decoder.flush_raw()
    assert [ServerSentEvent(*fields) for fields in raw] == decode(SAMPLE)


def test_repr_and_equality() -> None:
    assert "message_start" in repr(E("x" * 200, "message_start"))
    assert E("a") != E("b")
    assert E("a") != "a"


def test_four_mib_event_is_never_rejoined_while_it_arrives() -> None:
    """Linear decoding: the pieces of an unfinished line are kept, not concatenated on every
    read (which would copy ~8 GiB here). Timing is measured in benchmarks/, not here."""
    payload = b"x" * (4 * 1024 * 1024)
    body = b"data: " + payload + b"\n\n"
    decoder = SSEDecoder()
    reads = [body[i : i + 1024] for i in range(0, len(body), 1024)]  # ~4096 reads of 1 KiB
    for chunk in reads[:-1]:
        assert decoder.feed(chunk) == []
    assert len(decoder._pending) == len(reads) - 1  # one piece per read, nothing joined
    events = decoder.feed(reads[-1])
    assert len(events) == 1 and events[0].data == payload.decode()
    assert decoder._pending == []


def test_many_small_events_in_one_read() -> None:
    body = b"".join(b"data: %d\n\n" % i for i in range(10000))
    events = decode(body)
    assert [e.data for e in events] == [str(i) for i in range(10000)]


LINES = st.sampled_from(
    [
        "data: x",
        "data:y",
        "data",
        "data: 北京🌏",
        "data:  two",
        "event: e1",
        "event:",
        "id: 5",
        "id",
        "retry: 30",
        "retry: x",
        ": comment",
        ":",
        "unknown: v",
        "",
        "",
        "",
    ]
)
ENDS = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def streams(draw: st.DrawFn) -> tuple[bytes, list[int]]:
    lines = draw(st.lists(st.tuples(LINES, ENDS), max_size=25))
    text = "".join(line + end for line, end in lines)
    if draw(st.booleans()) and lines:
        text = text.rstrip("\r\n")  # no trailing line end at all
    body = text.encode()
    cuts = sorted(draw(st.lists(st.integers(0, len(body)), max_size=12)))
    return body, cuts


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(streams())
def test_property_any_split_gives_the_events_of_the_whole(case: tuple[bytes, list[int]]) -> None:
    body, cuts = case
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    whole = decode(body)
    assert decode(*pieces) == whole
    assert whole == reference(body.decode())


def test_sse_flush_of_a_first_line_with_a_byte_order_mark() -> None:
    decoder = SSEDecoder()
    assert decoder.feed("\ufeffdata: only".encode()) == []
    assert [e.data for e in decoder.flush()] == ["only"]
