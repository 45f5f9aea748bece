"""Hostile input, on loopback: raw socket servers write exact bytes at a scripted pace.

What the docs' "Errors and retries" page (docs/errors.md) promises is checked here against
servers and callers that try to break it: the key never leaks (logs, ``str``, ``repr``, pickles,
tracebacks with locals); every public call raises a ``KimiError``; nothing is held or
stuck (abandoned streams, body caps measured in a subprocess, a total deadline, stalls
told from cuts, 1,000 concurrent slow streams on a default client, ``Retry-After``).
"""

from __future__ import annotations

import asyncio
import datetime
import decimal
import gc
import json
import logging
import math
import os
import pickle
import subprocess
import sys
import textwrap
import time
import traceback
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

import kimi_ext
from kimi_ext import AsyncKimi, Kimi
from kimi_ext._core.transport.retries import RetryPolicy
from kimi_ext._core.transport.sending import connection_error
from kimi_ext._core.transport.wire_errors import is_quota_error
from tests.support.hostile_server import (
    CHAT_OK,
    SSE,
    RawRequest,
    RawServer,
    answer,
    chunk,
    head,
    replies,
    reply,
)
from tests.support.paths import TESTS as TESTS_DIR

KEY = "sk-hostile-KEY-5f3a9c0e1d2b4a6f8e7d"
CHAT = {"model": "kimi-k3.1-pro", "messages": [{"role": "user", "content": "Hi"}]}


def kimi(server: RawServer, **options: Any) -> Kimi:
    options.setdefault("api_key", KEY)
    return Kimi(base_url=server.base_url, fallback_base_url=None, **options)


def akimi(server: RawServer, **options: Any) -> AsyncKimi:
    options.setdefault("api_key", KEY)
    return AsyncKimi(base_url=server.base_url, fallback_base_url=None, **options)


def no_sleep(client: Any) -> Any:
    """Retries without waiting (the waits are tested in tests/client)."""
    if isinstance(client, AsyncKimi):

        async def nap(seconds: float) -> None:
            return None

        client._sender.sleep = nap
    else:
        client._sender.sleep = lambda seconds: None
    return client


@pytest.fixture
def silent() -> Iterator[RawServer]:
    """A server that must receive nothing (it would answer 200 if it did)."""
    with RawServer(replies(answer(200, CHAT_OK))) as server:
        yield server
    assert server.connections == 0, server.received


# ------------------------------------------------------------------------ secrets


# Frames of the suite itself (this module, tests/support/hostile_server.py) are left out.
TESTS = str(TESTS_DIR)


def traceback_with_locals(exc: BaseException) -> str:
    """What pytest --showlocals, rich or a crash reporter print: every frame's locals,
    through the whole chain of causes. Frames of this test module are left out: the
    caller's own variables hold the key as the caller wrote it."""
    out: list[str] = []
    seen: set[int] = set()
    todo: list[traceback.TracebackException | None] = [
        traceback.TracebackException.from_exception(exc, capture_locals=True)
    ]
    while todo:
        te = todo.pop()
        if te is None or id(te) in seen:
            continue
        seen.add(id(te))
        out.extend(te.format_exception_only())
        for frame in te.stack:
            if not frame.filename.startswith(TESTS):
                out.append(f"{frame.filename}:{frame.lineno} {frame.name} {frame.locals}\n")
        todo.append(te.__cause__)
        if not te.__suppress_context__:  # as printed: `raise ... from None` hides it
            todo.append(te.__context__)
    return "".join(out)


def raised(call: Callable[[], Any]) -> BaseException:
    # Only `call` is a local here: the key is not held by this frame.
    try:
        call()
    except Exception as exc:  # the test checks the type
        return exc
    raise AssertionError("no error was raised")


def assert_no_key(exc: BaseException, *, frames: bool = True) -> None:
    """The key is nowhere in what an error shows or carries."""
    assert isinstance(exc, kimi_ext.KimiError), repr(exc)
    blob = pickle.dumps(exc)
    assert KEY.encode() not in blob
    again = pickle.loads(blob)
    assert type(again) is type(exc) and str(again) == str(exc)
    assert KEY not in str(exc) and KEY not in repr(exc)
    if frames:
        assert KEY not in traceback_with_locals(exc)
    for part in (exc.__cause__, exc.__context__):
        if part is not None:
            assert KEY not in str(part) and KEY not in repr(part)


def echoing(status: int, body: bytes, headers: dict[str, str] | None = None) -> bytes:
    """A response that echoes the key in a header as well as wherever ``body`` does."""
    return answer(status, body, {"X-Echo": f"Bearer {KEY}", **(headers or {})})


def straddling(at: int) -> bytes:
    """Text with the key starting ``at`` (a cut at 200 or 2,000 would leave most of it)."""
    return (b"x" * at + KEY.encode() + b" tail").ljust(3000, b"y")


def stream_of(*parts: bytes) -> bytes:
    return head(200, SSE) + b"".join(parts)


