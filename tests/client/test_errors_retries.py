"""Error classes from every envelope, retries with their waits and headers, fallback, secrets."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import httpx
import pytest
from werkzeug import Response

import kimi_ext
from kimi_ext import AsyncKimi, Kimi
from tests.support.client import KEY, OK, PATHS, SleepRecorder, acreate, create, minimal

MESSAGES_ENVELOPE = {
    "type": "error",
    "error": {"type": "invalid_request_error", "message": "bad thing"},
    "request_id": "req_m1",
}
CHAT_ENVELOPE = {"error": {"message": "bad thing", "type": "invalid_request_error", "code": "bad"}}


def respond(
    httpserver: Any, fmt: str, status: int, body: Any, headers: dict[str, str] | None = None
) -> None:
    text = body if isinstance(body, str) else json.dumps(body)
    httpserver.expect_ordered_request(PATHS[fmt]).respond_with_response(
        Response(text, status=status, headers=headers or {}, content_type="application/json")
    )


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, kimi_ext.BadRequestError),
        (401, kimi_ext.AuthenticationError),
        (403, kimi_ext.PermissionDeniedError),
        (404, kimi_ext.NotFoundError),
        (422, kimi_ext.UnprocessableEntityError),
    ],
)
@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_status_maps_to_class_for_each_envelope(
    httpserver: Any, client: Kimi, fmt: str, status: int, cls: type
) -> None:
    envelope = MESSAGES_ENVELOPE if fmt == "messages" else CHAT_ENVELOPE
    respond(httpserver, fmt, status, envelope, {"x-request-id": "hdr-1"})
    with pytest.raises(cls) as info:
        create(client, fmt, **minimal(fmt))
    error = info.value
    assert isinstance(error, kimi_ext.APIStatusError)
    assert error.status_code == status
    assert error.message == "bad thing"
    assert error.error_type == "invalid_request_error"
    assert error.body == envelope
    assert error.response is not None and error.response.status_code == status
    assert error.request_id == ("req_m1" if fmt == "messages" else "hdr-1")
    assert len(httpserver.log) == 1, "4xx other than 408/409/429 is not retried"


def test_chat_error_code_is_kept(httpserver: Any, client: Kimi) -> None:
    respond(httpserver, "chat", 400, CHAT_ENVELOPE)
    with pytest.raises(kimi_ext.BadRequestError) as info:
        create(client, "chat", **minimal("chat"))
    assert info.value.code == "bad"
    assert "400 invalid_request_error: bad thing" in str(info.value)


@pytest.mark.parametrize("body", ["<html>502 Bad Gateway</html>", "", "upstream connect error"])
def test_non_json_error_body_gives_the_right_class(
    httpserver: Any, client: Kimi, body: str
) -> None:
    for _ in range(3):
        respond(httpserver, "chat", 502, body)
    with pytest.raises(kimi_ext.InternalServerError) as info:
        create(client, "chat", **minimal("chat"))
    assert info.value.status_code == 502
    assert info.value.body == (body or None)
    if body:
        assert body in info.value.message


def test_non_json_success_body_is_an_api_error_keeping_the_text(
    httpserver: Any, client: Kimi
) -> None:
    respond(httpserver, "chat", 200, "<html>captive portal</html>")
    with pytest.raises(kimi_ext.APIResponseError) as info:
        create(client, "chat", **minimal("chat"))
    assert info.value.body == "<html>captive portal</html>"


@pytest.mark.parametrize(
    "envelope",
    [
        {"error": {"message": "You exceeded your current quota", "type": "exceeded_current_quota_error"}},
        {"type": "error", "error": {"type": "rate_limit_error", "message": "Your quota is exhausted, upgrade your plan"}},
        {"error": {"message": "no money", "type": "insufficient_quota", "code": "insufficient_quota"}},
    ],
)  # fmt: skip
def test_quota_429_is_never_retried(
    httpserver: Any, client: Kimi, sleeps: SleepRecorder, envelope: dict[str, Any]
) -> None:
    respond(httpserver, "chat", 429, envelope, {"retry-after": "1"})
    with pytest.raises(kimi_ext.QuotaExceededError) as info:
        create(client, "chat", **minimal("chat"))
    assert isinstance(info.value, kimi_ext.RateLimitError)
    assert len(httpserver.log) == 1
    assert sleeps.waits == []


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after": "3"}, 3.0),
        ({"retry-after-ms": "1500"}, 1.5),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
    ],
)
def test_rate_limit_is_retried_after_the_server_hint(
    httpserver: Any, client: Kimi, sleeps: SleepRecorder, headers: dict[str, str], expected: float
) -> None:
    respond(
        httpserver,
        "messages",
        429,
        {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}},
        headers,
    )
    respond(httpserver, "messages", 200, OK["messages"])
    assert create(client, "messages", **minimal("messages")).text == "OK"
    assert sleeps.waits == [expected]
    keys = {entry[0].headers["Idempotency-Key"] for entry in httpserver.log}
    assert len(keys) == 1, "all attempts of one call share the idempotency key"
    assert [e[0].headers["X-Kimi-Retry-Count"] for e in httpserver.log] == ["0", "1"]


def test_retry_after_as_http_date(httpserver: Any, client: Kimi, sleeps: SleepRecorder) -> None:
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=5), usegmt=True)
    respond(httpserver, "chat", 503, CHAT_ENVELOPE, {"retry-after": when})
    respond(httpserver, "chat", 200, OK["chat"])
    create(client, "chat", **minimal("chat"))
    assert 3.0 <= sleeps.waits[0] <= 5.0


@pytest.mark.parametrize("headers", [{"retry-after": "3600"}, {"retry-after-ms": "61000"}])
def test_retry_after_beyond_cap_raises_at_once_with_the_hint(
    httpserver: Any, client: Kimi, sleeps: SleepRecorder, headers: dict[str, str]
) -> None:
    # Retrying after our own short backoff would only hit the limit the server just named.
    respond(httpserver, "chat", 429, CHAT_ENVELOPE, headers)
    with pytest.raises(kimi_ext.RateLimitError) as info:
        create(client, "chat", **minimal("chat"))
    assert info.value.retry_after == (3600.0 if "retry-after" in headers else 61.0)
    assert sleeps.waits == [] and len(httpserver.log) == 1


def test_retry_after_within_cap_is_kept_on_the_error(
    httpserver: Any, client: Kimi, sleeps: SleepRecorder
) -> None:
    for _ in range(3):
        respond(httpserver, "chat", 429, CHAT_ENVELOPE, {"retry-after": "2"})
    with pytest.raises(kimi_ext.RateLimitError) as info:
        create(client, "chat", **minimal("chat"))
    assert info.value.retry_after == 2.0 and sleeps.waits == [2.0, 2.0]


@pytest.mark.parametrize("status", [408, 409, 500, 502, 503, 529])
def test_retryable_statuses_back_off_exponentially_then_give_up(
    httpserver: Any, client: Kimi, sleeps: SleepRecorder, status: int
) -> None:
    for _ in range(3):
        respond(httpserver, "responses", status, CHAT_ENVELOPE)
    with pytest.raises(kimi_ext.APIStatusError) as info:
        create(client, "responses", **minimal("responses"))
    assert info.value.status_code == status
    assert len(httpserver.log) == 3  # first try + max_retries=2
    assert len(sleeps.waits) == 2
    assert 0.375 <= sleeps.waits[0] <= 0.5 and 0.75 <= sleeps.waits[1] <= 1.0


def test_500_then_success(httpserver: Any, client: Kimi, sleeps: SleepRecorder) -> None:
    respond(httpserver, "chat", 500, "oops")
    respond(httpserver, "chat", 200, OK["chat"])
    assert create(client, "chat", **minimal("chat")).text == "OK"
    assert len(sleeps.waits) == 1


def test_server_can_forbid_a_retry(httpserver: Any, client: Kimi, sleeps: SleepRecorder) -> None:
    respond(httpserver, "chat", 500, "oops", {"x-should-retry": "false"})
    with pytest.raises(kimi_ext.InternalServerError):
        create(client, "chat", **minimal("chat"))
    assert sleeps.waits == []


def test_per_call_and_per_client_max_retries(httpserver: Any, sleeps: SleepRecorder) -> None:
    for _ in range(6):
        respond(httpserver, "chat", 500, "oops")
    with Kimi(api_key=KEY, base_url=httpserver.url_for(""), max_retries=0) as c:
        c._sender.sleep = sleeps
        with pytest.raises(kimi_ext.InternalServerError):
            c.chat.completions.create(**minimal("chat"))
        assert len(httpserver.log) == 1
        with pytest.raises(kimi_ext.InternalServerError):
            c.chat.completions.create(**minimal("chat"), max_retries=4)
        assert len(httpserver.log) == 6


def test_connection_errors_are_retried_and_wrapped(sleeps: SleepRecorder) -> None:
    with Kimi(api_key=KEY, base_url="http://127.0.0.1:9", max_retries=2) as c:
        c._sender.sleep = sleeps
        with pytest.raises(kimi_ext.APIConnectionError) as info:
            c.chat.completions.create(**minimal("chat"))
    assert isinstance(info.value.__cause__, httpx.TransportError)
    assert len(sleeps.waits) == 2
    assert KEY not in str(info.value)


def test_timeouts_are_api_timeout_errors(httpserver: Any, sleeps: SleepRecorder) -> None:
    import time

    def slow(request: Any) -> Response:
        time.sleep(0.3)
        return Response(json.dumps(OK["chat"]), content_type="application/json")

    httpserver.expect_request(PATHS["chat"]).respond_with_handler(slow)
    with Kimi(api_key=KEY, base_url=httpserver.url_for(""), timeout=0.05, max_retries=1) as c:
        c._sender.sleep = sleeps
        with pytest.raises(kimi_ext.APITimeoutError):
            c.chat.completions.create(**minimal("chat"))
        # a longer per-call timeout succeeds
        assert c.chat.completions.create(**minimal("chat"), timeout=5).text == "OK"
    assert len(sleeps.waits) == 1


def test_fallback_base_url_when_default_is_unreachable(
    httpserver: Any, sleeps: SleepRecorder
) -> None:
    respond(httpserver, "chat", 200, OK["chat"])
    respond(httpserver, "chat", 200, OK["chat"])
    with Kimi(
        api_key=KEY, base_url="http://127.0.0.1:9", fallback_base_url=httpserver.url_for("")
    ) as c:
        c._sender.sleep = sleeps
        assert c.chat.completions.create(**minimal("chat")).text == "OK"
        assert c.base_url == httpserver.url_for("").rstrip("/")
        c.chat.completions.create(**minimal("chat"))  # sticks to the fallback
    assert sleeps.waits == [], "switching address is not a retry"
    assert len(httpserver.log) == 2


def test_default_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIMI_BASE_URL", raising=False)
    c = Kimi(api_key=KEY)
    assert c._sender.base_urls == ["https://direct.evolink.ai", "https://api.evolink.ai"]
    c = Kimi(api_key=KEY, base_url=kimi_ext.SEEDROUTER_BASE_URL)
    assert c._sender.base_urls == ["https://api.seedrouter.ai"]
    monkeypatch.setenv("KIMI_BASE_URL", "https://proxy.example.com/")
    assert Kimi(api_key=KEY).base_url == "https://proxy.example.com"


def test_key_from_environment_and_missing_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIMI_API_KEY", "env-key")
    assert Kimi().api_key == "env-key"
    monkeypatch.delenv("KIMI_API_KEY")
    with pytest.raises(kimi_ext.ClientConfigError, match="KIMI_API_KEY"):
        Kimi()
    with pytest.raises(kimi_ext.ClientConfigError, match="KIMI_API_KEY"):
        AsyncKimi()


def test_plain_http_to_remote_host_is_refused() -> None:
    with pytest.raises(kimi_ext.ClientConfigError, match="unencrypted"):
        Kimi(api_key=KEY, base_url="http://api.example.com")
    Kimi(api_key=KEY, base_url="http://api.example.com", allow_insecure_http=True)
    Kimi(api_key=KEY, base_url="http://localhost:8080")
    Kimi(api_key=KEY, base_url="http://[::1]:8080")


def test_redirects_are_not_followed_so_the_key_stays_home(
    httpserver: Any, sleeps: SleepRecorder
) -> None:
    from pytest_httpserver import HTTPServer

    other = HTTPServer(host="127.0.0.1", port=0)
    other.start()
    try:
        other.expect_request(PATHS["chat"]).respond_with_json(OK["chat"])
        httpserver.expect_request(PATHS["chat"]).respond_with_response(
            Response("", status=307, headers={"Location": other.url_for(PATHS["chat"])})
        )
        with (
            Kimi(api_key=KEY, base_url=httpserver.url_for("")) as c,
            pytest.raises(kimi_ext.APIStatusError) as info,
        ):
            c.chat.completions.create(**minimal("chat"))
        assert info.value.status_code == 307
        assert other.log == []
    finally:
        other.clear()
        other.stop()


def test_key_never_in_repr_errors_or_logs(
    httpserver: Any, client: Kimi, caplog: pytest.LogCaptureFixture
) -> None:
    echo = {"error": {"message": f"invalid key {KEY}", "type": "authentication_error"}}
    respond(httpserver, "chat", 401, echo)
    caplog.set_level(logging.DEBUG, logger="kimi_ext")
    with pytest.raises(kimi_ext.AuthenticationError) as info:
        create(client, "chat", **minimal("chat"))
    assert KEY not in repr(client) and KEY not in str(client)
    assert KEY not in str(info.value) and KEY not in repr(info.value)
    assert KEY not in info.value.message
    assert "<redacted>" in caplog.text  # the Authorization header was logged, redacted
    assert KEY not in caplog.text


def test_kimi_log_env_turns_on_logging(
    httpserver: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import kimi_ext._core.transport.log as log_module

    logger = logging.getLogger("kimi_ext")
    before = (logger.level, list(logger.handlers))
    monkeypatch.setenv("KIMI_LOG", "debug")
    try:
        respond(httpserver, "chat", 200, OK["chat"])
        with Kimi(api_key=KEY, base_url=httpserver.url_for("")) as c:
            c.chat.completions.create(**minimal("chat"))
        err = capsys.readouterr().err
        assert "POST" in err and "-> 200" in err
        assert KEY not in err
    finally:
        logger.setLevel(before[0])
        logger.handlers[:] = before[1]
    assert log_module.logger is logger


async def test_async_retries_and_errors(
    httpserver: Any, aclient: AsyncKimi, sleeps: SleepRecorder
) -> None:
    respond(
        httpserver,
        "messages",
        529,
        {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}},
    )
    respond(
        httpserver,
        "messages",
        429,
        {"type": "error", "error": {"type": "rate_limit_error", "message": "slow"}},
        {"retry-after-ms": "10"},
    )
    respond(httpserver, "messages", 200, OK["messages"])
    result = await acreate(aclient, "messages", **minimal("messages"))
    assert result.text == "OK"
    assert len(sleeps.waits) == 2 and sleeps.waits[1] == 0.01
    assert len({e[0].headers["Idempotency-Key"] for e in httpserver.log}) == 1


async def test_async_quota_and_connection_errors(
    httpserver: Any, aclient: AsyncKimi, sleeps: SleepRecorder
) -> None:
    respond(
        httpserver,
        "chat",
        429,
        {"error": {"message": "quota", "type": "exceeded_current_quota_error"}},
    )
    with pytest.raises(kimi_ext.QuotaExceededError):
        await acreate(aclient, "chat", **minimal("chat"))
    async with AsyncKimi(api_key=KEY, base_url="http://127.0.0.1:9", max_retries=1) as c:
        c._sender.sleep = sleeps.asleep
        with pytest.raises(kimi_ext.APIConnectionError):
            await c.chat.completions.create(**minimal("chat"))


async def test_async_fallback(httpserver: Any) -> None:
    respond(httpserver, "responses", 200, OK["responses"])
    async with AsyncKimi(
        api_key=KEY, base_url="http://127.0.0.1:9", fallback_base_url=httpserver.url_for("")
    ) as c:
        assert (await c.responses.create(**minimal("responses"))).text == "OK"
