"""benchmarks/budget.py keeps working: its smallest run prints both tables (nothing timed
is asserted; the figures are in docs/long-conversations.md and the CHANGELOG)."""

from __future__ import annotations

import pytest

from benchmarks.budget import main


def test_the_budget_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--turns", "3", "--formats", "chat", "--repeat", "3"]) == 0
    printed = capsys.readouterr().out
    assert "| chat | 200 turns" not in printed  # a row per format, not per size
    assert "count cost" in printed and "| chat |" in printed
    for rule in ("ceil(chars/4)", "words", "bytes/3"):
        assert f"| chat | {rule} |" in printed