# (name, server answers, client options, what to call): every error path that sees a key.
SECRET_CASES: list[tuple[str, list[bytes], dict[str, Any], str]] = [
    (
        "401 echoing the key",
        [
            echoing(
                401,
                json.dumps(
                    {"error": {"message": f"bad key {KEY}", "type": "authentication_error"}}
                ).encode(),
            )
        ],
        {},
        "create",
    ),
    (
        "500 text, key across the 2,000 cut",
        [echoing(500, straddling(1995))],
        {"max_retries": 1},
        "create",
    ),
    (
        "500 text, indented, key across the 2,000 cut",
        [echoing(500, b" " * 1500 + straddling(495))],
        {"max_retries": 0},
        "create",
    ),
    (
        "500 text, key across the 200 cut",
        [echoing(502, straddling(195))],
        {"max_retries": 0},
        "create",
    ),
    ("200 not JSON, key across the 200 cut", [echoing(200, straddling(195))], {}, "create"),
    (
        "429 beyond the retry cap",
        [echoing(429, b'{"error":{"message":"slow"}}', {"Retry-After": "999"})],
        {},
        "create",
    ),
    (
        "quota in Chinese",
        [echoing(429, json.dumps({"error": {"message": f"余额不足 {KEY}"}}).encode())],
        {},
        "create",
    ),
    ("the server hangs up", [b"HTTP/1.1 200 OK\r\nContent-Le"], {}, "create"),
    ("a read timeout", [b""], {"timeout": 0.3, "max_retries": 1}, "create"),
    ("the deadline", [b""], {"deadline": 0.5}, "create"),
    ("a body over the cap", [answer(200, b"[" * 5000)], {"max_body_size": 1000}, "create"),
    ("a stream cut", [stream_of(chunk("partial"))], {}, "stream"),
    (
        "an error event",
        [
            stream_of(
                chunk("a"),
                b'data: {"error":{"message":"boom '
                + KEY.encode()
                + b'","type":"server_error"}}\n\n',
            )
        ],
        {},
        "stream",
    ),
    ("a stream stall", [stream_of(chunk("a"))[:-1]], {"timeout": 0.3}, "stall"),
    (
        "an SSE line over the cap",
        [stream_of(b"data: " + b"a" * 5000)],
        {"max_body_size": 1000},
        "stream",
    ),
    (
        "not an event stream",
        [echoing(200, straddling(195), {"Content-Type": "text/html"})],
        {},
        "stream",
    ),
]


def stalling(answers: list[bytes]) -> Any:
    """A handler that writes its answer, then waits (a stall) until the client leaves."""

    async def handler(reader: Any, writer: asyncio.StreamWriter, request: RawRequest) -> bool:
        writer.write(answers[0])
        await writer.drain()
        await reader.read()
        return False

    return handler


