"""kimi_ext._core.transport.retries: a server's x-should-retry, unreadable retry hints, and the
backoff they fall back to."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import kimi_ext
from kimi_ext._core.transport.retries import RetryPolicy, retry_after_seconds
from kimi_ext._core.transport.wire_errors import (
    status_error_from_response,
)


def status_error(status: int, headers: dict[str, str] | None = None, body: bytes = b"") -> Any:
    request = httpx.Request("POST", "https://api.test/v1/x")
    return status_error_from_response(
        httpx.Response(status, headers=headers, content=body, request=request)
    )


def test_the_server_can_ask_for_a_retry_the_policy_would_not_make() -> None:
    policy = RetryPolicy()
    assert not policy.should_retry(status_error(400))
    assert policy.should_retry(status_error(400, {"x-should-retry": "true"}))
    assert not policy.should_retry(status_error(503, {"x-should-retry": "false"}))
    # Quota is never retried, whatever the server says.
    quota = status_error(429, {"x-should-retry": "true"}, b'{"error":{"type":"insufficient_quota","message":"x"}}')  # fmt: skip
    assert isinstance(quota, kimi_ext.QuotaExceededError) and not policy.should_retry(quota)
    assert not policy.should_retry(ValueError("not ours"))


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"retry-after-ms": "soon", "retry-after": "2"}, 2.0),  # unreadable ms: use the other
        ({"retry-after-ms": "soon"}, None),
        ({"retry-after": "tomorrow-ish"}, None),  # neither seconds nor an HTTP date
        ({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0.0),  # a date in the past
        ({}, None),
    ],
)
def test_unreadable_retry_hints(headers: dict[str, str], seconds: float | None) -> None:
    assert retry_after_seconds(httpx.Headers(headers)) == seconds


def test_unreadable_hint_falls_back_to_backoff() -> None:
    delay = RetryPolicy().delay(1, httpx.Headers({"retry-after": "later"}))
    assert 0.75 <= delay <= 1.0
