"""The text a stream sends in pieces, joined: where a secret split across frames shows.

A service streams text a few characters per event (Chat ``delta.content``, Messages
``text_delta`` / ``thinking_delta`` / ``input_json_delta``, Responses ``*.delta``...), so a
piece of the key the model echoes may be cut in two by a frame boundary, and no single frame
holds 8 characters of it. :func:`channels` joins, in frame order, the strings that sit at the
same place of each event (the same field path, and the same ``index`` / ``output_index`` /
``content_index`` / ``item_id`` / ``summary_index`` along it): one channel per streamed
field, whatever the format. :func:`scrub_frames` replaces what a scrubber finds in a joined
channel (a piece of a key, a user's literal string or pattern match) in the frames that
carry it (``<redacted>`` in the first, the rest removed), and rewrites only those frames.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from kimi_ext.testing.scrub import REDACTED, Scrubber

__all__ = ["Channel", "Segment", "channels", "scrub_frames"]

# The fields that say which block, item or choice a streamed string belongs to.
_IDENTITY = ("index", "output_index", "content_index", "summary_index", "item_id")

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Segment:
    """One frame's share of a channel: the frame, the string's path in its event, where the
    string starts in the joined text, and the string."""

    frame: int
    path: Path
    start: int
    text: str


@dataclass
class Channel:
    """A streamed field's strings, joined in frame order."""

    segments: list[Segment] = field(default_factory=list)
    text: str = ""

    def frames(self, start: int, end: int) -> list[int]:
        """The frames that carry ``text[start:end]``."""
        return [s.frame for s in self.segments if s.start < end and s.start + len(s.text) > start]


def event_of(frame: bytes) -> Any:
    """The decoded JSON of an SSE event's ``data`` (None when there is none, or it is not
    JSON)."""
    try:
        lines = _lines(frame.decode("utf-8"))
    except UnicodeDecodeError:
        return None
    data = [_data(line) for line in lines if line.startswith("data:")]
    if not data:
        return None
    try:
        return json.loads("\n".join(data))
    except ValueError:
        return None


def _lines(text: str) -> list[str]:
    """The lines of an SSE event, each with its end (only CR, LF and CRLF end a line:
    ``str.splitlines`` would also split at a U+2028 inside the JSON)."""
    return [line for line in _LINE.findall(text) if line]


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def _data(line: str) -> str:
    """The value of a ``data:`` line, without its line end."""
    return line.rstrip("\r\n")[5:].removeprefix(" ")


def _strings(node: Any, path: Path, key: tuple[Any, ...]) -> Iterator[tuple[Any, Path, str]]:
    """(channel key, path, string) of every string value under ``node``."""
    if isinstance(node, str):
        yield key, path, node
    elif isinstance(node, dict):
        ident = tuple(
            (name, node[name])
            for name in _IDENTITY
            if isinstance(node.get(name), int | str) and not isinstance(node.get(name), bool)
        )
        for name, value in node.items():
            yield from _strings(value, (*path, name), (*key, *ident, name))
    elif isinstance(node, list):
        for n, value in enumerate(node):
            # A list member that names its index (a choice, a tool call) is placed by it.
            index = value.get("index") if isinstance(value, dict) else None
            place = index if isinstance(index, int) and not isinstance(index, bool) else n
            yield from _strings(value, (*path, n), (*key, ("at", place)))


def channels(frames: Sequence[bytes]) -> list[Channel]:
    """The streamed fields of ``frames`` (SSE events), each with its text joined."""
    found: dict[tuple[Any, ...], tuple[Channel, list[int]]] = {}
    for n, frame in enumerate(frames):
        event = event_of(frame)
        if not isinstance(event, dict | list):
            continue
        for key, path, text in _strings(event, (), ()):
            if not text:
                continue
            channel, size = found.setdefault(key, (Channel(), [0]))
            channel.segments.append(Segment(n, path, size[0], text))
            size[0] += len(text)
    # Joined once (a long stream has thousands of segments).
    for channel, _ in found.values():
        channel.text = "".join(s.text for s in channel.segments)
    return [channel for channel, _ in found.values()]


def scrub_frames(frames: Sequence[bytes], scrubber: Scrubber) -> list[bytes]:
    """``frames`` with every secret the scrubber finds in a joined channel removed (the
    frames it does not touch are returned as they were, byte for byte)."""
    # (frame, path) -> the (start, end, replacement) edits of that string, in its own offsets
    edits: dict[tuple[int, Path], list[tuple[int, int, str]]] = {}
    for channel in channels(frames):
        if len(channel.segments) < 2:
            continue  # one frame's string: the frame's own scrub saw it whole
        for start, end in scrubber.spans(channel.text, user=True):
            first = True
            for segment in channel.segments:
                low = max(start, segment.start) - segment.start
                high = min(end, segment.start + len(segment.text)) - segment.start
                if low >= high:
                    continue
                replacement = REDACTED if first else ""
                first = False
                edits.setdefault((segment.frame, segment.path), []).append((low, high, replacement))
    if not edits:
        return list(frames)
    out = list(frames)
    for n in sorted({frame for frame, _ in edits}):
        event = event_of(frames[n])
        for (frame, path), changes in edits.items():
            if frame == n:
                _edit(event, path, changes)
        out[n] = _rewrite(frames[n], event)
    return out


def _edit(event: Any, path: Path, changes: list[tuple[int, int, str]]) -> None:
    parent = event
    for step in path[:-1]:
        parent = parent[step]
    text: str = parent[path[-1]]
    for low, high, replacement in sorted(changes, reverse=True):
        text = text[:low] + replacement + text[high:]
    parent[path[-1]] = text


# How the service may have spaced its JSON; the first that reproduces the data is reused.
_STYLES: tuple[dict[str, Any], ...] = (
    {"separators": (",", ":"), "ensure_ascii": False},
    {"separators": (",", ":"), "ensure_ascii": True},
    {"separators": (", ", ": "), "ensure_ascii": False},
    {"separators": (", ", ": "), "ensure_ascii": True},
)


def _rewrite(frame: bytes, event: Any) -> bytes:
    """``frame`` with its data replaced by ``event``, spaced as the original was."""
    lines = _lines(frame.decode("utf-8"))
    at = [i for i, line in enumerate(lines) if line.startswith("data:")]
    bare = [lines[i].rstrip("\r\n") for i in at]
    prefix = "data: " if bare[0].startswith("data: ") else "data:"
    original = "\n".join(_data(lines[i]) for i in at)
    parsed = json.loads(original)
    style = next((s for s in _STYLES if json.dumps(parsed, **s) == original), _STYLES[0])
    data = json.dumps(event, **style)
    try:
        data.encode("utf-8")
    except UnicodeEncodeError:  # half a surrogate pair: only an escape carries it
        data = json.dumps(event, **{**style, "ensure_ascii": True})
    ending = lines[at[0]][len(bare[0]) :] or "\n"
    lines[at[0]] = prefix + data + ending
    for i in reversed(at[1:]):  # a multi-line data field becomes one line
        del lines[i]
    return "".join(lines).encode("utf-8")
