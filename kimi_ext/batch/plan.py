"""Before anything is sent: check every input line and compare it with the output so far.

One pass over the input (line by line, so memory holds 8 bytes per line, not the lines):
each line's shape and body (:func:`~kimi_ext.batch.lines.check_line`), each custom_id used
once, and each line whose result is already in the output unchanged since (its
fingerprint). Every problem is reported at once, one message per bad line.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field

from kimi_ext.batch.checkpoint import Checkpoint
from kimi_ext.batch.ids import fingerprint, key_hash
from kimi_ext.batch.lines import BatchInputError, LineProblem, LineSource, check_line, parse_line

__all__ = ["Plan", "RunPlan", "make_plan"]


@dataclass
class RunPlan:
    """What the run will do: the valid lines, those already done, and the line numbers
    to leave out (bad lines, when skipped)."""

    lines: int = 0
    already_done: int = 0
    skip: set[int] = field(default_factory=set)
    problems: list[LineProblem] = field(default_factory=list)

    @property
    def todo(self) -> int:
        """Lines to send in this run."""
        return self.lines - self.already_done


Plan = RunPlan
"""The old name of :class:`RunPlan` (kept for a release; four unrelated classes were
called Plan)."""


def make_plan(source: LineSource, point: Checkpoint, *, skip_invalid: bool) -> RunPlan:
    """Check the whole input against the output so far; BatchInputError (nothing sent)
    when a line is bad, unless ``skip_invalid``."""
    plan = RunPlan()
    hashes: array[int] = array("Q")
    for number, raw in source:
        line = check_line(number, raw)
        if isinstance(line, LineProblem):
            plan.problems.append(line)
            continue
        hashes.append(key_hash(line.custom_id))
        same = point.matches(line.custom_id, fingerprint(line.custom_id, line.url, line.body))
        if same is False:
            plan.problems.append(LineProblem(
                number, line.custom_id, "line",
                "changed since its result was written to the output (its fingerprint "
                "differs); restore the line, or write to a new output file",
            ))  # fmt: skip
            continue
        plan.lines += 1
        plan.already_done += same is True
    _duplicates(source, hashes, plan)
    if plan.problems:
        if not skip_invalid:
            plan.problems.sort(key=lambda p: p.line)
            raise BatchInputError(source.name, plan.problems)
        plan.skip = {p.line for p in plan.problems}
    return plan


# How many parts _duplicates splits the hashes into (see there).
_PARTS = 16


def _duplicates(source: LineSource, hashes: array[int], plan: RunPlan) -> None:
    """Report every later use of a custom_id (a second pass over the input, only when a
    hash repeats).

    The repeated hashes are found a sixteenth of them at a time: sorting (or a set of) all
    of them at once would hold a Python int per line (~48 bytes against the array's 8),
    and peak memory would grow with the input (5 MiB more at 100,000 lines)."""
    repeated: set[int] = set()
    for part_of in range(_PARTS):
        part = [h for h in hashes if h % _PARTS == part_of]
        if len(set(part)) == len(part):
            continue
        once: set[int] = set()
        for h in part:
            if h in once:
                repeated.add(h)
            once.add(h)
    if not repeated:
        return
    first: dict[str, int] = {}
    bad = {p.line for p in plan.problems}
    for number, raw in source:
        if number in bad:
            continue
        line = parse_line(number, raw)
        if isinstance(line, LineProblem) or key_hash(line.custom_id) not in repeated:
            continue
        seen = first.setdefault(line.custom_id, number)
        if seen != number:
            plan.lines -= 1
            plan.problems.append(LineProblem(
                number, line.custom_id, "custom_id",
                f"is used again (first on line {seen}); each custom_id must be unique",
            ))  # fmt: skip
