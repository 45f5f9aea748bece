"""Suite-wide fixtures: the offline stand-in (also shipped as a pytest plugin), and a check
that every request body the suite sends through kimi_ext validates against its spec.

The second one is the proof that kimi_ext's own validation is not more lenient than the
contract: after kimi_ext accepts a body, a standard JSON Schema 2020-12 validator built
straight from ``openapi/<format>.yaml`` must accept it too, or the test fails.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kimi_ext.testing.pytest_plugin import kimi_standin

sys.path.insert(0, str(Path(__file__).parent / "contract"))
from spec import all_errors, request_validator

__all__ = ["kimi_standin"]


@pytest.fixture(autouse=True)
def _every_sent_body_matches_its_spec(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    import kimi_ext.validation as validation

    original = validation.validate
    broken: list[str] = []

    def checked(fmt: str, body: Any) -> None:
        original(fmt, body)  # raises when kimi_ext refuses: nothing is sent then
        errors = all_errors(request_validator(fmt).iter_errors(dict(body)))
        if errors:
            broken.append(
                f"{fmt}: {[(list(e.absolute_path), e.message[:200]) for e in errors[:3]]}"
            )

    monkeypatch.setattr(validation, "validate", checked)
    yield
    assert not broken, f"kimi_ext sent bodies its spec refuses: {broken}"
