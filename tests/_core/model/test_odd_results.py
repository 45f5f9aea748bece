"""Results (kimi_ext._core.model.result) on odd JSON: accessors never fail and say what they
can; identity, request ids and parsed errors."""

from __future__ import annotations

from typing import Any

import pytest

import kimi_ext
from kimi_ext import ChatCompletion, Message, Response, Usage

ODD_RESULTS: list[tuple[type[Any], dict[str, Any]]] = [
    (ChatCompletion, {"choices": [{"message": {"content": 5, "tool_calls": [None, "x", {"function": "f"}, {"id": 1, "function": {"name": "n", "arguments": "{}"}}]}}]}),
    (ChatCompletion, {"choices": ["x"]}),
    (ChatCompletion, {"choices": []}),
    (Message, {"content": [None, "x", {"type": "text", "text": None}, {"type": "text", "text": "ok"}, {"type": "thinking", "thinking": 3}, {"type": "tool_use", "input": [1]}]}),
    (Message, {"content": "not blocks", "stop_sequence": 7}),
    (Response, {"output": [None, 5, {"type": "message", "content": 7}, {"type": "message", "content": [None, {"type": "output_text", "text": 1}, {"type": "output_text", "text": "ok"}]}]}),
    (Response, {"output": [{"type": "reasoning", "content": 4, "summary": [{"text": "s"}, {"text": None}]}, {"type": "function_call", "name": 3}]}),
    (Response, {"output": {"not": "a list"}, "incomplete_details": "x"}),
]  # fmt: skip


@pytest.mark.parametrize(("cls", "data"), ODD_RESULTS)
def test_result_accessors_never_fail_on_odd_json(cls: type[Any], data: dict[str, Any]) -> None:
    result = cls(data)
    assert isinstance(result.text, str) and isinstance(result.reasoning, str)
    for call in result.tool_calls:
        assert isinstance(call.name, str) and isinstance(call.arguments, str)
    assert isinstance(result.usage, Usage)
    repr(result)
    assert result.to_dict() is data


def test_odd_results_say_what_they_can() -> None:
    chat = ChatCompletion(ODD_RESULTS[0][1])
    assert chat.text == "" and [c.name for c in chat.tool_calls] == ["", "n"]
    assert ChatCompletion({"choices": []}).finish_reason is None
    message = Message(ODD_RESULTS[3][1])
    assert (message.text, message.reasoning, len(message.tool_calls)) == ("ok", "", 1)
    assert Message({"stop_sequence": "END"}).stop_sequence == "END"
    assert Message(ODD_RESULTS[4][1]).stop_sequence is None
    response = Response(ODD_RESULTS[5][1])
    assert response.text == "ok" and response.output_text == "ok"
    assert Response(ODD_RESULTS[6][1]).reasoning == "s"


def test_result_identity_request_id_and_parsed_errors() -> None:
    data = {"id": "msg_1", "request_id": "req-body"}
    assert Message(data).request_id == "req-body"
    assert Message(data) == Message(dict(data)) and Message(data) != Response(data)
    assert Message(data) != object()
    with pytest.raises(
        kimi_ext.KimiError, match="does not match the MessageResponse schema"
    ) as info:
        Message({"content": "x"}).parsed  # noqa: B018
    assert isinstance(info.value.__cause__, KeyError)
