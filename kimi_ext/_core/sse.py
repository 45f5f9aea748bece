"""A fast, incremental Server-Sent Events decoder.

Feed it the bytes as they arrive, in chunks of any size; it returns the events that are
complete so far. The result never depends on how the bytes were split (an event, a line,
a CR LF pair or a multi-byte UTF-8 character may be cut anywhere), and the work is linear
in the length of the stream: a line that spans many reads is kept as a list of pieces and
joined once, and each read is scanned a fixed number of times, never re-scanned later.

    decoder = SSEDecoder()
    for chunk in response.iter_bytes():
        for event in decoder.feed(chunk):
            ...
    for event in decoder.flush():  # a last event without its blank line
        ...

``feed_raw`` / ``flush_raw`` return plain ``(data, event, id, retry)`` tuples instead of
:class:`ServerSentEvent` objects; the streams use them.

A decoder made with ``long_line=`` hands a ``data`` line that grows past ``long_line_at``
bytes, as its bytes arrive, to a sink that factory makes (or reads it whole if the
factory returns None) (the streams use
:class:`~kimi_ext._core.longjson.LongJSONLine`, which parses the JSON without holding the line
twice); the event's ``data`` is then what the sink's ``close()`` returns. Only a line that
spans reads can go to the sink, so that depends on the split; the text does not.

A decoder made with ``max_line=`` raises :class:`SSELineTooLong` as soon as one line
grows past that many bytes, so a hostile stream cannot fill memory with one endless line.

Decoding follows the HTML Living Standard ("event stream interpretation"): LF, CR LF and
CR all end a line; ``data`` lines are joined with ``\\n``; lines starting with ``:`` are
comments; a line with no colon is a field with an empty value; one space after the colon
is dropped; ``id`` persists until changed (an ``id`` containing NUL is ignored); ``retry``
is used only when it is all ASCII digits; a leading byte-order mark is skipped. Two
deliberate differences: an event is dispatched when any of its fields (``data``,
``event``, ``id``, ``retry``) was seen, not only when it carried data, and :meth:`flush`
dispatches a last event that lacks its closing blank line instead of dropping it.

Rules vs optimizations (see kimi_ext._core.streaming): the standard's line and field rules, the
independence from how the bytes were split and the ``max_line`` cap are rules; handing
long lines to a sink, the per-block (not per-line) decoding, the ``data: `` prefix tested
first, measuring lines only for a read larger than the cap and the early ``del`` of big
intermediates are optimizations (``# rule:`` / ``# optimization:`` mark the spots).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["LineSink", "RawEvent", "SSEDecoder", "SSELineTooLong", "ServerSentEvent"]

#: An event as ``(data, event, id, retry)``: what :meth:`SSEDecoder.feed_raw` returns.
#: ``data`` is a str, or what a long line's sink returned (see ``long_line``).
RawEvent = tuple[Any, str | None, str | None, int | None]

#: The default size from which a ``data`` line goes to the ``long_line`` sink.
LONG_LINE = 1 << 16

_BOM = b"\xef\xbb\xbf"


class SSELineTooLong(ValueError):
    """One line of the stream is longer than the decoder's ``max_line``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"an event-stream line is longer than max_body_size={limit} bytes")


class LineSink(Protocol):
    """Takes one long ``data`` line's bytes (without ``data:``) as they arrive."""

    def feed(self, chunk: bytes) -> None: ...

    def close(self) -> Any:
        """The line ended: the event's ``data``, a str or an object with a ``text()``
        method that gives the line's text (needed if another ``data`` line follows)."""
        ...


