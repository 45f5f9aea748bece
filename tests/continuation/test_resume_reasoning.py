"""resume() keeps the reasoning received before the cut: in the result, in its blocks or
fields, and in what a history replays (stand-in; it checks every replayed signature)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import kimi_ext
from kimi_ext import (
    AsyncKimi,
    ChatHistory,
    IncompleteStreamError,
    Kimi,
    MessagesHistory,
    ResponsesHistory,
)
from kimi_ext.testing import Fault, KimiStandIn, Reply
from tests.support.history import MODEL, aclient, client, standin, standin_server

_ = (aclient, client, standin, standin_server)  # fixtures

ANSWER = "Answer: " + "tram tiles Tagus " * 5
FINAL = {"chat": "get_final_completion", "messages": "get_final_message"}


def counting(standin: KimiStandIn, reasoning: str = "R-{n}") -> None:
    """Every request answered with ANSWER and the reasoning ``R-n``, n counting calls."""
    calls = itertools.count(1)
    standin.responder = lambda _: Reply(text=ANSWER, reasoning=reasoning.format(n=next(calls)))


def history_of(fmt: str) -> ChatHistory | MessagesHistory:
    history = ChatHistory() if fmt == "chat" else MessagesHistory()
    history.add_user("Where do trams run on tiles?")
    return history


def request(fmt: str, history: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"model": MODEL, "messages": history}
    if fmt == "messages":
        out["max_tokens"] = 4000
    return out


def resource(c: Any, fmt: str) -> Any:
    return c.chat.completions if fmt == "chat" else c.messages


def cut(c: Kimi, standin: KimiStandIn, fmt: str, params: dict[str, Any], after: int = 12) -> Any:
    """The IncompleteStreamError of a stream cut after ``after`` events."""
    standin.fault(Fault.cut_stream(after=after))
    with pytest.raises(IncompleteStreamError) as info, resource(c, fmt).stream(**params) as s:
        for _ in s:
            pass
    return info.value


def thinking_blocks(content: Any) -> list[tuple[str, bool]]:
    """(thinking, signed) of each thinking block, in order."""
    return [(b["thinking"], bool(b.get("signature"))) for b in content if b["type"] == "thinking"]


def replayed(fmt: str, result: Any, history: Any, c: Kimi, standin: KimiStandIn) -> Any:
    """Add the result to the history, send the next turn; the last assistant turn sent."""
    history.add(result)
    history.add_user("And in Porto?")
    resource(c, fmt).create(**request(fmt, history))  # the stand-in checks each signature
    return standin.last_request.json["messages"][-2]


def check_both_kept(fmt: str, result: Any) -> None:
    assert result.reasoning == "R-1R-2"  # both, in order
    assert result.continuation.reasoning == "R-2" and result.partial.reasoning == "R-1"
    assert result.text.startswith(result.partial.text.rstrip())
    if fmt == "chat":
        assert result.to_dict()["choices"][0]["message"]["reasoning_content"] == "R-1R-2"
    else:
        assert thinking_blocks(result.content) == [("R-1", True), ("R-2", True)]
        assert [b["type"] for b in result.content] == ["thinking", "thinking", "text"]


def check_replayed(fmt: str, turn: dict[str, Any]) -> None:
    if fmt == "chat":
        assert turn["reasoning_content"] == "R-1R-2"
    else:
        assert thinking_blocks(turn["content"]) == [("R-1", True), ("R-2", True)]


@pytest.mark.parametrize("fmt", ["chat", "messages"])
@pytest.mark.parametrize("stream", [False, True])
def test_resume_keeps_the_reasoning_received_before_the_cut(
    client: Kimi, standin: KimiStandIn, fmt: str, stream: bool
) -> None:
    counting(standin)
    history = history_of(fmt)
    error = cut(client, standin, fmt, request(fmt, history))
    assert error.partial.reasoning == "R-1" and error.partial.text  # cut in the text
    if stream:
        with kimi_ext.resume(client, error, stream=True, **request(fmt, history)) as s:
            assert "".join(s.reasoning_stream) == "R-2"  # the stream yields only the new
            result = getattr(s, FINAL[fmt])()
    else:
        result = kimi_ext.resume(client, error, **request(fmt, history))
    check_both_kept(fmt, result)
    check_replayed(fmt, replayed(fmt, result, history, client, standin))


@pytest.mark.parametrize("fmt", ["chat", "messages"])
@pytest.mark.parametrize("stream", [False, True])
async def test_resume_keeps_the_reasoning_received_before_the_cut_async(
    client: Kimi, aclient: AsyncKimi, standin: KimiStandIn, fmt: str, stream: bool
) -> None:
    counting(standin)
    history = history_of(fmt)
    error = cut(client, standin, fmt, request(fmt, history))
    if stream:
        async with kimi_ext.resume(aclient, error, stream=True, **request(fmt, history)) as s:
            assert s.current.reasoning == "R-1"  # nothing of the continuation read yet
            result = await getattr(s, FINAL[fmt])()
    else:
        result = await kimi_ext.resume(aclient, error.partial, **request(fmt, history))
    check_both_kept(fmt, result)
    check_replayed(fmt, replayed(fmt, result, history, client, standin))


@pytest.mark.parametrize("fmt", ["chat", "messages"])
def test_resume_again_after_a_second_cut_keeps_every_reasoning(
    client: Kimi, standin: KimiStandIn, fmt: str
) -> None:
    counting(standin)
    history = history_of(fmt)
    first = cut(client, standin, fmt, request(fmt, history))
    standin.fault(Fault.cut_stream(after=12))
    with (
        pytest.raises(IncompleteStreamError) as again,
        kimi_ext.resume(client, first, stream=True, **request(fmt, history)) as s,
    ):
        getattr(s, FINAL[fmt])()
    assert again.value.partial.reasoning == "R-1R-2"  # the combined partial keeps both
    result = kimi_ext.resume(client, again.value, **request(fmt, history))
    assert result.reasoning == "R-1R-2R-3"
    turn = replayed(fmt, result, history, client, standin)
    if fmt == "chat":
        assert turn["reasoning_content"] == "R-1R-2R-3"
    else:
        assert thinking_blocks(turn["content"]) == [("R-1", True), ("R-2", True), ("R-3", True)]


@pytest.mark.parametrize("stream", [False, True])
def test_a_thinking_block_cut_before_its_signature_is_kept_but_not_replayed(
    client: Kimi, standin: KimiStandIn, stream: bool
) -> None:
    counting(standin, reasoning="R-{n} thought " * 6)
    history = history_of("messages")
    error = cut(client, standin, "messages", request("messages", history), after=4)
    partial = error.partial
    assert partial.text == "" and partial.reasoning  # cut inside the thinking block
    assert thinking_blocks(partial.content) == [(partial.reasoning, False)]
    if stream:
        with kimi_ext.resume(client, error, stream=True, **request("messages", history)) as s:
            result = s.get_final_message()
    else:
        result = kimi_ext.resume(client, error, **request("messages", history))
    whole = "R-2 thought " * 6
    # Nothing lost: the result's reasoning has the cut block's text, then the new one's.
    assert result.reasoning == partial.reasoning + whole and result.partial is partial
    # Its content has only what can go back: the cut block has no signature.
    assert thinking_blocks(result.content) == [(whole, True)]
    turn = replayed("messages", result, history, client, standin)
    assert thinking_blocks(turn["content"]) == [(whole, True)]


def test_chat_reasoning_cut_during_reasoning_is_kept_and_replayed(
    client: Kimi, standin: KimiStandIn
) -> None:
    counting(standin, reasoning="R-{n} thought " * 6)
    history = history_of("chat")
    error = cut(client, standin, "chat", request("chat", history), after=4)
    assert error.partial.text == "" and error.partial.reasoning
    result = kimi_ext.resume(client, error, **request("chat", history))
    both = error.partial.reasoning + "R-2 thought " * 6
    assert result.reasoning == both  # Chat takes any reasoning text back: all of it goes
    assert replayed("chat", result, history, client, standin)["reasoning_content"] == both


async def test_responses_resume_refuses_and_keeps_the_partials_reasoning(
    client: Kimi, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    counting(standin)
    history = ResponsesHistory()
    history.add_user("Where do trams run on tiles?")
    params: dict[str, Any] = {"model": MODEL, "input": history}
    standin.fault(Fault.cut_stream(after=12))
    with pytest.raises(IncompleteStreamError) as info, client.responses.stream(**params) as s:
        for _ in s:
            pass
    partial = info.value.partial
    assert partial.reasoning == "R-1"
    before = len(standin.requests)
    for call in (
        lambda: kimi_ext.resume(client, info.value, **params),
        lambda: kimi_ext.resume(client, info.value, stream=True, **params),
        lambda: kimi_ext.resume(aclient, partial, **params),
    ):
        with pytest.raises(kimi_ext.ContinuationUnsupportedError, match=r"\.partial"):
            call()
    assert len(standin.requests) == before  # nothing sent
    assert info.value.partial is partial and partial.reasoning == "R-1"  # still there
