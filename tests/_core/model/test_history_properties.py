"""Property tests: random multi-turn tool conversations survive add() and dumps()/loads()
unchanged, byte for byte on the wire."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kimi_ext import (
    ChatCompletion,
    ChatHistory,
    Message,
    MessagesHistory,
    Response,
    ResponsesHistory,
)
from kimi_ext._core.call.building import prepare
from kimi_ext.formats import CHAT, MESSAGES, RESPONSES
from tests.support.history import MODEL, wire

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

text = st.text(max_size=40)
# Visible text the service accepts: it refuses empty (and, on Messages, blank) text.
words = st.text(min_size=1, max_size=40).filter(lambda t: t.strip() != "")
json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**53), 2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    text,
)
json_value = st.recursive(
    json_scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
json_object = st.dictionaries(st.text(max_size=8), json_value, max_size=4)
names = st.sampled_from(["get_weather", "get_time", "search_docs", "f"])
models = st.sampled_from(["kimi-k3.1-pro", "kimi-k3.1-pro-highspeed", "kimi-k3"])
tool_content = st.one_of(
    text, json_object, st.lists(st.builds(lambda t: {"type": "text", "text": t}, words), max_size=2)
)


def content_of(value: Any) -> Any:
    """What add_tool_result puts on the wire for a content value."""
    return value if isinstance(value, str | list) else json.dumps(value, ensure_ascii=False)


@st.composite
def tool_calls(draw: Any) -> list[tuple[str, str, Any]]:
    """(id, name, arguments) in Kimi's native id form; ids repeat across turns."""
    picked = draw(st.lists(names, max_size=3))
    return [(f"functions.{n}:{i}", n, draw(json_object)) for i, n in enumerate(picked)]


@st.composite
def turns(draw: Any) -> list[dict[str, Any]]:
    """A script: per turn the user text, the model, reasoning, text, calls and results."""
    out = []
    for _ in range(draw(st.integers(1, 5))):
        calls = draw(tool_calls())
        out.append(
            {
                "user": draw(
                    st.one_of(
                        words,
                        st.lists(
                            st.builds(lambda t: {"type": "text", "text": t}, words),
                            min_size=1,
                            max_size=2,
                        ),
                    )
                ),
                "model": draw(models),
                "reasoning": draw(text),
                # "" is what a tool-call turn without visible text may carry.
                "text": draw(st.one_of(st.none(), st.just(""), words)),
                "calls": calls,
                "results": [(draw(tool_content), draw(st.booleans())) for _ in calls],
                "extra": draw(
                    st.dictionaries(
                        st.sampled_from(["x_trace", "refusal", "annotations"]),
                        json_value,
                        max_size=2,
                    )
                ),
            }
        )
    return out


def sent(endpoint: Any, field: str, history: Any, **extra: Any) -> bytes:
    params = {"model": MODEL, field: history}
    if endpoint is MESSAGES:
        params["max_tokens"] = 100
    params.update(extra)
    return prepare(endpoint, params).content


def check_round_trip(
    history: Any, expected: list[dict[str, Any]], endpoint: Any, field: str
) -> None:
    assert wire(history.to_wire()) == wire(expected)  # add() kept every turn as received
    restored = type(history).loads(history.dumps())
    assert wire(restored.to_wire()) == wire(expected)
    assert sent(endpoint, field, restored) == sent(endpoint, field, history)
    # A history object sends the system prompt / instructions it keeps; a plain list
    # needs them given.
    kept = {name: getattr(history, name)} if (name := endpoint.system_field) else {}
    assert sent(endpoint, field, history) == sent(endpoint, field, expected, **kept)
    assert restored.dumps() == history.dumps()
    restored.validate()


