"""The cassettes a stand-in is wrapped in: a player, a recorder, or both.

:meth:`KimiStandIn.replay <kimi_ext.testing.KimiStandIn.replay>` and
:meth:`~kimi_ext.testing.KimiStandIn.record` put them in front of the server's own answers;
the server keeps its service settings only. A recorder alone relays every request (a
recording proxy); a player answers a valid request that no rule answered, from the recorded
interactions; both: what no recording matches is forwarded and recorded (new episodes).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kimi_ext.keys import MIN_SEARCHED_KEY
from kimi_ext.testing.caching import CacheUse
from kimi_ext.testing.cassette import Interaction
from kimi_ext.testing.faults import FaultPlan
from kimi_ext.testing.formats import RENDERERS, Context, error_body
from kimi_ext.testing.matching import Matcher
from kimi_ext.testing.outcome import Outcome
from kimi_ext.testing.player import Mismatch, Player, Timing
from kimi_ext.testing.recorder import Recorder, UpstreamError, scrub_json
from kimi_ext.testing.recording import PATHS, RecordedRequest
from kimi_ext.testing.replies import PlannedOutput
from kimi_ext.testing.rules import RequestInfo, ServiceError
from kimi_ext.testing.scrub import Scrubber, UserScrubber

logger = logging.getLogger("kimi_ext.testing")

# What a renderer needs to write a format's in-stream error event into a replayed stream.
_ERROR_CONTEXTS = {
    fmt: Context(RequestInfo(fmt, ""), {}, PlannedOutput("", True, "", False), CacheUse(0))
    for fmt in PATHS.values()
}


class Deck:
    """The player and the recorder in front of one stand-in (neither: a plain stand-in)."""

    def __init__(self) -> None:
        self.player: Player | None = None
        self.recorder: Recorder | None = None
        self._lock = threading.Lock()
        self._mismatches: list[str] = []
        self._key_scrubbers: dict[str, Scrubber] = {}

    # ------------------------------------------------------------------ wrapping

    def load(
        self,
        cassettes: str | Path | Sequence[str | Path],
        *,
        timing: Timing,
        matcher: Matcher | None,
        allow_repeats: bool,
    ) -> None:
        """Replay ``cassettes`` (read now: :class:`~kimi_ext.testing.cassette.CassetteError`
        when one is missing or broken)."""
        if self.player is not None:
            raise ValueError("the stand-in already replays cassettes: name them all in one call")
        sources = [cassettes] if isinstance(cassettes, str | Path) else list(cassettes)
        self.player = Player(
            sources, matcher or Matcher(), timing=timing, allow_repeats=allow_repeats
        )
        self._wire()

    def attach(
        self,
        cassette: str | Path,
        upstream: str,
        *,
        scrubbers: Sequence[UserScrubber],
        keep_headers: Sequence[str],
    ) -> None:
        """Forward to ``upstream`` and record into ``cassette``."""
        if self.recorder is not None:
            raise ValueError("the stand-in already records")
        self.recorder = Recorder(cassette, upstream, scrubbers=scrubbers, keep_headers=keep_headers)
        self._wire()

    def _wire(self) -> None:
        # Both: what is recorded meanwhile signs thinking the player must accept back.
        if self.player is not None and self.recorder is not None:
            self.recorder.on_recorded = self.player.learn

    # ------------------------------------------------------------------ state

    @property
    def relays_all(self) -> bool:
        """A recorder alone: every request is forwarded as it is (a recording proxy)."""
        return self.recorder is not None and self.player is None

    @property
    def mismatches(self) -> list[str]:
        """The error message of each request no recording answered (a copy)."""
        with self._lock:
            return list(self._mismatches)

    def unused(self) -> list[Interaction]:
        """The recorded interactions no request took (none when not replaying)."""
        return self.player.unused() if self.player is not None else []

    def problems(self) -> list[str]:
        """Each request no recording matched, then each interaction that went unused."""
        return [*self.mismatches, *(f"unused: {i.describe()}" for i in self.unused())]

    def forget(self) -> None:
        """Forget the mismatches seen so far."""
        with self._lock:
            self._mismatches.clear()

    def knows_signature(self, thinking: str, signature: str) -> bool:
        """Whether a recording carries ``signature`` for ``thinking``."""
        return self.player is not None and self.player.knows_signature(thinking, signature)

    def scrub(self, text: str) -> str:
        """``text`` with the keys a recorder has seen taken out (a log line)."""
        return self.recorder.scrubber.scrub(text) if self.recorder is not None else text

    def close(self) -> None:
        """Close the recorder's connections to the upstream."""
        if self.recorder is not None:
            self.recorder.close()

    # ------------------------------------------------------------------ answering

    def forward(self, record: RecordedRequest, raw_path: str, fmt: str | None) -> Outcome:
        """Relay the request to the upstream and record the exchange (a 502 when the
        upstream cannot be reached)."""
        recorder = self.recorder
        assert recorder is not None
        try:
            headers = record.forwarded if record.forwarded is not None else record.headers
            return recorder.forward(record.method, raw_path, headers, record.body)
        except UpstreamError as exc:
            logger.error("stand-in recorder: %s", exc)
            err = ServiceError(502, f"stand-in recorder: {exc}", error_type="upstream_error")
            out = Outcome(err.status, error_body(fmt or "chat", err, record.request_id))
            out.headers["x-request-id"] = record.request_id
            return out

    def replay(
        self, record: RecordedRequest, fmt: str, faults: FaultPlan, raw_path: str
    ) -> Outcome:
        """The recorded answer to ``record``, or a 400 naming the closest recording (with
        a recorder: the upstream's answer, recorded)."""
        player = self.player
        assert player is not None
        body = self._without_key(record)
        found = player.take(record.method, record.path, raw_path.partition("?")[2], body)
        if not isinstance(found, Mismatch):
            error = RENDERERS[fmt](_ERROR_CONTEXTS[fmt]).error_event
            return player.outcome(found, faults, lambda k: error(k).encode())
        if self.recorder is not None:
            return self.forward(record, raw_path, fmt)
        logger.error("stand-in: %s", found.message)
        with self._lock:
            self._mismatches.append(found.message)
        err = ServiceError(400, found.message, error_type="cassette_mismatch")
        return Outcome(err.status, error_body(fmt, err, record.request_id))

    def _without_key(self, record: RecordedRequest) -> Any:
        """The request body with the key it was sent with scrubbed (as a recording is)."""
        headers = record.forwarded if record.forwarded is not None else record.headers
        token = headers.get("authorization", "").strip().partition(" ")[2].strip()
        if len(token) < MIN_SEARCHED_KEY or token.encode() not in record.body:
            return record.json
        with self._lock:
            scrubber = self._key_scrubbers.get(token)
            if scrubber is None:
                scrubber = self._key_scrubbers[token] = Scrubber()
                scrubber.add_secret(token)
        return scrub_json(record.json, scrubber)
