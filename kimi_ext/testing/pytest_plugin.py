"""pytest plugin: the ``kimi_standin`` fixture (a started :class:`KimiStandIn`).

Registered as a ``pytest11`` entry point, so installing kimi-ext makes the fixture
available everywhere::

    def test_hello(kimi_standin):
        kimi_standin.queue("Hello!")
        client = Kimi(api_key=kimi_standin.api_key, base_url=kimi_standin.base_url,
                      fallback_base_url=None)
        ...
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kimi_ext.testing.standin import KimiStandIn


@pytest.fixture
def kimi_standin() -> Iterator[KimiStandIn]:
    """A running Kimi stand-in (key ``test-key``), stopped after the test."""
    with KimiStandIn() as standin:
        yield standin
