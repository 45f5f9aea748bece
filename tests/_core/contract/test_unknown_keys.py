"""A misspelt key inside a request is named, with the documented key it is closest to, at
any depth and in every format; nothing is sent, and the stand-in (the same contract, the
schema as written) refuses the body naming the same key."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from kimi_ext import Kimi, RequestValidationError
from kimi_ext._core.contract.validation import validate
from kimi_ext.testing import KimiStandIn
from tests.support.client import PATHS, create, minimal

FN = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
MSG_TOOL = {"name": "get_weather", "input_schema": {"type": "object"}}
RESP_TOOL = {"type": "function", "name": "get_weather", "parameters": {"type": "object"}}

# (format, params, the misspelt key's path, the documented key suggested). A required key
# is missing in each (the typo took its place): the typo is the error to name, not the
# missing key ("content=None: is required" was the message).
MISSING: list[tuple[str, dict[str, Any], str, str]] = [
    ("chat", {"messages": [{"role": "user", "contnet": "Hi"}]}, "messages[0].contnet", "content"),
    # An assistant turn stays open to received keys in a plain list; its typo is still named.
    (
        "chat",
        {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "contnet": "x"}]},
        "messages[1].contnet",
        "content",
    ),
    (
        "chat",
        {"messages": [{"role": "user", "content": [{"type": "text", "txet": "Hi"}]}]},
        "messages[0].content[0].txet",
        "text",
    ),
    ("chat", {"tools": [{"type": "function", "fucntion": FN["function"]}]}, "tools[0].fucntion", "function"),
    ("messages", {"messages": [{"role": "user", "contnet": "Hi"}]}, "messages[0].contnet", "content"),
    (
        "messages",
        {"messages": [{"role": "user", "content": [{"type": "text", "txet": "Hi"}]}]},
        "messages[0].content[0].txet",
        "text",
    ),
    (
        "messages",
        {
            "messages": [
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "t1", "contnet": "42"}],
                }
            ]
        },
        "messages[0].content[0].contnet",
        "content",
    ),
    ("messages", {"tools": [{"name": "f", "input_shema": {"type": "object"}}]}, "tools[0].input_shema", "input_schema"),
    ("messages", {"tools": [MSG_TOOL], "tool_choice": {"tpye": "any"}}, "tool_choice.tpye", "type"),
    ("responses", {"input": [{"role": "user", "contnet": "Hi"}]}, "input[0].contnet", "content"),
    (
        "responses",
        {"input": [{"role": "user", "content": [{"type": "input_text", "txet": "Hi"}]}]},
        "input[0].content[0].txet",
        "text",
    ),
    ("responses", {"tools": [RESP_TOOL], "tool_choice": {"tpye": "auto"}}, "tool_choice.tpye", "type"),
]  # fmt: skip

# Closed objects (an unknown key is refused even with nothing missing): named and suggested.
CLOSED: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "chat",
        {"tools": [{"type": "function", "function": {"name": "f", "paramters": {}}}]},
        "tools[0].function.paramters",
        "parameters",
    ),
    (
        "chat",
        {"messages": [{"role": "user", "content": "Hi", "nmae": "ann"}]},
        "messages[0].nmae",
        "name",
    ),
    ("messages", {"messages": [{"role": "user", "content": "Hi", "rol": "x"}]}, "messages[0].rol", "role"),
    ("responses", {"tools": [{**RESP_TOOL, "strcit": True}]}, "tools[0].strcit", "strict"),
]  # fmt: skip


def _client(standin: KimiStandIn) -> Kimi:
    return Kimi(
        api_key=standin.api_key, base_url=standin.base_url, fallback_base_url=None, max_retries=0
    )


@pytest.mark.parametrize(("fmt", "params", "field", "suggested"), MISSING + CLOSED)
def test_a_misspelt_key_is_named_with_its_suggestion_and_nothing_is_sent(
    kimi_standin: KimiStandIn, fmt: str, params: dict[str, Any], field: str, suggested: str
) -> None:
    with _client(kimi_standin) as client, pytest.raises(RequestValidationError) as info:
        create(client, fmt, **minimal(fmt, **params))
    assert info.value.field == field, str(info.value)
    assert "is not a field of this object" in str(info.value)
    assert f"; did you mean {suggested}?" in str(info.value)
    assert kimi_standin.requests == []


@pytest.mark.parametrize(("fmt", "params", "field", "suggested"), MISSING)
def test_the_standin_names_the_same_key(
    kimi_standin: KimiStandIn, fmt: str, params: dict[str, Any], field: str, suggested: str
) -> None:
    """The stand-in keeps to the schema as written (open objects stay open), but a required
    key that is missing beside a key close to it is refused there too, naming the typo."""
    body = minimal(fmt, **params)
    response = httpx.post(
        kimi_standin.base_url.removesuffix("/v1") + PATHS[fmt],
        json=body,
        headers={
            "Authorization": f"Bearer {kimi_standin.api_key}",
            "anthropic-version": "2023-06-01",
        },
    )
    assert response.status_code == 400, response.text
    message = response.json()["error"]["message"]
    typo = field.rsplit(".", 1)[-1]
    dotted = field.replace("[", ".").replace("]", "") if fmt == "messages" else field
    assert dotted in message, message
    assert f"did you mean {suggested}?" in message, message
    assert typo in message


def test_a_far_unknown_key_leaves_the_missing_key_named() -> None:
    """Only a key close to the missing one is taken for its typo: otherwise the missing key
    is the error (an assistant turn may carry keys the service sent)."""
    body = minimal("chat", messages=[{"role": "assistant", "reasoning_content": "r"}])
    with pytest.raises(RequestValidationError) as info:
        validate("chat", body)
    assert info.value.field == "messages[0].content"
    assert "is required" in str(info.value)


# Shapes a plain list leaves open (they may be received content, with keys the service
# adds): a near miss of a field the object lacks is still a typo, named and suggested.
OPEN_TYPOS: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "chat",
        {
            "messages": [
                {"role": "user", "content": "Hi"},
                {"role": "assistant", "content": "x", "reasoning_contnet": "r"},
            ]
        },
        "messages[1].reasoning_contnet",
        "reasoning_content",
    ),
    (
        "messages",
        {
            "messages": [
                {"role": "user", "content": "Hi"},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "r", "signatur": "s"}]},
                {"role": "user", "content": "and?"},
            ]
        },
        "messages[1].content[0].signatur",
        "signature",
    ),
    (
        "responses",
        {
            "input": [
                {"role": "user", "content": "Hi"},
                {"type": "reasoning", "summary": [], "encrypted_contnet": "e"},
            ]
        },
        "input[1].encrypted_contnet",
        "encrypted_content",
    ),
]  # fmt: skip

# The same shapes with keys the service adds when it sends them: sent as they are.
RECEIVED_KEYS: list[tuple[str, dict[str, Any]]] = [
    (
        "chat",
        {
            "messages": [
                {"role": "user", "content": "Hi"},
                {"role": "assistant", "content": "x", "refusal": None, "annotations": []},
            ]
        },
    ),
    (
        "messages",
        {
            "messages": [
                {"role": "user", "content": "Hi"},
                {"role": "assistant", "content": [{"type": "text", "text": "x", "citations": []}]},
                {"role": "user", "content": "and?"},
            ]
        },
    ),
    (
        "responses",
        {
            "input": [
                {"role": "user", "content": "Hi"},
                {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}",
                 "status": "completed", "id": "fc_1"},
                {"type": "function_call_output", "call_id": "c1", "output": "ok"},
            ]
        },
    ),
]  # fmt: skip


@pytest.mark.parametrize(("fmt", "params", "field", "suggested"), OPEN_TYPOS)
def test_a_near_miss_in_a_shape_open_to_received_keys_is_named(
    kimi_standin: KimiStandIn, fmt: str, params: dict[str, Any], field: str, suggested: str
) -> None:
    with _client(kimi_standin) as client, pytest.raises(RequestValidationError) as info:
        create(client, fmt, **minimal(fmt, **params))
    assert info.value.field == field, str(info.value)
    assert f"; did you mean {suggested}?" in str(info.value)
    assert kimi_standin.requests == []


@pytest.mark.parametrize(("fmt", "params"), RECEIVED_KEYS)
def test_keys_the_service_adds_still_go_back_as_they_came(
    kimi_standin: KimiStandIn, fmt: str, params: dict[str, Any]
) -> None:
    body = minimal(fmt, **params)
    with _client(kimi_standin) as client:
        create(client, fmt, **body)
    sent = kimi_standin.requests[-1].json
    field = "input" if fmt == "responses" else "messages"
    assert sent[field] == body[field]
