"""mypy --strict over small user files, for the type-checking tests: each file's errors by
line, and the line a case marks as the one that must be flagged (``# E``)."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from pathlib import Path

from mypy import api


def strict_errors(root: Path, sources: Mapping[str, str]) -> dict[str, list[tuple[int, str]]]:
    """Write each source to ``root/<name>.py``, run mypy --strict once over all of them (a
    cold run takes seconds) and return file stem -> [(line, message)] of its errors."""
    for name, source in sources.items():
        (root / f"{name}.py").write_text(source, encoding="utf-8")
    # mypy runs in this process and raises the recursion limit for good (to 2**14): put it
    # back, or the tests run after it in the same process (a parallel worker runs them in
    # another order) see a limit no user has, and a schema nested 600 deep no longer
    # fails the check that refuses it.
    limit = sys.getrecursionlimit()
    try:
        out, err, _ = api.run(
            ["--strict", "--no-error-summary", "--show-error-codes", "--no-pretty",
             f"--cache-dir={root / '.mypy_cache'}", *sorted(str(p) for p in root.glob("*.py"))]
        )  # fmt: skip
    finally:
        sys.setrecursionlimit(limit)
    assert not err, err
    found: dict[str, list[tuple[int, str]]] = {name: [] for name in sources}
    for line in out.splitlines():
        match = re.match(r"(.+?)\.py:(\d+): (error|note): (.*)", line)
        assert match, line
        if match[3] == "error":
            found[Path(match[1]).name].append((int(match[2]), match[4]))
    return found


def marked_line(source: str) -> int:
    """The number of the line of ``source`` that ends with ``# E``."""
    return next(i for i, text in enumerate(source.splitlines(), 1) if text.endswith("# E"))


def assert_flagged_on(errors: list[tuple[int, str]], line: int, mentions: str) -> None:
    """mypy reported errors on ``line`` and nowhere else, one of them mentioning
    ``mentions`` (when it is not empty)."""
    assert errors, "mypy accepted it"
    assert {at for at, _ in errors} == {line}, errors
    if mentions:
        assert any(mentions in message for _, message in errors), errors
