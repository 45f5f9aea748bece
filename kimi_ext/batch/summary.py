"""What a run did: counts, usage totals per model, and the cost from a price table.

There is no built-in price table: gateways set their own prices. Give one per model, in
your currency per million tokens::

    {"kimi-k3.1-pro": {"input": 0.60, "cached_input": 0.15, "output": 2.50}}

``cached_input`` (cache reads) and ``cache_write`` default to ``input``; reasoning tokens
are output tokens and cost what ``output`` costs.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kimi_ext.errors import ClientConfigError
from kimi_ext.usage import Usage

__all__ = ["PRICE_FIELDS", "ModelPrice", "Prices", "Summary", "UsageTotals"]

PRICE_FIELDS = ("input", "cached_input", "cache_write", "output")
PER = 1_000_000


@dataclass(frozen=True)
class ModelPrice:
    """Prices of one model per million tokens (``cached_input`` / ``cache_write``: None
    means the ``input`` price)."""

    input: float
    output: float
    cached_input: float | None = None
    cache_write: float | None = None

    def cost(self, usage: UsageTotals) -> float:
        """What ``usage`` costs at these prices."""
        read = self.input if self.cached_input is None else self.cached_input
        write = self.input if self.cache_write is None else self.cache_write
        return (
            usage.uncached_input * self.input
            + usage.cache_read * read
            + usage.cache_write * write
            + usage.output * self.output
        ) / PER


class Prices(dict[str, ModelPrice]):
    """A price table: model name to :class:`ModelPrice`."""

    @classmethod
    def from_dict(cls, data: Any, *, where: str = "prices") -> Prices:
        """Read ``{"model": {"input": ..., "output": ..., ...}}``; a ClientConfigError
        names the model and field that are wrong."""
        if not isinstance(data, dict) or not data:
            raise ClientConfigError(f"{where}: must be an object of models to their prices")
        table = cls()
        for model, entry in data.items():
            if not isinstance(entry, dict):
                raise ClientConfigError(f"{where}: {model}: must be an object of prices")
            for name, value in entry.items():
                if name not in PRICE_FIELDS:
                    raise ClientConfigError(
                        f"{where}: {model}.{name}: not a price field ({', '.join(PRICE_FIELDS)})"
                    )
                if (
                    isinstance(value, bool)
                    or not isinstance(value, int | float)
                    or not 0 <= value < math.inf
                ):
                    raise ClientConfigError(
                        f"{where}: {model}.{name}={value!r}: must be a price >= 0 per million "
                        "tokens"
                    )
            for needed in ("input", "output"):
                if needed not in entry:
                    raise ClientConfigError(f"{where}: {model}: {needed} is required")
            table[model] = ModelPrice(**{k: float(v) for k, v in entry.items()})
        return table

    @classmethod
    def load(cls, path: str | Path) -> Prices:
        """Read a price table from a JSON file."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ClientConfigError(f"--prices {path}: {exc}") from None
        return cls.from_dict(data, where=f"--prices {path}")


@dataclass
class UsageTotals:
    """Summed token usage: input (all of it, cached included), the cache reads and writes,
    output (reasoning included) and reasoning."""

    requests: int = 0
    input: int = 0
    cache_read: int = 0
    cache_write: int = 0
    output: int = 0
    reasoning: int = 0

    @property
    def uncached_input(self) -> int:
        """Input neither read from nor written to the cache."""
        return self.input - self.cache_read - self.cache_write

    def add(self, usage: Usage) -> None:
        """Count one result's usage."""
        self.requests += 1
        self.input += usage.total_input
        self.cache_read += usage.cache_read
        self.cache_write += usage.cache_write
        self.output += usage.output
        self.reasoning += usage.reasoning

    def plus(self, other: UsageTotals) -> None:
        """Add another total to this one."""
        for name in ("requests", "input", "cache_read", "cache_write", "output", "reasoning"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Summary:
    """Counts of a run (this run only, except ``already_done``), usage per model and, with
    a price table, the cost per model (None for a model the table does not list)."""

    lines: int = 0  # valid lines in the input
    already_done: int = 0  # finished before this run (skipped)
    succeeded: int = 0
    failed: int = 0
    invalid_skipped: int = 0
    not_started: int = 0  # left for a later run (stopped early)
    abandoned: int = 0  # in flight when the run stopped; not written
    retried_failed: int = 0  # failed lines of an earlier run sent again
    stopped_by: str | None = None  # why the run stopped early (None: it did not)
    seconds: float = 0.0
    usage: dict[str, UsageTotals] = field(default_factory=dict)
    prices: Prices | None = None

    def count(self, model: str, usage: Usage) -> None:
        """Count the usage of one result of ``model``."""
        self.usage.setdefault(model, UsageTotals()).add(usage)

    @property
    def total_usage(self) -> UsageTotals:
        """Usage summed over every model."""
        total = UsageTotals()
        for per_model in self.usage.values():
            total.plus(per_model)
        return total

    def costs(self) -> dict[str, float | None]:
        """Cost per model (None: not in the price table); empty without a table."""
        if self.prices is None:
            return {}
        return {
            model: (self.prices[model].cost(u) if model in self.prices else None)
            for model, u in self.usage.items()
        }

    @property
    def cost(self) -> float | None:
        """The total cost of the models the table lists (None without a table)."""
        if self.prices is None:
            return None
        return sum(c for c in self.costs().values() if c is not None)

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON (``kimi batch --json``)."""
        total = self.total_usage
        out: dict[str, Any] = {
            "lines": self.lines, "already_done": self.already_done,
            "succeeded": self.succeeded, "failed": self.failed,
            "invalid_skipped": self.invalid_skipped, "not_started": self.not_started,
            "abandoned": self.abandoned, "retried_failed": self.retried_failed,
            "stopped_by": self.stopped_by, "seconds": round(self.seconds, 3),
            "usage": _usage_dict(total),
            "usage_by_model": {m: _usage_dict(u) for m, u in self.usage.items()},
        }  # fmt: skip
        if self.prices is not None:
            out["cost"] = self.cost
            out["cost_by_model"] = self.costs()
        return out

    def text(self) -> str:
        """The summary as a few lines of text (``kimi batch``)."""
        total = self.total_usage
        done = self.already_done + self.succeeded + self.failed
        parts = [
            f"{self.succeeded} succeeded, {self.failed} failed this run"
            f" ({self.already_done} done before); {done} of {self.lines} lines in the output",
        ]
        extra = []
        if self.invalid_skipped:
            extra.append(f"{self.invalid_skipped} invalid lines skipped")
        if self.not_started or self.abandoned:
            extra.append(f"{self.not_started + self.abandoned} left for the next run")
        if extra:
            parts.append("; ".join(extra))
        if self.stopped_by:
            parts.append(f"stopped: {self.stopped_by}")
        parts.append(
            f"usage: input {total.input:,} (cached {total.cache_read:,}, cache written "
            f"{total.cache_write:,}) · output {total.output:,} (reasoning {total.reasoning:,})"
        )
        if self.prices is not None:
            costs = self.costs()
            listed = ", ".join(
                f"{m} {c:.4f}" if c is not None else f"{m} not in the price table"
                for m, c in costs.items()
            )
            parts.append(f"cost: {self.cost or 0.0:.4f}" + (f" ({listed})" if listed else ""))
        return "\n".join(parts)


def _usage_dict(u: UsageTotals) -> dict[str, int]:
    return {
        "requests": u.requests, "input": u.input, "cached": u.cache_read,
        "cache_write": u.cache_write, "output": u.output, "reasoning": u.reasoning,
    }  # fmt: skip
