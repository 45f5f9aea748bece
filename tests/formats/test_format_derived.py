"""What a Format derives instead of declaring: the client path from the contract's URL, the
stream classes from the result type, the final getter from the stream class; and the
nested placement of a structured-output schema (Messages, Responses)."""

from __future__ import annotations

import pytest

from kimi_ext import AsyncKimi, Kimi
from kimi_ext.formats import CHAT, FORMATS, MESSAGES, RESPONSES


@pytest.mark.parametrize("fmt", FORMATS, ids=[f.name for f in FORMATS])
def test_derived_facts_name_the_objects_they_stand_for(fmt: object) -> None:
    from kimi_ext._core.call.format import Format

    assert isinstance(fmt, Format)
    sync = Kimi(api_key="k", base_url="http://127.0.0.1:9")
    asyn = AsyncKimi(api_key="k", base_url="http://127.0.0.1:9")
    try:
        assert fmt.resource_of(sync).format is fmt
        assert fmt.resource_of(asyn).format is fmt
    finally:
        sync.close()
    stream, async_stream = fmt.load_stream(), fmt.load_async_stream()
    assert stream.__module__ == async_stream.__module__ == f"kimi_ext.{fmt.name}.stream"
    for cls in (stream, async_stream):
        assert cls._accumulator_type.result_type is fmt.result_type
        # One name for the whole result in every format; the old name is its alias.
        old = {"chat": "get_final_completion", "messages": "get_final_message"}.get(
            fmt.name, "get_final_response"
        )
        assert getattr(cls, old) is cls.final
    assert async_stream.__name__ == "Async" + stream.__name__


def test_the_derived_values() -> None:
    assert [f.client_path for f in FORMATS] == [
        ("chat", "completions"),
        ("messages",),
        ("responses",),
    ]
    assert CHAT.load_stream().__name__ == "ChatCompletionStream"


def test_a_schema_placed_within_a_sub_object_keeps_its_other_fields() -> None:
    text = {"verbosity": "low"}
    params = RESPONSES.place_schema({"text": text}, {"type": "object"}, "answer")
    assert params["text"] == {
        "verbosity": "low",
        "format": {
            "type": "json_schema",
            "name": "answer",
            "schema": {"type": "object"},
            "strict": True,
        },
    }
    assert text == {"verbosity": "low"}  # the caller's dict is not changed
    config = {"effort": "low"}
    params = MESSAGES.place_schema({"output_config": config}, {"type": "object"}, "answer")
    assert params["output_config"] == {
        "effort": "low",
        "format": {"type": "json_schema", "schema": {"type": "object"}},
    }
    assert config == {"effort": "low"}
    assert MESSAGES.place_schema({}, {}, "n")["output_config"] == {
        "format": {"type": "json_schema", "schema": {}}
    }
