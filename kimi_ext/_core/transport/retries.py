"""When to retry a failed call and how long to wait first.

The policy matches what users know from the openai and anthropic SDKs (2 retries,
exponential backoff ``min(0.5 * 2**n, 8)`` seconds with jitter, server hints honoured up to
a cap), with two differences that matter on Kimi's gateways: a 429 that means an exhausted
quota is never retried, and every attempt of one call carries the same ``Idempotency-Key``.
A server that asks to wait longer than ``max_retry_after`` gets no retry: the error is
raised at once, with its ``retry_after``. A local protocol error (a header h11 refuses)
is deterministic, so it is never retried either.
"""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

import httpx

from kimi_ext.errors import APIConnectionError, APIStatusError, QuotaExceededError

RETRYABLE_STATUS = frozenset({408, 409, 429})
INITIAL_DELAY = 0.5
MAX_DELAY = 8.0
# A server hint longer than this is not waited for: the error is raised at once.
MAX_RETRY_AFTER = 60.0


@dataclass(frozen=True)
class RetryPolicy:
    """How many times to retry and how to space the attempts."""

    max_retries: int = 2
    initial_delay: float = INITIAL_DELAY
    max_delay: float = MAX_DELAY
    max_retry_after: float = MAX_RETRY_AFTER

    def should_retry(self, error: Exception) -> bool:
        """True when ``error`` is worth another attempt."""
        if isinstance(error, QuotaExceededError):
            return False
        if isinstance(error, APIStatusError):
            hint = error.response.headers.get("x-should-retry") if error.response else None
            if hint == "true":
                return True
            if hint == "false":
                return False
            return error.status_code in RETRYABLE_STATUS or error.status_code >= 500
        return isinstance(error, APIConnectionError) and not getattr(error, "local", False)

    def delay(self, retries_done: int, headers: httpx.Headers | None) -> float | None:
        """Seconds to wait before retry number ``retries_done + 1``; None when the server
        asked for longer than ``max_retry_after`` (retrying sooner would fail again)."""
        hinted = retry_after_seconds(headers)
        if hinted is not None and hinted > self.max_retry_after:
            return None
        if hinted is not None and hinted >= 0:
            return hinted
        base = min(self.initial_delay * 2.0**retries_done, self.max_delay)
        # Up to 25 % less, so many clients retrying at once spread out.
        return base * (1.0 - 0.25 * random.random())


def retry_after_seconds(headers: httpx.Headers | None) -> float | None:
    """The server's retry hint in seconds: ``retry-after-ms``, or ``Retry-After`` as
    seconds or an HTTP date. None when absent or unreadable."""
    if headers is None:
        return None
    value = headers.get("retry-after-ms")
    if value is not None:
        try:
            return float(value) / 1000.0
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - time.time())


def new_idempotency_key() -> str:
    """A fresh key shared by every attempt of one call."""
    return f"kimi-ext-{uuid.uuid4()}"
