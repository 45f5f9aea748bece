"""History objects: what add / add_user / add_tool_result store, sending, saving, sequences."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kimi_ext import (
    ChatCompletion,
    ChatHistory,
    HistoryError,
    Kimi,
    Message,
    MessagesHistory,
    ResponsesHistory,
)
from kimi_ext.testing import KimiStandIn, Reply, ToolCallSpec
from tests.support.history import (
    MODEL,
    chat_reply,
    chat_result,
    client,
    fixture,
    message_result,
    response_result,
    standin,
    standin_server,
    wire,
)

_ = (client, standin, standin_server)  # fixtures

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


# --- Chat ---------------------------------------------------------------------------------


def test_chat_add_keeps_the_turn_and_leaves_out_null_content() -> None:
    history = ChatHistory(system="Be brief.")
    history.add_user("Weather in Beijing and Shanghai?")
    result = chat_result()
    history.add(result)
    received = result.message
    stored = history[2]
    assert stored["reasoning_content"] == received["reasoning_content"]
    assert stored["tool_calls"] is received["tool_calls"]  # ids never rewritten, no copy
    assert "content" not in stored  # null content is left out, not sent as ""
    assert received["content"] is None  # the result itself is untouched
    assert history[0] == {"role": "system", "content": "Be brief."}
    assert history.system == "Be brief."


def test_chat_add_keeps_empty_reasoning_and_leaves_empty_content_out() -> None:
    message = {
        "role": "assistant",
        "content": "",
        "reasoning_content": "",
        "tool_calls": [
            {
                "id": "functions.f:0",
                "type": "function",
                "function": {"name": "f", "arguments": "{}"},
            }
        ],
        "x_future": {"kept": True},
    }
    history = ChatHistory()
    history.add_user("go")
    history.add(ChatCompletion(chat_reply(message)))
    # Empty reasoning stays "" and unknown fields are kept; the empty text of a tool-call
    # turn is left out, as the service refuses it ("text content is empty").
    assert history[1] == {k: v for k, v in message.items() if k != "content"}
    assert history[1]["reasoning_content"] == ""
    history.add_tool_result("functions.f:0", "done")
    history.validate()


def test_chat_tool_results_are_tool_messages_with_the_call_id_and_name() -> None:
    history = ChatHistory()
    history.add_user("hi")
    history.add(chat_result())
    history.add_tool_result("functions.get_weather:0", {"temp_c": 3})
    history.add_tool_result("functions.get_weather:1", "station offline", is_error=True)
    assert history[-2] == {
        "role": "tool",
        "tool_call_id": "functions.get_weather:0",
        "name": "get_weather",
        "content": '{"temp_c": 3}',
    }
    assert history[-1]["content"] == "station offline"  # no error field on Chat
    assert "is_error" not in history[-1]
    history.validate()
    parts = [{"type": "text", "text": "a"}]
    other = ChatHistory()
    other.add_user("q")
    other.add(chat_result())
    other.add_tool_result("functions.get_weather:0", parts)  # content parts as they are
    assert other[-1]["content"] is parts


def test_chat_user_content_parts_and_images() -> None:
    history = ChatHistory()
    history.add_user("What is this?", images=[PNG], name="ling")
    message = history[0]
    assert message["name"] == "ling"
    assert message["content"][0] == {"type": "text", "text": "What is this?"}
    assert message["content"][1]["type"] == "image_url"
    assert message["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")
    parts = [{"type": "text", "text": "a"}, {"type": "video_url", "video_url": {"url": "ms://v"}}]
    history.add_user(parts)
    assert history[1] == {"role": "user", "content": parts}


def test_chat_model_is_recorded_per_turn() -> None:
    history = ChatHistory()
    history.add_user("q")
    history.add(chat_result())
    k3 = chat_result()
    k3.to_dict()["model"] = "kimi-k3"
    history.add_tool_result("functions.get_weather:0", "a")
    history.add_tool_result("functions.get_weather:1", "b")
    history.add(ChatCompletion(chat_reply({"role": "assistant", "content": "ok"}, model="kimi-k3")))
    assert [history.model_of(i) for i in range(len(history))] == [
        None,
        "kimi-k3.1-pro",
        None,
        None,
        "kimi-k3",
    ]


def test_add_takes_only_the_matching_result_type() -> None:
    # A HistoryError (a KimiError), naming the format of each (issue 30; was a TypeError).
    with pytest.raises(HistoryError, match=r"MessagesHistory\.add.*a chat result"):
        MessagesHistory().add(chat_result())
    with pytest.raises(HistoryError, match="append"):
        ChatHistory().add({"role": "assistant", "content": "x"})  # type: ignore[arg-type]
    with pytest.raises(HistoryError, match="message='not a dict': must be a dict"):
        ChatHistory().append("not a dict")  # type: ignore[arg-type]


# --- Messages -------------------------------------------------------------------------------


def test_messages_add_keeps_thinking_signatures_and_every_block() -> None:
    history = MessagesHistory(system="You help plan trips.")
    history.add_user("Compare the weather.")
    result = message_result()
    history.add(result)
    assert history[1] == {"role": "assistant", "content": result.content}
    assert history[1]["content"][0]["signature"].startswith("ErUB")
    assert history.system == "You help plan trips."
    assert all(m["role"] != "system" for m in history)


def test_messages_server_web_search_blocks_are_kept_verbatim_and_counted() -> None:
    result = message_result("messages/response_web_search.json")
    history = MessagesHistory()
    history.add_user("Find the Kimi homepage.")
    history.add(result)
    kinds = [b["type"] for b in history[1]["content"]]
    assert kinds == ["thinking", "server_tool_use", "web_search_tool_result", "text"]
    assert history[1]["content"] == fixture("messages/response_web_search.json")["content"]
    assert result.usage.web_search_requests == 1
    history.validate()


def test_messages_unknown_blocks_are_kept() -> None:
    data = fixture("messages/response_tool_use.json")
    data["content"].insert(1, {"type": "future_block", "payload": [1, 2]})
    history = MessagesHistory()
    history.add_user("q")
    history.add(Message(data))
    assert history[1]["content"][1] == {"type": "future_block", "payload": [1, 2]}


def test_messages_tool_results_of_one_turn_go_into_one_user_message() -> None:
    history = MessagesHistory()
    history.add_user("q")
    history.add(message_result())
    history.add_tool_result("functions.get_weather:0", {"temp_c": 21})
    history.add_tool_result("functions.get_weather:1", "offline", is_error=True)
    history.add_user("Also: what about tomorrow?", images=[PNG])
    assert len(history) == 3
    content = history[2]["content"]
    assert content[0] == {
        "type": "tool_result",
        "tool_use_id": "functions.get_weather:0",
        "content": '{"temp_c": 21}',
    }
    assert content[1] == {
        "type": "tool_result",
        "tool_use_id": "functions.get_weather:1",
        "is_error": True,
        "content": "offline",
    }
    assert content[2] == {"type": "text", "text": "Also: what about tomorrow?"}
    assert content[3]["type"] == "image"
    assert content[3]["source"]["media_type"] == "image/png"
    history.validate()


def test_messages_tool_results_go_before_text_added_first() -> None:
    history = MessagesHistory()
    history.add_user("q")
    history.add(message_result())
    history.add_user("by the way")
    history.add_tool_result("functions.get_weather:0", "a")
    history.add_tool_result("functions.get_weather:1", [{"type": "text", "text": "b"}])
    kinds = [b["type"] for b in history[2]["content"]]
    assert kinds == ["tool_result", "tool_result", "text"]
    assert history[2]["content"][1]["content"] == [{"type": "text", "text": "b"}]
    history.validate()


def test_messages_kimi_k3_text_only_turn() -> None:
    history = MessagesHistory()
    history.add_user("What is an idempotency key?")
    history.add(message_result("messages/response_kimi_k3_text_only.json"))
    assert history.model_of(1) == "kimi-k3"
    history.validate()


# --- Responses ------------------------------------------------------------------------------


def test_responses_add_keeps_every_output_item() -> None:
    history = ResponsesHistory(instructions="Be brief.")
    history.add_user("Weather and time in Beijing?")
    result = response_result()
    history.add(result)
    assert list(history)[1:] == result.output
    assert history[1] is result.output[0]
    history.add_tool_result("functions.get_weather:0", {"temp": 3})
    history.add_tool_result("functions.get_time:1", "12:00")
    assert history[-2] == {
        "type": "function_call_output",
        "call_id": "functions.get_weather:0",
        "output": '{"temp": 3}',
    }
    assert history.instructions == "Be brief."
    history.validate()


def test_responses_custom_tool_call_gets_a_custom_output_and_others_verbatim() -> None:
    history = ResponsesHistory()
    history.add_user("Fix charge()", images=[PNG])
    assert history[0]["content"][1]["type"] == "input_image"
    history.add(response_result("responses/response_apply_patch.json"))
    history.add_tool_result("apply_patch:0", "Done")
    assert history[-1] == {
        "type": "custom_tool_call_output",
        "call_id": "apply_patch:0",
        "output": "Done",
    }
    history.validate()
    web = response_result("responses/response_web_search.json")
    history.add_user("And the homepage?")
    history.add(web)
    assert [i.get("type") for i in history][-4:] == [
        "reasoning",
        "web_search_call",
        "reasoning",
        "message",
    ]
    history.validate()


# --- sequences, saving ------------------------------------------------------------------------


def _full_chat() -> ChatHistory:
    history = ChatHistory(system="s")
    history.add_user("q")
    history.add(chat_result())
    history.add_tool_result("functions.get_weather:0", "a")
    history.add_tool_result("functions.get_weather:1", "b")
    history.add(ChatCompletion(chat_reply({"role": "assistant", "content": "done"})))
    return history


def test_len_iteration_indexing_slicing() -> None:
    history = _full_chat()
    assert len(history) == 6
    assert [m["role"] for m in history] == [
        "system",
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
    ]
    assert history[-1]["content"] == "done"
    part = history[:3]
    assert isinstance(part, ChatHistory)
    assert len(part) == 3 and part.system == "s"
    assert part[2] is history[2]
    assert part._meta[2] is history._meta[2]  # what was recorded travels with the slice
    assert history.copy() == history
    assert "ChatHistory(6 messages)" in repr(history)


@pytest.mark.parametrize("kind", ["chat", "messages", "responses"])
def test_dumps_loads_resumes_the_same_wire_bytes(kind: str) -> None:
    history: Any
    if kind == "chat":
        history = _full_chat()
    elif kind == "messages":
        history = MessagesHistory(system=[{"type": "text", "text": "sys"}])
        history.add_user("q")
        history.add(message_result())
        history.add_tool_result("functions.get_weather:0", "a")
        history.add_tool_result("functions.get_weather:1", "b", is_error=True)
        history.add(message_result("messages/response_web_search.json"))
    else:
        history = ResponsesHistory(instructions="be brief")
        history.add_user("q")
        history.add(response_result())
        history.add_tool_result("functions.get_weather:0", "a")
        history.add_tool_result("functions.get_time:1", "b")
    restored = type(history).loads(history.dumps())
    assert wire(restored.to_wire()) == wire(history.to_wire())
    assert restored == history
    assert restored.dumps() == history.dumps()
    for name in history._extra_fields:
        assert getattr(restored, name) == getattr(history, name)
    # What was recorded at add() is restored too: a changed thinking block is still caught.
    if kind == "messages":
        restored[1]["content"][0]["thinking"] += " (edited)"
        with pytest.raises(HistoryError, match="changed after receipt"):
            restored.validate()


def test_loads_refuses_other_documents() -> None:
    with pytest.raises(ValueError, match="not a saved MessagesHistory"):
        MessagesHistory.loads(ChatHistory().dumps())
    with pytest.raises(ValueError, match="version"):
        ChatHistory.loads(json.dumps({"kimi_ext": "ChatHistory", "version": 99}))


@pytest.mark.parametrize("kind", ["chat", "messages", "responses"])
def test_loads_ignores_keys_it_does_not_write(kind: str) -> None:
    # The `kimi` command saves this document with its settings beside it (under "cli"):
    # loads() reads such a file as it is.
    history: Any = {"chat": _full_chat, "messages": MessagesHistory,
                    "responses": ResponsesHistory}[kind]()  # fmt: skip
    doc = {"cli": {"version": 1, "model": "kimi-k3.1-pro", "effort": "low"}}
    doc.update(json.loads(history.dumps()), note="kept by the writer, ignored here")
    restored = type(history).loads(json.dumps(doc))
    assert restored == history
    assert restored.dumps() == history.dumps()  # nothing of the extra keys is taken in


def test_to_wire_returns_the_stored_messages_without_copies() -> None:
    history = _full_chat()
    out = history.to_wire()
    assert out == list(history)
    assert all(a is b for a, b in zip(out, history, strict=True))
    out.append({"role": "user", "content": "x"})
    assert len(history) == 6  # the list itself is new


def test_to_wire_never_copies_or_reencodes_a_large_history(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """200 turns, ~2.5 MB: handing the history over returns the stored messages themselves
    and serializes nothing (speed is measured in benchmarks/, not in tests)."""
    history = MessagesHistory()
    blob = "x" * 6000
    for n in range(100):
        history.add_user(f"question {n} " + blob)
        data = fixture("messages/response_tool_use.json")
        data["content"][0]["thinking"] = f"thought {n} " + blob
        history.add(Message(data))
        history.add_tool_result("functions.get_weather:0", blob)
        history.add_tool_result("functions.get_weather:1", blob)
    first = history.to_wire()
    assert len(wire(first)) > 2_400_000
    encodes: list[int] = []
    real_dumps = json.dumps

    def counting_dumps(*args: Any, **kwargs: Any) -> str:
        encodes.append(1)
        return real_dumps(*args, **kwargs)

    monkeypatch.setattr(json, "dumps", counting_dumps)
    second = history.to_wire()
    monkeypatch.undo()
    assert encodes == []
    assert len(second) == len(first) > 200
    assert all(a is b for a, b in zip(first, second, strict=True))


# --- sending ---------------------------------------------------------------------------------


def test_history_is_sent_as_messages_and_continued(client: Kimi, standin: KimiStandIn) -> None:
    standin.queue(
        Reply(text="", tool_calls=[ToolCallSpec("get_weather", {"city": "Oslo"})]),
        Reply(text="Sunny"),
    )
    history = ChatHistory(system="Be brief.")
    history.add_user("Weather in Oslo?")
    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
        }
    ]
    reply = client.chat.completions.create(model=MODEL, messages=history, tools=tools)
    history.add(reply)
    for call in reply.tool_calls:
        history.add_tool_result(call.id, f"sunny in {call.input['city']}")
    reply = client.chat.completions.create(model=MODEL, messages=history, tools=tools)
    assert reply.text == "Sunny"
    assert standin.last_request.body == wire(standin.last_request.json)
    assert standin.last_request.json["messages"] == history.to_wire()


def test_stream_final_results_are_added_the_same_way(client: Kimi, standin: KimiStandIn) -> None:
    standin.queue(
        Reply(text="", tool_calls=[ToolCallSpec("f", {"a": 1})]),
        Reply(text="done"),
    )
    history = MessagesHistory()
    history.add_user("go")
    tools = [
        {"name": "f", "input_schema": {"type": "object", "properties": {"a": {"type": "integer"}}}}
    ]
    with client.messages.stream(model=MODEL, max_tokens=500, messages=history, tools=tools) as s:
        final = s.get_final_message()
    history.add(final)
    assert history[1]["content"][0]["signature"]
    history.add_tool_result(final.tool_calls[0].id, "ok")
    reply = client.messages.create(model=MODEL, max_tokens=500, messages=history, tools=tools)
    assert reply.text == "done"  # the stand-in verified the streamed thinking signature
