"""What a run shows while it goes: a progress bar in a terminal, a line a minute otherwise.

The bar is tqdm's (done of total, the rate and the ETA, with failed, in flight, requests
and tokens per minute beside it); tqdm is imported only when a bar is shown. In a pipe or
CI a bar would be noise, so one plain line is printed per ``interval`` instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from kimi_ext.batch.limiter import RateLimiter

__all__ = ["Progress", "Stats"]


@dataclass
class Stats:
    """The counters the runner keeps as it goes."""

    total: int = 0  # valid lines, done before or not
    done: int = 0  # in the output (before this run too)
    failed: int = 0  # failed in this run
    in_flight: int = 0
    tokens: int = 0  # used in this run
    started: float = field(default_factory=time.monotonic)
    done_at_start: int = -1

    def eta(self) -> float | None:
        """Seconds until the last line, at this run's pace (None before a result)."""
        now_done = self.done - max(self.done_at_start, 0)
        if now_done <= 0:
            return None
        elapsed = time.monotonic() - self.started
        return (self.total - self.done) * elapsed / now_done

    def tokens_per_minute(self) -> float:
        """Tokens used per minute over this run so far."""
        return self.tokens * 60.0 / max(time.monotonic() - self.started, 1.0)


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s"


def _terminal_sized(stream: TextIO) -> bool:
    """Whether the terminal reports its size (else 80x24 is assumed, as shutil does)."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return size.columns > 0 and size.lines > 0


class Progress:
    """Shows a run's progress on ``stream`` (stderr): a tqdm bar when ``bar`` (default:
    when the stream is a terminal), else one line every ``interval`` seconds."""

    def __init__(
        self, stream: TextIO | None = None, *, bar: bool | None = None, interval: float = 60.0
    ) -> None:
        self.stream = stream or sys.stderr
        self.bar = self.stream.isatty() if bar is None else bar
        self.interval = interval
        self._tqdm: Any = None

    def line(self, stats: Stats, limiter: RateLimiter) -> str:
        """The one-line report (pipes and CI)."""
        return (
            f"batch: {stats.done}/{stats.total} done, {stats.failed} failed, "
            f"{stats.in_flight} in flight, {limiter.per_minute():.0f} req/min, "
            f"{stats.tokens_per_minute():,.0f} tok/min, ETA {_duration(stats.eta())}"
        )

    def start(self, stats: Stats, limiter: RateLimiter) -> asyncio.Task[None]:
        """Start showing; returns the task to hand to :meth:`stop`."""
        stats.started = time.monotonic()
        stats.done_at_start = stats.done
        if self.bar:
            from tqdm import tqdm  # only when a bar is shown

            # tqdm draws nothing on a terminal that reports no size (a fresh pty).
            sized = _terminal_sized(self.stream)
            self._tqdm = tqdm(total=stats.total, initial=stats.done, file=self.stream,
                              unit="req", smoothing=0.1, dynamic_ncols=sized,
                              ncols=None if sized else 80, nrows=None if sized else 24)  # fmt: skip
        return asyncio.create_task(self._tick(stats, limiter))

    async def _tick(self, stats: Stats, limiter: RateLimiter) -> None:
        while True:
            await asyncio.sleep(0.5 if self.bar else self.interval)
            self.show(stats, limiter)

    def show(self, stats: Stats, limiter: RateLimiter) -> None:
        """Show the current state once."""
        if self._tqdm is not None:
            bar = self._tqdm
            bar.n = stats.done
            bar.set_postfix_str(
                f"failed {stats.failed} · in flight {stats.in_flight} · "
                f"{limiter.per_minute():.0f} req/min · {stats.tokens_per_minute():,.0f} tok/min",
                refresh=False,
            )
            bar.refresh()
        else:
            print(self.line(stats, limiter), file=self.stream, flush=True)

    async def stop(self, task: asyncio.Task[None]) -> None:
        """Stop showing (the bar is left at its last state)."""
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        if self._tqdm is not None:
            self._tqdm.refresh()
            self._tqdm.close()
            self._tqdm = None