class ServerSentEvent:
    """One decoded event. ``data`` is the joined ``data`` lines ("" when there were none)."""

    __slots__ = ("data", "event", "id", "retry")

    def __init__(
        self,
        data: str = "",
        event: str | None = None,
        id: str | None = None,
        retry: int | None = None,
    ) -> None:
        self.data = data
        self.event = event
        self.id = id
        self.retry = retry

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ServerSentEvent):
            return NotImplemented
        return (self.data, self.event, self.id, self.retry) == (
            other.data,
            other.event,
            other.id,
            other.retry,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        data = self.data if len(self.data) <= 80 else self.data[:77] + "..."
        return (
            f"ServerSentEvent(event={self.event!r}, data={data!r}, id={self.id!r}, "
            f"retry={self.retry!r})"
        )


class SSEDecoder:
    """Incremental SSE decoder: :meth:`feed` bytes, then :meth:`flush` at the end."""

    __slots__ = (
        "_bom",
        "_cr",
        "_data",
        "_dirty",
        "_event",
        "_id",
        "_long_at",
        "_long_line",
        "_max_line",
        "_more",
        "_pending",
        "_pending_size",
        "_read_whole",
        "_retry",
        "_sink",
        "_sink_size",
    )

    def __init__(
        self,
        *,
        long_line: Callable[[], LineSink | None] | None = None,
        long_line_at: int = LONG_LINE,
        max_line: int | None = None,
    ) -> None:
        self._long_line = long_line
        self._long_at = long_line_at
        self._max_line = max_line
        self._sink: LineSink | None = None  # the long data line being received
        self._sink_size = 0
        self._read_whole = False  # the current line is not handed over
        self._pending: list[bytes] = []  # the start of an unfinished line, in pieces
        self._pending_size = 0
        self._cr = False  # the last chunk ended with CR: a leading LF now belongs to it
        self._bom = True  # the first line has not been decoded yet
        self._data: Any = None  # a str, or what a long line's sink returned
        self._more: list[str] | None = None
        self._event: str | None = None
        self._id: str | None = None
        self._retry: int | None = None
        self._dirty = False  # a field of the current event has been seen

    def feed(self, chunk: bytes) -> list[ServerSentEvent]:
        """Decode a chunk; return the events it completed (possibly none)."""
        return [ServerSentEvent(*fields) for fields in self.feed_raw(chunk)]

    def flush(self) -> list[ServerSentEvent]:
        """End of stream: decode an unfinished last line and dispatch a pending event."""
        return [ServerSentEvent(*fields) for fields in self.flush_raw()]

    def feed_raw(self, chunk: bytes) -> list[RawEvent]:
        """:meth:`feed`, returning ``(data, event, id, retry)`` tuples (cheaper)."""
        if not chunk:
            return []
        if self._cr:
            self._cr = False
            if chunk[0] == 10:  # the LF of a CR LF split across two reads
                chunk = chunk[1:]
                if not chunk:
                    return []
        if b"\r" in chunk:
            self._cr = chunk[-1] == 13
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        if self._sink is not None:  # optimization: a long line goes to its sink
            end = chunk.find(b"\n")
            self._sink_size += len(chunk) if end < 0 else end
            if self._max_line is not None and self._sink_size > self._max_line:
                raise SSELineTooLong(self._max_line)  # rule: the line cap
            if end < 0:
                self._sink.feed(chunk)
                return []
            self._sink.feed(chunk[:end])
            self._end_long_line()
            chunk = chunk[end + 1 :]
            if not chunk:
                return []
        end = chunk.rfind(b"\n")
        if end < 0:
            self._hold(chunk)
            return []
        if self._pending:
            self._pending.append(chunk[:end])
            block = b"".join(self._pending)
            self._pending = []
            self._pending_size = 0
            self._read_whole = False
        else:
            block = chunk[:end]
        rest = chunk[end + 1 :]
        del chunk
        # optimization: rare (a read larger than the cap): only then are the lines measured.
        if (
            self._max_line is not None
            and len(block) > self._max_line
            and max(map(len, block.split(b"\n"))) > self._max_line
        ):
            raise SSELineTooLong(self._max_line)
        # Line ends are ASCII, so a complete line never ends inside a UTF-8 sequence.
        text = block.decode("utf-8", "replace")
        del block  # optimization: a large event is not held as bytes, text and lines at once
        if self._bom:
            self._bom = False
            if text.startswith("\ufeff"):
                text = text[1:]
        lines = text.split("\n")
        del text
        out = self._lines(lines)
        if rest:
            self._hold(rest)  # after the lines: whether a data line came first matters
        return out

    def _hold(self, piece: bytes) -> None:
        """Keep the start of an unfinished line; a long ``data`` line goes to a sink."""
        self._pending.append(piece)
        self._pending_size += len(piece)
        if self._max_line is not None and self._pending_size > self._max_line:
            raise SSELineTooLong(self._max_line)  # rule: the line cap
        if (  # optimization: a long data line goes to a sink
            self._pending_size >= self._long_at
            and self._long_line is not None
            and self._data is None  # else it is a second data line: joined as text
            and not self._read_whole
        ):
            self._start_long_line()

    def _start_long_line(self) -> None:
        head = b""
        for part in self._pending:
            head += part[:16]
            if len(head) >= 16:
                break
        skip = 3 if self._bom and head.startswith(_BOM) else 0
        if len(head) < skip + 6:
            return  # too soon to tell whether a space follows "data:"
        if not head.startswith(b"data:", skip):
            self._read_whole = True  # not a data line
            return
        skip += 6 if head[skip + 5 : skip + 6] == b" " else 5
        assert self._long_line is not None
        sink = self._long_line()
        if sink is None:
            self._read_whole = True
            return
        self._sink = sink
        self._sink_size = self._pending_size
        self._bom = False
        self._dirty = True
        for part in self._pending:
            if skip >= len(part):
                skip -= len(part)
                continue
            sink.feed(part[skip:] if skip else part)
            skip = 0
        self._pending = []
        self._pending_size = 0

    def _end_long_line(self) -> None:
        """The long data line ended: what its sink returns is the event's data."""
        assert self._sink is not None
        self._data = self._sink.close()
        self._sink = None

    def flush_raw(self) -> list[RawEvent]:
        """:meth:`flush`, returning ``(data, event, id, retry)`` tuples."""
        self._cr = False
        self._read_whole = False
        if self._sink is not None:
            self._end_long_line()
        lines = [""]
        if self._pending:
            text = b"".join(self._pending).decode("utf-8", "replace")
            self._pending = []
            self._pending_size = 0
            if self._bom:
                self._bom = False
                if text.startswith("\ufeff"):
                    text = text[1:]
            lines.insert(0, text)
        return self._lines(lines)

    def _lines(self, lines: list[str]) -> list[RawEvent]:
        out: list[RawEvent] = []
        data = self._data  # the first data line of the current event, if any
        more = self._more  # all its data lines, once there is more than one
        event = self._event
        last_id = self._id
        retry = self._retry
        dirty = self._dirty
        for line in lines:
            if not line:
                if dirty:  # rule: dispatched when any field was seen (see above)
                    if more is not None:
                        data = "\n".join(more)
                        more = None
                    out.append((data if data is not None else "", event, last_id, retry))
                    data = event = None
                    retry = None
                    dirty = False
                continue
            if line.startswith("data: "):  # optimization: the usual field, tested first
                value = line[6:]
            elif line.startswith("event: "):
                event = line[7:]
                dirty = True
                continue
            elif line.startswith(":"):
                continue  # a comment (often a keep-alive)
            else:
                colon = line.find(":")
                if colon < 0:
                    name, value = line, ""
                else:
                    name = line[:colon]
                    value = (
                        line[colon + 2 :] if line.startswith(" ", colon + 1) else line[colon + 1 :]
                    )
                if name != "data":
                    if name == "event":
                        event = value
                        dirty = True
                    elif name == "id":
                        if "\0" not in value:
                            last_id = value
                            dirty = True
                    elif name == "retry" and value.isascii() and value.isdigit():
                        retry = int(value)
                        dirty = True
                    continue  # any other field name is ignored, as the standard says
            if data is None:
                data = value
            elif more is None:
                more = [data if type(data) is str else data.text(), value]
            else:
                more.append(value)
            dirty = True
        self._data = data
        self._more = more
        self._event = event
        self._id = last_id
        self._retry = retry
        self._dirty = dirty
        return out
