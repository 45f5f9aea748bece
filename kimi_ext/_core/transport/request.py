"""A request ready to send: :class:`Prepared`, what :mod:`.building` makes and
:mod:`.sending` sends (its own module, so the sender does not depend on the builder)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx

__all__ = ["UNSET_TIMEOUT", "Prepared"]

# "Not given for this call": the client's own setting applies.
UNSET_TIMEOUT = object()


@dataclass
class Prepared:
    """A request ready to send to any base URL (the sender picks it per attempt)."""

    method: str
    path: str
    headers: dict[str, str]
    content: bytes
    timeout: httpx.Timeout | float | object | None
    max_retries: int | None
    stream: bool
    deadline: float | object | None = None  # UNSET_TIMEOUT: the client's
    # The dict the content was encoded from (hooks read its top-level fields without
    # decoding the bytes again); None when the request was made some other way.
    built: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def body(self) -> Any:
        """The JSON body as sent, decoded from :attr:`content` (for inspection: the sender
        uses the bytes only)."""
        return json.loads(self.content)

    def __repr__(self) -> str:
        # Not the headers (extra_headers may carry credentials) nor the body.
        return f"Prepared({self.method} {self.path}, {len(self.content)} bytes)"
