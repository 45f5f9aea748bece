"""Odd arguments to resume() and continue_: a KimiError naming the argument, before
anything is sent (the stand-in counts the requests)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import kimi_ext
from kimi_ext import (
    AsyncKimi,
    ChatCompletion,
    ChatHistory,
    IncompleteStreamError,
    Kimi,
    Message,
    RequestValidationError,
)
from kimi_ext.testing import KimiStandIn
from tests.support.history import MODEL, aclient, client, standin, standin_server

_ = (aclient, client, standin, standin_server)  # fixtures

CHAT_PARTIAL = ChatCompletion(
    {"model": MODEL, "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hel"}}]}
)
MESSAGES_PARTIAL = Message(
    {"model": MODEL, "role": "assistant", "content": [{"type": "text", "text": "Hel"}]}
)
FINISHED = ChatCompletion(
    {
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": "Hello"},
            }
        ],
    }
)
USER = [{"role": "user", "content": "Say hello"}]


def partial_of(fmt: str) -> Any:
    return CHAT_PARTIAL if fmt == "chat" else MESSAGES_PARTIAL


def extra(fmt: str) -> dict[str, Any]:
    return {"max_tokens": 100} if fmt == "messages" else {}


def resource(c: Any, fmt: str) -> Any:
    return c.chat.completions if fmt == "chat" else c.messages


def refused(standin: KimiStandIn, field: str, call: Callable[[], Any]) -> RequestValidationError:
    before = len(standin.requests)
    with pytest.raises(RequestValidationError) as info:
        call()
    assert info.value.field == field and f"{field}=" in str(info.value)
    assert len(standin.requests) == before  # nothing sent
    return info.value


async def arefused(standin: KimiStandIn, field: str, call: Callable[[], Any]) -> None:
    before = len(standin.requests)
    with pytest.raises(RequestValidationError) as info:
        await call()
    assert info.value.field == field
    assert len(standin.requests) == before


# --- resume ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["chat", "messages"])
@pytest.mark.parametrize("stream", [False, True])
def test_resume_without_messages_is_refused(
    client: Kimi, standin: KimiStandIn, fmt: str, stream: bool
) -> None:
    cut = IncompleteStreamError("cut", partial=partial_of(fmt))
    error = refused(standin, "messages", lambda: kimi_ext.resume(client, cut, stream=stream))
    assert "is required" in error.rule
    # Even when the partial had finished (nothing would be sent anyway): the same contract.
    refused(standin, "messages", lambda: kimi_ext.resume(client, FINISHED, stream=stream))


@pytest.mark.parametrize("fmt", ["chat", "messages"])
@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("messages", [5, "Say hello", {"role": "user", "content": "hi"}])
def test_resume_with_messages_of_the_wrong_kind_is_refused(
    client: Kimi, standin: KimiStandIn, fmt: str, stream: bool, messages: Any
) -> None:
    partial = partial_of(fmt)
    refused(
        standin,
        "messages",
        lambda: kimi_ext.resume(client, partial, stream=stream, messages=messages),
    )


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("odd", [None, 5, "Kimi", Kimi])
def test_resume_with_no_client_is_refused(standin: KimiStandIn, odd: Any, stream: bool) -> None:
    error = refused(
        standin,
        "client",
        lambda: kimi_ext.resume(odd, CHAT_PARTIAL, stream=stream, messages=USER),
    )
    assert "Kimi or AsyncKimi" in error.rule


@pytest.mark.parametrize("odd", [None, "Hel", 5, {"choices": []}, ValueError("cut")])
def test_resume_of_something_not_cut_is_refused(
    client: Kimi, standin: KimiStandIn, odd: Any
) -> None:
    error = refused(standin, "error", lambda: kimi_ext.resume(client, odd, messages=USER))
    assert "IncompleteStreamError" in error.rule
    empty = IncompleteStreamError("cut", partial=None)  # an error without its partial
    refused(standin, "error", lambda: kimi_ext.resume(client, empty, messages=USER))


def test_resume_stream_flag_must_be_a_bool(client: Kimi, standin: KimiStandIn) -> None:
    refused(
        standin,
        "stream",
        lambda: kimi_ext.resume(client, CHAT_PARTIAL, stream="yes", messages=USER),  # type: ignore[call-overload]
    )


def test_resume_does_not_take_a_prefix_or_partial(client: Kimi, standin: KimiStandIn) -> None:
    # The prefix is the partial's text: an argument of that name is not a request field.
    refused(
        standin, "prefix", lambda: kimi_ext.resume(client, CHAT_PARTIAL, messages=USER, prefix="x")
    )
    refused(
        standin,
        "partial",
        lambda: kimi_ext.resume(client, CHAT_PARTIAL, messages=USER, partial=FINISHED),
    )


async def test_resume_arguments_async(aclient: AsyncKimi, standin: KimiStandIn) -> None:
    cut = IncompleteStreamError("cut", partial=CHAT_PARTIAL)
    await arefused(standin, "messages", lambda: kimi_ext.resume(aclient, cut))
    await arefused(standin, "messages", lambda: kimi_ext.resume(aclient, cut, messages=5))
    await arefused(standin, "error", lambda: kimi_ext.resume(aclient, None, messages=USER))
    for call in (
        lambda: kimi_ext.resume(aclient, cut, stream=True),
        lambda: kimi_ext.resume(None, cut, stream=True, messages=USER),
    ):
        before = len(standin.requests)
        with pytest.raises(RequestValidationError):
            call()
        assert len(standin.requests) == before


# --- continue_ ------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["chat", "messages"])
@pytest.mark.parametrize("prefix", [None, 5, b"Hel", ["Hel"]])
def test_continue_with_a_prefix_that_is_not_text_is_refused(
    client: Kimi, standin: KimiStandIn, fmt: str, prefix: Any
) -> None:
    error = refused(
        standin,
        "prefix",
        lambda: resource(client, fmt).continue_(
            prefix=prefix, model=MODEL, messages=USER, **extra(fmt)
        ),
    )
    assert "must be a string" in error.rule


@pytest.mark.parametrize("fmt", ["chat", "messages"])
@pytest.mark.parametrize("prefix", [None, 5])
async def test_continue_with_a_prefix_that_is_not_text_is_refused_async(
    aclient: AsyncKimi, standin: KimiStandIn, fmt: str, prefix: Any
) -> None:
    await arefused(
        standin,
        "prefix",
        lambda: resource(aclient, fmt).continue_(
            prefix=prefix, model=MODEL, messages=USER, **extra(fmt)
        ),
    )


@pytest.mark.parametrize("fmt", ["chat", "messages"])
@pytest.mark.parametrize("messages", [None, 5, "Say hello"])
def test_continue_with_messages_of_the_wrong_kind_is_refused(
    client: Kimi, standin: KimiStandIn, fmt: str, messages: Any
) -> None:
    kwargs: dict[str, Any] = {"model": MODEL, **extra(fmt)}
    if messages is not None:
        kwargs["messages"] = messages
    refused(standin, "messages", lambda: resource(client, fmt).continue_(prefix="Hel", **kwargs))


def test_continue_still_takes_a_history_or_a_tuple(client: Kimi, standin: KimiStandIn) -> None:
    standin.queue("lo", "lo")
    history = ChatHistory(USER)
    assert client.chat.completions.continue_(prefix="Hel", model=MODEL, messages=history).text == (
        "Hello"
    )
    assert (
        client.chat.completions.continue_(prefix="Hel", model=MODEL, messages=tuple(USER)).text
        == "Hello"
    )
