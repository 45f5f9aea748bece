"""Every example we hold (the reference documents' requests, responses, chunks and errors,
and our recorded fixtures) validates against its spec with a standard 2020-12 validator, and
the specs' unions are unambiguous: a valid value matches exactly one member of a ``oneOf``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.paths import FIXTURES, ROOT
from tests.support.spec import (
    FORMATS,
    all_errors,
    event_component,
    operation,
    request_component,
    request_validator,
    response_component,
    spec,
    validator,
)


def _fixtures(prefix: str, suffix: str = ".json") -> list[tuple[str, str]]:
    return [
        (fmt, path.name)
        for fmt in FORMATS
        for path in sorted((FIXTURES / fmt).glob(f"{prefix}*{suffix}"))
    ]


def _load(fmt: str, name: str) -> Any:
    return json.loads((FIXTURES / fmt / name).read_text("utf-8"))


def _events(fmt: str, name: str) -> list[Any]:
    out = []
    for line in (FIXTURES / fmt / name).read_text("utf-8").splitlines():
        if line.startswith("data:"):
            data = line[5:].strip()
            if data != "[DONE]":
                out.append(json.loads(data))
    return out


def _error_component(fmt: str) -> str:
    schemas = spec(fmt)["components"]["schemas"]
    assert "ErrorResponse" in schemas
    return "ErrorResponse"


@pytest.mark.parametrize(("fmt", "name"), _fixtures("request_"))
def test_request_examples_validate(fmt: str, name: str) -> None:
    request_validator(fmt).validate(_load(fmt, name))


@pytest.mark.parametrize(("fmt", "name"), _fixtures("response_"))
def test_response_examples_validate(fmt: str, name: str) -> None:
    validator(fmt, response_component(fmt)).validate(_load(fmt, name))


@pytest.mark.parametrize(("fmt", "name"), _fixtures("error_"))
def test_error_examples_validate(fmt: str, name: str) -> None:
    validator(fmt, _error_component(fmt)).validate(_load(fmt, name))


@pytest.mark.parametrize(("fmt", "name"), _fixtures("stream_", ".sse"))
def test_stream_events_validate(fmt: str, name: str) -> None:
    check = validator(fmt, event_component(fmt))
    events = _events(fmt, name)
    assert events
    for event in events:
        check.validate(event)


def test_the_provider_examples_named_in_the_issue_validate() -> None:
    """The Chat response with tool_calls and the Messages text response (reference 002/001)."""
    validator("chat", response_component("chat")).validate(_load("chat", "response_reference.json"))
    validator("messages", response_component("messages")).validate(
        _load("messages", "response_ref_001.json")
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_operation_documents_its_event_stream(fmt: str) -> None:
    content = operation(fmt)["responses"]["200"]["content"]
    assert list(content) == ["application/json", "text/event-stream"]
    component = event_component(fmt)
    assert component in spec(fmt)["components"]["schemas"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_extension_in_a_spec_is_documented_at_its_top(fmt: str) -> None:
    text = (ROOT / "openapi" / f"{fmt}.yaml").read_text("utf-8")
    used = {word.rstrip(":") for word in text.split() if word.startswith("x-kimi-")}
    used = {u.strip("`(),.") for u in used}
    description = spec(fmt)["info"]["description"]
    for name in sorted(used):
        assert f"`{name}`" in description, name


# ----------------------------------------------------------------- unambiguous unions

REQUEST_SAMPLES: dict[str, list[dict[str, Any]]] = {
    "chat": [
        {
            "model": "kimi-k3.1-pro",
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "system", "tools": [{"type": "web_search"}]},
                {"role": "user", "content": [{"type": "text", "text": "hi"}]},
                {
                    "role": "assistant",
                    "content": None,
                    "reasoning_content": "",
                    "tool_calls": [
                        {
                            "id": "functions.f:0",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{}"},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": "functions.f:0", "content": "ok"},
            ],
            "tools": [
                {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
            ],
            "tool_choice": "auto",
            "stop": ["END"],
            "response_format": {"type": "text"},
            "prediction": {"type": "content", "content": [{"type": "text", "text": "x"}]},
        }
    ],
    "messages": [
        {
            "model": "kimi-k3.1-pro",
            "max_tokens": 10,
            "system": [{"type": "text", "text": "Be brief."}],
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "hi"}]},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "thinking", "thinking": "t", "signature": "s"},
                        {"type": "tool_use", "id": "a", "name": "f", "input": {}},
                    ],
                },
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "a",
                            "content": [{"type": "text", "text": "ok"}],
                        }
                    ],
                },
            ],
            "tools": [
                {"name": "f", "input_schema": {"type": "object"}},
                {"type": "web_search_20250305", "name": "web_search"},
            ],
            "tool_choice": {"type": "auto"},
        }
    ],
    "responses": [
        {
            "model": "kimi-k3.1-pro",
            "input": [
                {"role": "user", "content": [{"type": "input_text", "text": "hi"}]},
                {"type": "reasoning", "id": "rs_1", "summary": []},
                {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "c", "output": "ok"},
            ],
            "tools": [
                {"type": "function", "name": "f", "parameters": {"type": "object"}},
                {"type": "namespace", "name": "n", "tools": [{"type": "function", "name": "g"}]},
                {"type": "web_search"},
            ],
            "tool_choice": "auto",
            "text": {"format": {"type": "json_schema", "schema": {"type": "object"}}},
        }
    ],
}


def _one_of_hits(fmt: str, schema: Any, value: Any, defs: dict[str, Any]) -> list[int]:
    import jsonschema

    hits = []
    for i, member in enumerate(schema["oneOf"]):
        check = jsonschema.Draft202012Validator({**member, "$defs": defs})
        if check.is_valid(value):
            hits.append(i)
    return hits


@pytest.mark.parametrize("fmt", FORMATS)
def test_rich_requests_are_valid_and_match_one_member_of_each_union(fmt: str) -> None:
    """The validator's oneOf is exact, so a valid request proves no union is ambiguous
    for it; the samples use every block, tool, item and message kind of the format."""
    check = request_validator(fmt)
    for sample in REQUEST_SAMPLES[fmt]:
        errors = all_errors(check.iter_errors(sample))
        assert not errors, [(list(e.absolute_path), e.message) for e in errors]


@pytest.mark.parametrize(
    ("fmt", "body", "where"),
    [
        (
            "messages",
            {
                "model": "m",
                "max_tokens": 1,
                "messages": [{"role": "user", "content": [{"type": "video"}]}],
            },
            ["messages", 0, "content", 0],
        ),
        (
            "responses",
            {"model": "m", "input": "x", "tools": [{"type": "file_search"}]},
            ["tools", 0],
        ),
        (
            "chat",
            {"model": "m", "messages": [{"role": "user", "content": [{"type": "audio"}]}]},
            ["messages", 0],
        ),
    ],
)
def test_request_unions_are_closed(fmt: str, body: dict[str, Any], where: list[Any]) -> None:
    errors = all_errors(request_validator(fmt).iter_errors(body))
    assert errors
    assert any(list(e.absolute_path)[: len(where)] == where for e in errors)


@pytest.mark.parametrize(
    ("fmt", "value"),
    [
        ("messages", {"type": "brand_new_block", "x": 1}),
        ("responses", {"type": "brand_new_item", "x": 1}),
    ],
)
def test_response_unions_stay_open(fmt: str, value: dict[str, Any]) -> None:
    name = "ContentBlock" if fmt == "messages" else "OutputItem"
    validator(fmt, name).validate(value)
    assert request_component(fmt)
