"""Every documented rule is checked before sending: a clear error and nothing on the wire."""

from __future__ import annotations

from typing import Any

import pytest

from kimi_ext import Kimi, RequestValidationError
from tests.support.client import OK, PATHS, acreate, create, minimal

FN = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
MSG_TOOL = {"name": "get_weather", "input_schema": {"type": "object"}}
RESP_TOOL = {"type": "function", "name": "get_weather", "parameters": {"type": "object"}}
SCHEMA = {"type": "object", "properties": {"r": {"type": "string"}}}

# (format, extra params, field named in the error, a fragment of the rule)
CASES: list[tuple[str, dict[str, Any], str, str]] = [
    # stop sequences: count and UTF-8 bytes
    ("chat", {"stop": ["a", "b", "c", "d", "e", "f"]}, "stop", "at most 5"),
    ("chat", {"stop": "x" * 33}, "stop", "32 UTF-8 bytes"),
    ("chat", {"stop": ["ok", "é" * 17]}, "stop[1]", "32 UTF-8 bytes"),  # 17 chars, 34 bytes
    ("messages", {"stop_sequences": ["1", "2", "3", "4", "5", "6"]}, "stop_sequences", "at most 5"),
    ("messages", {"stop_sequences": ["终止终止终止终止终止终"]}, "stop_sequences[0]", "33"),
    ("messages", {"stop_sequences": "END"}, "stop_sequences", "list of strings"),
    # output limits
    ("chat", {"max_completion_tokens": 0}, "max_completion_tokens", "between 1 and 1048576"),
    ("chat", {"max_tokens": 1_048_577}, "max_tokens", "between 1 and 1048576"),
    ("chat", {"max_completion_tokens": True}, "max_completion_tokens", "integer"),
    ("messages", {"max_tokens": 0}, "max_tokens", "between 1 and 1048576"),
    ("messages", {"max_tokens": 2_000_000}, "max_tokens", "between 1 and 1048576"),
    ("responses", {"max_output_tokens": 0}, "max_output_tokens", "between 1 and 1048576"),
    ("responses", {"max_output_tokens": "10"}, "max_output_tokens", "integer"),
    # fixed sampling
    ("chat", {"temperature": 0.7}, "temperature", "fixed at 1"),
    ("chat", {"top_p": 0.9}, "top_p", "fixed at 0.95"),
    ("chat", {"n": 2}, "n", "fixed at 1"),
    ("chat", {"frequency_penalty": 0.5}, "frequency_penalty", "fixed at 0"),
    ("chat", {"presence_penalty": -1}, "presence_penalty", "fixed at 0"),
    ("messages", {"temperature": 0.2}, "temperature", "fixed at 1"),
    # logprobs
    ("chat", {"top_logprobs": 3}, "top_logprobs", "requires logprobs=true"),
    ("chat", {"logprobs": True, "top_logprobs": 21}, "top_logprobs", "between 0 and 20"),
    ("chat", {"logprobs": True, "top_logprobs": -1}, "top_logprobs", "between 0 and 20"),
    # tools and tool_choice
    ("chat", {"tools": [{"type": "function", "function": {"name": "get weather"}}]}, "tools[0].function.name", "must match"),
    ("chat", {"tools": [{"type": "function", "function": {"name": "9lives"}}]}, "tools[0].function.name", "must match"),
    ("chat", {"tools": [{"type": "function", "function": {"name": "a" * 129}}]}, "tools[0].function.name", "must match"),
    ("chat", {"tools": [FN, FN]}, "tools[1].function.name", "unique"),
    ("chat", {"tool_choice": "required"}, "tool_choice", "needs at least one tool"),
    ("chat", {"tools": [FN], "tool_choice": {"type": "function", "function": {"name": "get_weather"}}}, "tool_choice", "conflicts with Kimi's always-on thinking"),
    ("messages", {"tools": [{"name": "bad name", "input_schema": {}}]}, "tools[0].name", "must match"),
    ("messages", {"tool_choice": {"type": "any"}}, "tool_choice", "needs at least one tool"),
    # The tools that are there but empty are named (as a standard validator names them).
    ("messages", {"tools": [], "tool_choice": {"type": "any"}}, "tools", "needs at least one tool"),
    ("messages", {"tools": [MSG_TOOL], "tool_choice": {"type": "tool", "name": "get_weather"}}, "tool_choice.type", "always-on thinking"),
    ("messages", {"tools": [{"type": "web_search_20250305", "name": "web_search", "max_uses": 0}]}, "tools[0].max_uses", ">= 1"),
    ("responses", {"tools": [{"type": "function", "name": "has space"}]}, "tools[0].name", "must match"),
    ("responses", {"tool_choice": "required"}, "tool_choice", "needs at least one tool"),
    ("responses", {"tools": [], "tool_choice": "required"}, "tools", "needs at least one tool"),
    ("responses", {"tools": [RESP_TOOL], "tool_choice": {"type": "function", "name": "get_weather"}}, "tool_choice.type", "always-on thinking"),
    # K3.1-only features on kimi-k3
    ("chat", {"model": "kimi-k3", "stop": ["END"]}, "stop", "only by kimi-k3.1"),
    ("chat", {"model": "kimi-k3", "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": SCHEMA}}}, "response_format", "structured output"),
    ("chat", {"model": "kimi-k3", "prompt_cache_options": {"mode": "implicit", "ttl": "1h"}}, "prompt_cache_options", "cache TTL"),
    ("messages", {"model": "kimi-k3", "stop_sequences": ["END"]}, "stop_sequences", "only by kimi-k3.1"),
    ("messages", {"model": "kimi-k3", "output_config": {"format": {"type": "json_schema", "schema": SCHEMA}}}, "output_config.format", "structured output"),
    ("messages", {"model": "kimi-k3", "cache_control": {"type": "ephemeral", "ttl": "1h"}}, "cache_control", "cache TTL"),
    ("responses", {"model": "kimi-k3", "text": {"format": {"type": "json_schema", "name": "x", "schema": SCHEMA}}}, "text.format", "structured output"),
    ("responses", {"model": "kimi-k3", "prompt_cache_options": {"ttl": "5m"}}, "prompt_cache_options", "cache TTL"),
    # messages shape
    ("chat", {"messages": []}, "messages", "must not be empty"),
    ("messages", {"messages": []}, "messages", "must not be empty"),
    ("messages", {"messages": [{"role": "system", "content": "x"}]}, "messages[0].role", "only user and assistant"),
    ("messages", {"messages": [{"role": "tool", "content": "x"}]}, "messages[0].role", "only user and assistant"),
    ("responses", {"previous_response_id": "resp_1"}, "previous_response_id", "stateless"),
    ("responses", {"input": []}, "input", "must not be empty"),
    # unknown top-level fields and other values
    ("chat", {"reasoning": {"effort": "low"}}, "reasoning", "extra_body"),
    ("messages", {"thinking": {"type": "enabled"}}, "thinking", "extra_body"),
    ("responses", {"temperature": 1}, "temperature", "extra_body"),
    ("chat", {"effort": "turbo"}, "effort", "low, high, max"),
    ("messages", {"cache_control": {"type": "ephemeral", "ttl": "2h"}}, "cache_control.ttl", "5m or 1h"),
    ("responses", {"include": ["everything"]}, "include[0]", "must be web_search_call.results or"),
    ("chat", {"messages": [{"role": "tool", "content": "x"}]}, "messages[0].tool_call_id", "is required"),
    ("chat", {"messages": [{"role": "assistant", "content": "x", "partial": True}, {"role": "user", "content": "y"}]}, "messages[0].partial", "final assistant"),
    # deep rules the specs state (issue 12's list of rules that were not checked)
    ("chat", {"messages": [{"role": "system"}, {"role": "user", "content": "x"}]}, "messages[0].content", "is required"),
    ("chat", {"tools": [FN], "tool_choice": "any"}, "tool_choice", "must be one of auto, none, required"),
    ("chat", {"prompt_cache_options": {"mode": "explicit"}}, "prompt_cache_options.mode", "must be implicit"),
    ("chat", {"prediction": {"type": "content", "content": 5}}, "prediction.content", "must be a string or a list"),
    ("chat", {"messages": [{"role": "system", "tools": [{"type": "function", "function": {"name": "bad name"}}]}, {"role": "user", "content": "x"}]}, "messages[0].tools[0].function.name", "must match"),
    ("chat", {"messages": [{"role": "system", "tools": [{"type": "function", "function": {"name": f"t{i}"}} for i in range(129)]}, {"role": "user", "content": "x"}]}, "messages[0].tools", "at most 128 items"),
    ("chat", {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}]}]}, "messages[0].content[0].image_url.url", "public URLs are not fetched"),
    ("chat", {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/tiff;base64,AA=="}}]}]}, "messages[0].content[0].image_url.url", "PNG"),
    ("chat", {"messages": [{"role": "user", "content": [{"type": "video_url", "video_url": {"url": "data:video/x-matroska;base64,AA=="}}]}]}, "messages[0].content[0].video_url.url", "MP4"),
    ("chat", {"messages": [{"role": "user", "content": [{"type": "text", "text": "x", "prompt_cache_breakpoint": True}]}]}, "messages[0].content[0].prompt_cache_breakpoint", "is not allowed here"),
    ("chat", {"response_format": {"type": "json_object"}}, "response_format.type", "mention JSON"),
    ("chat", {"tools": [{"type": "function", "function": {"name": "get_weather\n"}}]}, "tools[0].function.name", "must match"),
    ("responses", {"text": {"format": {"type": "xml"}}}, "text.format.type", "must be one of json_schema, text"),
    ("responses", {"tools": [{"type": "namespace", "name": "crm"}]}, "tools[0].tools", "is required"),
    ("responses", {"tools": [{"type": "file_search"}]}, "tools[0].type", "must be one of custom, function, namespace, web_search"),
    ("responses", {"reasoning": {"effort": None}}, "reasoning.effort", "must be a string"),
    ("messages", {"system": [{"type": "text"}]}, "system[0].text", "is required"),
    ("messages", {"system": [{"type": "text", "text": " "}]}, "system[0].text", "text content is empty"),
    ("messages", {"messages": [{"role": "user", "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": "Qk0="}}]}]}, "messages[0].content[0].source.media_type", "image/png"),
    ("messages", {"messages": [{"role": "user", "content": [{"type": "video", "data": "x"}]}]}, "messages[0].content[0].type", "must be one of image"),
    ("messages", {"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "x", "is_error": "yes"}]}]}, "messages[0].content[0].is_error", "true or false"),
    ("messages", {"output_config": {"effort": None}}, "output_config.effort", "must be a string"),
    ("messages", {"tools": [{"type": "computer", "name": "c", "input_schema": {}}]}, "tools[0].type", "must be custom"),
    ("messages", {"messages": [{"role": "user", "content": [{"type": "thinking", "thinking": "x", "signature": "s"}]}]}, "messages[0].content[0].type", "not allowed in a user message"),
    ("messages", {"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA=="}}]}]}, "messages[1].content[0].type", "not allowed in an assistant message"),
]  # fmt: skip


