"""Partial mode / continuation, and resuming a stream cut by the network (stand-in)."""

from __future__ import annotations

from typing import Any

import pytest

import kimi_ext
from kimi_ext import (
    AsyncKimi,
    ChatCompletion,
    ChatHistory,
    ContinuedChatCompletion,
    ContinuedMessage,
    IncompleteStreamError,
    Kimi,
    Message,
    MessagesHistory,
    Response,
)
from kimi_ext.chat import ChatStreamEvent
from kimi_ext.continuation import continue_answer
from kimi_ext.messages import MessagesStreamEvent
from kimi_ext.testing import Fault, KimiStandIn, Reply
from tests.support.history import (
    MODEL,
    aclient,
    client,
    fixture,
    message_result,
    standin,
    standin_server,
)

_ = (aclient, client, standin, standin_server)  # fixtures

FINAL = {"chat": "get_final_completion", "messages": "get_final_message"}
ANSWER = (
    "An idempotency key lets the server recognise a retried payment and return the first result."
)
PREFIX = "| Item | Why |\n|---|---|\n"


def resource(c: Any, fmt: str) -> Any:
    return c.chat.completions if fmt == "chat" else c.messages


def params(fmt: str, messages: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "model": MODEL,
        "messages": messages
        if messages is not None
        else [{"role": "user", "content": "Packing list?"}],
    }
    if fmt == "messages":
        out["max_tokens"] = 4000
    return out


# --- continue_ -------------------------------------------------------------------------------


def test_chat_partial_mode(client: Kimi, standin: KimiStandIn) -> None:
    standin.queue("| Umbrella | Rain |")
    history = ChatHistory(system="Use tables.")
    history.add_user("Packing list as a table?")
    result = client.chat.completions.continue_(prefix=PREFIX, **params("chat", history))
    assert isinstance(result, ContinuedChatCompletion)
    sent = standin.last_request.json["messages"]
    assert sent[:-1] == history.to_wire() and len(history) == 2  # the history is unchanged
    assert sent[-1] == {"role": "assistant", "content": PREFIX, "partial": True}
    assert result.text == PREFIX + "| Umbrella | Rain |"
    assert result.prefix == PREFIX and result.continuation.text == "| Umbrella | Rain |"
    assert (
        result.to_dict()["choices"][0]["message"]["reasoning_content"]
        == result.continuation.reasoning
    )
    history.add(result)
    assert history[-1]["content"] == result.text  # the whole turn is recorded
    history.add_user("Thanks")
    client.chat.completions.create(model=MODEL, messages=history)


async def test_chat_partial_mode_async(aclient: AsyncKimi, standin: KimiStandIn) -> None:
    standin.queue("rest")
    result = await aclient.chat.completions.continue_(prefix="The ", **params("chat"))
    assert result.text == "The rest"
    assert standin.last_request.json["messages"][-1]["partial"] is True


def test_messages_continuation(client: Kimi, standin: KimiStandIn) -> None:
    standin.queue("| Umbrella | Rain |")
    history = MessagesHistory(system="Use tables.")
    history.add_user("Packing list as a table?")
    result = client.messages.continue_(prefix=PREFIX, **params("messages", history))
    assert isinstance(result, ContinuedMessage)
    body = standin.last_request.json
    assert body["system"] == "Use tables."  # from the history
    # The final assistant turn is continued; its trailing whitespace is not sent.
    assert body["messages"][-1] == {"role": "assistant", "content": PREFIX.rstrip()}
    assert result.prefix == PREFIX.rstrip()
    assert result.text == PREFIX.rstrip() + "| Umbrella | Rain |"
    kinds = [b["type"] for b in result.content]
    assert kinds == ["thinking", "text"]
    assert result.content[0] == result.continuation.content[0]  # thinking untouched
    history.add(result)
    history.add_user("Thanks")
    client.messages.create(**params("messages", history), system=history.system)


