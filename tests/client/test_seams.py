"""Promises that hold where calls are combined: histories across formats and calls, tools in
every call, received content sent back as it came, unknown keys in what the user wrote."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

import kimi_ext
from kimi_ext import (
    ChatHistory,
    ClientConfigError,
    Kimi,
    MessagesHistory,
    RequestValidationError,
    ResponsesHistory,
)
from tests.support.client import KEY, MESSAGE_OK, OK, PATHS, RESPONSE_OK, create, minimal

FORMATS = ("chat", "messages", "responses")
HISTORIES = {"chat": ChatHistory, "messages": MessagesHistory, "responses": ResponsesHistory}
FIELD = {"chat": "messages", "messages": "messages", "responses": "input"}


def serve(httpserver: Any, fmt: str, body: dict[str, Any] | None = None) -> None:
    httpserver.expect_request(PATHS[fmt], method="POST").respond_with_json(body or OK[fmt])


def request_of(fmt: str, history: Any, **extra: Any) -> dict[str, Any]:
    params = minimal(fmt, **extra)
    params[FIELD[fmt]] = history
    return params


def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression.

    Args:
        expression: for example "2 + 2".
    """
    return expression


# --- histories across formats -------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("other", FORMATS)
def test_a_history_of_another_format_is_refused_before_sending(
    httpserver: Any, client: Kimi, fmt: str, other: str
) -> None:
    if fmt == other:
        return
    history = HISTORIES[other]()
    history.add_user("hi")
    with pytest.raises(RequestValidationError) as info:
        create(client, fmt, **request_of(fmt, history))
    assert info.value.field == FIELD[fmt]
    assert f"a {HISTORIES[other].__name__} cannot be sent" in str(info.value)
    assert HISTORIES[fmt].__name__ in str(info.value)
    assert httpserver.log == []  # nothing sent


@pytest.mark.parametrize("fmt", FORMATS)
def test_run_tools_refuses_a_history_of_another_format_with_a_kimi_error(
    httpserver: Any, client: Kimi, fmt: str
) -> None:
    other = "messages" if fmt != "messages" else "chat"
    history = HISTORIES[other]()
    history.add_user("hi")
    resource = kimi_ext.formats.format_named(fmt).resource_of(client)
    with pytest.raises(kimi_ext.KimiError) as info:
        resource.run_tools(tools=[calculator], **request_of(fmt, history))
    assert isinstance(info.value, RequestValidationError)
    assert info.value.field == FIELD[fmt]
    assert httpserver.log == []


def test_chat_turns_with_reasoning_cannot_go_to_messages_as_a_plain_list(
    httpserver: Any, client: Kimi
) -> None:
    # What a ChatHistory holds, sent as plain dicts: reasoning_content is not a Messages
    # field, so it would be lost; it is refused, naming where.
    turns = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "OK", "reasoning_content": "I thought"},
        {"role": "user", "content": "again"},
    ]
    with pytest.raises(RequestValidationError) as info:
        client.messages.create(model="kimi-k3.1-pro", max_tokens=10, messages=turns)
    assert info.value.field == "messages[1].reasoning_content"
    assert "is not a field of this object" in str(info.value)
    assert httpserver.log == []


@pytest.mark.parametrize(("fmt", "name"), [("messages", "system"), ("responses", "instructions")])
def test_create_sends_the_system_prompt_a_history_keeps(
    httpserver: Any, client: Kimi, fmt: str, name: str
) -> None:
    serve(httpserver, fmt)
    history = HISTORIES[fmt](**{name: "Be brief."})
    history.add_user("hi")
    create(client, fmt, **request_of(fmt, history))
    assert httpserver.log[-1][0].get_json()[name] == "Be brief."
    # Given twice, the same: sent once. Given differently: refused, naming both.
    create(client, fmt, **request_of(fmt, history, **{name: "Be brief."}))
    assert httpserver.log[-1][0].get_json()[name] == "Be brief."
    with pytest.raises(RequestValidationError) as info:
        create(client, fmt, **request_of(fmt, history, **{name: "Be long."}))
    assert info.value.field == name
    assert "'Be brief.'" in str(info.value)
    assert len(httpserver.log) == 2


