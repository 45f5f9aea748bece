"""kimi_ext._core.transport.wire_errors: error envelopes of every shape, and errors from a
response that has no request."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import kimi_ext
from kimi_ext._core.transport.wire_errors import (
    parse_error_body,
    status_error_from_event,
)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"error": "plain text error"}, "plain text error"),
        ({"message": "top-level message", "request_id": "r-9"}, "top-level message"),
        ({"message": 5}, None),
        (["not", "an", "object"], None),
    ],
)
def test_error_envelopes_of_every_shape(body: Any, message: str | None) -> None:
    assert parse_error_body(body)[0] == message


def test_errors_from_a_response_that_has_no_request() -> None:
    error = status_error_from_event({"error": "boom"}, response=httpx.Response(200))
    assert isinstance(error, kimi_ext.InternalServerError)
    assert error.request is None and error.message == "boom"
