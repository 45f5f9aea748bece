"""``python -m benchmarks.validator`` keeps working: a tiny run prints its three comparisons.

Only a functional check (nothing timed is asserted). It runs in a child process: the script
swaps the contract's reference validator while it compares.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.support.paths import ROOT

pytestmark = pytest.mark.slow  # a benchmark run in a child process (`make test-fast` leaves it out)


def test_the_validator_comparison_runs() -> None:
    command = [sys.executable, "-m", "benchmarks.validator", "--examples", "3", "--reps", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for heading in (
        "## Wording",
        "## Time: the reference check",
        "## Time: the fast check",
        "## Lines",
    ):
        assert heading in out
    # Every corpus row counts its bad bodies and how many errors both validators agree on.
    cases = re.search(r"\| tests/client/test_validation.py cases \| (\d+) \| (\d+) ", out)
    assert cases is not None and int(cases[1]) > 50 and int(cases[2]) <= int(cases[1])
    for fmt in ("chat", "messages", "responses"):
        assert re.search(rf"\| {fmt} \(\d\.\d MB, same path\) \| [\d.]+ ms \| [\d.]+ ms \|", out)
    assert "kimi_ext/_core/contract/schema.py (ours)" in out