async def test_messages_continuation_async(aclient: AsyncKimi, standin: KimiStandIn) -> None:
    standin.queue("rest")
    result = await aclient.messages.continue_(prefix="The", **params("messages"))
    assert result.text == "Therest"


def test_continued_message_without_text_gets_a_text_block_after_thinking() -> None:
    continuation = message_result()  # thinking, text, tool_use, tool_use
    data = continuation.to_dict()
    data["content"] = [b for b in data["content"] if b["type"] != "text"]
    combined = ContinuedMessage("I'll check.", Message(data))
    assert [b["type"] for b in combined.content] == ["thinking", "text", "tool_use", "tool_use"]
    assert combined.content[1] == {"type": "text", "text": "I'll check."}
    odd = ContinuedChatCompletion("x", ChatCompletion({"choices": []}))
    assert odd.text == "x"


def test_empty_prefix_is_a_plain_request(client: Kimi, standin: KimiStandIn) -> None:
    standin.queue("all of it", "all of it")
    assert client.chat.completions.continue_(prefix="", **params("chat")).text == "all of it"
    assert standin.last_request.json["messages"] == [{"role": "user", "content": "Packing list?"}]
    assert client.messages.continue_(prefix="  ", **params("messages")).text == "all of it"
    assert standin.last_request.json["messages"] == [{"role": "user", "content": "Packing list?"}]


def test_only_chat_and_messages_continue(client: Kimi) -> None:
    with pytest.raises(TypeError, match="only Chat"):
        continue_answer(client.responses, prefix="x", model=MODEL, input="q")
    with pytest.raises(kimi_ext.RequestValidationError, match="messages=None: is required"):
        client.chat.completions.continue_(prefix="x", model=MODEL)


# --- resume --------------------------------------------------------------------------------


def cut_partway(c: Kimi, standin: KimiStandIn, fmt: str) -> IncompleteStreamError:
    """Stream ANSWER once to count its events, then stream it again cut a few events before
    the end: the partial holds some of the text."""
    standin.queue(Reply(text=ANSWER, reasoning="Short."))
    with resource(c, fmt).stream(**params(fmt)) as s:
        events = sum(1 for _ in s)
    standin.queue(Reply(text=ANSWER, reasoning="Short."))
    standin.fault(Fault.cut_stream(after=events - 6))
    with pytest.raises(IncompleteStreamError) as info, resource(c, fmt).stream(**params(fmt)) as s:
        for _ in s:
            pass
    partial = info.value.partial
    assert 0 < len(partial.text) < len(ANSWER) and ANSWER.startswith(partial.text)
    return info.value


@pytest.mark.parametrize("fmt", ["chat", "messages"])
@pytest.mark.parametrize("stream", [False, True])
def test_resume_a_cut_stream(client: Kimi, standin: KimiStandIn, fmt: str, stream: bool) -> None:
    error = cut_partway(client, standin, fmt)
    partial_text = error.partial.text
    rest = ANSWER[len(partial_text.rstrip()) :]
    standin.queue(rest)
    if stream:
        with kimi_ext.resume(client, error, stream=True, **params(fmt)) as s:
            new_text = "".join(s.text_stream)
            result = getattr(s, FINAL[fmt])()
        assert partial_text + new_text == ANSWER  # only the new text, after what was shown
    else:
        result = kimi_ext.resume(client, error, **params(fmt))
    assert result.text == ANSWER
    last = standin.last_request.json
    assert last["messages"][-1]["role"] == "assistant"
    if fmt == "chat":
        assert last["messages"][-1] == {
            "role": "assistant",
            "content": partial_text,
            "partial": True,
        }
    else:
        assert last["messages"][-1] == {"role": "assistant", "content": partial_text.rstrip()}
    assert last.get("stream", False) is stream
    history = (ChatHistory if fmt == "chat" else MessagesHistory)(params(fmt)["messages"])
    history.add(result)
    history.validate()


