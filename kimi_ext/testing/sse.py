"""Server-sent events as the stand-in writes them, and the generic stream faults."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from kimi_ext.testing.faults import FaultPlan
from kimi_ext.testing.replies import dump_json


@dataclass(frozen=True)
class SSEEvent:
    """One event: an optional ``event:`` name and a ``data:`` payload (or a comment line)."""

    data: str
    event: str | None = None
    comment: bool = False

    @classmethod
    def json(cls, payload: Any, event: str | None = None) -> SSEEvent:
        return cls(dump_json(payload), event)

    def encode(self) -> bytes:
        if self.comment:
            return f": {self.data}\n\n".encode()
        head = f"event: {self.event}\n" if self.event else ""
        lines = "".join(f"data: {line}\n" for line in self.data.split("\n"))
        text = head + lines + "\n"
        try:
            return text.encode()
        except UnicodeEncodeError:
            # A lone surrogate (split_surrogates): inside a JSON string, written as its
            # escape, the way such servers send each half.
            return _LONE.sub(lambda m: f"\\u{ord(m[0]):04x}", text).encode()


_LONE = re.compile("[\ud800-\udfff]")

Ending = Literal["end", "close"]


@dataclass
class StreamScript:
    """The bytes of a stream, event by event, and how it ends: ``end`` finishes the body
    properly (the terminating chunk), ``close`` drops the connection.

    ``pieces`` may be an iterator (a relayed stream, written as it arrives), which sets
    ``ending`` before it finishes; ``delays`` (one per piece) replace ``event_delay``.
    """

    pieces: Iterable[bytes]
    ending: Ending = "end"
    event_delay: float = 0.0
    hold: float = 0.0  # seconds the body stays open after the last piece (hold_open)
    keep_alive: bool = False  # ... writing SSE comments meanwhile
    delays: Sequence[float] | None = None


def script_stream(
    events: list[SSEEvent],
    faults: FaultPlan,
    error_event: Callable[[int], SSEEvent],
    event_delay: float,
) -> StreamScript:
    """Apply the generic stream faults to a complete event list.

    ``error_event(k)`` builds the format's in-stream error for position ``k``. The last event
    is the terminal one (``[DONE]``, ``message_stop``, ``response.completed``...), so a cut
    after ``k`` keeps at most ``len(events) - 1`` events.
    """
    pieces = [event.encode() for event in events]
    return script_pieces(pieces, faults, lambda k: error_event(k).encode(), event_delay)


def script_pieces(
    pieces: Sequence[bytes],
    faults: FaultPlan,
    error_piece: Callable[[int], bytes],
    event_delay: float,
    delays: Sequence[float] | None = None,
) -> StreamScript:
    """:func:`script_stream` for events already encoded (a recorded stream, one SSE event
    per piece, with the ``delays`` before each when its pacing is kept)."""
    given = delays if delays is not None else [event_delay] * len(pieces)
    timed = list(zip(pieces, given, strict=True))
    last = max(0, len(timed) - 1)
    fault = faults.first("error_event")
    if fault is not None:
        k = min(fault.after, last)
        timed = [*timed[:k], (error_piece(k), 0.0)]
    fault = faults.first("malformed_chunk")
    if fault is not None:
        k = min(fault.after, last)
        timed.insert(k, (broken_piece(timed[k][0]), 0.0))
        last += 1
    slow = faults.first("slow_events")
    out_delays: list[float] | None = [d for _, d in timed] if delays is not None else None
    delay = event_delay
    if slow is not None:
        delay, out_delays = slow.delay, None
    out = [piece for piece, _ in timed]
    fault = faults.first("cut_stream")
    if fault is not None:
        k = min(fault.after, last)
        return StreamScript(out[:k], "close", delay, delays=_first(out_delays, k))
    fault = faults.first("cut_mid_event")
    if fault is not None:
        k = min(fault.after, last)
        half = out[k][: max(1, len(out[k]) // 2)]
        return StreamScript([*out[:k], half], "close", delay, delays=_first(out_delays, k + 1))
    hold = faults.first("hold_open")
    if hold is not None:
        return StreamScript(out, "end", delay, hold.delay, hold.keep_alive, out_delays)
    return StreamScript(out, "end", delay, delays=out_delays)


def _first(delays: list[float] | None, k: int) -> list[float] | None:
    return None if delays is None else delays[:k]


def broken_piece(piece: bytes) -> bytes:
    """An event like ``piece`` whose data is cut in half (not valid JSON any more)."""
    text = piece.decode("utf-8", "surrogateescape")
    event: str | None = None
    data: list[str] = []
    for line in text.rstrip("\r\n").splitlines():
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[6:] if line.startswith("data: ") else line[5:])
        elif line.startswith(":") and not data:
            data.append(line[2:] if line.startswith(": ") else line[1:])  # a comment
    joined = "\n".join(data)
    return SSEEvent(joined[: max(1, len(joined) // 2)], event).encode()


def split_pairs(pieces: list[str]) -> list[str]:
    """The pieces with each character outside the BMP split into its UTF-16 halves across
    two pieces: the high surrogate ends one, the low one starts the next."""
    out: list[str] = []
    for piece in pieces:
        current = ""
        for char in piece:
            code = ord(char)
            if code > 0xFFFF:
                code -= 0x10000
                out.append(current + chr(0xD800 + (code >> 10)))
                current = chr(0xDC00 + (code & 0x3FF))
            else:
                current += char
        if current:
            out.append(current)
    return out


def split_text(text: str, size: int) -> list[str]:
    """Delta pieces of ``size`` characters (none for the empty string)."""
    size = max(1, size)
    return [text[i : i + size] for i in range(0, len(text), size)]
