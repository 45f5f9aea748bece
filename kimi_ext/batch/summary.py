"""What a run did and what the whole job holds: counts, usage totals per model, and the
cost from a price table.

There is no built-in price table: gateways set their own prices. Give one per model, in
your currency per million tokens::

    {"kimi-k3.1-pro": {"input": 0.60, "cached_input": 0.15, "output": 2.50}}

``cached_input`` (cache reads) and ``cache_write`` default to ``input``; reasoning tokens
are output tokens and cost what ``output`` costs.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kimi_ext.errors import ClientConfigError
from kimi_ext.usage import Usage, usage_of

__all__ = ["PRICE_FIELDS", "ModelPrice", "Prices", "Summary", "Totals", "UsageTotals"]

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


# How many failed custom_ids a summary names (the count is always whole).
FAILED_SHOWN = 20


def _model_of(body: Mapping[str, Any]) -> str:
    model = body.get("model")
    return model if isinstance(model, str) else "(no model named)"


@dataclass
class Totals:
    """What output lines hold: how many succeeded and failed, the first failed custom_ids
    (``FAILED_SHOWN``), and the usage per model (the model the answer names). Counted the
    same way from the output file (a resume) and from the lines a run writes, so a job's
    totals do not depend on how many runs it took."""

    succeeded: int = 0
    failed: int = 0
    failed_ids: list[str] = field(default_factory=list)
    usage: dict[str, UsageTotals] = field(default_factory=dict)

    def add(self, doc: Mapping[str, Any]) -> None:
        """Count one output line (``{"custom_id", "response", "error"}``)."""
        if doc.get("error") is not None:
            self.failed += 1
            if len(self.failed_ids) < FAILED_SHOWN:
                self.failed_ids.append(str(doc.get("custom_id")))
            return
        self.succeeded += 1
        response = doc.get("response")
        body = response.get("body") if isinstance(response, Mapping) else None
        if isinstance(body, dict):
            self.usage.setdefault(_model_of(body), UsageTotals()).add(usage_of(body))

    def plus(self, other: Totals) -> Totals:
        """These totals and ``other``'s, as new totals."""
        both = Totals(self.succeeded + other.succeeded, self.failed + other.failed,
                      (self.failed_ids + other.failed_ids)[:FAILED_SHOWN])  # fmt: skip
        for part in (self, other):
            for model, usage in part.usage.items():
                both.usage.setdefault(model, UsageTotals()).plus(usage)
        return both

    @property
    def total_usage(self) -> UsageTotals:
        """Usage summed over every model."""
        total = UsageTotals()
        for per_model in self.usage.values():
            total.plus(per_model)
        return total

    def costs(self, prices: Prices | None) -> dict[str, float | None]:
        """Cost per model at ``prices`` (None: not in the table); empty without a table."""
        if prices is None:
            return {}
        return {model: (prices[model].cost(u) if model in prices else None)
                for model, u in self.usage.items()}  # fmt: skip

    def cost(self, prices: Prices | None) -> float | None:
        """The total cost of the models the table lists (None without a table)."""
        if prices is None:
            return None
        return sum(c for c in self.costs(prices).values() if c is not None)