@pytest.mark.parametrize("fmt", ["chat", "messages"])
async def test_resume_a_cut_stream_async(
    client: Kimi, aclient: AsyncKimi, standin: KimiStandIn, fmt: str
) -> None:
    error = cut_partway(client, standin, fmt)
    rest = ANSWER[len(error.partial.text.rstrip()) :]
    standin.queue(rest, rest)
    result = await kimi_ext.resume(aclient, error, **params(fmt))
    assert result.text == ANSWER
    async with kimi_ext.resume(aclient, error.partial, stream=True, **params(fmt)) as s:
        pieces = [text async for text in s.text_stream]
        streamed = await getattr(s, FINAL[fmt])()
    assert streamed.text == ANSWER
    assert error.partial.text + "".join(pieces) == ANSWER


def test_resume_again_when_the_continuation_breaks_too(client: Kimi, standin: KimiStandIn) -> None:
    error = cut_partway(client, standin, "chat")
    first = error.partial.text
    rest = ANSWER[len(first) :]
    standin.queue(Reply(text=rest, reasoning=""))
    standin.fault(Fault.cut_stream(after=4))
    with (
        pytest.raises(IncompleteStreamError) as again,
        kimi_ext.resume(client, error, stream=True, **params("chat")) as s,
    ):
        s.get_final_completion()
    combined = again.value.partial
    assert isinstance(combined, ContinuedChatCompletion)
    assert combined.text.startswith(first) and len(combined.text) > len(first)
    with pytest.raises(IncompleteStreamError) as same:
        list(s.text_stream)  # a broken continuation fails again, the same way
    assert same.value is again.value
    standin.queue(ANSWER[len(combined.text) :])
    with kimi_ext.resume(client, again.value, stream=True, **params("chat")) as s:
        final = s.get_final_completion()
    assert final.text == ANSWER


def test_resume_cut_during_reasoning_sends_the_request_again(
    client: Kimi, standin: KimiStandIn
) -> None:
    standin.queue(Reply(text="short answer", reasoning="A long think " * 20))
    standin.fault(Fault.cut_stream(after=3))
    with (
        pytest.raises(IncompleteStreamError) as info,
        client.messages.stream(**params("messages")) as s,
    ):
        s.get_final_message()
    assert info.value.partial.text == ""
    standin.queue("short answer")
    assert kimi_ext.resume(client, info.value, **params("messages")).text == "short answer"
    assert standin.last_request.json["messages"] == params("messages")["messages"]


def test_resume_uses_the_partials_model_and_refuses_responses(
    client: Kimi, standin: KimiStandIn
) -> None:
    partial = ChatCompletion(
        {
            "model": "kimi-k3",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hel"}}],
        }
    )
    standin.queue("lo")
    request = params("chat")
    del request["model"]
    assert kimi_ext.resume(client, partial, **request).text == "Hello"
    assert standin.last_request.json["model"] == "kimi-k3"
    with pytest.raises(TypeError, match="cannot resume a Response"):
        kimi_ext.resume(
            client, Response(fixture("responses/response_incomplete.json")), model=MODEL, input="q"
        )


# --- resume(stream=True): the continuation as it arrives -----------------------------------


@pytest.mark.parametrize("fmt", ["chat", "messages"])
def test_resume_stream_gives_the_continuation_as_it_arrives(
    client: Kimi, standin: KimiStandIn, fmt: str
) -> None:
    error = cut_partway(client, standin, fmt)
    shown = error.partial.text  # what a UI already shows
    standin.queue(Reply(text=ANSWER[len(shown.rstrip()) :], reasoning="More."))
    before = len(standin.requests)
    s = kimi_ext.resume(client, error, stream=True, **params(fmt))
    assert len(standin.requests) == before  # validated, not sent until used
    with s:
        assert s.prefix == (shown if fmt == "chat" else shown.rstrip())
        texts = s.text_stream
        first = next(texts)
        assert len(standin.requests) == before + 1
        so_far = s.current.text  # the whole answer so far, while the rest is still coming
        assert so_far.startswith(shown.rstrip()) and len(so_far) < len(ANSWER)
        pieces = [first, *texts]
        final = getattr(s, FINAL[fmt])()
        assert getattr(s, FINAL[fmt])() is final
    assert len(pieces) > 1 and all(pieces)
    assert shown + "".join(pieces) == ANSWER  # only the new text, nothing shown twice
    assert isinstance(final, ContinuedChatCompletion if fmt == "chat" else ContinuedMessage)
    assert final.text == ANSWER and final.continuation.reasoning == "More."
    assert final.reasoning == "Short.More."  # the reasoning before the cut is kept


