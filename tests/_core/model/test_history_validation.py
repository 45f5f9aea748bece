"""validate(): every rule, the index it names, and that nothing is sent when it fails.

The stand-in enforces the service's own history rules; the parity tests send the same broken
history as a plain list (bypassing the client's check) and see the service reject it too.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kimi_ext import (
    AsyncKimi,
    BadRequestError,
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
    aclient,
    chat_reply,
    chat_result,
    client,
    fixture,
    hclient,
    message_result,
    response_result,
    sent_json,
    standin,
    standin_server,
)

_ = (aclient, client, hclient, standin, standin_server)  # fixtures

WEATHER_CHAT = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]
WEATHER_MESSAGES = [
    {
        "name": "get_weather",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
    }
]
WEATHER_RESPONSES = [
    {
        "type": "function",
        "name": "get_weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    }
]
TWO_CALLS = Reply(
    tool_calls=[
        ToolCallSpec("get_weather", {"city": "Oslo"}),
        ToolCallSpec("get_weather", {"city": "Rome"}),
    ]
)


def chat_turn(history: ChatHistory) -> ChatHistory:
    history.add_user("Weather in Beijing and Shanghai?")
    history.add(chat_result())
    history.add_tool_result("functions.get_weather:0", "3 C")
    history.add_tool_result("functions.get_weather:1", "9 C")
    return history


def raises(history: Any, index: int, match: str) -> HistoryError:
    with pytest.raises(HistoryError, match=match) as info:
        history.validate()
    assert info.value.index == index
    assert str(info.value).startswith(f"message {index}: ")
    return info.value


# --- Chat ---------------------------------------------------------------------------------


def test_chat_reasoning_dropped_from_a_tool_call_turn() -> None:
    history = chat_turn(ChatHistory())
    history.validate()
    del history[1]["reasoning_content"]
    raises(history, 1, "reasoning_content is missing in this assistant tool call message")
    history[1]["reasoning_content"] = None
    raises(history, 1, "reasoning_content is missing")
    history[1]["reasoning_content"] = ""  # empty is kept and accepted, never padded
    history.validate()


def test_chat_raw_tool_call_turn_follows_its_model() -> None:
    turn = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "functions.f:0",
                "type": "function",
                "function": {"name": "f", "arguments": "{}"},
            }
        ],
    }
    strict = ChatHistory(
        [
            {"role": "user", "content": "q"},
            turn,
            {"role": "tool", "tool_call_id": "functions.f:0", "content": "r"},
        ]
    )
    raises(strict, 1, "reasoning_content is missing")
    lenient = ChatHistory([{"role": "user", "content": "q"}])
    lenient.append(turn, model="kimi-k3")
    lenient.append({"role": "tool", "tool_call_id": "functions.f:0", "content": "r"})
    lenient.validate()


def test_chat_kimi_k3_turn_without_reasoning_is_fine_and_k31_is_not() -> None:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "functions.f:0",
                "type": "function",
                "function": {"name": "f", "arguments": "{}"},
            }
        ],
    }
    for model, ok in (
        ("kimi-k3", True),
        ("kimi-k3.1-pro", False),
        ("kimi-k3.1-pro-highspeed", False),
    ):
        history = ChatHistory()
        history.add_user("q")
        history.add(ChatCompletion(chat_reply(dict(message), model=model, finish="tool_calls")))
        history.add_tool_result("functions.f:0", "r")
        if ok:
            history.validate()
        else:
            raises(history, 1, "reasoning_content is missing")


def test_chat_kimi_k3_turn_is_replayed_to_k31_without_a_placeholder(
    hclient: Kimi, httpserver: Any
) -> None:
    """A conversation begun on kimi-k3 continues on kimi-k3.1: the k3 turn goes as received
    (the stand-in judges turns by the request's model, so this one runs on httpserver)."""
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "functions.f:0",
                "type": "function",
                "function": {"name": "f", "arguments": "{}"},
            }
        ],
    }
    httpserver.expect_request("/v1/chat/completions").respond_with_json(
        chat_reply({"role": "assistant", "content": "ok", "reasoning_content": "r"})
    )
    history = ChatHistory()
    history.add_user("q")
    history.add(ChatCompletion(chat_reply(message, model="kimi-k3", finish="tool_calls")))
    history.add_tool_result("functions.f:0", "r")
    hclient.chat.completions.create(model=MODEL, messages=history)
    assert sent_json(httpserver)["messages"][1] == {
        "role": "assistant",
        "tool_calls": message["tool_calls"],
    }


