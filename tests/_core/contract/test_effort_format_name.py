"""normalize_effort's ``fmt`` must name a format; any other string is refused, never read as
a file name under kimi_raw/_contract (issue 30: fmt="bogus" raised FileNotFoundError and
fmt="../..." read another file)."""

from __future__ import annotations

from typing import Any

import pytest

from kimi_ext import RequestValidationError, normalize_effort
from kimi_ext._core.contract import contract, format_names
from kimi_ext.formats import FORMATS


def test_the_format_names_are_the_formats() -> None:
    assert format_names() == {f.name for f in FORMATS}


@pytest.mark.parametrize(
    "fmt", ["bogus", "../_contract/chat", "chat/../messages", "Chat", "", "chat.json"]
)
def test_a_name_that_is_not_a_format_is_refused(fmt: str) -> None:
    with pytest.raises(
        RequestValidationError, match=r"fmt=.*: must be one of chat, messages, responses"
    ) as info:
        normalize_effort("low", model="kimi-k3.1-pro", fmt=fmt)
    assert info.value.field == "fmt"
    with pytest.raises(ValueError, match="no format is named"):
        contract(fmt)


@pytest.mark.parametrize(("name", "value"), [("fmt", None), ("fmt", 5), ("field", 5)])
def test_options_of_the_wrong_type_are_refused(name: str, value: Any) -> None:
    with pytest.raises(RequestValidationError, match=f"{name}={value}: must be a str"):
        normalize_effort("low", model="kimi-k3.1-pro", **{name: value})


@pytest.mark.parametrize("fmt", sorted(format_names()))
def test_every_format_still_normalizes(fmt: str) -> None:
    assert normalize_effort("medium", model="kimi-k3.1-pro", fmt=fmt) == "high"