@pytest.mark.parametrize("fmt", ["chat", "messages"])
def test_resume_stream_events_reasoning_and_fragments(
    client: Kimi, standin: KimiStandIn, fmt: str
) -> None:
    error = cut_partway(client, standin, fmt)
    shown = error.partial.text
    rest = ANSWER[len(shown.rstrip()) :]
    for _ in range(3):
        standin.queue(Reply(text=rest, reasoning="More."))
    with kimi_ext.resume(client, error, stream=True, **params(fmt)) as s:
        events = list(s)
        final = getattr(s, FINAL[fmt])()
    kind = ChatStreamEvent if fmt == "chat" else MessagesStreamEvent
    assert events and all(isinstance(e, kind) for e in events)
    assert final.text == ANSWER
    with kimi_ext.resume(client, error, stream=True, **params(fmt)) as s:
        assert "".join(s.reasoning_stream) == "More."
    with kimi_ext.resume(client, error, stream=True, **params(fmt)) as s:
        pairs = list(s.fragments)
    assert "".join(t for k, t in pairs if k == "reasoning") == "More."
    assert shown + "".join(t for k, t in pairs if k == "text") == ANSWER


@pytest.mark.parametrize("fmt", ["chat", "messages"])
async def test_resume_stream_async(
    client: Kimi, aclient: AsyncKimi, standin: KimiStandIn, fmt: str
) -> None:
    error = cut_partway(client, standin, fmt)
    shown = error.partial.text
    rest = ANSWER[len(shown.rstrip()) :]
    standin.queue(Reply(text=rest, reasoning="More."), Reply(text=rest, reasoning="More."))
    async with kimi_ext.resume(aclient, error, stream=True, **params(fmt)) as s:
        pieces = [text async for text in s.text_stream]
        final = await getattr(s, FINAL[fmt])()
    assert shown + "".join(pieces) == ANSWER == final.text
    assert isinstance(final, ContinuedChatCompletion if fmt == "chat" else ContinuedMessage)
    async with kimi_ext.resume(aclient, error, stream=True, **params(fmt)) as s:
        events = [e async for e in s]
        assert (await getattr(s, FINAL[fmt])()).text == ANSWER
    assert events


