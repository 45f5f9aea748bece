"""The benchmarks keep working: their smallest configuration runs end to end.

Only a functional check (tiny sizes, nothing timed is asserted). The SDKs the benchmarks
compare against are dev dependencies, so this runs wherever the suite runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.__main__ import main

pytestmark = pytest.mark.slow  # every benchmark, end to end (`make test-fast` leaves it out)


def test_smallest_configuration_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "RESULTS.md"
    assert main(["--smoke", "--output", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    printed = capsys.readouterr().out
    for bench in (
        "small request",
        "read whole",
        "per-event cost",
        "one large event",
        "-turn history",
        "import + client construction",
        "peak memory",
        "replay a recorded",
        "batch: ",
    ):
        assert bench in text and bench in printed
    for contender in (
        "httpx (baseline)",
        "kimi_ext stream()+get_final",
        "openai stream()+get_final",
        "anthropic stream()+get_final",
        "kimi_ext create(), ChatHistory",
        "stand-in replay, bytes",
    ):
        assert contender in text
    for fmt in ("| chat |", "| messages |", "| responses |"):
        assert fmt in text
