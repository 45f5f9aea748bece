"""One rate limiter shared by every worker of a run: requests per minute at an even pace,
estimated tokens per minute over a sliding window, and a run-wide pause when the service
says to slow down.

It sits in the client's HTTP layer (an httpx request hook), so every attempt counts,
retries included, and a 429's ``Retry-After`` (or ``x-ratelimit-*`` headers saying a
budget is spent) holds back every worker, not only the request that got it.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable

import httpx

from kimi_ext._core.transport.retries import retry_after_seconds

__all__ = ["RateLimiter", "reset_seconds"]

WINDOW = 60.0
# A 429 without any hint pauses the run this long (the client's own backoff starts there).
DEFAULT_PAUSE = 1.0
_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?"
                       r"(?:(\d+(?:\.\d+)?)ms)?")  # fmt: skip


def reset_seconds(value: str | None) -> float | None:
    """A rate-limit reset header in seconds: ``1.5``, ``20ms``, ``6m0s``, ``1h2m3s``."""
    if not value:
        return None
    text = value.strip()
    try:
        return float(text)
    except ValueError:
        pass
    match = _DURATION.fullmatch(text)
    if match is None or not any(match.groups()):
        return None
    h, m, s, ms = (float(g) if g else 0.0 for g in match.groups())
    return h * 3600 + m * 60 + s + ms / 1000


class _Spent:
    """Tokens reserved for one request, corrected once its usage is known."""

    __slots__ = ("at", "tokens")

    def __init__(self, at: float, tokens: int) -> None:
        self.at = at
        self.tokens = tokens


class RateLimiter:
    """``rpm`` requests and ``tpm`` tokens within any ``window`` seconds (None: no limit).

    ``acquire()`` waits for a request slot (and any pause); ``reserve(tokens)`` waits until
    the estimated tokens fit; ``settle()`` replaces an estimate by the usage measured;
    ``observe(response)`` pauses the whole run on a 429 or an exhausted budget.

    ``rpm`` is spread over the window from the first request on, not spent in a burst: the
    requests go one every ``window / rpm`` seconds (a GCRA), with ``burst`` more allowed
    at once on top (default: a tenth of a second's share, at least one), so any second
    holds at most ``ceil(rpm / 60) + burst`` of them. A gateway that limits per second
    sees the same pace as one that limits per minute. No window of 60 s holds more than
    ``rpm`` either.
    """

    def __init__(
        self,
        rpm: int | None = None,
        tpm: int | None = None,
        *,
        window: float = WINDOW,
        burst: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.rpm, self.tpm, self.window, self.clock, self.sleep = rpm, tpm, window, clock, sleep
        # The pace: one request every `interval` s; `due` is when the next one is due at
        # that pace (it runs ahead of the clock by at most `burst` intervals).
        self.interval = window / rpm if rpm else 0.0
        self.burst = (max(1, math.ceil(rpm / 600)) if burst is None else burst) if rpm else 0
        self._due = -math.inf
        # Send times within the window. With rpm they are the rule (at most rpm of them);
        # without, only per_minute() reads them, so they are counted per second instead:
        # at a thousand requests a second, a time per request would be 60,000 floats.
        self._sent: deque[float] = deque()
        self._seconds: deque[list[int]] = deque()  # [second, requests sent in it]
        self._first: float | None = None  # when the first request went (for the rate)
        self._spent: deque[_Spent] = deque()
        self._tokens = 0
        self._freed = asyncio.Event()  # set when a settled request gives tokens back
        self.paused_until = 0.0
        self.pauses = 0
        self.requests = 0  # attempts let through, retries included

    # --- requests ---------------------------------------------------------------------

    async def acquire(self) -> None:
        """Wait for a request slot: no pause in force, the request due at the ``rpm`` pace
        and fewer than ``rpm`` requests within the window. Every attempt of every call
        comes through here."""
        while True:
            now = self.clock()
            wait = self._wait(now)
            if wait <= 0:
                self._record(now)
                return
            await self.sleep(wait)

    def _wait(self, now: float) -> float:
        """Seconds until a request may go at ``now`` (<= 0: at once)."""
        self._forget(now)
        wait = self.paused_until - now
        if self.rpm is not None:
            wait = max(wait, self._due - self.burst * self.interval - now)
            if len(self._sent) >= self.rpm:
                wait = max(wait, self._sent[0] + self.window - now)
        return wait

    def _record(self, now: float) -> None:
        if self._first is None:
            self._first = now
        if self.rpm is not None:
            self._due = max(self._due, now) + self.interval
            self._sent.append(now)
        else:
            second = int(now)
            seconds = self._seconds
            if seconds and seconds[-1][0] == second:
                seconds[-1][1] += 1
            else:
                seconds.append([second, 1])
        self.requests += 1

    def _forget(self, now: float) -> None:
        start = now - self.window
        sent = self._sent
        while sent and sent[0] <= start:
            sent.popleft()
        seconds = self._seconds
        while seconds and seconds[0][0] + 1 <= start:
            seconds.popleft()
        spent = self._spent
        while spent and spent[0].at <= start:
            self._tokens -= spent.popleft().tokens

    def per_minute(self) -> float:
        """The request rate, per minute: the requests within the last window over the time
        that window actually covers (since the first request, at most the window; at least
        a second, the counts' resolution), so it is true from the first request on."""
        now = self.clock()
        self._forget(now)
        if self._first is None:
            return 0.0
        sent = len(self._sent) + sum(count for _, count in self._seconds)
        covered = min(max(now - self._first, 1.0), self.window)
        return sent * 60.0 / covered

    # --- tokens -----------------------------------------------------------------------

    async def reserve(self, tokens: int) -> _Spent | None:
        """Wait until ``tokens`` more fit within ``tpm`` (a request larger than the whole
        budget goes alone, once the window is empty); returns what to ``settle`` later."""
        if self.tpm is None:
            return None
        while True:
            now = self.clock()
            self._forget(now)
            wait = self.paused_until - now
            if wait <= 0 and self._tokens and self._tokens + tokens > self.tpm:
                wait = self._spent[0].at + self.window - now
            if wait <= 0:
                spent = _Spent(now, tokens)
                self._spent.append(spent)
                self._tokens += tokens
                return spent
            # Until the oldest leaves the window, or a request's measured usage gives back
            # part of its estimate (then the budget may fit at once).
            self._freed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._freed.wait(), wait)

    def settle(self, spent: _Spent | None, tokens: int) -> None:
        """Count the measured ``tokens`` instead of the estimate (if still in the window)."""
        if spent is None:
            return
        if spent.at > self.clock() - self.window:
            self._tokens += tokens - spent.tokens
            if tokens < spent.tokens:
                self._freed.set()
        spent.tokens = tokens

    # --- what the service says --------------------------------------------------------

    def pause(self, seconds: float) -> None:
        """Hold every request back for ``seconds`` from now (the longest pause wins)."""
        until = self.clock() + max(seconds, 0.0)
        if until > self.paused_until:
            self.paused_until = until
            self.pauses += 1

    def observe(self, response: httpx.Response) -> None:
        """Pause the run on a 429 (for its ``Retry-After``, else a second) or when the
        ``x-ratelimit-remaining-*`` headers say a budget is spent (until its reset)."""
        headers = response.headers
        if response.status_code == 429:
            hint = retry_after_seconds(headers)
            self.pause(hint if hint is not None and hint >= 0 else DEFAULT_PAUSE)
        for kind in ("requests", "tokens"):
            if headers.get(f"x-ratelimit-remaining-{kind}", "").strip() == "0":
                reset = reset_seconds(headers.get(f"x-ratelimit-reset-{kind}"))
                if reset is not None:
                    self.pause(reset)
