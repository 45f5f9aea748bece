"""Replaying cassettes: the recorded answer for each request, as the service sent it.

The stand-in checks each request at its front door as usual (key, contract, history), then
asks the :class:`Player` for the recorded interaction it matches (:mod:`.matching`). Each
interaction answers once, in the order recorded (a retried request gets the next one);
``allow_repeats`` lets the last match answer again. A stream is replayed frame by frame,
at its recorded pace (``timing="recorded"``) or as fast as possible (``"fast"``: the frames
are written in large pieces, byte for byte the same), and the generic stream faults act on
the recorded frames (:func:`kimi_ext.testing.sse.script_pieces`): ``Fault.cut_stream(after=k)``
sends the first *k* recorded events and drops the connection.

The Messages thinking signatures the recorded service issued, in its answers and in the
histories recorded requests sent back, are accepted when they come back
(:meth:`Player.knows_signature`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from kimi_ext.testing.cassette import Cassette, CassetteError, Interaction, cassette_files
from kimi_ext.testing.faults import FaultPlan
from kimi_ext.testing.matching import Matcher, differences
from kimi_ext.testing.outcome import Outcome
from kimi_ext.testing.sse import StreamScript, script_pieces

__all__ = ["COALESCE", "Mismatch", "Player", "Timing"]

Timing = Literal["fast", "recorded"]
COALESCE = 64 * 1024  # bytes per write when replaying as fast as possible


# The faults that change a replayed stream's bytes or pace.
_STREAM_FAULTS = ("error_event", "malformed_chunk", "slow_events", "cut_stream", "cut_mid_event",
                  "hold_open")  # fmt: skip


@dataclass
class _Entry:
    interaction: Interaction
    canonical: Any
    pieces: list[bytes]
    delays: list[float]
    uses: int = 0
    chunks: list[bytes] | None = None  # the pieces in large writes, made once


@dataclass(frozen=True)
class Mismatch:
    """A request no recorded interaction answers, and why (names the closest one)."""

    message: str


@dataclass
class Player:
    """The interactions of the cassettes at ``sources`` (files or folders), to replay."""

    sources: Sequence[str | Path]
    matcher: Matcher = field(default_factory=Matcher)
    timing: Timing = "fast"
    allow_repeats: bool = False
    mismatches: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.timing not in ("fast", "recorded"):
            raise ValueError(f"timing must be 'fast' or 'recorded', not {self.timing!r}")
        self._lock = threading.Lock()
        self._entries: list[_Entry] = []
        self._signatures: set[tuple[str, str]] = set()
        self.cassettes: list[Cassette] = []
        for source in self.sources:
            files = cassette_files(source)
            if not files or not files[0].exists():
                raise CassetteError(f"{source}: no cassette there")
            for path in files:
                self.add(Cassette.load(path))

    def add(self, cassette: Cassette) -> None:
        """Replay ``cassette``'s interactions too."""
        self.cassettes.append(cassette)
        for interaction in cassette.interactions:
            frames = interaction.reply.frames or []
            entry = _Entry(
                interaction,
                self.matcher.canonical(interaction.body),
                [f.data for f in frames],
                [f.delay for f in frames],
            )
            self._entries.append(entry)
            self._signatures |= _signatures(interaction)

    # ------------------------------------------------------------------ matching

    def learn(self, interaction: Interaction) -> None:
        """Accept the signatures of an interaction recorded meanwhile (new episodes)."""
        found = _signatures(interaction)
        with self._lock:
            self._signatures |= found

    def knows_signature(self, thinking: str, signature: str) -> bool:
        """Whether the recorded service signed ``thinking`` with ``signature``."""
        return (thinking, signature) in self._signatures

    def take(self, method: str, path: str, query: str, body: Any) -> _Entry | Mismatch:
        """The interaction that answers this request (marked used), or why none does."""
        canonical = self.matcher.canonical(body)
        with self._lock:
            same_route = [
                e
                for e in self._entries
                if e.interaction.method == method
                and e.interaction.path == path
                and (not self.matcher.query or e.interaction.query == query)
            ]
            matching = [e for e in same_route if e.canonical == canonical]
            for entry in matching:
                if entry.uses == 0:
                    entry.uses += 1
                    return entry
            if matching and self.allow_repeats:
                matching[-1].uses += 1
                return matching[-1]
        return self._explain(method, path, query, canonical, same_route, matching)

    def _explain(
        self,
        method: str,
        path: str,
        query: str,
        canonical: Any,
        same_route: list[_Entry],
        matching: list[_Entry],
    ) -> Mismatch:
        route = f"{method} {path}"
        if matching:
            return Mismatch(
                f"cassette: the {len(matching)} recorded interaction(s) matching {route} were "
                f"all used ({matching[0].interaction.describe()}); record the extra request, "
                "or replay with allow_repeats"
            )
        if not same_route:
            queries = sorted(
                {
                    e.interaction.query
                    for e in self._entries
                    if e.interaction.method == method and e.interaction.path == path
                }
            )
            if queries:
                return Mismatch(
                    f"cassette: no recorded interaction for {route} with the query {query!r} "
                    f"(recorded: {', '.join(map(repr, queries))})"
                )
            held = sorted({f"{e.interaction.method} {e.interaction.path}" for e in self._entries})
            return Mismatch(
                f"cassette: no recorded interaction for {route} (the cassettes hold: "
                f"{', '.join(held) or 'nothing'})"
            )
        scored = [(differences(e.canonical, canonical), e) for e in same_route]
        diffs, closest = min(scored, key=lambda pair: len(pair[0]))
        shown = "; ".join(d.describe() for d in diffs[:5])
        more = f" (and {len(diffs) - 5} more)" if len(diffs) > 5 else ""
        return Mismatch(
            f"cassette: no recorded interaction matches {route}; the closest is "
            f"{closest.interaction.describe()}, which differs at {shown}{more}"
        )

    # ------------------------------------------------------------------ answering

    def outcome(
        self, entry: _Entry, faults: FaultPlan, error_piece: Callable[[int], bytes]
    ) -> Outcome:
        """The recorded answer, with the generic faults applied to a stream."""
        reply = entry.interaction.reply
        recorded = self.timing == "recorded"
        out = Outcome(reply.status, headers=dict(reply.headers), verbatim=True)
        out.delay = reply.delay if recorded else 0.0
        if reply.frames is None:
            out.raw = reply.body or b""
            return out
        ending: Literal["end", "close"] = "close" if reply.ending == "close" else "end"
        if not recorded and not any(faults.has(kind) for kind in _STREAM_FAULTS):
            # The common case: the same large writes every time, made once.
            if entry.chunks is None:
                entry.chunks = _coalesce(entry.pieces)
            out.stream = StreamScript(entry.chunks, ending)
            return out
        script = script_pieces(
            entry.pieces, faults, error_piece, 0.0, entry.delays if recorded else None
        )
        if ending == "close":
            script.ending = "close"  # the service dropped it: so does the replay
        if script.delays is None and script.event_delay == 0:
            script.pieces = _coalesce(script.pieces)
        out.stream = script
        return out

    def unused(self) -> list[Interaction]:
        """The interactions no request took."""
        with self._lock:
            return [e.interaction for e in self._entries if e.uses == 0]


