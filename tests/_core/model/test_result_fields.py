"""Result accessors declared as fields (``id``, ``model``, ``stop_reason``, ``content``...):
the JSON value when it has the expected type, else None or a fresh empty list; read-only
and documented like the properties they replaced."""

from __future__ import annotations

import inspect
import pydoc

import pytest

from kimi_ext import ChatCompletion, Message, Response
from kimi_ext._core.model.result import Field


def test_string_fields_take_only_strings() -> None:
    good = Message(
        {"id": "msg_1", "model": "kimi", "stop_reason": "end_turn", "stop_sequence": "X"}
    )
    assert (good.id, good.model, good.stop_reason, good.stop_sequence) == (
        "msg_1",
        "kimi",
        "end_turn",
        "X",
    )
    bad = Message({"id": 7, "model": ["m"], "stop_reason": {"a": 1}})
    assert (bad.id, bad.model, bad.stop_reason, bad.stop_sequence) == (None, None, None, None)
    assert Response({"status": "completed"}).status == "completed"
    assert Response({"status": 3}).status is None


def test_list_fields_give_a_fresh_empty_list_when_missing_or_not_a_list() -> None:
    a, b = Message({"content": "text"}), Message({})
    assert a.content == [] and b.content == []
    a.content.append({"type": "text"})
    assert a.content == [] and b.content == []  # the default is not shared
    blocks = [{"type": "text", "text": "hi"}]
    assert Message({"content": blocks}).content is blocks  # as received, not copied
    assert Response({"output": None}).output == []
    assert ChatCompletion({"choices": {"0": {}}}).choices == []


def test_fields_are_read_only_and_documented() -> None:
    result = Message({"id": "m"})
    with pytest.raises(AttributeError, match="read-only"):
        result.id = "other"
    assert result.id == "m"
    for cls, name in ((Message, "stop_reason"), (Message, "id"), (Response, "output")):
        field = inspect.getattr_static(cls, name)
        assert isinstance(field, Field)
        assert field.__doc__
        assert field.__doc__ in pydoc.render_doc(cls)
