"""Every documented rule names its field when a request breaks it (checked before sending, by
kimi_ext._core.contract through prepare), and the client options that are fine."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from kimi_ext._core.call.building import prepare
from kimi_ext.errors import RequestValidationError
from kimi_ext.formats import CHAT, MESSAGES, RESPONSES


def base(fmt: str, **extra: Any) -> dict[str, Any]:
    params: dict[str, Any] = {"model": "kimi-k3.1-pro"}
    if fmt == "responses":
        params["input"] = "Hi"
    else:
        params["messages"] = [{"role": "user", "content": "Hi"}]
    if fmt == "messages":
        params["max_tokens"] = 64
    params.update(extra)
    return params


ENDPOINTS = {"chat": CHAT, "messages": MESSAGES, "responses": RESPONSES}
RULES: list[tuple[str, dict[str, Any], str]] = [
    ("chat", {"stop": ["ok", ""]}, "stop[1]"),
    ("chat", {"prompt_cache_options": "5m"}, "prompt_cache_options"),
    ("chat", {"prompt_cache_key": 5}, "prompt_cache_key"),
    ("chat", {"safety_identifier": ["x"]}, "safety_identifier"),
    ("chat", {"response_format": {"type": "json_schema", "json_schema": {"schema": {}}}}, "response_format.json_schema.name"),
    ("chat", {"prediction": {"type": "text"}}, "prediction.type"),
    ("chat", {"tools": [{"type": "function", "function": {"name": f"f{i}"}} for i in range(129)]}, "tools"),
    ("chat", {"model": ["kimi-k3"], "reasoning_effort": "low"}, "model"),
    ("messages", {"messages": [{"role": "user", "content": 5}]}, "messages[0].content"),
    ("messages", {"tools": [{"type": "web_search_20250305", "name": "search"}]}, "tools[0].name"),
    ("messages", {"model": {"m": 1}, "effort": "low"}, "model"),
    ("responses", {"input": 5}, "input"),
    ("responses", {"tools": [{"type": "namespace", "name": "crm", "tools": [3]}]}, "tools[0].tools[0]"),
    ("responses", {"tools": [{"type": "namespace", "name": "crm", "tools": [{"type": "function", "name": "1bad"}]}]}, "tools[0].tools[0].name"),
    ("responses", {"tools": [{"type": "custom", "name": ["apply_patch"]}]}, "tools[0].name"),
    ("responses", {"tools": [{"type": "custom", "name": "a b"}]}, "tools[0].name"),
    ("responses", {"timeout": -1}, "timeout"),
    ("responses", {"timeout": float("inf")}, "timeout"),
    ("responses", {"timeout": "30"}, "timeout"),
    ("responses", {"max_retries": -1}, "max_retries"),
    ("responses", {"max_retries": True}, "max_retries"),
    ("chat", {"stream": "yes"}, "stream"),
    ("chat", {"logprobs": 1}, "logprobs"),
    ("messages", {"tools": {"name": "t"}}, "tools"),
    ("messages", {"system": 5}, "system"),
    ("messages", {"cache_control": {"type": "persistent"}}, "cache_control.type"),
    ("messages", {"output_config": {"format": {"type": "json_object"}}}, "output_config.format.type"),
    ("messages", {"output_config": "max"}, "output_config"),
    ("responses", {"reasoning": ["low"]}, "reasoning"),
    ("chat", {"extra_body": [["x", 1]]}, "extra_body"),
    ("chat", {"extra_headers": "X-A: 1"}, "extra_headers"),
    ("chat", {"extra_headers": {"X-A": 1}}, "extra_headers['X-A']"),
]  # fmt: skip


@pytest.mark.parametrize(("fmt", "extra", "field"), RULES, ids=[r[2] for r in RULES])
def test_each_rule_names_its_field(fmt: str, extra: dict[str, Any], field: str) -> None:
    with pytest.raises(RequestValidationError) as info:
        prepare(ENDPOINTS[fmt], base(fmt, **extra))
    assert info.value.field == field


def test_client_options_that_are_fine() -> None:
    prepared = prepare(CHAT, base("chat", timeout=httpx.Timeout(3.0), max_retries=0, extra_headers={"X-A": "1"}))  # fmt: skip
    assert prepared.timeout == httpx.Timeout(3.0) and prepared.max_retries == 0
    assert prepare(CHAT, base("chat", timeout=None)).timeout is None
    assert prepare(CHAT, base("chat", timeout=0)).timeout == 0
