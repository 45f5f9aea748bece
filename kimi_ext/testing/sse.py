"""Server-sent events as the stand-in writes them, and the generic stream faults."""

from __future__ import annotations

import re
from collections.abc import Callable
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
    properly (the terminating chunk), ``close`` drops the connection."""

    pieces: list[bytes]
    ending: Ending = "end"
    event_delay: float = 0.0
    hold: float = 0.0  # seconds the body stays open after the last piece (hold_open)
    keep_alive: bool = False  # ... writing SSE comments meanwhile


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
    events = list(events)
    last = max(0, len(events) - 1)
    fault = faults.first("error_event")
    if fault is not None:
        k = min(fault.after, last)
        events = [*events[:k], error_event(k)]
    fault = faults.first("malformed_chunk")
    if fault is not None:
        k = min(fault.after, last)
        source = events[k]
        broken = SSEEvent(source.data[: max(1, len(source.data) // 2)], source.event)
        events.insert(k, broken)
        last += 1
    pieces = [event.encode() for event in events]
    slow = faults.first("slow_events")
    delay = slow.delay if slow is not None else event_delay
    fault = faults.first("cut_stream")
    if fault is not None:
        return StreamScript(pieces[: min(fault.after, last)], "close", delay)
    fault = faults.first("cut_mid_event")
    if fault is not None:
        k = min(fault.after, last)
        half = pieces[k][: max(1, len(pieces[k]) // 2)]
        return StreamScript([*pieces[:k], half], "close", delay)
    hold = faults.first("hold_open")
    if hold is not None:
        return StreamScript(pieces, "end", delay, hold.delay, hold.keep_alive)
    return StreamScript(pieces, "end", delay)


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
