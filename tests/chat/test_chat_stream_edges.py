"""Chat streams at their edges: logprobs merged, choice fields kept whichever keys a gateway
leaves out, deltas with several fields, tool arguments in many fragments, and a 200 that is
not an event stream."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from kimi_ext.chat.stream import ChatAccumulator
from tests.support.robustness import SYNC_STREAM, encode_event, stream_response


def chunked(body: bytes, size: int = 1000) -> list[bytes]:
    return [body[i : i + size] for i in range(0, len(body), size)]


def test_chat_logprobs_merge_lists_and_keep_scalars() -> None:
    acc = ChatAccumulator()
    for logprobs in (
        {"content": [{"token": "a"}], "refusal": None},
        {"content": [{"token": "b"}], "refusal": [{"token": "no"}], "note": "x"},
        {"content": None, "note": None},
    ):
        acc.feed(None, {"choices": [{"index": 0, "delta": {"content": "."}, "logprobs": logprobs}]})
    merged = acc.snapshot()["choices"][0]["logprobs"]
    assert merged == {
        "content": [{"token": "a"}, {"token": "b"}],
        "refusal": [{"token": "no"}],
        "note": "x",
    }


@pytest.mark.parametrize(
    "choice",
    [
        {"index": 0, "delta": {"content": "a"}, "logprobs": {"content": [{"token": "a"}]}},
        {"delta": {"content": "a"}, "logprobs": {"content": [{"token": "a"}]}},
        {"delta": {"content": "a"}, "usage": {"prompt_tokens": 3}, "finish_reason": None},
        {"index": 0, "delta": {"content": "a"}, "usage": {"prompt_tokens": 3}},
    ],
)
def test_chat_choice_fields_are_kept_whichever_keys_the_gateway_leaves_out(
    choice: dict[str, Any],
) -> None:
    """Some gateways leave ``finish_reason`` (or ``index``) out of a chunk's choice; its
    logprobs and usage must not be dropped for it."""
    acc = ChatAccumulator()
    acc.feed(None, {"choices": [choice]})
    result = acc.snapshot()
    if "logprobs" in choice:
        assert result["choices"][0]["logprobs"] == choice["logprobs"]
    if "usage" in choice:
        assert result["usage"] == choice["usage"]


def test_chat_deltas_with_several_fields_still_reach_the_readers() -> None:
    chunks = [
        {"choices": [{"index": 0, "delta": {"role": "assistant", "reasoning_content": "think "}}]},
        {"choices": [{"index": 0, "delta": {"reasoning_content": "more", "refusal": None}}]},
        {"choices": [{"index": 0, "delta": {"content": "Hello", "role": "assistant"}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    body = b"".join(encode_event(c) for c in chunks) + b"data: [DONE]\n\n"
    stream = SYNC_STREAM["chat"](stream_response([body]), secret="s")
    assert list(stream.fragments) == [
        ("reasoning", "think "),
        ("reasoning", "more"),
        ("text", "Hello"),
    ]


def test_chat_tool_arguments_in_many_fragments_are_joined_exactly() -> None:
    arguments = json.dumps({"text": "".join(f"w{i} " for i in range(700))})
    pieces = [arguments[i : i + 3] for i in range(0, len(arguments), 3)]
    head = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "echo", "arguments": ""}}  # fmt: skip
    chunks = [{"choices": [{"index": 0, "delta": {"tool_calls": [head]}}]}]
    for piece in pieces:
        call = {"index": 0, "function": {"arguments": piece}}
        chunks.append({"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]})
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    body = b"".join(encode_event(c) for c in chunks) + b"data: [DONE]\n\n"
    final = SYNC_STREAM["chat"](stream_response(chunked(body)), secret="s").get_final_completion()
    assert len(pieces) > 512
    assert [(c.name, c.arguments) for c in final.tool_calls] == [("echo", arguments)]


def _stream_answer(content_type: str, body: bytes) -> Any:

    from kimi_ext.chat.stream import ChatCompletionStream

    transport = httpx.MockTransport(
        lambda request: httpx.Response(200, headers={"content-type": content_type}, content=body)
    )
    with httpx.Client(transport=transport) as http:
        response = http.send(
            http.build_request("POST", "https://x/v1/chat/completions"), stream=True
        )
        return ChatCompletionStream(response, secret="sk-secret")


def test_a_200_that_is_not_an_event_stream_keeps_its_body() -> None:
    import pytest

    from kimi_ext import APIResponseError, InternalServerError

    page = b"<html>maintenance</html>"
    with pytest.raises(APIResponseError) as info:
        _stream_answer("text/html", page).get_final_completion()
    assert info.value.body == page.decode()
    envelope = b'{"error": {"message": "upstream overloaded", "type": "server_error"}}'
    with pytest.raises(InternalServerError, match="upstream overloaded"):
        _stream_answer("application/json", envelope).get_final_completion()


async def test_async_stream_that_is_not_an_event_stream() -> None:
    import pytest

    from kimi_ext import APIResponseError
    from kimi_ext.chat.stream import AsyncChatCompletionStream

    transport = httpx.MockTransport(
        lambda request: httpx.Response(200, headers={"content-type": "text/plain"}, content=b"ok")
    )
    async with httpx.AsyncClient(transport=transport) as http:
        response = await http.send(http.build_request("POST", "https://x/v1"), stream=True)
        stream = AsyncChatCompletionStream(response, secret="k")
        with pytest.raises(APIResponseError) as info:
            await stream.get_final_completion()
    assert info.value.body == "ok"
