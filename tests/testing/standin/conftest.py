"""Fixtures for the stand-in's own tests (helpers live in tests/support/standin.py)."""

from __future__ import annotations

import ssl
from collections.abc import Iterator

import httpx
import pytest

from kimi_ext.testing import KimiStandIn
from tests.support.standin import PATHS, SpecValidator, Wire, load_spec

# Building an SSL context costs ~40 ms; the stand-in is plain http, so share one.
SSL_CONTEXT = ssl.create_default_context()


@pytest.fixture(scope="session")
def specs() -> dict[str, SpecValidator]:
    return {fmt: SpecValidator(load_spec(fmt)) for fmt in PATHS}


@pytest.fixture
def standin(kimi_standin: KimiStandIn) -> KimiStandIn:
    return kimi_standin


@pytest.fixture
def wire(kimi_standin: KimiStandIn, specs: dict[str, SpecValidator]) -> Iterator[Wire]:
    with httpx.Client(base_url=kimi_standin.base_url, timeout=10, verify=SSL_CONTEXT) as client:
        yield Wire(kimi_standin, specs, client)