@pytest.mark.parametrize(("fmt", "extra", "field", "rule"), CASES)
def test_rule_is_enforced_before_sending(
    httpserver: Any, client: Kimi, fmt: str, extra: dict[str, Any], field: str, rule: str
) -> None:
    httpserver.expect_request(PATHS[fmt]).respond_with_json(OK[fmt])
    with pytest.raises(RequestValidationError) as info:
        create(client, fmt, **minimal(fmt, **extra))
    error = info.value
    assert isinstance(error, ValueError)
    assert error.field == field
    assert rule in str(error), str(error)
    assert str(error).startswith(f"{field}=")  # names the field and the value
    assert httpserver.log == [], "nothing may be sent"


@pytest.mark.parametrize(
    ("fmt", "extra"),
    [
        ("chat", {"stop": ["a", "b", "c", "d", "e"]}),
        ("chat", {"stop": "é" * 16}),  # 32 bytes exactly
        ("chat", {"temperature": 1, "top_p": 0.95, "n": 1, "frequency_penalty": 0, "presence_penalty": 0}),
        ("chat", {"logprobs": True, "top_logprobs": 20}),
        ("chat", {"max_completion_tokens": 1_048_576}),
        # No document refuses both spellings of the limit: sent as given.
        ("chat", {"max_tokens": 10, "max_completion_tokens": 10}),
        # Any model id is sent, with the generic rules only (kimi-k3's max-only effort
        # is a rule of that listed model).
        ("chat", {"model": "gpt-4o"}),
        ("chat", {"model": "kimi-k4", "reasoning_effort": "low"}),
        ("messages", {"model": "kimi-k4", "output_config": {"effort": "low"}}),
        ("responses", {"model": "kimi-k4", "reasoning": {"effort": "high"}}),
        ("chat", {"tools": [FN], "tool_choice": "required"}),
        ("chat", {"tools": [{"type": "web_search"}]}),
        ("chat", {"model": "kimi-k3", "prompt_cache_key": "k"}),
        ("messages", {"stop_sequences": ["终止终止终止终止终止"]}),  # 30 bytes
        ("messages", {"tools": [MSG_TOOL], "tool_choice": {"type": "any"}}),
        ("messages", {"cache_control": {"type": "ephemeral", "ttl": "1h"}, "metadata": {"user_id": "u"}}),
        ("messages", {"system": [{"type": "text", "text": "Be brief."}]}),
        ("responses", {"instructions": "Be brief.", "include": ["web_search_call.results"]}),
        ("responses", {"tools": [{"type": "web_search"}], "tool_choice": "auto"}),
        ("messages", {"extra_body": {"thinking": {"type": "enabled"}}}),
    ],
)  # fmt: skip
def test_valid_requests_pass_unchanged(
    httpserver: Any, client: Kimi, fmt: str, extra: dict[str, Any]
) -> None:
    httpserver.expect_request(PATHS[fmt]).respond_with_json(OK[fmt])
    params = minimal(fmt, **extra)
    create(client, fmt, **params)
    wire = httpserver.log[0][0].get_json()
    expected = {k: v for k, v in params.items() if k != "extra_body"}
    expected.update(params.get("extra_body", {}))
    assert wire == expected


