"""The per-call hardening made cheap (issue 12 item 6): a body without Content-Encoding is
read raw, a call without a deadline has no watchdog lock. Each must keep what it
replaced: the key is in no kept header (request or response, sync or async; redacted
through httpx's public header API since issue 25, which dropped the write into httpx's
own header list: it saved ~5 us of a ~450 us call), and the bodies and caps are the same."""

from __future__ import annotations

import asyncio
import gzip
import json
import pickle
from typing import Any

import httpx
import pytest

from kimi_ext import AsyncKimi, Kimi
from kimi_ext._core.transport import sending
from kimi_ext.errors import APIResponseError, APIStatusError
from tests.support.hostile_server import CHAT_OK, RawRequest, RawServer, answer, head, replies

KEY = "sk-fast-KEY-0d9c8b7a6f5e4d3c2b1a"
CHAT = {"model": "kimi-k3.1-pro", "messages": [{"role": "user", "content": "Hi"}]}
# A gateway that echoes the key in a debug header, and the key where the caller put it
# in headers of their own (a default header, an extra header, a duplicate).
ECHO = {"X-Debug-Auth": f"Bearer {KEY}", "X-Plain": "nothing here"}


def _ok(extra: dict[str, str] | None = None) -> bytes:
    return answer(200, CHAT_OK, {**ECHO, **(extra or {})})


def _kimi(server: RawServer, **options: Any) -> Kimi:
    return Kimi(
        api_key=KEY,
        base_url=server.base_url,
        fallback_base_url=None,
        default_headers={"X-Api-Key": "another-secret", "X-Trace": f"t-{KEY}-1"},
        **options,
    )


def _assert_kept_clean(response: httpx.Response) -> None:
    request = response.request
    for headers in (request.headers, response.headers):
        shown = repr(list(headers.raw)) + repr(dict(headers.items())) + repr(headers)
        assert KEY not in shown
        assert "another-secret" not in shown  # a sensitive name is redacted whatever it holds
    assert request.headers["Authorization"] == "<redacted>"
    assert request.headers["X-Api-Key"] == "<redacted>"
    assert request.headers["X-Trace"] == "<redacted>"
    assert request.headers["X-Extra"] == "<redacted>"
    assert response.headers["X-Debug-Auth"] == "<redacted>"
    # What holds no key is kept as it was.
    assert request.headers["Content-Type"] == "application/json"
    assert response.headers["X-Plain"] == "nothing here"
    assert KEY.encode() not in pickle.dumps((list(request.headers.raw), list(response.headers.raw)))


def _assert_sent_for_real(request: RawRequest) -> None:
    # Redaction happens after sending: the server got the real headers.
    assert request.header("Authorization") == f"Bearer {KEY}"
    assert request.header("X-Api-Key") == "another-secret"
    assert request.header("X-Extra") == f"k={KEY}"


def test_sync_kept_headers_hold_no_key() -> None:
    with RawServer(replies(_ok())) as server, _kimi(server) as client:
        result = client.chat.completions.create(**CHAT, extra_headers={"X-Extra": f"k={KEY}"})
        assert result.text == "OK"
        assert result.http_response is not None
        _assert_kept_clean(result.http_response)
        _assert_sent_for_real(server.requests[-1])


def test_async_kept_headers_hold_no_key() -> None:
    async def main(server: RawServer) -> httpx.Response:
        async with AsyncKimi(
            api_key=KEY,
            base_url=server.base_url,
            fallback_base_url=None,
            default_headers={"X-Api-Key": "another-secret", "X-Trace": f"t-{KEY}-1"},
        ) as client:
            result = await client.chat.completions.create(
                **CHAT, extra_headers={"X-Extra": f"k={KEY}"}
            )
            assert result.http_response is not None
            return result.http_response

    with RawServer(replies(_ok())) as server:
        _assert_kept_clean(asyncio.run(main(server)))
        _assert_sent_for_real(server.requests[-1])


def test_error_response_and_its_request_hold_no_key() -> None:
    body = json.dumps({"error": {"message": f"bad key {KEY}", "type": "auth"}}).encode()
    data = head(401, {"Content-Type": "application/json", **ECHO}, length=len(body)) + body
    with (
        RawServer(replies(data)) as server,
        _kimi(server, max_retries=0) as client,
        pytest.raises(APIStatusError) as err,
    ):
        client.chat.completions.create(**CHAT, extra_headers={"X-Extra": f"k={KEY}"})
    assert err.value.response is not None
    _assert_kept_clean(err.value.response)
    assert KEY not in str(err.value) and KEY.encode() not in pickle.dumps(err.value)


def test_public_api_path_redacts_an_extra_header() -> None:
    with RawServer(replies(_ok())) as server, _kimi(server) as client:
        result = client.chat.completions.create(**CHAT, extra_headers={"X-Extra": f"k={KEY}"})
        assert result.http_response is not None
        _assert_kept_clean(result.http_response)


def test_identity_body_is_read_raw_and_gzip_still_decoded(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = httpx.Response.iter_bytes

    def counting(self: httpx.Response, chunk_size: int | None = None) -> Any:
        calls.append(self.headers.get("content-encoding", ""))
        return real(self, chunk_size)

    monkeypatch.setattr(httpx.Response, "iter_bytes", counting)
    packed = gzip.compress(json.dumps(CHAT_OK).encode())
    zipped = (
        head(
            200,
            {"Content-Type": "application/json", "Content-Encoding": "gzip"},
            length=len(packed),
        )
        + packed
    )
    with RawServer(replies(answer(200, CHAT_OK), zipped)) as server, _kimi(server) as client:
        assert client.chat.completions.create(**CHAT).text == "OK"
        assert calls == []  # nothing to decode: the raw chunks, without httpx's decoder
        assert client.chat.completions.create(**CHAT).text == "OK"
        assert calls == ["gzip"]  # decoded as before


@pytest.mark.parametrize("encoded", [False, True], ids=["identity", "gzip"])
def test_body_cap_holds_on_both_read_paths(encoded: bool) -> None:
    big = json.dumps({**CHAT_OK, "pad": "x" * 50_000}).encode()
    body = gzip.compress(big) if encoded else big
    extra = {"Content-Encoding": "gzip"} if encoded else {}
    data = head(200, {"Content-Type": "application/json", **extra}, length=len(body)) + body
    with (
        RawServer(replies(data)) as server,
        _kimi(server, max_body_size=10_000) as client,
        pytest.raises(APIResponseError, match="larger than max_body_size=10000"),
    ):
        client.chat.completions.create(**CHAT)


def test_no_watchdog_lock_without_a_deadline_and_one_with_it() -> None:
    free = sending.CallState(None, None, 100)
    assert free._lock is None
    free.disarm()  # nothing to race with: a no-op
    timed = sending.CallState(5.0, 1e18, 100)
    assert timed._lock is not None
    timed.disarm()
