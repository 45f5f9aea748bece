"""Every option of ``Kimi(...)`` / ``AsyncKimi(...)`` is checked when the client is made, by
the same rules as a call's options: a ClientConfigError naming the option, the value and the
rule, never a raw error (or a silent wait) at the first call. Waits too long to arm are
refused by name (30 days at most), on the client and per call, never an OverflowError."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import httpx
import pytest

from kimi_ext import (
    APIConnectionError,
    AsyncKimi,
    ClientConfigError,
    Kimi,
    RequestValidationError,
)
from kimi_ext.testing import KimiStandIn
from tests.support.client import acreate, create, minimal

CLIENTS = [Kimi, AsyncKimi]
FORMATS = ["chat", "messages", "responses"]
MONTH = 30 * 24 * 3600  # the documented longest wait

# (option, value, fragments the message must hold)
BAD_OPTIONS: list[tuple[str, Any, list[str]]] = [
    ("timeout", -1, ["timeout=-1", ">= 0"]),
    ("timeout", "5", ["timeout='5'", "a number"]),
    ("timeout", math.nan, ["timeout=nan", ">= 0"]),
    ("timeout", math.inf, ["timeout=inf", "at most 2,592,000"]),
    ("timeout", 1e300, ["timeout=1e+300", "at most 2,592,000"]),
    ("timeout", 10**100, ["timeout=1000", "at most 2,592,000"]),
    ("timeout", httpx.Timeout(10**100), ["timeout=Timeout(", "connect", "at most"]),
    ("timeout", httpx.Timeout(5.0, read=-1), ["timeout=Timeout(", "its read", ">= 0"]),
    ("timeout", True, ["timeout=True", "a number"]),
    ("max_retries", None, ["max_retries=None", "integer >= 0"]),
    ("max_retries", -1, ["max_retries=-1", "integer >= 0"]),
    ("max_retries", 1.5, ["max_retries=1.5", "integer >= 0"]),
    ("max_retries", "2", ["max_retries='2'", "integer >= 0"]),
    ("deadline", 1e10, ["deadline=10000000000.0", "at most 2,592,000"]),
    ("deadline", 9.3e9, ["deadline=9300000000.0", "at most 2,592,000"]),
    ("deadline", MONTH + 1, [f"deadline={MONTH + 1}", "at most"]),
    ("deadline", "60", ["deadline='60'", "a number"]),
    ("limits", httpx.Limits(max_connections=0), ["limits=Limits(", "max_connections", ">= 1"]),
    ("limits", httpx.Limits(max_keepalive_connections=-1), ["max_keepalive_connections", ">= 0"]),
    ("limits", httpx.Limits(keepalive_expiry=-1), ["keepalive_expiry", ">= 0"]),
    ("limits", {"max_connections": 10}, ["limits={", "httpx.Limits"]),
    ("max_body_size", 0, ["max_body_size=0", "> 0"]),
    ("max_body_size", 2.5, ["max_body_size=2.5", "integer"]),
    ("fallback_base_url", 5, ["fallback_base_url=5", "a str", "None"]),
    ("allow_insecure_http", "no", ["allow_insecure_http='no'", "True or False"]),
    ("base_url", 5, ["base_url=5", "a str"]),
    ("base_url", "http://127.0.0.1:99999", ["127.0.0.1:99999", "port 99999", "1-65535"]),
    ("base_url", "http://127.0.0.1:0", ["port 0", "1-65535"]),
    ("base_url", "https://" + "a" * 64 + ".example.com", ["aaaa", "labels of 1 to 63"]),
    ("base_url", "https://api..example.com", ["api..example.com", "labels of 1 to 63"]),
    ("fallback_base_url", "https://api.example.com:99999", ["fallback_base_url '", "port 99999"]),
    ("fallback_base_url", "https://", ["fallback_base_url 'https://'", "no host"]),
]


@pytest.mark.parametrize("make", CLIENTS)
@pytest.mark.parametrize(("option", "value", "fragments"), BAD_OPTIONS)
def test_a_bad_client_option_is_refused_when_the_client_is_made(
    make: type[Any], option: str, value: Any, fragments: list[str]
) -> None:
    with KimiStandIn() as standin:
        options = {"api_key": standin.api_key, "base_url": standin.base_url, option: value}
        with pytest.raises(ClientConfigError) as caught:
            make(**options)
        assert standin.requests == []
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message
    assert len(message) < 400  # a huge value is quoted cut short


def test_an_http_client_of_the_other_kind_is_refused_by_name() -> None:
    with httpx.Client() as sync_http:
        with pytest.raises(ClientConfigError, match=r"AsyncKimi takes an httpx\.AsyncClient, "
                           r"not httpx\.Client \(that is for Kimi\)"):  # fmt: skip
            AsyncKimi(api_key="k", base_url="http://127.0.0.1:9", http_client=sync_http)
        with pytest.raises(ClientConfigError, match="limits: cannot be applied"):
            Kimi(
                api_key="k", base_url="http://127.0.0.1:9", http_client=sync_http,
                limits=httpx.Limits(max_connections=5),
            )  # fmt: skip
    with pytest.raises(ClientConfigError, match="http_client: is closed"):
        Kimi(api_key="k", base_url="http://127.0.0.1:9", http_client=sync_http)

    async def wrong() -> None:
        async with httpx.AsyncClient() as async_http:
            with pytest.raises(ClientConfigError, match=r"Kimi takes an httpx\.Client, not "
                               r"httpx\.AsyncClient \(that is for AsyncKimi\)"):  # fmt: skip
                Kimi(api_key="k", base_url="http://127.0.0.1:9", http_client=async_http)
        with pytest.raises(ClientConfigError, match="http_client: is closed"):
            AsyncKimi(api_key="k", base_url="http://127.0.0.1:9", http_client=async_http)

    asyncio.run(wrong())
    with pytest.raises(ClientConfigError, match=r"http_client: Kimi takes an httpx\.Client, not "):
        Kimi(api_key="k", base_url="http://127.0.0.1:9", http_client="http")


@pytest.mark.parametrize(
    "options",
    [
        {"timeout": MONTH, "deadline": MONTH},
        {"timeout": httpx.Timeout(MONTH, connect=5)},
        {"timeout": None, "max_retries": 0},
        {"timeout": httpx.Timeout(None)},
        {"limits": httpx.Limits(max_connections=None, max_keepalive_connections=0)},
        {"limits": httpx.Limits(max_connections=1, keepalive_expiry=None)},
    ],
)
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_longest_allowed_waits_and_no_limit_work(
    kimi_standin: KimiStandIn, options: dict[str, Any], fmt: str
) -> None:
    base = {"api_key": kimi_standin.api_key, "base_url": kimi_standin.base_url, **options}
    with Kimi(**base) as client:
        assert create(client, fmt, **minimal(fmt)).text
        assert create(client, fmt, **minimal(fmt, deadline=MONTH, timeout=MONTH)).text

    async def main() -> None:
        async with AsyncKimi(**base) as client:
            assert (await acreate(client, fmt, **minimal(fmt))).text
            assert (await acreate(client, fmt, **minimal(fmt, deadline=MONTH))).text

    asyncio.run(main())
    assert len(kimi_standin.requests) == 4


CALL_OVERFLOWS: list[tuple[str, Any]] = [
    ("deadline", 1e10),
    ("deadline", 9.3e9),
    ("deadline", 10**30),
    ("timeout", 1e300),
    ("timeout", 10**100),
    ("timeout", httpx.Timeout(10**100)),
    ("timeout", httpx.Timeout(5.0, pool=1e12)),
]


@pytest.mark.parametrize(("option", "value"), CALL_OVERFLOWS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_wait_too_long_to_arm_is_refused_on_a_call(
    kimi_standin: KimiStandIn, fmt: str, option: str, value: Any
) -> None:
    base = {"api_key": kimi_standin.api_key, "base_url": kimi_standin.base_url}
    with Kimi(**base) as client, pytest.raises(RequestValidationError) as caught:
        create(client, fmt, **minimal(fmt, **{option: value}))
    assert caught.value.field == option and "at most 2,592,000" in caught.value.rule

    async def main() -> None:
        async with AsyncKimi(**base) as client:
            with pytest.raises(RequestValidationError, match=f"^{option}=.*at most 2,592,000"):
                await acreate(client, fmt, **minimal(fmt, **{option: value}))

    asyncio.run(main())
    with Kimi(**base) as client, pytest.raises(RequestValidationError, match=option):
        resource = client.chat.completions if fmt == "chat" else getattr(client, fmt)
        with resource.stream(**minimal(fmt, **{option: value})):
            pass
    assert kimi_standin.requests == []


# --- failures of the network layer under httpx --------------------------------------------

# A proxy from the environment at a port out of range: httpx takes the address, the socket
# call refuses it; anyio reports that (async) as an ExceptionGroup, which came out raw.
BAD_PROXY = "http://127.0.0.1:99999"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_socket_layer_error_is_a_connection_error(
    monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTPS_PROXY", BAD_PROXY)
    monkeypatch.setenv("https_proxy", BAD_PROXY)
    base = {"api_key": "k", "base_url": "https://api.example.com", "max_retries": 0}
    with Kimi(**base) as client, pytest.raises(APIConnectionError):
        create(client, fmt, **minimal(fmt))

    async def main() -> None:
        async with AsyncKimi(**base) as client:
            with pytest.raises(APIConnectionError, match="OverflowError") as caught:
                await acreate(client, fmt, **minimal(fmt))
            assert isinstance(caught.value.__cause__, httpx.ConnectError)
            assert isinstance(caught.value.__cause__.__cause__, ExceptionGroup)

    asyncio.run(main())


class _GroupFailure(httpx.AsyncBaseTransport):
    """A transport whose connection attempts fail as anyio's do when a socket call refuses
    its arguments (an ExceptionGroup of the OverflowError), as for a port out of range."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        raise ExceptionGroup("unhandled errors in a TaskGroup", [OverflowError("port")])


class _HookFailure(httpx.AsyncBaseTransport):
    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        raise ExceptionGroup("the caller's own", [KeyError("x")])


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_async_exception_group_of_socket_errors_is_a_connection_error(fmt: str) -> None:
    async def main() -> None:
        base = {"api_key": "k", "base_url": "http://127.0.0.1:9", "max_retries": 1}
        async with httpx.AsyncClient(transport=_GroupFailure()) as http:
            client = AsyncKimi(**base, http_client=http)
            sleeps: list[float] = []

            async def sleep(seconds: float) -> None:
                sleeps.append(seconds)

            client._sender.sleep = sleep
            with pytest.raises(APIConnectionError, match="OverflowError: port"):
                await acreate(client, fmt, **minimal(fmt))
            assert len(sleeps) == 1  # a connection error: retried like any other
        # Anything else in a group is not the network's: it ends the call as it is.
        async with httpx.AsyncClient(transport=_HookFailure()) as http:
            client = AsyncKimi(**base, http_client=http)
            with pytest.raises(ExceptionGroup, match="the caller's own"):
                await acreate(client, fmt, **minimal(fmt))

    asyncio.run(main())
