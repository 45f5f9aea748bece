"""History.validate() runs on every send: what it remembers between sends must never hide a
change made to a turn in between (turns are plain dicts users can edit), and must actually
save the work it is there to save (issue 12 item 6: a 200-turn history within 1.10x)."""

from __future__ import annotations

from typing import Any

import pytest

import kimi_ext.chat.history as chat_history
import kimi_ext.responses.history as responses_history
from kimi_ext import (
    ChatCompletion,
    ChatHistory,
    HistoryError,
    Message,
    MessagesHistory,
    Response,
    ResponsesHistory,
)

MODEL = "kimi-k3.1-pro"


def _chat_turn(n: int, calls: int) -> ChatCompletion:
    message: dict[str, Any] = {
        "role": "assistant",
        "content": None,
        "reasoning_content": f"thinking {n}",
        "tool_calls": [
            {
                "id": f"call_{n}_{c}",
                "type": "function",
                "function": {"name": "lookup", "arguments": f'{{"q": "item {n}.{c}"}}'},
            }
            for c in range(calls)
        ],
    }
    return ChatCompletion(
        {
            "id": f"chatcmpl-{n}",
            "object": "chat.completion",
            "model": MODEL,
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        }
    )


def _chat_history(turns: int = 5) -> ChatHistory:
    h = ChatHistory(system="terse")
    for n in range(turns):
        h.add_user(f"question {n}")
        h.add(_chat_turn(n, 2))
        h.add_tool_result(f"call_{n}_0", "r0")
        h.add_tool_result(f"call_{n}_1", "r1")
    return h


def _responses_history(turns: int = 5) -> ResponsesHistory:
    h = ResponsesHistory()
    for n in range(turns):
        h.add_user(f"question {n}")
        h.add(
            Response(
                {
                    "id": f"resp_{n}",
                    "object": "response",
                    "model": MODEL,
                    "status": "completed",
                    "output": [
                        {"type": "reasoning", "id": f"rs_{n}", "summary": []},
                        {
                            "type": "function_call",
                            "id": f"fc_{n}",
                            "call_id": f"call_{n}",
                            "name": "lookup",
                            "arguments": f'{{"q": "item {n}"}}',
                        },
                    ],
                }
            )
        )
        h.add_tool_result(f"call_{n}", "r")
    return h


def _messages_history(turns: int = 5) -> MessagesHistory:
    h = MessagesHistory(system="terse")
    for n in range(turns):
        h.add_user(f"question {n}")
        h.add(
            Message(
                {
                    "id": f"msg_{n}",
                    "type": "message",
                    "role": "assistant",
                    "model": MODEL,
                    "stop_reason": "tool_use",
                    "content": [
                        {"type": "thinking", "thinking": f"think {n}", "signature": f"sig{n}"},
                        {"type": "tool_use", "id": f"tu_{n}", "name": "lookup", "input": {}},
                    ],
                }
            )
        )
        h.add_tool_result(f"tu_{n}", "r")
    return h


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every arguments value validate() parses (the JSON check behind the replay rule)."""
    seen: list[Any] = []
    real = chat_history.arguments_replayable

    def counting(arguments: Any) -> bool:
        seen.append(arguments)
        return real(arguments)

    for module in (chat_history, responses_history):
        monkeypatch.setattr(module, "arguments_replayable", counting)
    return seen


@pytest.mark.parametrize("build", [_chat_history, _responses_history], ids=["chat", "responses"])
def test_unchanged_arguments_are_parsed_once_not_on_every_send(
    build: Any, parses: list[Any]
) -> None:
    h = build()
    h.validate()
    first = len(parses)
    assert first >= 5  # each call's arguments were checked once
    h.validate()
    h.to_wire()
    assert len(parses) == first  # ... and not again while nothing changed


def test_chat_arguments_replaced_after_a_send_are_checked_again(parses: list[Any]) -> None:
    h = _chat_history()
    h.validate()
    i = next(k for k, m in enumerate(h) if m.get("tool_calls"))
    h[i]["tool_calls"][1]["function"]["arguments"] = '{"q": "cut by the output lim'
    with pytest.raises(HistoryError) as err:
        h.validate()
    assert err.value.index == i
    assert "call_0_1" in str(err.value) and "not valid JSON" in str(err.value)
    # Equal text in a new string object is parsed again too (identity, not equality).
    parses.clear()
    h[i]["tool_calls"][1]["function"]["arguments"] = "".join(['{"q": ', '"fixed"}'])
    h.validate()
    assert parses == ['{"q": "fixed"}']


def test_chat_function_replaced_by_a_new_dict_is_checked(parses: list[Any]) -> None:
    h = _chat_history()
    h.validate()
    i = next(k for k, m in enumerate(h) if m.get("tool_calls"))
    h[i]["tool_calls"][0] = {**h[i]["tool_calls"][0], "function": {"name": "x", "arguments": "{"}}
    with pytest.raises(HistoryError) as err:
        h.validate()
    assert err.value.index == i


def test_responses_arguments_replaced_after_a_send_are_checked_again() -> None:
    h = _responses_history()
    h.validate()
    i = next(k for k, m in enumerate(h) if m.get("type") == "function_call")
    h[i]["arguments"] = '{"q": '
    with pytest.raises(HistoryError) as err:
        h.validate()
    assert err.value.index == i and "not valid JSON" in str(err.value)


def test_invalid_arguments_stay_refused_on_every_send() -> None:
    h = ChatHistory()
    h.append({"role": "user", "content": "q"})
    h.append(
        {
            "role": "assistant",
            "reasoning_content": "",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{"}}
            ],
        }
    )
    h.append({"role": "tool", "tool_call_id": "c1", "content": "r"})
    for _ in range(3):
        with pytest.raises(HistoryError, match="not valid JSON"):
            h.validate()


def test_memo_keeps_only_what_is_in_the_history_now() -> None:
    h = _chat_history(2)
    h.validate()
    i = next(k for k, m in enumerate(h) if m.get("tool_calls"))
    old = h[i]["tool_calls"][0]["function"]["arguments"]
    h[i]["tool_calls"][0]["function"]["arguments"] = '{"q": "new"}'
    h.validate()
    # The replaced string is let go, not kept alive by the history's memo.
    assert all(v is not old for v in vars(h)["_replayable"].values())


@pytest.mark.parametrize("field", ["thinking", "signature"])
def test_messages_thinking_edited_between_sends_is_caught(field: str) -> None:
    h = _messages_history()
    h.validate()
    h.validate()  # the identity fast path is now armed for every block
    i = next(k for k, m in enumerate(h) if m.get("role") == "assistant")
    h[i]["content"][0][field] = h[i]["content"][0][field] + "!"
    with pytest.raises(HistoryError) as err:
        h.validate()
    assert err.value.index == i and "changed after receipt" in str(err.value)


def test_messages_thinking_rebuilt_with_equal_text_still_passes() -> None:
    h = _messages_history()
    h.validate()
    i = next(k for k, m in enumerate(h) if m.get("role") == "assistant")
    block = h[i]["content"][0]
    # Equal strings that are new objects (a JSON round trip): the fingerprint decides.
    h[i]["content"][0] = {
        k: "".join(list(v)) if isinstance(v, str) else v for k, v in block.items()
    }
    h.validate()
    h.validate()