def test_missing_required_fields(httpserver: Any, client: Kimi) -> None:
    with pytest.raises(RequestValidationError, match="max_tokens"):
        client.messages.create(model="kimi-k3.1-pro", messages=[{"role": "user", "content": "x"}])
    with pytest.raises(RequestValidationError, match="input"):
        client.responses.create(model="kimi-k3.1-pro")
    with pytest.raises(RequestValidationError, match="model"):
        client.chat.completions.create(messages=[{"role": "user", "content": "x"}])  # type: ignore[call-arg]
    assert httpserver.log == []


def test_non_json_values_are_a_validation_error(httpserver: Any, client: Kimi) -> None:
    with pytest.raises(RequestValidationError, match="JSON"):
        client.chat.completions.create(**minimal("chat", extra_body={"x": object()}))
    with pytest.raises(RequestValidationError, match="JSON"):
        client.chat.completions.create(**minimal("chat", extra_body={"x": float("nan")}))
    assert httpserver.log == []


@pytest.mark.parametrize(("fmt", "extra", "field", "rule"), CASES)
async def test_async_client_enforces_the_same_rules(
    httpserver: Any, aclient: Any, fmt: str, extra: dict[str, Any], field: str, rule: str
) -> None:
    with pytest.raises(RequestValidationError) as info:
        await acreate(aclient, fmt, **minimal(fmt, **extra))
    assert info.value.field == field and rule in str(info.value)
    assert httpserver.log == []