def test_chat_tool_call_without_result() -> None:
    history = ChatHistory()
    history.add_user("q")
    history.add(chat_result())
    history.add_tool_result("functions.get_weather:0", "a")
    raises(history, 1, "'functions.get_weather:1' has no result at the end of the history")
    history.add_user("never mind")
    raises(history, 1, r"'functions.get_weather:1' has no result before message 3 \(user\)")


def test_chat_tool_result_matching_no_call() -> None:
    history = chat_turn(ChatHistory())
    history.add_tool_result("functions.get_weather:7", "?")
    raises(
        history, 4, "tool result for id 'functions.get_weather:7' matches no unanswered tool call"
    )
    again = chat_turn(ChatHistory())
    again.add_tool_result("functions.get_weather:1", "twice")
    raises(again, 4, "matches no unanswered")


def test_chat_cleaned_ids_are_caught() -> None:
    history = chat_turn(ChatHistory())
    for call in history[1]["tool_calls"]:
        call["id"] = call["id"].replace(".", "_").replace(":", "_")
    history._items[2] = {**history[2], "tool_call_id": "functions_get_weather_0"}
    history._items[3] = {**history[3], "tool_call_id": "functions_get_weather_1"}
    raises(history, 1, "tool call ids were changed after receipt")


def test_chat_ids_repeat_across_turns() -> None:
    history = chat_turn(ChatHistory())
    history.add_user("again")
    history.add(chat_result())  # the same ids again: Kimi numbers calls per turn
    history.add_tool_result("functions.get_weather:0", "a")
    history.add_tool_result("functions.get_weather:1", "b")
    history.validate()


# --- Messages -------------------------------------------------------------------------------


def messages_turn() -> MessagesHistory:
    history = MessagesHistory()
    history.add_user("q")
    history.add(message_result())
    history.add_tool_result("functions.get_weather:0", "a")
    history.add_tool_result("functions.get_weather:1", "b")
    return history


@pytest.mark.parametrize("field", ["thinking", "signature"])
def test_messages_thinking_changed_after_receipt(field: str) -> None:
    history = messages_turn()
    history[1]["content"][0][field] += "!"
    raises(history, 1, r"content\[0\]: thinking block changed after receipt")


def test_messages_thinking_reserialised_but_equal_is_fine() -> None:
    history = messages_turn()
    history.validate()
    history[1]["content"][0] = copy.deepcopy(history[1]["content"][0])  # equal, new objects
    history.validate()


def test_messages_thinking_dropped_or_added() -> None:
    history = messages_turn()
    del history[1]["content"][0]
    raises(history, 1, r"1 thinking block\(s\) received in this turn are missing")
    history = messages_turn()
    history[1]["content"].insert(1, {"type": "thinking", "thinking": "x", "signature": "s"})
    raises(history, 1, "not in the turn as received")


def test_messages_hand_written_thinking_needs_its_signature() -> None:
    turn = {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "ok"}],
    }
    history = MessagesHistory([{"role": "user", "content": "q"}, turn])
    raises(history, 1, r"content\[0\]: thinking block has no signature")
    turn["content"][0]["signature"] = "EsSig"
    history.validate()
    redacted = MessagesHistory(
        [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "redacted_thinking"}]},
        ]
    )
    raises(redacted, 1, "redacted_thinking block has no data")


@pytest.mark.parametrize("unsigned", ["absent", "empty"])
def test_messages_received_thinking_without_signature_goes_back_as_it_arrived(
    unsigned: str,
) -> None:
    data = fixture("messages/response_tool_use.json")
    if unsigned == "absent":
        del data["content"][0]["signature"]  # a gateway streamed no signature_delta
    else:
        data["content"][0]["signature"] = ""  # content_block_start's "" and no delta
    history = MessagesHistory()
    history.add_user("q")
    history.add(Message(data))
    assert history[1]["content"][0] == data["content"][0]  # kept, never dropped
    history.add_tool_result("functions.get_weather:0", "a")
    history.add_tool_result("functions.get_weather:1", "b")
    history.validate()  # Kimi accepts unsigned thinking: sent back unsigned
    assert history.to_wire()[1]["content"][0] == data["content"][0]
    # ... but a change to it is still refused
    history[1]["content"][0] = {**data["content"][0], "thinking": "rewritten"}
    raises(history, 1, "changed after receipt")


