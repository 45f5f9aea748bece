"""Fixtures for the cassette tests: a second stand-in playing the real service."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kimi_ext.testing import KimiStandIn
from tests.support.cassettes import UPSTREAM_KEY


@pytest.fixture
def upstream() -> Iterator[KimiStandIn]:
    """The "real" service the recorder forwards to (it takes UPSTREAM_KEY only)."""
    with KimiStandIn(api_key=UPSTREAM_KEY) as service:
        yield service
