"""Each format turns its own history into the same neutral messages (the Format's
``neutral_messages``): telemetry records one shape whatever the format."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kimi_ext.chat.format import CHAT
from kimi_ext.messages.format import MESSAGES
from kimi_ext.responses.format import RESPONSES
from kimi_ext.telemetry.content import input_messages

ARGS = {"city": "Lisbon"}

# One conversation: a question, a reasoned tool call, the tool's answer, a reasoned reply.
HISTORIES: dict[str, Any] = {
    "chat": [
        {"role": "user", "content": "Weather in Lisbon?"},
        {"role": "assistant", "content": "", "reasoning_content": "Need the tool.",
         "tool_calls": [{"id": "c1", "type": "function",
                         "function": {"name": "weather", "arguments": json.dumps(ARGS)}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "Sunny"},
        {"role": "assistant", "content": "Sunny.", "reasoning_content": "Say it."},
    ],
    "messages": [
        {"role": "user", "content": "Weather in Lisbon?"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "Need the tool.", "signature": "s"},
            {"type": "tool_use", "id": "c1", "name": "weather", "input": ARGS}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "c1", "content": "Sunny"}]},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "Say it.", "signature": "s"},
            {"type": "text", "text": "Sunny."}]},
    ],
}  # fmt: skip


def _shape(messages: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    return [(m["role"], [p["type"] for p in m["parts"]]) for m in messages]


def test_chat_and_messages_give_the_same_parts() -> None:
    chat = CHAT.neutral_messages(HISTORIES["chat"])
    messages = MESSAGES.neutral_messages(HISTORIES["messages"])
    assert _shape(chat) == [
        ("user", ["text"]),
        ("assistant", ["reasoning", "text", "tool_call"]),
        ("tool", ["tool_call_response"]),
        ("assistant", ["reasoning", "text"]),
    ]
    # Messages carries the tool's answer in a user turn and has no empty text block.
    assert _shape(messages) == [
        ("user", ["text"]),
        ("assistant", ["reasoning", "tool_call"]),
        ("user", ["tool_call_response"]),
        ("assistant", ["reasoning", "text"]),
    ]
    for history in (chat, messages):
        call = next(p for m in history for p in m["parts"] if p["type"] == "tool_call")
        assert (call["id"], call["name"]) == ("c1", "weather")
        answer = next(p for m in history for p in m["parts"] if p["type"] == "tool_call_response")
        assert answer == {"type": "tool_call_response", "id": "c1", "response": "Sunny"}


def test_responses_items_become_messages_by_kind() -> None:
    history = [
        {"role": "user", "content": [{"type": "input_text", "text": "Weather in Lisbon?"}]},
        {"type": "reasoning", "id": "r1", "summary": []},
        {"type": "function_call", "call_id": "c1", "name": "weather",
         "arguments": json.dumps(ARGS)},
        {"type": "function_call_output", "call_id": "c1", "output": "Sunny"},
        {"type": "web_search_call", "id": "w1", "status": "completed"},
        {"role": "assistant", "content": [{"type": "output_text", "text": "Sunny."}]},
    ]  # fmt: skip
    out = RESPONSES.neutral_messages(history)
    assert _shape(out) == [
        ("user", ["text"]),
        ("assistant", ["reasoning"]),
        ("assistant", ["tool_call"]),
        ("tool", ["tool_call_response"]),
        ("tool", ["web_search_call"]),
        ("assistant", ["text"]),
    ]
    assert out[1]["parts"][0]["content"] == history[1]  # kept as received
    assert out[2]["parts"][0]["arguments"] == json.dumps(ARGS)
    assert RESPONSES.neutral_messages("Hi") == [
        {"role": "user", "parts": [{"type": "text", "content": "Hi"}]}
    ]


@pytest.mark.parametrize("fmt", [CHAT, MESSAGES, RESPONSES], ids=lambda f: f.name)
def test_odd_histories_give_what_can_be_read_and_never_fail(fmt: Any) -> None:
    for odd in (None, 3, [None, 1, "x"], [{"content": None}], [{"role": "user", "content": 5}]):
        assert isinstance(fmt.neutral_messages(odd), list)


def test_input_messages_takes_the_system_field_of_the_format() -> None:
    body = {"system": "Be brief.", "messages": HISTORIES["messages"][:1]}
    messages, system = input_messages(body, MESSAGES)
    assert system == [{"type": "text", "content": "Be brief."}]
    assert messages == [{"role": "user", "parts": [{"type": "text",
                                                    "content": "Weather in Lisbon?"}]}]  # fmt: skip
    messages, system = input_messages({"messages": HISTORIES["chat"][:1]}, CHAT)
    assert system == [] and len(messages) == 1
