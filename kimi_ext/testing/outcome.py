"""What the stand-in's HTTP layer sends back for one request."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kimi_ext.testing.sse import StreamScript


@dataclass
class Outcome:
    """One answer: a JSON ``body`` (or ``raw`` bytes sent as they are, with the
    ``content-type`` in ``headers``), or a ``stream``; ``delay`` before anything is sent;
    ``disconnect`` closes the connection without an answer."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    stream: StreamScript | None = None
    delay: float = 0.0
    disconnect: bool = False
    raw: bytes | None = None
    verbatim: bool = False  # the service's own answer (relayed or replayed): no headers added