def test_messages_hand_written_tool_use_turn_needs_thinking_unless_kimi_k3() -> None:
    turn = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "functions.f:0", "name": "f", "input": {}}],
    }
    result = {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "functions.f:0", "content": "r"}],
    }
    history = MessagesHistory([{"role": "user", "content": "q"}, turn, result])
    raises(history, 1, "no thinking block")
    history = MessagesHistory([{"role": "user", "content": "q"}])
    history.append(turn, model="kimi-k3")
    history.append(result)
    history.validate()


def test_messages_tool_use_without_result_and_result_without_call() -> None:
    history = MessagesHistory()
    history.add_user("q")
    history.add(message_result())
    history.add_tool_result("functions.get_weather:0", "a")
    raises(history, 1, r"'functions.get_weather:1' has no result in the next user message \(2\)")
    history = MessagesHistory()
    history.add_user("q")
    history.add(message_result())
    raises(history, 1, "has no result at the end of the history")
    history.add_user("skip it")
    raises(history, 1, "has no result in the next user message")
    history = messages_turn()
    history.add_tool_result("functions.get_weather:9", "?")
    raises(
        history, 2, "tool_result for id 'functions.get_weather:9' matches no unanswered tool_use"
    )


def test_messages_server_tool_use_needs_its_result_block() -> None:
    history = MessagesHistory()
    history.add_user("q")
    history.add(message_result("messages/response_web_search.json"))
    history.validate()
    del history[1]["content"][2]
    raises(history, 1, r"server_tool_use 'srvtoolu_01Qm8v2kT9xR' without its result")


def test_messages_tool_use_ids_rewritten() -> None:
    history = messages_turn()
    history[1]["content"][2]["id"] = "toolu_1"
    history[2]["content"][0]["tool_use_id"] = "toolu_1"
    raises(history, 1, "tool call ids were changed after receipt")


# --- Responses ------------------------------------------------------------------------------


def test_responses_function_call_without_output() -> None:
    history = ResponsesHistory()
    history.add_user("q")
    history.add(response_result())
    history.add_tool_result("functions.get_weather:0", "a")
    raises(history, 3, "No tool output found for function call 'functions.get_time:1'")
    history.add_user("next")
    raises(history, 3, "has no output before item 5")


def test_responses_new_turn_before_outputs() -> None:
    history = ResponsesHistory()
    history.add_user("q")
    history.add(response_result())
    history.add(response_result("responses/response_text.json"))
    raises(history, 2, "has no output before item 4")


def test_responses_output_matching_no_call_or_of_the_wrong_kind() -> None:
    history = ResponsesHistory()
    history.add_user("q")
    history.add(response_result())
    history.append({"type": "function_call_output", "call_id": "nope", "output": "x"})
    raises(history, 4, "function_call_output for call id 'nope' matches no unanswered call")
    history = ResponsesHistory()
    history.add_user("q")
    history.add(response_result("responses/response_apply_patch.json"))
    history.append({"type": "function_call_output", "call_id": "apply_patch:0", "output": "x"})
    raises(history, 3, "needs a custom_tool_call_output, not a function_call_output")


def test_responses_call_ids_rewritten() -> None:
    history = ResponsesHistory()
    history.add_user("q")
    history.add(response_result())
    history[2]["call_id"] = "call_0"
    history.add_tool_result("call_0", "a")
    history.add_tool_result("functions.get_time:1", "b")
    raises(history, 3, "tool call ids were changed after receipt")


def test_validation_error_is_a_value_error() -> None:
    history = ChatHistory([{"role": "tool", "tool_call_id": "x", "content": "?"}])
    with pytest.raises(ValueError, match="message 0"):
        history.validate()
    broken = ChatHistory()
    broken._items.append("text")  # type: ignore[arg-type]
    broken._meta.append(None)
    with pytest.raises(HistoryError, match="not a message object"):
        broken.validate()


