"""Which models may reply without reasoning comes from the spec (thinking-optional in
x-kimi-models), for the client's history check and the stand-in alike."""

from __future__ import annotations

import copy

import pytest
from kimi_raw._contract import load

from kimi_ext import ChatCompletion, ChatHistory, HistoryError
from kimi_ext._core.contract import Contract, contract


def turn(model: str) -> ChatCompletion:
    call = {"id": "functions.f:0", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    message = {"role": "assistant", "tool_calls": [call]}  # no reasoning_content
    return ChatCompletion({"model": model, "choices": [{"index": 0, "message": message}]})


@pytest.mark.parametrize(
    ("model", "required"),
    [("kimi-k3", False), ("kimi-k3-0711", False), ("kimi-k3.1-pro", True), ("kimi-k9", True)],
)
def test_the_spec_says_which_models_may_omit_reasoning(model: str, required: bool) -> None:
    assert contract("chat").thinking_required(model) is required
    history = ChatHistory()
    history.add_user("go")
    history.add(turn(model))
    history.add_tool_result("functions.f:0", "done")
    if required:
        with pytest.raises(HistoryError, match="reasoning_content is missing"):
            history.validate()
    else:
        history.validate()


def test_without_the_flag_every_model_must_think() -> None:
    data = copy.deepcopy(load("chat"))
    del data["extensions"]["models"]["kimi-k3"]["thinking-optional"]
    assert Contract(data).thinking_required("kimi-k3") is True
