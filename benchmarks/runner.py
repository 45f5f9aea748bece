"""Timing: contenders interleaved within each repetition, figures as paired ratios.

Every repetition runs each contender once in an order rotated from one repetition to the
next (cheap calls: a batch of calls, the contenders taking turns in blocks of ten), so a
burst of machine noise hits all contenders of a scenario alike. A contender's ratio is
taken per repetition against the baseline of that same repetition; the table shows the
median of those ratios with their minimum and maximum, next to the median, minimum and
maximum time. Before each sample the garbage collector runs (with what was alive before
the repetitions frozen, see ``gc.freeze``), so no contender pays for another's garbage.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from .contenders import Contender

__all__ = ["Row", "Spread", "measure", "spread"]


@dataclass
class Spread:
    median: float
    low: float
    high: float


def spread(values: Sequence[float]) -> Spread:
    return Spread(statistics.median(values), min(values), max(values))


@dataclass
class Row:
    """One line of the results table."""

    bench: str
    fmt: str
    contender: str
    value: str  # the measured quantity, formatted (time or size)
    ratio: Spread | None  # the figure compared with the goal
    ratio_of: str  # what the ratio is: "vs httpx", "peak / result"...
    goal: float | None = None
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def met(self) -> bool | None:
        if self.goal is None or self.ratio is None:
            return None
        return self.ratio.median <= self.goal


def measure(
    contenders: Sequence[Contender], *, reps: int, batch: int = 1, check: bool = True
) -> dict[str, list[float]]:
    """Seconds per call for each contender, one value per repetition. The first
    repetition's results are checked (outside the timed region).

    With ``batch`` > 1 (cheap calls) the contenders take turns in blocks of at most
    ``BLOCK`` calls, so a burst of noise lasting a few milliseconds hits every contender,
    while each block still runs with its own library's code and garbage."""
    times: dict[str, list[float]] = {c.name: [] for c in contenders}
    count = len(contenders)
    clock = time.perf_counter
    # What is alive now (the libraries, their caches) is frozen out of the collector's
    # sight, so the collection before each sample costs little and each sample starts
    # with the same empty young generations.
    gc.collect()
    gc.freeze()
    try:
        for rep in range(reps):
            order = [contenders[(k + rep) % count] for k in range(count)]
            if batch > 1:
                total = dict.fromkeys(times, 0.0)
                for size in _blocks(batch):
                    for contender in order:
                        gc.collect()
                        start = clock()
                        for _ in range(size):
                            contender.run()
                        total[contender.name] += clock() - start
                for name, elapsed in total.items():
                    times[name].append(elapsed / batch)
                if check and rep == 0:
                    for contender in contenders:
                        if contender.check is not None:
                            contender.check(contender.run())
                continue
            for contender in order:
                gc.collect()
                start = clock()
                result = contender.run()
                elapsed = clock() - start
                times[contender.name].append(elapsed)
                if check and rep == 0 and contender.check is not None:
                    contender.check(result)
                del result
    finally:
        gc.unfreeze()
    return times


BLOCK = 10


def _blocks(batch: int) -> list[int]:
    """``batch`` calls cut into blocks of at most BLOCK."""
    full, rest = divmod(batch, BLOCK)
    return [BLOCK] * full + ([rest] if rest else [])


def warm(contenders: Sequence[Contender]) -> None:
    """Run each contender once (imports, connections, caches) and check its result."""
    for contender in contenders:
        result = contender.run()
        if contender.check is not None:
            contender.check(result)


def paired(times: dict[str, list[float]], name: str, base: str) -> Spread:
    return spread([t / b for t, b in zip(times[name], times[base], strict=True)])


def fmt_time(seconds: Spread | float) -> str:
    if isinstance(seconds, Spread):
        unit, scale = _unit(seconds.median)
        return (
            f"{_num(seconds.median * scale)} {unit} "
            f"[{_num(seconds.low * scale)}–{_num(seconds.high * scale)}]"
        )
    unit, scale = _unit(seconds)
    return f"{_num(seconds * scale)} {unit}"


def _num(value: float) -> str:
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def _unit(seconds: float) -> tuple[str, float]:
    if seconds >= 1:
        return "s", 1.0
    if seconds >= 1e-3:
        return "ms", 1e3
    return "µs", 1e6