# --- nothing is sent, and the service agrees --------------------------------------------------


def test_broken_histories_are_never_sent(client: Kimi, standin: KimiStandIn) -> None:
    chat = chat_turn(ChatHistory())
    del chat[1]["reasoning_content"]
    with pytest.raises(HistoryError):
        client.chat.completions.create(model=MODEL, messages=chat)
    messages = messages_turn()
    messages[1]["content"][0]["thinking"] = "rewritten"
    with pytest.raises(HistoryError):
        client.messages.create(model=MODEL, max_tokens=100, messages=messages)
    responses = ResponsesHistory()
    responses.add_user("q")
    responses.add(response_result())
    with pytest.raises(HistoryError):
        client.responses.create(model=MODEL, input=responses)
    with pytest.raises(HistoryError), client.chat.completions.stream(model=MODEL, messages=chat):
        pass
    assert standin.requests == []


async def test_broken_histories_are_never_sent_async(
    aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    chat = chat_turn(ChatHistory())
    chat[1]["reasoning_content"] = None
    with pytest.raises(HistoryError):
        await aclient.chat.completions.create(model=MODEL, messages=chat)
    messages = messages_turn()
    del messages[1]["content"][0]
    with pytest.raises(HistoryError):
        await aclient.messages.create(model=MODEL, max_tokens=100, messages=messages)
    with pytest.raises(HistoryError):
        await aclient.responses.run_tools(
            model=MODEL,
            tools=[],
            input=ResponsesHistory(
                [{"type": "function_call_output", "call_id": "x", "output": "y"}]
            ),
        )
    assert standin.requests == []


def test_parity_chat_dropped_reasoning(client: Kimi, standin: KimiStandIn) -> None:
    standin.queue(TWO_CALLS)
    history = ChatHistory()
    history.add_user("Weather?")
    history.add(client.chat.completions.create(model=MODEL, messages=history, tools=WEATHER_CHAT))
    for call in history[1]["tool_calls"]:
        history.add_tool_result(call["id"], "sunny")
    history.add(ChatCompletion(chat_reply({"role": "assistant", "content": "Sunny both."})))
    history.add_user("Thanks")
    del history[1]["reasoning_content"]
    ours = raises(history, 1, "reasoning_content is missing")
    with pytest.raises(
        BadRequestError,
        match="reasoning_content is missing in assistant tool call message at index 1",
    ):
        client.chat.completions.create(model=MODEL, messages=list(history), tools=WEATHER_CHAT)
    assert ours.index == 1


def test_parity_messages_changed_thinking(client: Kimi, standin: KimiStandIn) -> None:
    standin.queue(TWO_CALLS)
    history = MessagesHistory()
    history.add_user("Weather?")
    history.add(
        client.messages.create(
            model=MODEL, max_tokens=500, messages=history, tools=WEATHER_MESSAGES
        )
    )
    history.add_tool_result("functions.get_weather:0", "a")
    history.add_tool_result("functions.get_weather:1", "b")
    client.messages.create(model=MODEL, max_tokens=500, messages=history, tools=WEATHER_MESSAGES)
    history[1]["content"][0]["thinking"] = history[1]["content"][0]["thinking"].strip() + " "
    raises(history, 1, "changed after receipt")
    with pytest.raises(BadRequestError, match="Invalid `signature`"):
        client.messages.create(
            model=MODEL, max_tokens=500, messages=list(history), tools=WEATHER_MESSAGES
        )


def test_parity_responses_missing_output(client: Kimi, standin: KimiStandIn) -> None:
    standin.queue(TWO_CALLS)
    history = ResponsesHistory()
    history.add_user("Weather?")
    history.add(client.responses.create(model=MODEL, input=history, tools=WEATHER_RESPONSES))
    history.add_tool_result("functions.get_weather:0", "a")
    raises(history, 3, "No tool output found")
    with pytest.raises(
        BadRequestError, match=r"No tool output found for function call functions\.get_weather:1"
    ):
        client.responses.create(model=MODEL, input=list(history), tools=WEATHER_RESPONSES)
