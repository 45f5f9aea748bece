"""A history given a value of the wrong type, a damaged save or a value JSON cannot write
raises HistoryError (a KimiError) naming it, and changes nothing (issue 30: these raised
raw TypeError, OverflowError ...). All three formats."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kimi_ext import ChatHistory, HistoryError, KimiError, MessagesHistory, ResponsesHistory
from kimi_ext._core.model.history import History
from tests.support.history import chat_result, message_result, response_result

HISTORIES: dict[str, type[History]] = {
    "chat": ChatHistory,
    "messages": MessagesHistory,
    "responses": ResponsesHistory,
}
RESULTS: dict[str, Callable[[], Any]] = {
    "chat": chat_result,
    "messages": message_result,
    "responses": response_result,
}
FORMATS = tuple(HISTORIES)


def with_tool_turn(fmt: str) -> History:
    """A history holding a received tool-call turn and the results of its calls."""
    history = HISTORIES[fmt]()
    history.add_user("Weather?")
    result = RESULTS[fmt]()
    history.add(result)
    for call in result.tool_calls:
        history.add_tool_result(call.id, {"temp": 21})
    history.validate()
    return history


def refused(history: History, call: Callable[[], Any], match: str) -> HistoryError:
    """``call`` raises HistoryError matching ``match`` and leaves ``history`` unchanged."""
    before = history.dumps()
    with pytest.raises(HistoryError, match=match) as info:
        call()
    assert history.dumps() == before
    return info.value


# --- arguments of the wrong type ----------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_constructor_refuses_what_is_not_a_list_of_messages(fmt: str) -> None:
    cls = HISTORIES[fmt]
    for value in (None, 5, [None], [{"role": "user", "content": "x"}, "text"]):
        with pytest.raises(HistoryError, match=r"=.*: must be an iterable \(each item a dict\)"):
            cls(value)  # type: ignore[arg-type]
    extra = "instructions" if fmt == "responses" else "system"
    with pytest.raises(HistoryError, match=f"{extra}=5: must be a str"):
        cls(**{extra: 5})


@pytest.mark.parametrize("fmt", FORMATS)
def test_append_and_extend_refuse_what_is_not_a_message_and_add_nothing(fmt: str) -> None:
    history = with_tool_turn(fmt)
    refused(history, lambda: history.append(None), r"message=None: must be a dict")  # type: ignore[arg-type]
    refused(history, lambda: history.append({"role": "user"}, model=3), r"model=3: must be a str")
    refused(history, lambda: history.extend(None), r"messages=None: must be an iterable")  # type: ignore[arg-type]
    good = {"role": "user", "content": "more"}
    refused(history, lambda: history.extend([good, None]), r"each item a dict")  # type: ignore[list-item]
    # A generator is checked whole before anything is added.
    refused(history, lambda: history.extend(m for m in (good, 7)), r"messages\[1\]=7")  # type: ignore[misc]


@pytest.mark.parametrize("fmt", FORMATS)
def test_model_of_takes_an_index(fmt: str) -> None:
    history = with_tool_turn(fmt)
    with pytest.raises(HistoryError, match=r"index='1': must be an int"):
        history.model_of("1")  # type: ignore[arg-type]
    assert history.model_of(0) is None


@pytest.mark.parametrize("fmt", FORMATS)
def test_add_refuses_another_format_s_result_naming_both(fmt: str) -> None:
    history = with_tool_turn(fmt)
    other = next(f for f in FORMATS if f != fmt)
    error = refused(history, lambda: history.add(RESULTS[other]()), r"add\(\) takes a")
    assert f"a {other} result" in str(error) and f"a {fmt} result" in str(error)
    assert isinstance(error, KimiError)


@pytest.mark.parametrize("fmt", FORMATS)
def test_add_user_refuses_content_that_is_not_text_or_parts(fmt: str) -> None:
    # Right after tool results (Messages joins the text to their user message) and before.
    history = with_tool_turn(fmt)
    refused(history, lambda: history.add_user(None), r"content=None: must be a str or a list")  # type: ignore[arg-type]
    refused(history, lambda: history.add_user(5), r"content=5")  # type: ignore[arg-type]
    refused(history, lambda: history.add_user(["x"]), r"each item a dict")  # type: ignore[list-item]
    refused(history, lambda: history.add_user("x", images=5), r"images=5: must be an iterable")
    fresh = HISTORIES[fmt]()
    refused(fresh, lambda: fresh.add_user(None), r"content=None")  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", FORMATS)
def test_add_tool_result_refuses_a_value_json_cannot_write(fmt: str) -> None:
    history = HISTORIES[fmt]()
    history.add_user("Weather?")
    result = RESULTS[fmt]()
    history.add(result)
    call_id = result.tool_calls[0].id
    error = refused(
        history,
        lambda: history.add_tool_result(call_id, object()),
        r"content is an object, which cannot be sent as JSON",
    )
    assert error.index is None
    refused(
        history,
        lambda: history.add_tool_result(call_id, {"when": {1, 2}}),
        r"content\['when'\] is a set",
    )
    loop: dict[str, Any] = {}
    loop["self"] = loop
    refused(history, lambda: history.add_tool_result(call_id, loop), r"content\['self'\] is a dict")
    refused(history, lambda: history.add_tool_result(5, "x"), r"call_id=5: must be a str")  # type: ignore[arg-type]
    refused(history, lambda: history.add_tool_result(call_id, "x", is_error="no"), r"is_error='no'")  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", FORMATS)
def test_dumps_names_the_message_and_the_type_json_cannot_write(fmt: str) -> None:
    history = with_tool_turn(fmt)
    before = len(history)
    history.append({"role": "user", "content": [{"type": "text", "text": b"raw bytes"}]})
    with pytest.raises(HistoryError, match=r"content\[0\]\['text'\] is bytes") as info:
        history.dumps()
    assert info.value.index == before
    assert len(history) == before + 1  # unchanged by the failed save
    history[:-1].dumps()  # without that message it saves
    if fmt == "chat":  # the system prompt is message 0
        odd = ChatHistory(system=[{"type": "text", "text": "x", "extra": object()}])
        with pytest.raises(HistoryError, match=r"message 0: content\[0\]\['extra'\] is an obj"):
            odd.dumps()
    if fmt == "messages":  # the system prompt is a field of its own
        odd = MessagesHistory(system=[{"type": "text", "text": "x", "extra": object()}])
        with pytest.raises(HistoryError, match=r"^system\[0\]\['extra'\] is an object"):
            odd.dumps()


@pytest.mark.parametrize("fmt", FORMATS)
def test_validate_names_a_tool_call_id_that_cannot_be_an_id(fmt: str) -> None:
    # A received turn whose id was replaced by a list (unhashable).
    history = with_tool_turn(fmt)
    index = next(i for i, m in enumerate(history) if history.model_of(i) is not None)
    item = history[index]
    if fmt == "chat":
        item["tool_calls"][0]["id"] = ["x"]
    elif fmt == "messages":
        next(b for b in item["content"] if b["type"] == "tool_use")["id"] = ["x"]
    else:
        index = next(i for i, m in enumerate(history) if m.get("type") == "function_call")
        history[index]["call_id"] = ["x"]
    with pytest.raises(HistoryError) as info:
        history.validate()
    assert info.value.index == index

    # Raw turns (no record of receipt) with an unhashable id, and a result pointing at one.
    raw = HISTORIES[fmt]()
    if fmt == "chat":
        raw.append({"role": "user", "content": "q"})
        raw.append(
            {
                "role": "assistant",
                "reasoning_content": "r",
                "tool_calls": [
                    {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                    {
                        "id": {"x": 1},
                        "type": "function",
                        "function": {"name": "f", "arguments": "{}"},
                    },
                ],
            }
        )
        raw.append({"role": "tool", "tool_call_id": ["a"], "content": "x"})
    elif fmt == "messages":
        raw.append({"role": "user", "content": "q"})
        raw.append(
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "t", "signature": "s"},
                    {"type": "tool_use", "id": "a", "name": "f", "input": {}},
                    {"type": "tool_use", "id": ["b"], "name": "f", "input": {}},
                ],
            }
        )
    else:
        raw.append({"role": "user", "content": "q"})
        raw.append({"type": "function_call", "call_id": "a", "name": "f", "arguments": "{}"})
        raw.append({"type": "function_call_output", "call_id": ["a"], "output": "x"})
    with pytest.raises(HistoryError, match="a tool-call id must be a string") as raw_info:
        raw.validate()
    assert raw_info.value.index == 1 if fmt != "responses" else raw_info.value.index == 2


# --- damaged saves ------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_damaged_number_in_a_save_is_a_history_error(fmt: str) -> None:
    name = HISTORIES[fmt].__name__
    cls = HISTORIES[fmt]
    # The example: 1e400 reads as infinity.
    for row in ("[0,1e400,null,null,null]", "[1.5,1,null,null,null]", "[true,1,null,null,null]"):
        text = f'{{"kimi_ext":"{name}","version":1,"items":[{{}}],"turns":[{row}]}}'
        with pytest.raises(HistoryError, match="start and count must be integers"):
            cls.loads(text)
    for bad, problem in [
        ('{"a":1,"b":2,"c":3,"d":4,"e":5}', "must be a list"),
        ("[0,1,null,null]", "must be a list"),
        ("[0,1,5,null,null]", "the model must be a string"),
        ('[0,1,null,[["x"]],null]', "tool-call ids"),
        ("[0,1,null,null,[1]]", "thinking fingerprints"),
        ("[0,2,null,null,null]", "outside the history"),
    ]:
        text = f'{{"kimi_ext":"{name}","version":1,"items":[{{}}],"turns":[{bad}]}}'
        with pytest.raises(HistoryError, match=problem):
            cls.loads(text)
    with pytest.raises(HistoryError, match="version"):
        cls.loads(f'{{"kimi_ext":"{name}","version":true,"items":[],"turns":[]}}')
    extra = "instructions" if fmt == "responses" else "system"
    with pytest.raises(HistoryError, match=f"{extra}=5: must be a str"):
        cls.loads(f'{{"kimi_ext":"{name}","version":1,"{extra}":5,"items":[],"turns":[]}}')


ODD_VALUES = st.one_of(
    st.sampled_from(
        [None, True, False, 0, -1, 2, 10**400, 1e400, -1e400, 1.5, "", "x", [], {}, [[]], [None]]
    ),
    st.integers(),
    st.floats(),
    st.text(max_size=5),
    st.lists(st.one_of(st.none(), st.integers(), st.text(max_size=3)), max_size=6),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


def paths(node: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON document (the root excluded)."""
    out: list[tuple[Any, ...]] = []
    items = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for key, value in items:
        out.append((*at, key))
        out.extend(paths(value, (*at, key)))
    return out


def replaced(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    doc = json.loads(json.dumps(doc))
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


SAVES = {fmt: json.loads(with_tool_turn(fmt).dumps()) for fmt in FORMATS}
SAVES["chat"]["system"] = "Be brief."
SAVES["messages"]["system"] = [{"type": "text", "text": "Be brief."}]
SAVES["responses"]["instructions"] = "Be brief."


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), fmt=st.sampled_from(FORMATS))
def test_any_damaged_field_of_a_save_is_refused_or_read_never_a_raw_error(
    data: Any, fmt: str
) -> None:
    doc = SAVES[fmt]
    path = data.draw(st.sampled_from(paths(doc)), label="path")
    value = data.draw(ODD_VALUES, label="value")
    text = json.dumps(replaced(doc, path, value))
    try:
        history = HISTORIES[fmt].loads(text)
    except HistoryError:
        return
    # What loads accepted can be used: each step is fine or a HistoryError, never raw.
    for step in (history.validate, history.dumps, history.received_positions, history.copy):
        with contextlib.suppress(HistoryError):
            step()
    models = [history.model_of(i) for i in range(len(history))]
    assert all(m is None or isinstance(m, str) for m in models)
    assert HISTORIES[fmt].loads(history.dumps()) == history
