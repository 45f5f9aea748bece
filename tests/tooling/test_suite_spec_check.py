"""The suite-wide check (tests/conftest.py) is active and independent of the client's own
validator: with that validator switched off, a body the spec refuses is stopped."""

from __future__ import annotations

from typing import Any

import pytest

from kimi_ext import Kimi
from kimi_ext._core.contract import Contract
from kimi_ext.testing import KimiStandIn


def test_a_body_the_spec_refuses_is_caught_even_if_the_client_lets_it_through(
    monkeypatch: pytest.MonkeyPatch, kimi_standin: KimiStandIn
) -> None:
    def lenient(self: Contract, body: Any, **modes: Any) -> None:
        return None

    monkeypatch.setattr(Contract, "check", lenient)
    client = Kimi(
        api_key=kimi_standin.api_key, base_url=kimi_standin.base_url, fallback_base_url=None
    )
    before = len(kimi_standin.requests)
    with pytest.raises(AssertionError, match=r"chat body its spec refuses: \[\"\['messages', 0\]"):
        client.chat.completions.create(model="kimi-k3.1-pro", messages=[{"role": "user"}])
    assert len(kimi_standin.requests) == before  # stopped before sending
