"""web_search_echo refuses a source that is not a result, a message or a list of messages
(issue 30: web_search_echo(None) raised a raw TypeError)."""

from __future__ import annotations

from typing import Any

import pytest

from kimi_ext import ChatHistory, HistoryError, RequestValidationError, web_search_echo


@pytest.mark.parametrize("source", [None, 5, "assistant", [None], [{"role": "user"}, 3]])
def test_a_source_of_the_wrong_type_is_refused(source: Any) -> None:
    with pytest.raises(
        RequestValidationError, match=r"source=.*: must be a ChatCompletion"
    ) as info:
        web_search_echo(source)
    assert info.value.field == "source"


def test_names_must_be_strings() -> None:
    with pytest.raises(RequestValidationError, match=r"names=5: must be an iterable"):
        web_search_echo([], names=5)  # type: ignore[arg-type]
    with pytest.raises(RequestValidationError, match=r"names=\[1\]"):
        web_search_echo([], names=[1])  # type: ignore[list-item]


def test_a_history_and_a_message_still_work() -> None:
    call = {
        "id": "c1",
        "type": "builtin_function",
        "function": {"name": "$web_search", "arguments": '{"q": "x"}'},
    }
    message = {"role": "assistant", "content": "", "tool_calls": [call]}
    assert web_search_echo(message)[0]["content"] == '{"q": "x"}'
    history = ChatHistory()
    history.add_user("q")
    history.append(message)
    assert web_search_echo(history)[0]["tool_call_id"] == "c1"
    assert ChatHistory().add_web_search_results(names=["x"]) == 0
    with pytest.raises(HistoryError, match=r"names=5: must be an iterable"):
        ChatHistory().add_web_search_results(names=5)  # type: ignore[arg-type]
