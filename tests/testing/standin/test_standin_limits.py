"""The request-body limit: a body over it gets a 413 naming the limit, and is not read."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import httpx
import pytest

from kimi_ext._core.contract import contract
from kimi_ext.testing import Fault, KimiStandIn
from tests.support.standin import PATHS, Wire, chat_body, messages_body

SMALL = 2_000


def padded(size: int) -> bytes:
    """A valid Chat body of exactly ``size`` bytes."""
    base = json.dumps(chat_body("")).encode()
    body = json.dumps(chat_body("x" * (size - len(base)))).encode()
    assert len(body) == size
    return body


def assert_too_large(response: httpx.Response, limit: int) -> None:
    assert response.status_code == 413, response.text
    assert response.json() == {
        "error": {
            "message": f"Request body too large: the limit is {limit:,} bytes",
            "type": "invalid_request_error",
            "code": "request_too_large",
        }
    }
    assert response.headers["connection"] == "close"


def test_the_default_limit_is_each_formats_spec_limit_and_a_larger_body_is_not_awaited() -> None:
    with KimiStandIn() as standin:
        for fmt, path in PATHS.items():
            limit = contract(fmt).max_body_bytes
            assert limit == 104_857_600 and standin.body_limit(path) == limit
            # Only the headers are sent: the answer comes without the body being read.
            conn = http.client.HTTPConnection("127.0.0.1", standin.port, timeout=10)
            try:
                conn.putrequest("POST", path)
                conn.putheader("Authorization", "Bearer test-key")
                conn.putheader("Content-Type", "application/json")
                conn.putheader("Content-Length", str(limit + 1))
                conn.endheaders()
                response = conn.getresponse()
                assert response.status == 413
                assert json.loads(response.read())["error"]["message"] == (
                    "Request body too large: the limit is 104,857,600 bytes"
                )
            finally:
                conn.close()
        assert [r.path for r in standin.requests] == list(PATHS.values())


@pytest.fixture
def small() -> Iterator[KimiStandIn]:
    with KimiStandIn(max_body_bytes=SMALL) as standin:
        yield standin


def test_a_body_over_the_limit_is_413_and_one_at_it_is_answered(small: KimiStandIn) -> None:
    small.queue("kept for later")
    small.fault(Fault.server_error())
    headers = {"Authorization": "Bearer test-key"}
    with httpx.Client(base_url=small.base_url, timeout=10) as client:
        assert_too_large(
            client.post(PATHS["chat"], content=padded(SMALL + 1), headers=headers), SMALL
        )
        # The refused body used no queued reply or fault, and was not kept.
        assert small.pending_replies == 1 and small.pending_faults == 1
        assert small.last_request.body == b"" and small.last_request.json is None
        small.clear_faults()
        ok = client.post(PATHS["chat"], content=padded(SMALL), headers=headers)
        assert ok.status_code == 200
        assert ok.json()["choices"][0]["message"]["content"] == "kept for later"


def test_a_chunked_body_is_refused_once_it_passes_the_limit(small: KimiStandIn) -> None:
    chunk = b" " * 500

    def body() -> Iterator[bytes]:
        yield json.dumps(messages_body()).encode()
        for _ in range(12):  # 6,000 more bytes: past the limit, then drained and dropped
            yield chunk

    headers = {"Authorization": "Bearer test-key", "anthropic-version": "2023-06-01"}
    with httpx.Client(base_url=small.base_url, timeout=10) as client:
        response = client.post(PATHS["messages"], content=body(), headers=headers)
        assert_too_large(response, SMALL)
        # The connection was closed; the next request gets a fresh one and an answer.
        ok = client.post(PATHS["messages"], json=messages_body("after"), headers=headers)
        assert ok.status_code == 200


def test_the_limit_can_be_changed_between_requests(wire: Wire, standin: KimiStandIn) -> None:
    assert standin.max_body_bytes is None
    wire.ok("chat", chat_body("fits"))
    standin.max_body_bytes = 10
    response = wire.client.post(PATHS["chat"], json=chat_body(), headers=wire.headers())
    assert_too_large(response, 10)
