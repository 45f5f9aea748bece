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

Rules vs optimizations (see kimi_ext._core.streaming.stream): the standard's line and field rules, the
independence from how the bytes were split and the ``max_line`` cap are rules; the
per-block (not per-line) decoding, the ``data: `` prefix tested
first, measuring lines only for a read larger than the cap and the early ``del`` of big
intermediates are optimizations (``# rule:`` / ``# optimization:`` mark the spots).
"""

from __future__ import annotations

__all__ = ["RawEvent", "SSEDecoder", "SSELineTooLong", "ServerSentEvent"]

#: An event as ``(data, event, id, retry)``: what :meth:`SSEDecoder.feed_raw` returns.
RawEvent = tuple[str, str | None, str | None, int | None]


class SSELineTooLong(ValueError):
    """One line of the stream is longer than the decoder's ``max_line``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"an event-stream line is longer than max_body_size={limit} bytes")


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
        "_max_line",
        "_more",
        "_pending",
        "_pending_size",
        "_retry",
    )

    def __init__(self, *, max_line: int | None = None) -> None:
        self._max_line = max_line
        self._pending: list[bytes] = []  # the start of an unfinished line, in pieces
        self._pending_size = 0
        self._cr = False  # the last chunk ended with CR: a leading LF now belongs to it
        self._bom = True  # the first line has not been decoded yet
        self._data: str | None = None  # the first data line of the current event
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
        end = chunk.rfind(b"\n")
        if end < 0:
            self._hold(chunk)
            return []
        if self._pending:
            self._pending.append(chunk[:end])
            block = b"".join(self._pending)
            self._pending = []
            self._pending_size = 0
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
            self._hold(rest)
        return out

    def _hold(self, piece: bytes) -> None:
        """Keep the start of an unfinished line."""
        self._pending.append(piece)
        self._pending_size += len(piece)
        if self._max_line is not None and self._pending_size > self._max_line:
            raise SSELineTooLong(self._max_line)  # rule: the line cap

    def flush_raw(self) -> list[RawEvent]:
        """:meth:`flush`, returning ``(data, event, id, retry)`` tuples."""
        self._cr = False
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
                more = [data, value]
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
