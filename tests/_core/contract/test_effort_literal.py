"""kimi_ext._core.contract.effort.Effort (for editors and type checkers) lists what the specs accept."""

from __future__ import annotations

import typing

import pytest

from kimi_ext._core.contract import contract
from kimi_ext._core.contract.effort import Effort


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_the_effort_literal_matches_the_spec(fmt: str) -> None:
    effort = contract(fmt).effort
    assert set(typing.get_args(Effort)) == {*effort.levels, *effort.aliases}
