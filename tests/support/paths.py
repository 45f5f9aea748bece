"""Where the suite finds the repository and its recorded payloads, wherever a test file sits."""

from __future__ import annotations

from pathlib import Path

# tests/support/paths.py -> the repository root
ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
FIXTURES = TESTS / "fixtures"