async def test_resume_stream_async_breaks_again_with_the_combined_partial(
    client: Kimi, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    error = cut_partway(client, standin, "messages")
    first = error.partial.text
    rest = Reply(text=ANSWER[len(first.rstrip()) :], reasoning="")
    standin.queue(rest)
    with client.messages.stream(**params("messages")) as whole:
        events = sum(1 for _ in whole)
    standin.queue(rest)
    standin.fault(Fault.cut_stream(after=events - 4))  # some of the continuation's text
    with pytest.raises(IncompleteStreamError) as again:
        async with kimi_ext.resume(aclient, error, stream=True, **params("messages")) as s:
            async for _ in s.fragments:
                pass
    combined = again.value.partial
    assert isinstance(combined, ContinuedMessage)
    assert combined.text.startswith(first.rstrip()) and len(combined.text) > len(first)
    standin.queue(ANSWER[len(combined.text.rstrip()) :])
    async with kimi_ext.resume(aclient, again.value, stream=True, **params("messages")) as s:
        assert (await s.get_final_message()).text == ANSWER


def test_resume_stream_text_skips_the_whitespace_messages_did_not_send(
    client: Kimi, standin: KimiStandIn
) -> None:
    partial = Message(
        {"model": MODEL, "role": "assistant", "stop_reason": None,
         "content": [{"type": "text", "text": "Take an umbrella \n"}]}
    )  # fmt: skip
    standin.queue(Reply(text=" \nand boots.", reasoning=""))
    with kimi_ext.resume(client, partial, stream=True, **params("messages")) as s:
        pieces = list(s.text_stream)
        final = s.get_final_message()
    assert standin.last_request.json["messages"][-1]["content"] == "Take an umbrella"
    assert final.text == "Take an umbrella \nand boots."
    assert partial.text + "".join(pieces) == final.text


# --- a stream cut after its answer finished ----------------------------------------------


def cut_after_the_finish(c: Kimi, standin: KimiStandIn, fmt: str) -> IncompleteStreamError:
    """The stream broken just after the event that finished the answer (the Chat chunk with
    the finish_reason; the Messages message_delta with the stop_reason)."""
    standin.queue(ANSWER)
    with resource(c, fmt).stream(**params(fmt)) as s:
        events = [e.data for e in s]
    if fmt == "chat":
        at = next(
            i for i, e in enumerate(events) if e["choices"] and e["choices"][0].get("finish_reason")
        )
    else:
        at = next(i for i, e in enumerate(events) if e["type"] == "message_delta")
    standin.queue(ANSWER)
    standin.fault(Fault.cut_stream(after=at + 1))
    with pytest.raises(IncompleteStreamError) as info, resource(c, fmt).stream(**params(fmt)) as s:
        s.get_final_completion() if fmt == "chat" else s.get_final_message()
    assert info.value.partial.text == ANSWER  # the whole answer arrived; the tail did not
    return info.value


@pytest.mark.parametrize("fmt", ["chat", "messages"])
def test_resume_of_a_finished_answer_sends_nothing(
    client: Kimi, standin: KimiStandIn, fmt: str
) -> None:
    error = cut_after_the_finish(client, standin, fmt)
    before = len(standin.requests)
    result = kimi_ext.resume(client, error, **params(fmt))
    assert result is error.partial and result.text == ANSWER
    with kimi_ext.resume(client, error, stream=True, **params(fmt)) as s:
        assert list(s) == [] and list(s.text_stream) == []
        assert getattr(s, FINAL[fmt])() is error.partial
    assert len(standin.requests) == before  # no request: the answer had finished


@pytest.mark.parametrize("fmt", ["chat", "messages"])
async def test_resume_of_a_finished_answer_sends_nothing_async(
    client: Kimi, aclient: AsyncKimi, standin: KimiStandIn, fmt: str
) -> None:
    error = cut_after_the_finish(client, standin, fmt)
    before = len(standin.requests)
    assert await kimi_ext.resume(aclient, error, **params(fmt)) is error.partial
    async with kimi_ext.resume(aclient, error, stream=True, **params(fmt)) as s:
        assert [t async for t in s.text_stream] == []
        assert await getattr(s, FINAL[fmt])() is error.partial
    assert len(standin.requests) == before


# --- Responses cannot continue -------------------------------------------------------------


async def test_responses_cannot_continue_says_what_to_do(client: Kimi, aclient: AsyncKimi) -> None:
    response = Response(fixture("responses/response_incomplete.json"))
    cut = IncompleteStreamError("cut", partial=response)
    for call in (
        lambda: kimi_ext.resume(client, response, model=MODEL, input="q"),
        lambda: kimi_ext.resume(client, cut, stream=True, model=MODEL, input="q"),
        lambda: kimi_ext.resume(aclient, cut, model=MODEL, input="q"),
        lambda: continue_answer(client.responses, prefix="x", model=MODEL, input="q"),
    ):
        with pytest.raises(
            kimi_ext.ContinuationUnsupportedError, match="send the request again"
        ) as info:
            call()
        assert isinstance(info.value, kimi_ext.KimiError) and isinstance(info.value, TypeError)