def test_continue_keeps_the_history_system_prompt(httpserver: Any, client: Kimi) -> None:
    serve(httpserver, "messages")
    history = MessagesHistory(system="Be brief.")
    history.add_user("Write a list")
    client.messages.continue_(prefix="1.", model="kimi-k3.1-pro", max_tokens=10, messages=history)
    body = httpserver.log[-1][0].get_json()
    assert body["system"] == "Be brief."
    assert body["messages"][-1] == {"role": "assistant", "content": "1."}
    assert len(history) == 1  # the caller's history is not changed


# --- tools in every call ------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("how", ["function", "tool", "dict"])
def test_create_stream_and_parse_take_the_tools_run_tools_takes(
    httpserver: Any, client: Kimi, fmt: str, how: str
) -> None:
    declared = kimi_ext.tool(calculator).definition(fmt)
    given = {"function": calculator, "tool": kimi_ext.tool(calculator), "dict": declared}[how]
    serve(httpserver, fmt)
    create(client, fmt, **minimal(fmt, tools=[given]))
    assert httpserver.log[-1][0].get_json()["tools"] == [declared]
    resource = kimi_ext.formats.format_named(fmt).resource_of(client)
    answer = copy.deepcopy(OK[fmt])
    text = '{"a": 1}'
    if fmt == "chat":
        answer["choices"][0]["message"]["content"] = text
    elif fmt == "messages":
        answer["content"][-1]["text"] = text
    else:
        answer["output"][0]["content"][0]["text"] = text
    httpserver.clear()
    serve(httpserver, fmt, answer)
    parsed = resource.parse(schema={"type": "object"}, **minimal(fmt, tools=[given]))
    assert parsed.value == {"a": 1}
    assert httpserver.log[-1][0].get_json()["tools"] == [declared]


def test_a_bad_tool_in_create_is_a_clear_error(httpserver: Any, client: Kimi) -> None:
    with pytest.raises(kimi_ext.ToolDefinitionError):
        client.chat.completions.create(**minimal("chat", tools=[lambda x: x]))
    with pytest.raises(RequestValidationError, match="two tools are named 'calculator'"):
        client.chat.completions.create(**minimal("chat", tools=[calculator, calculator]))
    assert httpserver.log == []


# --- deadlines ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 0, -1])
def test_a_deadline_that_is_not_a_finite_number_of_seconds_is_refused(value: float) -> None:
    with pytest.raises(ClientConfigError, match="deadline"):
        Kimi(api_key=KEY, base_url="http://127.0.0.1:9", deadline=value)
    with pytest.raises(ClientConfigError, match="deadline"):
        kimi_ext.AsyncKimi(api_key=KEY, base_url="http://127.0.0.1:9", deadline=value)


# --- received content goes back as it came ------------------------------------------------


def test_a_received_block_the_request_spec_does_not_list_goes_back_verbatim(
    httpserver: Any, client: Kimi
) -> None:
    reply = copy.deepcopy(MESSAGE_OK)
    redacted = {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}
    reply["content"].insert(0, redacted)
    reply["content"][-1]["citations"] = [{"type": "web_search_result_location", "url": "u"}]
    serve(httpserver, "messages", reply)
    history = MessagesHistory()
    history.add_user("hi")
    history.add(client.messages.create(model="kimi-k3.1-pro", max_tokens=10, messages=history))
    history.add_user("and?")
    client.messages.create(model="kimi-k3.1-pro", max_tokens=10, messages=history)
    sent = httpserver.log[-1][0].get_json()["messages"][1]
    assert sent == {"role": "assistant", "content": reply["content"]}

    # The same block written by the user (appended, not received) is still refused.
    written = MessagesHistory()
    written.add_user("hi")
    written.append({"role": "assistant", "content": [{"type": "text", "text": "x"}, redacted]})
    written.add_user("and?")
    with pytest.raises(RequestValidationError) as info:
        client.messages.create(model="kimi-k3.1-pro", max_tokens=10, messages=written)
    assert info.value.field == "messages[1].content[1].type"
    assert len(httpserver.log) == 2


def test_received_responses_items_with_unknown_keys_go_back_verbatim(
    httpserver: Any, client: Kimi
) -> None:
    reply = copy.deepcopy(RESPONSE_OK)
    reply["output"][0]["phase"] = "final_answer"  # a key the request schema does not name
    reply["output"].insert(0, {"type": "future_item", "id": "f1", "payload": {"k": 1}})
    serve(httpserver, "responses", reply)
    history = ResponsesHistory()
    history.add_user("hi")
    history.add(client.responses.create(model="kimi-k3.1-pro", input=history))
    history.add_user("and?")
    client.responses.create(model="kimi-k3.1-pro", input=history)
    assert httpserver.log[-1][0].get_json()["input"][1:3] == reply["output"]