def _coalesce(pieces: Iterable[bytes]) -> list[bytes]:
    out: list[bytes] = []
    batch: list[bytes] = []
    size = 0
    for piece in pieces:
        batch.append(piece)
        size += len(piece)
        if size >= COALESCE:
            out.append(b"".join(batch))
            batch, size = [], 0
    if batch:
        out.append(b"".join(batch))
    return out


def _thinking_blocks(content: Any) -> Iterable[tuple[str, str]]:
    for block in content if isinstance(content, list) else ():
        if isinstance(block, dict) and block.get("type") == "thinking":
            thinking, signature = block.get("thinking"), block.get("signature")
            if isinstance(thinking, str) and isinstance(signature, str) and signature:
                yield thinking, signature


def _signatures(interaction: Interaction) -> set[tuple[str, str]]:
    """The (thinking, signature) pairs in a recorded Messages exchange."""
    if interaction.path != "/v1/messages":
        return set()
    found: set[tuple[str, str]] = set()
    body = interaction.body
    if isinstance(body, dict):
        for message in body.get("messages") or ():
            if isinstance(message, dict):
                found.update(_thinking_blocks(message.get("content")))
    reply = interaction.reply
    if reply.body is not None:
        try:
            answer = json.loads(reply.body)
        except ValueError:
            answer = None
        if isinstance(answer, dict):
            found.update(_thinking_blocks(answer.get("content")))
    blocks: dict[int, dict[str, str]] = {}
    for frame in reply.frames or ():
        event = _data(frame.data)
        kind = event.get("type")
        index = event.get("index")
        if kind == "content_block_start" and isinstance(index, int):
            block = event.get("content_block") or {}
            if block.get("type") == "thinking":
                blocks[index] = {
                    "thinking": str(block.get("thinking") or ""),
                    "signature": str(block.get("signature") or ""),
                }
        elif kind == "content_block_delta" and index in blocks:
            delta = event.get("delta") or {}
            if delta.get("type") == "thinking_delta":
                blocks[index]["thinking"] += str(delta.get("thinking") or "")
            elif delta.get("type") == "signature_delta":
                blocks[index]["signature"] += str(delta.get("signature") or "")
    found.update((b["thinking"], b["signature"]) for b in blocks.values() if b["signature"])
    return found


def _data(frame: bytes) -> dict[str, Any]:
    lines = [
        line[6:] if line.startswith("data: ") else line[5:]
        for line in frame.decode("utf-8", "replace").splitlines()
        if line.startswith("data:")
    ]
    try:
        event = json.loads("\n".join(lines)) if lines else None
    except ValueError:
        return {}
    return event if isinstance(event, dict) else {}
