"""Telemetry tests: the OpenTelemetry SDK with its in-memory span exporter and metric
reader, and clients pointed at the stand-in that record to them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kimi_ext import AsyncKimi, Kimi
from kimi_ext.testing import KimiStandIn
from tests.support.otel import Otel


@pytest.fixture
def otel() -> Iterator[Otel]:
    o = Otel()
    yield o
    o.shutdown()


@pytest.fixture
def client(kimi_standin: KimiStandIn, otel: Otel) -> Iterator[Kimi]:
    c = Kimi(
        api_key=kimi_standin.api_key,
        base_url=kimi_standin.base_url,
        fallback_base_url=None,
        telemetry=otel.telemetry(),
    )
    c._sender.sleep = lambda seconds: None  # a retry's wait is recorded, not waited
    yield c
    c.close()


@pytest.fixture
async def aclient(kimi_standin: KimiStandIn, otel: Otel) -> Any:
    async def no_wait(seconds: float) -> None:
        return None

    c = AsyncKimi(
        api_key=kimi_standin.api_key,
        base_url=kimi_standin.base_url,
        fallback_base_url=None,
        telemetry=otel.telemetry(),
    )
    c._sender.sleep = no_wait
    yield c
    await c.close()