@dataclass
class Summary:
    """What a run did (``run``: its lines, as it wrote them) and what the whole job holds
    (:attr:`job`: the output as the run found it, ``before``, plus ``run``), with the
    usage per model and, with a price table, the cost."""

    lines: int = 0  # valid lines in the input
    already_done: int = 0  # finished before this run (skipped)
    invalid_skipped: int = 0
    not_started: int = 0  # left for a later run (stopped early)
    abandoned: int = 0  # in flight when the run stopped; not written
    retried_failed: int = 0  # failed lines of an earlier run sent again
    stopped_by: str | None = None  # why the run stopped early (None: it did not)
    seconds: float = 0.0
    prices: Prices | None = None
    before: Totals = field(default_factory=Totals)  # the output's lines when the run began
    run: Totals = field(default_factory=Totals)  # the lines this run wrote

    def record(self, doc: Mapping[str, Any]) -> None:
        """Count an output line this run wrote."""
        self.run.add(doc)

    @property
    def job(self) -> Totals:
        """The whole job's totals: every line in the output, whichever run wrote it."""
        return self.before.plus(self.run)

    @property
    def succeeded(self) -> int:
        """Lines that succeeded in this run."""
        return self.run.succeeded

    @property
    def failed(self) -> int:
        """Lines that failed in this run."""
        return self.run.failed

    @property
    def usage(self) -> dict[str, UsageTotals]:
        """This run's usage per model."""
        return self.run.usage

    @property
    def total_usage(self) -> UsageTotals:
        """This run's usage summed over every model."""
        return self.run.total_usage

    def costs(self) -> dict[str, float | None]:
        """This run's cost per model (None: not in the price table); empty without a table."""
        return self.run.costs(self.prices)

    @property
    def cost(self) -> float | None:
        """This run's cost (None without a price table); ``job.cost(prices)`` is the job's."""
        return self.run.cost(self.prices)

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON (``kimi batch --json``): this run's counts, usage and cost at
        the top, the whole job's under ``job``."""
        out: dict[str, Any] = {
            "lines": self.lines, "already_done": self.already_done,
            "succeeded": self.succeeded, "failed": self.failed,
            "invalid_skipped": self.invalid_skipped, "not_started": self.not_started,
            "abandoned": self.abandoned, "retried_failed": self.retried_failed,
            "stopped_by": self.stopped_by, "seconds": round(self.seconds, 3),
            **self._totals_dict(self.run),
        }  # fmt: skip
        job = self.job
        out["job"] = {"lines": self.lines, "succeeded": job.succeeded, "failed": job.failed,
                      "failed_ids": job.failed_ids, **self._totals_dict(job)}  # fmt: skip
        return out

    def _totals_dict(self, totals: Totals) -> dict[str, Any]:
        out: dict[str, Any] = {
            "usage": _usage_dict(totals.total_usage),
            "usage_by_model": {m: _usage_dict(u) for m, u in totals.usage.items()},
        }
        if self.prices is not None:
            out["cost"] = totals.cost(self.prices)
            out["cost_by_model"] = totals.costs(self.prices)
        return out

    def text(self) -> str:
        """The summary as a few lines of text (``kimi batch``): this run, then the whole
        job's counts, usage and cost (this run's too when earlier runs did part of it)."""
        job = self.job
        done = job.succeeded + job.failed
        parts = [
            f"{self.succeeded} succeeded, {self.failed} failed this run"
            f" ({self.already_done} done before); {done} of {self.lines} lines in the output",
            f"whole job: {job.succeeded} succeeded, {job.failed} failed" + _failed_list(job),
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
        resumed = bool(self.before.succeeded or self.before.failed)
        parts.append(
            ("usage (whole job): " if resumed else "usage: ") + _usage_text(job.total_usage)
        )
        if resumed:
            parts.append("usage (this run): " + _usage_text(self.run.total_usage))
        if self.prices is not None:
            listed = ", ".join(
                f"{m} {c:.4f}" if c is not None else f"{m} not in the price table"
                for m, c in job.costs(self.prices).items()
            )
            parts.append(
                ("cost (whole job): " if resumed else "cost: ")
                + f"{job.cost(self.prices) or 0.0:.4f}"
                + (f" ({listed})" if listed else "")
                + (f"; this run: {self.cost or 0.0:.4f}" if resumed else "")
            )
        return "\n".join(parts)


def _failed_list(totals: Totals) -> str:
    if not totals.failed:
        return ""
    more = totals.failed - len(totals.failed_ids)
    return f" ({', '.join(totals.failed_ids)}{f' and {more} more' if more > 0 else ''})"


def _usage_text(u: UsageTotals) -> str:
    return (
        f"input {u.input:,} (cached {u.cache_read:,}, cache written {u.cache_write:,}) · "
        f"output {u.output:,} (reasoning {u.reasoning:,})"
    )


def _usage_dict(u: UsageTotals) -> dict[str, int]:
    return {
        "requests": u.requests, "input": u.input, "cached": u.cache_read,
        "cache_write": u.cache_write, "output": u.output, "reasoning": u.reasoning,
    }  # fmt: skip