@SETTINGS
@given(turns())
def test_chat_conversations_round_trip(script: list[dict[str, Any]]) -> None:
    history = ChatHistory(system="sys")
    expected: list[dict[str, Any]] = [{"role": "system", "content": "sys"}]
    for turn in script:
        history.add_user(turn["user"])
        expected.append({"role": "user", "content": turn["user"]})
        # A turn without tool calls always has visible text (or the service refuses it).
        answer = turn["text"] if turn["calls"] or turn["text"] else "Done."
        message: dict[str, Any] = {
            "role": "assistant",
            "content": answer,
            "reasoning_content": turn["reasoning"],
        }
        if turn["calls"]:
            message["tool_calls"] = [
                {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
                for i, n, a in turn["calls"]
            ]
        message.update(turn["extra"])
        result = ChatCompletion(
            {
                "model": turn["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            }
        )
        history.add(result)
        kept = dict(message)
        if turn["calls"] and kept["content"] in (None, ""):  # "" would be refused
            del kept["content"]
        expected.append(kept)
        for (call_id, name, _), (content, is_error) in zip(
            turn["calls"], turn["results"], strict=True
        ):
            history.add_tool_result(call_id, content, is_error=is_error)
            expected.append(
                {
                    "role": "tool",
                    "tool_call_id": call_id,
                    "name": name,
                    "content": content_of(content),
                }
            )
    check_round_trip(history, expected, CHAT, "messages")


@SETTINGS
@given(turns(), st.booleans())
def test_messages_conversations_round_trip(script: list[dict[str, Any]], web: bool) -> None:
    history = MessagesHistory(system="sys")
    expected: list[dict[str, Any]] = []
    pending_user: dict[str, Any] | None = None
    for n, turn in enumerate(script):
        user = turn["user"]
        if pending_user is not None:
            extra = [{"type": "text", "text": user}] if isinstance(user, str) else list(user)
            pending_user["content"] = [*pending_user["content"], *extra]
        else:
            expected.append({"role": "user", "content": user})
        history.add_user(user)
        content: list[dict[str, Any]] = []
        if turn["model"] != "kimi-k3" or turn["reasoning"]:
            content.append(
                {
                    "type": "thinking",
                    "thinking": turn["reasoning"],
                    "signature": f"Es{n}{turn['reasoning'][:5]}",
                }
            )
        if web:
            content.append(
                {
                    "type": "server_tool_use",
                    "id": f"srvtoolu_{n}",
                    "name": "web_search",
                    "input": {"query": "q"},
                }
            )
            content.append(
                {
                    "type": "web_search_tool_result",
                    "tool_use_id": f"srvtoolu_{n}",
                    "content": [
                        {
                            "type": "web_search_result",
                            "url": "https://x",
                            "title": "t",
                            "encrypted_content": "E",
                            "page_age": None,
                        }
                    ],
                }
            )
        if turn["text"]:
            content.append({"type": "text", "text": turn["text"]})
        if turn["extra"]:
            # Unknown fields on a block are kept (an unknown block type is refused on send).
            content.append({"type": "text", "text": "More.", **turn["extra"]})
        content += [
            {"type": "tool_use", "id": i, "name": nm, "input": a} for i, nm, a in turn["calls"]
        ]
        history.add(Message({"model": turn["model"], "role": "assistant", "content": content}))
        expected.append({"role": "assistant", "content": content})
        pending_user = None
        if turn["calls"]:
            blocks = []
            for (call_id, _, _), (value, is_error) in zip(
                turn["calls"], turn["results"], strict=True
            ):
                history.add_tool_result(call_id, value, is_error=is_error)
                block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id}
                if is_error:
                    block["is_error"] = True
                block["content"] = content_of(value)
                blocks.append(block)
            pending_user = {"role": "user", "content": blocks}
            expected.append(pending_user)
    check_round_trip(history, expected, MESSAGES, "messages")


@SETTINGS
@given(turns())
def test_responses_conversations_round_trip(script: list[dict[str, Any]]) -> None:
    history = ResponsesHistory(instructions="be brief")
    expected: list[dict[str, Any]] = []
    for n, turn in enumerate(script):
        user = turn["user"]
        if isinstance(user, list):  # Responses names its text parts input_text
            user = [{**part, "type": "input_text"} for part in user]
        history.add_user(user)
        expected.append({"role": "user", "content": user})
        output: list[dict[str, Any]] = [
            {
                "type": "reasoning",
                "id": f"rs_{n}",
                "summary": [],
                "content": [{"type": "reasoning_text", "text": turn["reasoning"]}],
                "encrypted_content": None,
            }
        ]
        if turn["extra"]:
            output.append(
                {
                    "type": "web_search_call",
                    "id": f"ws_{n}",
                    "status": "completed",
                    "action": turn["extra"],
                }
            )
        if turn["text"] is not None:
            output.append(
                {
                    "type": "message",
                    "id": f"msg_{n}",
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": turn["text"], "annotations": []}],
                }
            )
        kinds = []
        for k, (call_id, name, args) in enumerate(turn["calls"]):
            if k == 2:  # a custom tool call among them
                output.append(
                    {
                        "type": "custom_tool_call",
                        "id": f"ctc_{n}",
                        "call_id": call_id,
                        "name": name,
                        "input": json.dumps(args),
                    }
                )
                kinds.append("custom_tool_call_output")
            else:
                output.append(
                    {
                        "type": "function_call",
                        "id": f"fc_{n}_{k}",
                        "call_id": call_id,
                        "name": name,
                        "arguments": json.dumps(args),
                        "status": "completed",
                    }
                )
                kinds.append("function_call_output")
        history.add(Response({"model": turn["model"], "status": "completed", "output": output}))
        expected.extend(output)
        for (call_id, _, _), (value, _), kind in zip(
            turn["calls"], turn["results"], kinds, strict=True
        ):
            if isinstance(value, list):  # Responses names its text parts input_text
                value = [{**part, "type": "input_text"} for part in value]
            history.add_tool_result(call_id, value)
            expected.append({"type": kind, "call_id": call_id, "output": content_of(value)})
    check_round_trip(history, expected, RESPONSES, "input")
