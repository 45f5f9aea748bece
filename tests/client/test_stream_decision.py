"""Whether a call streams is decided once, by the method called: a ``stream`` flag in the
body (a keyword of a call that never streams, or inside ``extra_body``) that says otherwise
is refused with a RequestValidationError naming it, and nothing is sent.

A loopback server counts the requests: every refusal here must leave it at zero.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import kimi_ext
from kimi_ext import AsyncKimi, Kimi
from kimi_ext.errors import RequestValidationError
from tests.support.client import KEY, OK, minimal
from tests.support.hostile_server import RawServer, answer, replies

FORMATS = ["chat", "messages", "responses"]
RESOURCE = {"chat": ("chat", "completions"), "messages": ("messages",), "responses": ("responses",)}
SCHEMA = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}


@pytest.fixture
def server() -> Iterator[RawServer]:
    # Any request that does arrive is answered (a whole success), so a test sees the count.
    with RawServer(replies(answer(200, json.dumps(OK["chat"])))) as raw:
        yield raw


def resource(client: Any, fmt: str) -> Any:
    out = client
    for name in RESOURCE[fmt]:
        out = getattr(out, name)
    return out


def refused(error: RequestValidationError, field: str) -> None:
    assert error.field == field, error
    assert "stream" in str(error)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_stream_flag_inside_extra_body_is_refused_before_sending(
    server: RawServer, fmt: str
) -> None:
    # Before: Chat raised a raw httpx.ResponseNotRead (the builder streamed, the caller
    # read a plain result).
    with Kimi(api_key=KEY, base_url=server.base_url) as client:
        with pytest.raises(RequestValidationError) as info:
            resource(client, fmt).create(**minimal(fmt), extra_body={"stream": True})
        refused(info.value, "extra_body.stream")
        assert "stream=True" in str(info.value)
        with (
            pytest.raises(RequestValidationError) as info,
            resource(client, fmt).stream(**minimal(fmt), extra_body={"stream": False}),
        ):
            pass
        refused(info.value, "extra_body.stream")
    assert server.requests == []


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_a_stream_flag_inside_extra_body_is_refused_before_sending(
    server: RawServer, fmt: str
) -> None:
    async with AsyncKimi(api_key=KEY, base_url=server.base_url) as client:
        with pytest.raises(RequestValidationError) as info:
            await resource(client, fmt).create(**minimal(fmt), extra_body={"stream": True})
        refused(info.value, "extra_body.stream")
    assert server.requests == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_agreeing_flag_is_harmless(server: RawServer, fmt: str) -> None:
    with Kimi(api_key=KEY, base_url=server.base_url) as client:
        prepared = resource(client, fmt)._prepare(
            {**minimal(fmt), "extra_body": {"stream": False}}, False
        )
        assert prepared.stream is False
        prepared = resource(client, fmt)._prepare(
            {**minimal(fmt), "extra_body": {"stream": True}}, True
        )
        assert prepared.stream is True and prepared.body["stream"] is True


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("flag", [1, "yes", 0, [], 2.0])
def test_create_takes_a_boolean_stream_flag_or_none(server: RawServer, fmt: str, flag: Any) -> None:
    # Before: stream=1 streamed (truthy), so continue_(stream=1) broke on the stream it got.
    with Kimi(api_key=KEY, base_url=server.base_url) as client:
        with pytest.raises(RequestValidationError, match="must be True or False") as info:
            resource(client, fmt).create(**minimal(fmt), stream=flag)
        assert info.value.field == "stream"
        assert server.requests == []
        result = resource(client, fmt).create(**minimal(fmt), stream=None)  # as False
        assert not isinstance(result, kimi_ext._core.streaming.stream.SyncStream)


def calls_that_never_stream(fmt: str, where: str) -> list[tuple[str, Any]]:
    """(name, a function of the resource) of each call that never streams, given a stream
    flag ``where`` (``"keyword"`` or ``"extra_body"``)."""
    flag: dict[str, Any] = (
        {"stream": True} if where == "keyword" else {"extra_body": {"stream": True}}
    )
    out: list[tuple[str, Any]] = [
        ("parse", lambda r: r.parse(schema=SCHEMA, **minimal(fmt), **flag)),
        ("run_tools", lambda r: r.run_tools(tools=[len], **minimal(fmt), **flag)),
    ]
    if fmt != "responses":  # Responses cannot continue an answer at all
        out.append(("continue_", lambda r: r.continue_(prefix="Once", **minimal(fmt), **flag)))
    return out


@pytest.mark.parametrize("where", ["keyword", "extra_body"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_calls_that_never_stream_refuse_a_stream_flag(
    server: RawServer, fmt: str, where: str
) -> None:
    # Before: parse raised httpx.ResponseNotRead, run_tools an AttributeError (with the
    # stream left open), continue_ an AttributeError ('to_dict'), each after sending.
    field = "stream" if where == "keyword" else "extra_body.stream"
    with Kimi(api_key=KEY, base_url=server.base_url) as client:
        for name, call in calls_that_never_stream(fmt, where):
            with pytest.raises(kimi_ext.KimiError) as info:
                call(resource(client, fmt))
            assert isinstance(info.value, RequestValidationError), name
            refused(info.value, field)
    assert server.requests == []


@pytest.mark.parametrize("where", ["keyword", "extra_body"])
@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_calls_that_never_stream_refuse_a_stream_flag(
    server: RawServer, fmt: str, where: str
) -> None:
    field = "stream" if where == "keyword" else "extra_body.stream"
    async with AsyncKimi(api_key=KEY, base_url=server.base_url) as client:
        for name, call in calls_that_never_stream(fmt, where):
            with pytest.raises(kimi_ext.KimiError) as info:
                await call(resource(client, fmt))
            assert isinstance(info.value, RequestValidationError), name
            refused(info.value, field)
    assert server.requests == []