# --- unknown keys in what the user wrote --------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "messages", "field"),
    [
        (
            "messages",
            [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "hi", "cache_contrl": {"type": "ephemeral"}}
                    ],
                }
            ],
            "messages[0].content[0].cache_contrl",
        ),
        ("chat", [{"role": "user", "content": "hi", "nmae": "x"}], "messages[0].nmae"),
        (
            "chat",
            [{"role": "user", "content": [{"type": "text", "text": "hi", "txt": "x"}]}],
            "messages[0].content[0].txt",
        ),
        (
            "responses",
            [{"role": "user", "content": [{"type": "input_text", "text": "hi", "lang": "en"}]}],
            "input[0].content[0].lang",
        ),
    ],
)
def test_an_unknown_key_in_an_object_the_user_wrote_is_refused(
    httpserver: Any, client: Kimi, fmt: str, messages: list[Any], field: str
) -> None:
    # In a history object's own turns (added or appended, not received): always refused.
    history = HISTORIES[fmt]()
    for message in messages:
        history.append(message)
    with pytest.raises(RequestValidationError) as info:
        create(client, fmt, **request_of(fmt, history))
    assert info.value.field == field
    assert "is not a field of this object (its fields:" in str(info.value)
    assert httpserver.log == []
    serve(httpserver, fmt)
    if fmt == "messages":
        # In a plain list, a content block has the shape of one the service sends (it may
        # be received content, which goes back as it came): sent as written.
        create(client, fmt, **request_of(fmt, messages))
        assert httpserver.log[-1][0].get_json()["messages"] == messages
        return
    # A Chat user message and its parts, a Responses input message and its parts are
    # shapes only a user writes: refused in a plain list too.
    with pytest.raises(RequestValidationError) as again:
        create(client, fmt, **request_of(fmt, messages))
    assert again.value.field == field
    assert httpserver.log == []


def test_unknown_keys_in_tools_and_options_are_refused(httpserver: Any, client: Kimi) -> None:
    declared = kimi_ext.tool(calculator).definition("messages")
    with pytest.raises(RequestValidationError) as info:
        client.messages.create(**minimal("messages", tools=[{**declared, "strict": True}]))
    assert info.value.field == "tools[0].strict"
    with pytest.raises(RequestValidationError) as info:
        client.messages.create(**minimal("messages", output_config={"effrt": "low"}))
    assert info.value.field == "output_config.effrt"
    # Open objects stay open: a tool's JSON Schema and metadata take any key.
    serve(httpserver, "messages")
    schema = {**declared["input_schema"], "$defs": {}, "examples": [{}]}
    client.messages.create(**minimal("messages", tools=[{**declared, "input_schema": schema}]))
    assert httpserver.log[-1][0].get_json()["tools"][0]["input_schema"] == schema


def test_a_plain_list_may_send_received_assistant_turns_with_their_unknown_keys(
    httpserver: Any, client: Kimi
) -> None:
    # choices[0]["message"] appended as the openai SDK's users do: keys the request schema
    # does not list (refusal, annotations) go back as they came.
    serve(httpserver, "chat")
    received = {"role": "assistant", "content": "OK", "refusal": None, "annotations": []}
    turns = [{"role": "user", "content": "hi"}, received, {"role": "user", "content": "more"}]
    client.chat.completions.create(model="kimi-k3.1-pro", messages=turns)
    assert httpserver.log[-1][0].get_json()["messages"][1] == received


# --- Responses tool outputs ---------------------------------------------------------------


def test_a_responses_tool_output_that_answers_no_call_is_refused(
    httpserver: Any, client: Kimi
) -> None:
    items = [
        {"role": "user", "content": "weather?"},
        {"type": "function_call", "call_id": "c1", "name": "w", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "sunny"},
        {"type": "function_call_output", "call_id": "c2", "output": "rain"},
    ]
    with pytest.raises(RequestValidationError) as info:
        client.responses.create(model="kimi-k3.1-pro", input=items)
    assert info.value.field == "input[3].call_id"
    assert info.value.value == "c2"
    assert httpserver.log == []
    serve(httpserver, "responses")
    client.responses.create(model="kimi-k3.1-pro", input=items[:3])
    assert len(httpserver.log) == 1