@pytest.mark.parametrize(
    ("answers", "options", "how"),
    [case[1:] for case in SECRET_CASES],
    ids=[case[0] for case in SECRET_CASES],
)
def test_the_key_never_leaks_on_any_error_path(
    answers: list[bytes], options: dict[str, Any], how: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger: kimi_ext, httpx, httpcore
    slow = how == "stall" or "timeout" in options or "deadline" in options
    handler = stalling(answers) if slow else replies(*answers)
    with RawServer(handler) as server:
        client = no_sleep(kimi(server, **options))
        if how == "create":
            exc = raised(lambda: client.chat.completions.create(**CHAT))
        else:
            exc = raised(lambda: list(client.chat.completions.create(stream=True, **CHAT)))
        # A stream event that echoes the key is held, as sent, in the stream's read
        # buffers (raw bytes, the line being decoded): a traceback with locals shows them.
        assert_no_key(exc, frames=b"boom" not in answers[0])
        client.close()
    assert any(KEY not in r.getMessage() for r in caplog.records)
    assert KEY not in caplog.text
    assert all(req.header("authorization") == f"Bearer {KEY}" for req in server.requests)


async def test_the_key_never_leaks_from_the_async_client(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    answers = (echoing(503, f'{{"error": {{"message": "no {KEY}"}}}}'.encode()), echoing(200, straddling(195)))  # fmt: skip
    with RawServer(replies(*answers)) as server:
        del answers
        client = no_sleep(akimi(server, max_retries=0))
        for _ in range(2):
            try:
                await client.chat.completions.create(**CHAT)
            except kimi_ext.KimiError as exc:
                assert_no_key(exc)
            else:
                raise AssertionError("no error")
        await client.close()
    assert KEY not in caplog.text


def test_the_connection_refused_path_and_the_client_keep_the_key_hidden() -> None:
    client = Kimi(api_key=KEY, base_url="http://127.0.0.1:9", fallback_base_url=None)
    no_sleep(client)
    exc = raised(lambda: client.chat.completions.create(**CHAT))
    assert isinstance(exc, kimi_ext.APIConnectionError)
    assert_no_key(exc)
    assert KEY not in repr(client) and KEY not in repr(vars(client))
    assert KEY not in repr(client._sender.__dict__)
    with pytest.raises(TypeError):
        pickle.dumps(client)


def test_results_pickle_without_the_key_and_the_wire_still_has_it() -> None:
    stream = stream_of(chunk("Hi"), chunk(finish="stop"), b"data: [DONE]\n\n")
    with RawServer(replies(answer(200, CHAT_OK), stream)) as server, kimi(server) as client:
        result = client.chat.completions.create(**CHAT)
        with client.chat.completions.stream(**CHAT) as s:
            final = s.get_final_completion()
    for kept in (result, final):
        blob = pickle.dumps(kept)
        assert KEY.encode() not in blob
        assert pickle.loads(blob).text == kept.text
    assert result.http_response is not None
    assert result.http_response.request.headers["authorization"] == "<redacted>"
    assert [r.header("authorization") for r in server.requests] == [f"Bearer {KEY}"] * 2


@pytest.mark.parametrize("stray", ["\n", " ", "\r\n", "\t "])
def test_a_key_with_stray_whitespace_around_it_is_stripped(stray: str) -> None:
    with RawServer(replies(answer(200, CHAT_OK))) as server, kimi(server, api_key=KEY + stray) as c:
        assert c.chat.completions.create(**CHAT).text == "OK"
    assert server.requests[0].header("authorization") == f"Bearer {KEY}"


@pytest.mark.parametrize("inner", ["\n", "\r\n", " ", "é", "\x00", "\u2028"])
def test_a_key_that_cannot_be_a_header_is_refused_without_showing_it(
    silent: RawServer, inner: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = KEY[:10] + inner + KEY[10:]
    exc = raised(lambda: kimi(silent, api_key=bad))
    assert isinstance(exc, kimi_ext.ClientConfigError) and "api_key" in str(exc)
    assert KEY[:10] not in str(exc) and KEY[10:] not in traceback_with_locals(exc)
    if "\x00" not in bad:  # the environment cannot hold a NUL
        monkeypatch.setenv("KIMI_API_KEY", bad)
        exc = raised(lambda: Kimi(base_url=silent.base_url))
        assert isinstance(exc, kimi_ext.ClientConfigError)


def test_the_cli_never_prints_the_key(silent: RawServer) -> None:
    # The CLI reads the key from the environment, a trailing newline included.
    env = dict(os.environ, KIMI_API_KEY=KEY + "\n", KIMI_LOG="debug")
    with RawServer(replies(echoing(401, straddling(195)))) as server:
        done = subprocess.run(
            [sys.executable, "-m", "kimi_ext.cli", "chat", "--no-stream", "--base-url",
             server.base_url, "--max-retries", "0", "Hi"],
            env=env, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    assert done.returncode != 0 and "AuthenticationError" in done.stderr
    assert KEY not in done.stderr and KEY not in done.stdout
    bad = dict(env, KIMI_API_KEY=KEY[:10] + "\n" + KEY[10:])
    done = subprocess.run(
        [sys.executable, "-m", "kimi_ext.cli", "chat", "--base-url", silent.base_url, "Hi"],
        env=bad, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert "ClientConfigError" in done.stderr
    assert KEY[:10] not in done.stderr and KEY[10:] not in done.stderr


def test_a_local_protocol_error_is_neither_quoted_nor_retried() -> None:
    calls = []

    def refuse(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        raise httpx.LocalProtocolError(f"Illegal header value b'Bearer {KEY}\\n'")

    http = httpx.Client(transport=httpx.MockTransport(refuse))
    client = Kimi(api_key=KEY, base_url="https://api.test", http_client=http)
    exc = raised(lambda: client.chat.completions.create(**CHAT))
    assert isinstance(exc, kimi_ext.APIConnectionError) and len(calls) == 1
    assert_no_key(exc)
    error = connection_error(httpx.LocalProtocolError(f"b'{KEY}'"), None, KEY)
    assert not RetryPolicy().should_retry(error)


@pytest.mark.parametrize("var", ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"])
async def test_plain_http_loopback_never_goes_through_a_proxy(
    monkeypatch: pytest.MonkeyPatch, var: str
) -> None:
    with RawServer(reply(b"")) as proxy, RawServer(replies(answer(200, CHAT_OK))) as server:
        for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv(var, proxy.base_url)
        with kimi(server) as client:
            assert client.chat.completions.create(**CHAT).text == "OK"
        async with akimi(server) as aclient:
            assert (await aclient.chat.completions.create(**CHAT)).text == "OK"
        # The proxy would have seen the key in clear.
        assert proxy.connections == 0 and len(server.requests) == 2


def test_debug_logs_redact_a_header_that_echoes_the_key(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="kimi_ext")
    with (
        RawServer(replies(echoing(200, json.dumps(CHAT_OK).encode()))) as server,
        kimi(server) as c,
    ):
        c.chat.completions.create(**CHAT)
    assert "'x-echo': '<redacted>'" in caplog.text
    assert KEY not in caplog.text


# ---------------------------------------------------------------------- nothing raw


def content_with(value: Any) -> dict[str, Any]:
    return {**CHAT, "messages": [{"role": "user", "content": value}]}


SURROGATE = "ok \ud800 no"
# (what the caller passes, the resource, the field the error must name)
LONE_SURROGATES: list[tuple[dict[str, Any], str, str]] = [
    (content_with(SURROGATE), "chat", "messages[0].content"),
    (
        {
            "model": "kimi-k3.1-pro",
            "max_tokens": 9,
            "system": SURROGATE,
            "messages": CHAT["messages"],
        },
        "messages",
        "system",
    ),
    (
        {
            "model": "kimi-k3.1-pro",
            "max_tokens": 9,
            "messages": [{"role": "user", "content": [{"type": "text", "text": SURROGATE}]}],
        },
        "messages",
        "messages[0].content[0].text",
    ),
    ({"model": "kimi-k3.1-pro", "input": SURROGATE}, "responses", "input"),
    (
        {
            **CHAT,
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": "f",
                        "description": SURROGATE,
                        "parameters": {"type": "object"},
                    },
                }
            ],
        },
        "chat",
        "tools[0].function.description",
    ),
]


def call(client: Kimi, fmt: str, params: dict[str, Any]) -> Any:
    target = client.chat.completions if fmt == "chat" else getattr(client, fmt)
    return target.create(**params)


def test_a_lone_surrogate_in_a_stop_sequence_is_a_validation_error(silent: RawServer) -> None:
    """A stop sequence's limit is counted in UTF-8 bytes, which half a pair does not have."""
    with kimi(silent) as client:
        exc = raised(lambda: call(client, "chat", {**CHAT, "stop": ["a", SURROGATE]}))
    assert isinstance(exc, kimi_ext.RequestValidationError), repr(exc)
    assert exc.field == "stop[1]" and "surrogate" in exc.rule


def _at(value: Any, path: str) -> Any:
    for part in path.replace("]", "").replace("[", ".").split("."):
        value = value[int(part)] if part.isdigit() else value[part]
    return value


@pytest.mark.parametrize(("params", "fmt", "field"), LONE_SURROGATES)
def test_a_lone_surrogate_is_sent_as_a_json_escape_not_a_raw_error(
    params: dict[str, Any], fmt: str, field: str
) -> None:
    """UTF-8 cannot carry half a surrogate pair, JSON's \\u escapes can: the body goes out as
    valid ASCII JSON and the server reads back exactly the string given (a history holding
    half a pair, as some servers send, stays sendable; see tests/_core/streaming)."""
    from kimi_ext.testing import KimiStandIn

    with KimiStandIn() as standin, Kimi(api_key=standin.api_key, base_url=standin.base_url) as c:
        call(c, fmt, params)
        sent = standin.requests[-1].body
    assert b"\\ud800" in sent.lower()
    sent.decode("ascii")
    assert _at(json.loads(sent), field) == SURROGATE


class Thing:
    pass


circular: list[Any] = []
circular.append(circular)

NOT_JSON: list[tuple[Any, str, str]] = [
    (math.nan, "float", "NaN"),
    (math.inf, "float", "Infinity"),
    (-math.inf, "float", "Infinity"),
    (Thing(), "Thing", "not a JSON value"),
    (b"bytes", "bytes", "not a JSON value"),
    ({1, 2}, "set", "not a JSON value"),
    (datetime.datetime(2026, 1, 1), "datetime", "not a JSON value"),
    (decimal.Decimal("1.5"), "Decimal", "not a JSON value"),
    (circular, "list", "circular"),
    ({(1, 2): "tuple key"}, "tuple", "key must be a string"),
]


@pytest.mark.parametrize(("value", "kind", "words"), NOT_JSON, ids=lambda v: type(v).__name__)
def test_values_that_are_not_json_name_the_path_and_the_type(
    silent: RawServer, value: Any, kind: str, words: str
) -> None:
    schema = {"type": "object", "properties": {"x": {"type": "number", "examples": ["a", {"deep": value}]}}}  # fmt: skip
    params = {**CHAT, "tools": [{"type": "function", "function": {"name": "f", "parameters": schema}}]}  # fmt: skip
    with kimi(silent) as client:
        exc = raised(lambda: client.chat.completions.create(**params))
        via_extra = raised(
            lambda: client.chat.completions.create(**CHAT, extra_body={"x": [value]})
        )
    assert isinstance(exc, kimi_ext.RequestValidationError), repr(exc)
    assert exc.field.startswith("tools[0].function.parameters.properties.x.examples[1].deep"), (
        exc.field
    )
    assert words in exc.rule and kind in str(exc)
    assert isinstance(via_extra, kimi_ext.RequestValidationError)
    assert via_extra.field.startswith("x[0]")


@pytest.mark.parametrize("where", ["content", "extra_body"])
def test_input_nested_100000_deep_is_a_validation_error(silent: RawServer, where: str) -> None:
    deep: Any = "bottom"
    for _ in range(100_000):
        deep = [deep]
    with kimi(silent) as client:
        if where == "content":
            exc = raised(lambda: client.chat.completions.create(**content_with(deep)))
        else:
            exc = raised(lambda: client.chat.completions.create(**CHAT, extra_body={"x": deep}))
    assert isinstance(exc, kimi_ext.KimiError) and isinstance(exc, ValueError), repr(exc)


@pytest.mark.parametrize(
    "value", ["caf\u00e9", "a\r\nInjected: 1", "a\nb", "trailing ", "\u2028", "nul\x00"]
)
def test_a_header_that_cannot_be_sent_is_a_validation_error_naming_it(
    silent: RawServer, value: str
) -> None:
    with kimi(silent) as client:
        exc = raised(
            lambda: client.chat.completions.create(**CHAT, extra_headers={"X-Trace": value})
        )
    assert isinstance(exc, kimi_ext.RequestValidationError), repr(exc)
    assert exc.field == "extra_headers['X-Trace']"
    exc = raised(lambda: kimi(silent, default_headers={"X-Trace": value}))
    assert isinstance(exc, kimi_ext.ClientConfigError) and "X-Trace" in str(exc)
    with kimi(silent) as client:
        exc = raised(
            lambda: client.chat.completions.create(**CHAT, extra_headers={"X-Api-Key": KEY + value})
        )
    assert isinstance(exc, kimi_ext.RequestValidationError) and KEY not in str(exc)


@pytest.mark.parametrize(
    "url", ["http://[::1", "http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54:80", "http://", "https://a:b:c"]
)  # fmt: skip
def test_a_malformed_base_url_is_a_configuration_error(url: str) -> None:
    exc = raised(lambda: Kimi(api_key=KEY, base_url=url))
    assert isinstance(exc, kimi_ext.ClientConfigError), repr(exc)
    assert isinstance(
        raised(lambda: AsyncKimi(api_key=KEY, base_url=url)), kimi_ext.ClientConfigError
    )


def test_a_closed_client_raises_a_clear_error(silent: RawServer) -> None:
    client = kimi(silent)
    client.close()
    exc = raised(lambda: client.chat.completions.create(**CHAT))
    assert isinstance(exc, kimi_ext.ClientStateError) and "closed" in str(exc)
    exc = raised(lambda: client.chat.completions.stream(**CHAT).__enter__())
    assert isinstance(exc, kimi_ext.ClientStateError)

    async def use_closed() -> None:
        aclient = akimi(silent)
        await aclient.close()
        await aclient.messages.create(
            model="kimi-k3.1-pro", max_tokens=9, messages=CHAT["messages"]
        )

    exc = raised(lambda: asyncio.run(use_closed()))
    assert isinstance(exc, kimi_ext.ClientStateError)


def test_an_async_client_used_on_a_second_event_loop_raises_a_clear_error() -> None:
    with RawServer(replies(answer(200, CHAT_OK))) as server:
        client = akimi(server)
        first = asyncio.run(client.chat.completions.create(**CHAT))
        assert first.text == "OK"
        exc = raised(lambda: asyncio.run(client.chat.completions.create(**CHAT)))
    assert isinstance(exc, kimi_ext.ClientStateError) and "event loop" in str(exc)
    assert len(server.requests) == 1


DAMAGED_HISTORIES = [
    "{not json",
    b"\xff\xfe",
    "[]",
    '{"kimi_ext": "MessagesHistory", "version": 1, "items": [], "turns": []}',
    '{"kimi_ext": "ChatHistory", "version": 99, "items": [], "turns": []}',
    '{"kimi_ext": "ChatHistory", "version": 1}',
    '{"kimi_ext": "ChatHistory", "version": 1, "items": {"a": 1}, "turns": []}',
    '{"kimi_ext": "ChatHistory", "version": 1, "items": [1, 2], "turns": []}',
    '{"kimi_ext": "ChatHistory", "version": 1, "items": [{}], "turns": {}}',
    '{"kimi_ext": "ChatHistory", "version": 1, "items": [{}], "turns": [[0, 1]]}',
    '{"kimi_ext": "ChatHistory", "version": 1, "items": [{}], "turns": [7]}',
    '{"kimi_ext": "ChatHistory", "version": 1, "items": [{}], "turns": [["a", 1, null, null, null]]}',
    '{"kimi_ext": "ChatHistory", "version": 1, "items": [{}], "turns": [[0, 9, null, null, null]]}',
    '{"kimi_ext": "ChatHistory", "version": 1, "items": [{}], "turns": [[0, 1, null, 5, null]]}',
    '{"kimi_ext": "ChatHistory", "version": 1, "items": [{}], "turns": [[0, 1, null, [], "x"]]}',
    "[" * 100_000,
]


@pytest.mark.parametrize("text", DAMAGED_HISTORIES, ids=range(len(DAMAGED_HISTORIES)))
def test_a_damaged_history_file_is_a_history_error(text: str | bytes) -> None:
    exc = raised(lambda: kimi_ext.ChatHistory.loads(text))
    assert isinstance(exc, kimi_ext.HistoryError), repr(exc)
    assert exc.index is None and ("ChatHistory" in str(exc))


@pytest.mark.parametrize(
    "fn", [lambda city: city, 42, type("Callable", (), {"__call__": lambda self: 1})()]
)
def test_a_tool_that_cannot_be_described_is_a_kimi_error(fn: Any) -> None:
    exc = raised(lambda: kimi_ext.tool(fn))
    assert isinstance(exc, kimi_ext.ToolDefinitionError) and isinstance(exc, TypeError)
    assert isinstance(exc, kimi_ext.KimiError)


# ------------------------------------------------------------- resources and scale


def held_stream(*events: bytes) -> Any:
    """A handler that sends a stream's first events, then holds the connection open
    (never finishing) until the client leaves."""

    async def handler(reader: Any, writer: asyncio.StreamWriter, request: RawRequest) -> bool:
        writer.write(head(200, SSE) + b"".join(events))
        await writer.drain()
        await reader.read()
        return False

    return handler


def test_an_abandoned_stream_gives_its_connection_back_without_the_collector() -> None:
    streams = [held_stream(chunk("a"), chunk("b"))] * 5

    async def handler(reader: Any, writer: asyncio.StreamWriter, request: RawRequest) -> bool:
        if streams:
            return bool(await streams.pop()(reader, writer, request))
        writer.write(answer(200, CHAT_OK))
        return False

    with RawServer(handler) as server:
        # One connection: a stream still holding it would make the next call time out.
        limits = httpx.Limits(max_connections=1)
        client = kimi(server, limits=limits, timeout=httpx.Timeout(10.0, pool=1.0))
        gc.disable()
        try:
            for _ in range(3):
                for event in client.chat.completions.create(stream=True, **CHAT):
                    assert event.type == "chunk"
                    break  # no with, no close(): the stream is dropped here
            for _ in range(2):  # read one event, then drop the last reference
                stream = client.chat.completions.create(stream=True, **CHAT)
                next(iter(stream))
                del stream
            assert client.chat.completions.create(**CHAT).text == "OK"
        finally:
            gc.enable()
        client.close()
    assert len(server.requests) == 6


async def test_an_abandoned_async_stream_gives_its_connection_back_without_the_collector() -> None:
    with RawServer(held_stream(chunk("a"), chunk("b"))) as server:
        limits = httpx.Limits(max_connections=1)
        client = akimi(server, limits=limits, timeout=httpx.Timeout(10.0, pool=1.0))
        gc.disable()
        try:
            for _ in range(3):
                stream = await client.chat.completions.create(stream=True, **CHAT)
                async for _event in stream:
                    break
                del stream
                await asyncio.sleep(0.05)  # the loop runs the generator's aclose()
        finally:
            gc.enable()
        await client.close()
    assert len(server.requests) == 3


def trickle(prefix: bytes, byte: bytes = b" ", every: float = 0.2) -> Any:
    """A handler that sends ``prefix``, then one byte every ``every`` seconds, forever."""

    async def handler(reader: Any, writer: asyncio.StreamWriter, request: RawRequest) -> bool:
        writer.write(prefix)
        while True:
            await writer.drain()
            await asyncio.sleep(every)
            writer.write(byte)

    return handler


TRICKLES = {
    "body": trickle(head(200, {"Content-Type": "application/json"}, length=10_000) + b"{"),
    "stream": trickle(head(200, SSE) + chunk("Hi"), b":"),  # an SSE comment, byte by byte
}


@pytest.mark.parametrize("where", ["client", "call"])
@pytest.mark.parametrize("kind", ["body", "stream"])
def test_a_trickling_server_is_cut_off_at_the_deadline(kind: str, where: str) -> None:
    with RawServer(TRICKLES[kind]) as server:
        options = {"deadline": 1.0} if where == "client" else {}
        extra = {"deadline": 1.0} if where == "call" else {}
        client = no_sleep(kimi(server, **options))
        started = time.monotonic()
        if kind == "body":
            exc = raised(lambda: client.chat.completions.create(**CHAT, **extra))
            assert isinstance(exc, kimi_ext.APITimeoutError) and "deadline" in str(exc)
        else:
            exc = raised(lambda: list(client.chat.completions.create(stream=True, **CHAT, **extra)))
            assert isinstance(exc, kimi_ext.IncompleteStreamError) and exc.timed_out
            assert "deadline" in str(exc) and exc.partial.text == "Hi"
        elapsed = time.monotonic() - started
        client.close()
    assert 0.9 <= elapsed < 2.5, elapsed
    assert len(server.requests) == 1


@pytest.mark.parametrize("kind", ["body", "stream"])
async def test_a_trickling_server_is_cut_off_at_the_deadline_async(kind: str) -> None:
    with RawServer(TRICKLES[kind]) as server:
        client = no_sleep(akimi(server, deadline=1.0))
        started = time.monotonic()
        if kind == "body":
            with pytest.raises(kimi_ext.APITimeoutError, match="deadline"):
                await client.chat.completions.create(**CHAT)
        else:
            stream = await client.chat.completions.create(stream=True, **CHAT)
            with pytest.raises(kimi_ext.IncompleteStreamError, match="deadline") as info:
                async for _ in stream:
                    pass
            assert info.value.timed_out and info.value.partial.text == "Hi"
        elapsed = time.monotonic() - started
        await client.close()
    assert 0.9 <= elapsed < 2.5, elapsed


def trickled_head(first: int, until: float = math.inf) -> Any:
    """A handler that answers the first ``first`` requests of the first connection in full
    (keeping it alive), then trickles a response head on it, one byte every 0.2 s, forever.
    Every later connection is answered in full."""
    served: list[Any] = []

    async def handler(reader: Any, writer: asyncio.StreamWriter, request: RawRequest) -> bool:
        served.append(writer)
        if writer is not served[0] or served.count(writer) <= first:
            writer.write(answer(200, CHAT_OK))
            return True
        writer.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
        end = time.monotonic() + until
        while time.monotonic() < end:
            await writer.drain()
            await asyncio.sleep(0.2)
            writer.write(b"a")
        writer.write(b"\r\n" + answer(200, CHAT_OK).split(b"\r\n", 1)[1])  # the rest, whole
        return True

    return handler


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("where", ["client", "call"])
@pytest.mark.parametrize("connection", ["fresh", "reused"])
def test_a_trickled_head_is_cut_off_at_the_deadline(
    connection: str, where: str, stream: bool
) -> None:
    # The status line and headers come one byte at a time, forever: the sync client must
    # still end the call (or the opening of a stream) at its deadline, on a new and on a
    # kept-alive connection.
    with RawServer(trickled_head(0 if connection == "fresh" else 1)) as server:
        options = {"deadline": 1.0} if where == "client" else {}
        extra: dict[str, Any] = {"deadline": 1.0} if where == "call" else {}
        if stream:
            extra["stream"] = True
        client = no_sleep(kimi(server, **options))
        if connection == "reused":  # opens the connection the next call reuses
            assert client.chat.completions.create(**CHAT).text == "OK"
            assert server.connections == 1
        started = time.monotonic()
        exc = raised(lambda: client.chat.completions.create(**CHAT, **extra))
        elapsed = time.monotonic() - started
        assert isinstance(exc, kimi_ext.APITimeoutError) and "deadline" in str(exc), exc
        assert KEY not in str(exc) and KEY not in repr(exc)
        assert KEY not in "".join(traceback.format_exception(exc))
        assert 0.9 <= elapsed < 1.5, elapsed
        # The cut connection is not reused: the next call works, on a new connection
        # (whose first answer is whole).
        before = server.connections
        extra.pop("stream", None)
        assert client.chat.completions.create(**CHAT, **extra).text == "OK"
        assert server.connections == before + 1
        client.close()


def test_a_late_head_on_a_reused_connection_does_not_put_it_back() -> None:
    # The head of the abandoned attempt arrives whole after the deadline: its response is
    # closed unread, so the connection (with an unread body) is closed, not reused.
    with RawServer(trickled_head(1, until=1.0)) as server:
        client = kimi(server, max_retries=0)
        assert client.chat.completions.create(**CHAT).text == "OK"
        exc = raised(lambda: client.chat.completions.create(**CHAT, deadline=0.5))
        assert isinstance(exc, kimi_ext.APITimeoutError) and "deadline" in str(exc)
        for _ in range(100):  # the server finishes its head at about 1 s
            if server.open == 0:
                break
            time.sleep(0.02)
        assert server.open == 0
        assert client.chat.completions.create(**CHAT).text == "OK"
        assert server.connections == 2
        client.close()


def test_a_trickled_head_of_a_fresh_connection_frees_it_at_once() -> None:
    # On a connection the call opened, the socket is shut down at the deadline: the
    # server sees the connection end then (no background read left waiting).
    with RawServer(trickled_head(0)) as server:
        client = kimi(server, deadline=0.5, max_retries=0)
        exc = raised(lambda: client.chat.completions.create(**CHAT))
        assert isinstance(exc, kimi_ext.APITimeoutError)
        for _ in range(50):
            if server.open == 0:
                break
            time.sleep(0.02)
        assert server.open == 0
        client.close()


def test_the_deadline_covers_retries() -> None:
    # Each attempt fails fast, but the waits between them would outlast the deadline.
    with RawServer(
        replies(answer(503, {"error": {"message": "busy"}}, {"Retry-After": "0.6"}))
    ) as server:
        client = kimi(server, deadline=1.0, max_retries=5)
        started = time.monotonic()
        exc = raised(lambda: client.chat.completions.create(**CHAT))
        elapsed = time.monotonic() - started
        client.close()
    assert isinstance(exc, kimi_ext.InternalServerError)
    assert len(server.requests) == 2 and elapsed < 1.0, (len(server.requests), elapsed)


@pytest.mark.parametrize("bad", [0, -1, math.nan, "5", True])
def test_bad_deadlines_are_refused(silent: RawServer, bad: Any) -> None:
    assert isinstance(raised(lambda: kimi(silent, deadline=bad)), kimi_ext.ClientConfigError)
    with kimi(silent) as client:
        exc = raised(lambda: client.chat.completions.create(**CHAT, deadline=bad))
    assert isinstance(exc, kimi_ext.RequestValidationError) and exc.field == "deadline"


def read_to_the_end(client: Kimi) -> BaseException:
    with client:
        return raised(lambda: list(client.chat.completions.create(stream=True, **CHAT)))


@pytest.mark.parametrize("client_kind", ["sync", "async"])
async def test_a_stall_is_told_apart_from_a_cut(client_kind: str) -> None:
    stall = held_stream(chunk("a"))
    cut = reply(head(200, SSE) + chunk("a"))
    outcomes = []
    for handler in (stall, cut):
        with RawServer(handler) as server:
            if client_kind == "sync":
                exc = read_to_the_end(kimi(server, timeout=httpx.Timeout(10.0, read=0.3)))
            else:
                aclient = akimi(server, timeout=httpx.Timeout(10.0, read=0.3))
                stream = await aclient.chat.completions.create(stream=True, **CHAT)
                try:
                    async for _ in stream:
                        pass
                except kimi_ext.IncompleteStreamError as error:
                    exc = error
                await aclient.close()
        assert isinstance(exc, kimi_ext.IncompleteStreamError) and exc.partial.text == "a"
        outcomes.append((exc.timed_out, "stalled" in str(exc), type(exc.__cause__).__name__))
    assert outcomes == [(True, True, "ReadTimeout"), (False, False, "NoneType")]


# (name, the server's answer and its headers, the error, words it must say)
RETRY_AFTER_BEYOND_CAP = [
    ({"Retry-After": "120"}, 120.0),
    ({"retry-after-ms": "3600000"}, 3600.0),
]


@pytest.mark.parametrize(("headers", "seconds"), RETRY_AFTER_BEYOND_CAP)
def test_a_retry_after_beyond_the_cap_raises_at_once(
    headers: dict[str, str], seconds: float
) -> None:
    with RawServer(
        replies(answer(429, {"error": {"message": "slow down"}}, headers), answer(200, CHAT_OK))
    ) as server:
        client = kimi(server)
        started = time.monotonic()
        exc = raised(lambda: client.chat.completions.create(**CHAT))
        client.close()
    assert type(exc) is kimi_ext.RateLimitError and exc.retry_after == seconds
    assert len(server.requests) == 1 and time.monotonic() - started < 0.5


QUOTA_WORDINGS = [
    # (message, error type, is it an exhausted quota?)
    ("You are out of credits", None, True),
    ("Payment required: account balance is 0", None, True),
    ("余额不足", None, True),
    ("账户余额不足，请充值", None, True),
    ("Insufficient balance", "rate_limit_error", True),
    (
        "You exceeded your current quota, please check your plan and billing details",
        "insufficient_quota",
        True,
    ),
    ("Your quota is exhausted, upgrade your plan", "rate_limit_error", True),
    ("monthly quota exceeded", None, True),
    ("per-minute request quota exceeded, retry in 1s", None, False),
    ("Rate limit reached: 60 RPM quota", None, False),
    ("tokens per minute quota exceeded; try again in 2s", "exceeded_current_quota_error", False),
    ("Too many requests", "rate_limit_error", False),
    ("请求过于频繁，请稍后再试", None, False),
    ("slow down", None, False),
]


@pytest.mark.parametrize(("message", "etype", "quota"), QUOTA_WORDINGS)
def test_quota_wordings_table(message: str, etype: str | None, quota: bool) -> None:
    assert is_quota_error(etype, None, message) is quota


def test_a_quota_wording_is_not_retried_but_a_window_is() -> None:
    gone = answer(429, {"error": {"message": "You are out of credits"}})
    window = answer(429, {"error": {"message": "per-minute request quota exceeded, retry in 1s"}})
    with RawServer(replies(gone)) as server:
        with no_sleep(kimi(server)) as client:
            assert isinstance(
                raised(lambda: client.chat.completions.create(**CHAT)), kimi_ext.QuotaExceededError
            )
        assert len(server.requests) == 1
    with RawServer(replies(window, answer(200, CHAT_OK))) as server:
        with no_sleep(kimi(server)) as client:
            assert client.chat.completions.create(**CHAT).text == "OK"
        assert len(server.requests) == 2


# 1,000 concurrent slow streams on a default AsyncKimi: httpx's own default pool (100)
# would leave 900 waiting for a connection, and time them out.
STREAMS = 1000


@pytest.mark.slow  # a thousand streams
async def test_a_default_async_client_holds_1000_concurrent_slow_streams() -> None:
    # The streams go in lockstep: the server writes a stream's next piece only once the
    # client has read the last one from every stream. So each stream is slow (it waits on
    # the 999 others), and a client that held fewer than 1000 at once, or read them one
    # by one, would never get past the first piece. Every wait is for that event (bounded).
    pieces = ["d", "o", "n", "e"]
    read = [0] * (len(pieces) + 1)  # how many streams the client has read piece k of
    all_read = [asyncio.Event() for _ in read]  # set on the server's loop

    async def slow(reader: Any, writer: asyncio.StreamWriter, request: RawRequest) -> bool:
        n = request.json["messages"][0]["content"]
        writer.write(head(200, SSE) + chunk(f"{n}:"))
        await writer.drain()
        for k, piece in enumerate(pieces):
            await asyncio.wait_for(all_read[k].wait(), 120)
            writer.write(chunk(piece))
            await writer.drain()
        writer.write(chunk(finish="stop") + b"data: [DONE]\n\n")
        return False

    async def one(client: AsyncKimi, n: int) -> str:
        params = {**CHAT, "messages": [{"role": "user", "content": str(n)}]}
        async with client.chat.completions.stream(**params) as stream:
            k = 0
            async for _text in stream.text_stream:
                read[k] += 1
                if read[k] == STREAMS:
                    server.call(all_read[k].set)
                k += 1
            return (await stream.get_final_completion()).text

    with RawServer(slow) as server:
        # A read timeout long enough for a loaded machine to open the 1000 streams.
        client = akimi(server, max_retries=0, timeout=httpx.Timeout(120.0, pool=30.0))
        started = time.monotonic()
        texts = await asyncio.gather(*(one(client, n) for n in range(STREAMS)))
        elapsed = time.monotonic() - started
        await client.close()
    assert texts == [f"{n}:done" for n in range(STREAMS)]
    assert read == [STREAMS] * len(read)
    assert server.max_open == STREAMS and len(server.requests) == STREAMS
    print(f"\n{STREAMS} concurrent streams in {elapsed:.1f}s")


# ---------------------------------------------------------- memory, in a subprocess

# 1 GiB that compresses to about 1 MiB: a data line with no end.
BOMB_SIZE = 1 << 30


@pytest.fixture(scope="module")
def bomb() -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip framing
    zeros = b"a" * (1 << 20)
    parts = [packer.compress(b"data: ")]
    parts += [packer.compress(zeros) for _ in range(BOMB_SIZE >> 20)]
    parts.append(packer.flush())
    data = b"".join(parts)
    assert len(data) < 2 << 20  # about 1 MiB on the wire
    return data


MEASURE = textwrap.dedent(
    """
    import json, resource, sys
    import kimi_ext

    def peak():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    base_url, how = sys.argv[1], sys.argv[2]
    client = kimi_ext.Kimi(api_key="k", base_url=base_url, fallback_base_url=None)
    client._sender.sleep = lambda s: None
    chat = {"model": "kimi-k3.1-pro", "messages": [{"role": "user", "content": "Hi"}]}
    client.chat.completions.create(**chat)  # warm up: imports, a first connection
    before = peak()
    try:
        if how == "stream":
            list(client.chat.completions.create(stream=True, **chat))
        else:
            client.chat.completions.create(**chat)
    except kimi_ext.KimiError as exc:
        error = [type(exc).__name__, str(exc)[-200:]]
    else:
        error = None
    print(json.dumps({"before": before, "after": peak(), "error": error}))
    """
)


@pytest.mark.parametrize(
    ("status", "how", "error", "words"),
    [
        (200, "create", "APIResponseError", "larger than max_body_size=67108864"),
        (500, "create", "InternalServerError", "error body cut at 1048576 bytes"),
        (200, "stream", "IncompleteStreamError", "longer than max_body_size=67108864"),
    ],
    ids=["body", "error body, retried", "SSE line"],
)
@pytest.mark.xdist_group(  # the bomb is made once (tests/support/parallel.py)
    "tests/quality/test_hostile.py::test_a_decompression_bomb_is_capped"
)
def test_a_decompression_bomb_is_capped(
    bomb: bytes, status: int, how: str, error: str, words: str
) -> None:
    kind = "text/event-stream" if how == "stream" else "text/plain"
    hostile = head(status, {"Content-Type": kind, "Content-Encoding": "gzip"}, length=len(bomb))

    async def handler(reader: Any, writer: asyncio.StreamWriter, request: RawRequest) -> bool:
        if len(server.requests) == 1:
            writer.write(answer(200, CHAT_OK))
            return True
        writer.write(hostile + bomb)
        return True

    with RawServer(handler) as server:
        done = subprocess.run(
            [sys.executable, "-c", MEASURE, server.base_url, how],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["error"] is not None and report["error"][0] == error, report
    assert words in report["error"][1], report
    grown = report["after"] - report["before"]
    # At most the cap (64 MiB) and one decompressed read (gzip inflates ~1000x): not 1 GiB,
    # nor (for the error body, retried twice) seven times the body.
    print(f"\npeak memory grew by {grown >> 20} MiB")
    assert grown < 200 << 20, f"peak memory grew by {grown >> 20} MiB"
    if status == 500:
        assert len(server.requests) == 4  # warm-up, then three attempts


HELD = textwrap.dedent(
    """
    import gc, json, sys, tracemalloc
    import kimi_ext

    client = kimi_ext.Kimi(api_key="k", base_url=sys.argv[1], fallback_base_url=None)
    client._sender.sleep = lambda s: None
    chat = {"model": "kimi-k3.1-pro", "messages": [{"role": "user", "content": "Hi"}]}
    try:
        client.chat.completions.create(**chat, max_retries=0)  # warm up: lazy imports
    except kimi_ext.InternalServerError:
        pass
    gc.collect()
    gc.disable()  # what is held must not depend on when the collector runs
    tracemalloc.start()
    try:
        client.chat.completions.create(**chat)
    except kimi_ext.InternalServerError as exc:
        error = exc
    kept, peak = tracemalloc.get_traced_memory()
    print(json.dumps({"kept": kept, "peak": peak, "body": len(error.body)}))
    """
)


def test_an_error_body_is_not_held_once_per_attempt() -> None:
    size = 900 * 1024  # under the 1 MiB cap: read whole, three times (two retries)
    with RawServer(replies(answer(500, b"e" * size, {"Content-Type": "text/plain"}))) as server:
        done = subprocess.run(
            [sys.executable, "-c", HELD, server.base_url],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert len(server.requests) == 4  # the warm-up, then three attempts
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["body"] == size
    # Kept: the text in .body and the bytes on .response; no earlier attempt's copies
    # (before: 6 copies kept, 7 at the peak).
    assert report["kept"] < 2.5 * size and report["peak"] < 3.5 * size, report
