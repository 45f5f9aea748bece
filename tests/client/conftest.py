"""Fixtures for client tests against pytest-httpserver."""

from __future__ import annotations

from typing import Any

import pytest
from client_helpers import KEY, SleepRecorder

from kimi_ext import AsyncKimi, Kimi


@pytest.fixture
def sleeps() -> SleepRecorder:
    return SleepRecorder()


@pytest.fixture
def client(httpserver: Any, sleeps: SleepRecorder) -> Any:
    c = Kimi(api_key=KEY, base_url=httpserver.url_for("").rstrip("/"))
    c._sender.sleep = sleeps
    yield c
    c.close()


@pytest.fixture
async def aclient(httpserver: Any, sleeps: SleepRecorder) -> Any:
    c = AsyncKimi(api_key=KEY, base_url=httpserver.url_for("").rstrip("/"))
    c._sender.sleep = sleeps.asleep
    yield c
    await c.close()
