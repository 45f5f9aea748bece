"""The caller passes a call's state to its sends and its stream; nothing rides on the
response (issue 34: no side channels)."""

from __future__ import annotations

import httpx

from kimi_ext import AsyncKimi, Kimi
from kimi_ext.testing import KimiStandIn

# What httpx itself puts in a response's extensions; anything else would be ours.
_HTTPX_OWN = {"http_version", "reason_phrase", "network_stream", "trace", "timeout", "sni_hostname"}

_CHAT = {"model": "kimi-k3.1-pro", "messages": [{"role": "user", "content": "hi"}]}


def test_a_stream_and_a_result_leave_the_response_as_httpx_made_it() -> None:
    with (
        KimiStandIn() as server,
        Kimi(api_key=server.api_key, base_url=server.base_url, fallback_base_url=None) as client,
    ):
        result = client.chat.completions.create(**_CHAT)
        with client.chat.completions.stream(**_CHAT, deadline=30) as stream:
            final = stream.final()
    assert set(result.http_response.extensions) <= _HTTPX_OWN
    assert set(stream.response.extensions) <= _HTTPX_OWN
    assert final.text


async def test_the_async_stream_keeps_its_calls_deadline_without_the_response() -> None:
    """The deadline reaches the stream through the caller: a stream whose deadline has
    passed says so, though its response carries nothing of the call."""
    with KimiStandIn(chunk_chars=1) as server:
        async with AsyncKimi(
            api_key=server.api_key, base_url=server.base_url, fallback_base_url=None
        ) as client:
            stream = await client.chat.completions.create(**_CHAT, stream=True, deadline=30)
            assert set(stream.response.extensions) <= _HTTPX_OWN
            assert stream._state is not None and stream._state.deadline == 30
            await stream.aclose()


def test_a_stream_read_on_its_own_has_no_call_state() -> None:
    from kimi_ext.chat.stream import ChatCompletionStream

    response = httpx.Response(200, content=b"data: [DONE]\n\n")
    stream = ChatCompletionStream(response, secret=None)
    assert stream._state is None
