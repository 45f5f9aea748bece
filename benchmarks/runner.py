"""Timing: contenders interleaved within each repetition, figures as paired ratios.

Every repetition runs each contender once (a batch of calls for the cheap ones) in an
order rotated from one repetition to the next, so a burst of machine noise hits all
contenders of a scenario alike. A contender's ratio is taken per repetition against the
baseline of that same repetition; the table shows the median of those ratios with their
minimum and maximum, next to the median, minimum and maximum time. Before each sample
the garbage collector runs (with what was alive before the repetitions frozen, see
``gc.freeze``), so no contender pays for another's garbage.
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
    repetition's results are checked (outside the timed region)."""
    times: dict[str, list[float]] = {c.name: [] for c in contenders}
    count = len(contenders)
    # What is alive now (the libraries, their caches) is frozen out of the collector's
    # sight, so the collection before each sample costs little and each sample starts
    # with the same empty young generations.
    gc.collect()
    gc.freeze()
    try:
        for rep in range(reps):
            for k in range(count):
                contender = contenders[(k + rep) % count]
                gc.collect()
                start = time.perf_counter()
                for _ in range(batch):
                    result = contender.run()
                elapsed = time.perf_counter() - start
                times[contender.name].append(elapsed / batch)
                if check and rep == 0 and contender.check is not None:
                    contender.check(result)
                del result
    finally:
        gc.unfreeze()
    return times


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
            f"{seconds.median * scale:.3g} {unit} "
            f"[{seconds.low * scale:.3g}–{seconds.high * scale:.3g}]"
        )
    unit, scale = _unit(seconds)
    return f"{seconds * scale:.3g} {unit}"


def _unit(seconds: float) -> tuple[str, float]:
    if seconds >= 1:
        return "s", 1.0
    if seconds >= 1e-3:
        return "ms", 1e3
    return "µs", 1e6
