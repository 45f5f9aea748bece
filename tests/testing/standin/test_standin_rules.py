"""Every rule the stand-in enforces, in each format's own words and envelope."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from kimi_ext._core.contract import contract
from kimi_ext.testing import KimiStandIn
from tests.support.standin import K31, Wire, chat_body, messages_body, responses_body

FORMATS = ("chat", "messages", "responses")
BODY: dict[str, Callable[..., dict[str, Any]]] = {
    "chat": chat_body,
    "messages": messages_body,
    "responses": responses_body,
}


def fn_tool(name: str, parameters: dict[str, Any] | None = None) -> dict[str, Any]:
    function: dict[str, Any] = {"name": name}
    if parameters is not None:
        function["parameters"] = parameters
    return {"type": "function", "function": function}


def msg_tool(name: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "input_schema": schema or {"type": "object", "properties": {}}}


def resp_tool(name: str, parameters: dict[str, Any] | None = None) -> dict[str, Any]:
    tool: dict[str, Any] = {"type": "function", "name": name}
    if parameters is not None:
        tool["parameters"] = parameters
    return tool


ENUM_NO_TYPE = {"type": "object", "properties": {"unit": {"enum": ["c", "f"]}}}


def without(body: dict[str, Any], key: str) -> dict[str, Any]:
    body = copy.deepcopy(body)
    del body[key]
    return body


# ------------------------------------------------------------------------- authentication


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("key", [None, "wrong-key", "test-key-2"])
def test_missing_or_wrong_key_is_401(wire: Wire, fmt: str, key: str | None) -> None:
    detail = wire.error(fmt, BODY[fmt](), 401, key=key)
    if fmt == "messages":
        assert detail == {
            "type": "authentication_error",
            "message": "invalid or missing API key: send it as `Authorization: Bearer <key>`",
        }
    else:
        assert detail["type"] == "invalid_authentication_error"
        assert detail["code"] == "invalid_api_key"


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"x-api-key": "test-key"}, 401),
        ({"Authorization": "Basic dGVzdC1rZXk6"}, 401),
        ({"Authorization": "test-key"}, 401),
        ({"Authorization": "Bearer"}, 401),
        ({"Authorization": "bearer test-key"}, 200),
    ],
)
def test_only_bearer_auth_counts(wire: Wire, headers: dict[str, str], status: int) -> None:
    response = wire.client.post(
        "/v1/messages", json=messages_body(), headers={"anthropic-version": "2023-06-01", **headers}
    )
    assert response.status_code == status


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_x_api_key_header_gets_an_accurate_401(wire: Wire, fmt: str) -> None:
    detail = wire.error(fmt, BODY[fmt](), 401, key=None, headers={"x-api-key": "test-key"})
    assert detail["message"] == (
        "The x-api-key header is not accepted: send the key as `Authorization: Bearer <key>`"
    )


def test_the_configured_key_is_the_one_accepted() -> None:
    with KimiStandIn(api_key="sk-custom") as standin:
        import httpx

        url = standin.base_url + "/v1/chat/completions"
        ok = httpx.post(url, json=chat_body(), headers={"Authorization": "Bearer sk-custom"})
        bad = httpx.post(url, json=chat_body(), headers={"Authorization": "Bearer test-key"})
        assert (ok.status_code, bad.status_code) == (200, 401)


# ------------------------------------------------------------------------------ the body


@pytest.mark.parametrize("fmt", FORMATS)
def test_body_must_be_a_json_object(wire: Wire, fmt: str) -> None:
    assert "not valid JSON" in wire.error(fmt, b"{oops")["message"]
    assert "JSON object" in wire.error(fmt, [BODY[fmt]()])["message"]


# ---------------------------------------------------------------------- shared field rules


@pytest.mark.parametrize("fmt", FORMATS)
def test_unknown_model_is_404(wire: Wire, fmt: str) -> None:
    detail = wire.error(fmt, BODY[fmt](model="kimi-k9"), 404)
    if fmt == "messages":
        assert detail == {"type": "not_found_error", "message": "model: kimi-k9 not found"}
    else:
        assert detail["type"] == "resource_not_found_error"
        assert detail["code"] == "model_not_found"
        assert "kimi-k9" in detail["message"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("model", ["kimi-k3.1-pro", "kimi-k3.1-pro-highspeed", "kimi-k3"])
def test_the_three_models_are_accepted(wire: Wire, fmt: str, model: str) -> None:
    assert wire.ok(fmt, BODY[fmt](model=model))["model"] == model


@pytest.mark.parametrize("fmt", FORMATS)
def test_model_is_required_and_a_string(wire: Wire, fmt: str) -> None:
    assert "model" in wire.error(fmt, without(BODY[fmt](), "model"))["message"]
    assert "model" in wire.error(fmt, BODY[fmt](model=3))["message"]


@pytest.mark.parametrize(
    ("fmt", "field", "message"),
    [
        ("chat", "foo", "Unrecognized request argument supplied: foo"),
        ("chat", "thinking", "Unrecognized request argument supplied: thinking"),
        ("responses", "temperature", "Unrecognized request argument supplied: temperature"),
        ("responses", "store", "Unrecognized request argument supplied: store"),
        ("messages", "thinking", "thinking: Extra inputs are not permitted"),
        ("messages", "top_k", "top_k: Extra inputs are not permitted"),
    ],
)
def test_unknown_top_level_fields_are_named_when_strict(
    wire: Wire, standin: KimiStandIn, fmt: str, field: str, message: str
) -> None:
    standin.strict_fields = True
    detail = wire.error(fmt, BODY[fmt](**{field: 1}))
    assert detail["message"] == message
    assert detail["type"] == "invalid_request_error"
    if fmt != "messages":
        assert detail["param"] == field


@pytest.mark.parametrize("fmt", FORMATS)
def test_unknown_top_level_fields_are_discarded_and_recorded(
    wire: Wire, standin: KimiStandIn, fmt: str
) -> None:
    # As the seedrouter document says: the service drops fields it does not know.
    wire.ok(fmt, BODY[fmt](seed=7, user="u-1"))
    (record,) = [r for r in standin.requests if r.path != "/v1/models"][-1:]
    assert record.discarded == ["seed", "user"]
    wire.ok(fmt, BODY[fmt]())
    assert standin.requests[-1].discarded == []


EFFORT = {
    "chat": lambda v, **kw: chat_body(reasoning_effort=v, **kw),
    "messages": lambda v, **kw: messages_body(output_config={"effort": v}, **kw),
    "responses": lambda v, **kw: responses_body(reasoning={"effort": v}, **kw),
}


EFFORT_PATH = {
    "chat": "reasoning_effort",
    "messages": "output_config.effort",
    "responses": "reasoning.effort",
}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("alias", ["MAX", "extreme", 3])
def test_unknown_effort_values_are_rejected(wire: Wire, fmt: str, alias: Any) -> None:
    message = wire.error(fmt, EFFORT[fmt](alias))["message"]
    assert message == (
        f"invalid {EFFORT_PATH[fmt]}: {alias!r} is not supported, use one of low, high, max"
    )


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("alias", "level"), [("medium", "high"), ("xhigh", "max"), ("minimal", "low"), ("none", "low")]
)
def test_effort_aliases_are_accepted_as_the_service_does(
    wire: Wire, standin: KimiStandIn, fmt: str, alias: str, level: str
) -> None:
    wire.ok(fmt, EFFORT[fmt](alias))
    # The alias is mapped to its level (the stand-in's RequestInfo, seen in the reply plan).
    assert standin.requests[-1].json is not None
    if fmt == "responses":
        assert wire.ok(fmt, EFFORT[fmt](alias))["reasoning"]["effort"] == level
    # kimi-k3 takes max only, after the mapping: xhigh is max, the others are not.
    if level == "max":
        wire.ok(fmt, EFFORT[fmt](alias, model="kimi-k3"))
    else:
        message = wire.error(fmt, EFFORT[fmt](alias, model="kimi-k3"))["message"]
        assert "only max is allowed for model kimi-k3" in message


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("level", ["low", "high", "max"])
def test_the_three_effort_levels_are_accepted(wire: Wire, fmt: str, level: str) -> None:
    wire.ok(fmt, EFFORT[fmt](level))


@pytest.mark.parametrize("fmt", FORMATS)
def test_kimi_k3_accepts_only_effort_max(wire: Wire, fmt: str) -> None:
    for level in ("low", "high"):
        message = wire.error(fmt, EFFORT[fmt](level, model="kimi-k3"))["message"]
        assert "only max is allowed for model kimi-k3" in message
    wire.ok(fmt, EFFORT[fmt]("max", model="kimi-k3"))


LIMIT = {
    "chat": "max_completion_tokens",
    "messages": "max_tokens",
    "responses": "max_output_tokens",
}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("value", [0, -1, 1048577, "100", True, 1.5, None])
def test_output_limits_are_ranged(wire: Wire, fmt: str, value: Any) -> None:
    field = LIMIT[fmt]
    detail = wire.error(fmt, BODY[fmt](**{field: value}))
    assert f"{field}" in detail["message"] and "1048576" in detail["message"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("value", [1, 1048576])
def test_output_limit_edges_are_accepted(wire: Wire, fmt: str, value: int) -> None:
    wire.ok(fmt, BODY[fmt](**{LIMIT[fmt]: value}))


def test_chat_legacy_max_tokens_is_ranged_too(wire: Wire) -> None:
    assert "max_tokens" in wire.error("chat", chat_body(max_tokens=0))["message"]
    wire.ok("chat", chat_body(max_tokens=16))


def test_messages_max_tokens_wording_and_requirement(wire: Wire) -> None:
    detail = wire.error("messages", messages_body(max_tokens=0))
    assert detail == {
        "type": "invalid_request_error",
        "message": "max_tokens: must be an integer between 1 and 1048576",
    }
    assert wire.error("messages", without(messages_body(), "max_tokens"))["message"] == (
        "max_tokens: Field required"
    )


@pytest.mark.parametrize("fmt", ["chat", "messages"])
def test_messages_must_not_be_empty(wire: Wire, fmt: str) -> None:
    assert "messages" in wire.error(fmt, BODY[fmt](messages=[]))["message"]
    assert "messages" in wire.error(fmt, without(BODY[fmt](), "messages"))["message"]
    assert "messages" in wire.error(fmt, BODY[fmt](messages="Hi"))["message"]


@pytest.mark.parametrize(
    ("name", "value", "fixed"),
    [
        ("temperature", 0.7, "1"),
        ("temperature", 0, "1"),
        ("temperature", "1", "1"),
        ("top_p", 1, "0.95"),
        ("n", 2, "1"),
        ("frequency_penalty", 0.5, "0"),
        ("presence_penalty", -0.5, "0"),
    ],
)
def test_chat_fixed_sampling(wire: Wire, name: str, value: Any, fixed: str) -> None:
    detail = wire.error("chat", chat_body(**{name: value}))
    assert detail["message"] == f"invalid {name}: only {fixed} is allowed for this model"


def test_chat_fixed_sampling_values_are_accepted(wire: Wire) -> None:
    wire.ok(
        "chat",
        chat_body(temperature=1, top_p=0.95, n=1, frequency_penalty=0, presence_penalty=0.0),
    )


def test_messages_accepts_temperature_and_top_p_only_at_their_fixed_values(wire: Wire) -> None:
    wire.ok("messages", messages_body(temperature=1, top_p=0.95))
    assert wire.error("messages", messages_body(temperature=0.2))["message"] == (
        "invalid temperature: only 1 is allowed for this model"
    )
    assert wire.error("messages", messages_body(top_p=0.9))["message"] == (
        "invalid top_p: only 0.95 is allowed for this model"
    )


# -------------------------------------------------------------------------- stop sequences

STOP = {
    "chat": lambda v, **kw: chat_body(stop=v, **kw),
    "messages": lambda v, **kw: messages_body(stop_sequences=v, **kw),
}


@pytest.mark.parametrize("fmt", ["chat", "messages"])
@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (["a", "b", "c", "d", "e", "f"], "at most 5"),
        (["x" * 33], "at most 32 UTF-8 bytes"),
        (["停" * 11], "got 33"),  # 11 characters, 33 UTF-8 bytes
        ([""], "must not be empty"),
        ([3], "string"),
    ],
)
def test_stop_sequence_limits(wire: Wire, fmt: str, value: Any, problem: str) -> None:
    assert problem in wire.error(fmt, STOP[fmt](value))["message"]


@pytest.mark.parametrize("fmt", ["chat", "messages"])
def test_stop_sequence_edges_are_accepted(wire: Wire, fmt: str) -> None:
    wire.ok(fmt, STOP[fmt](["a", "b", "c", "d", "停" * 10 + "xy"]))  # 32 bytes


def test_chat_stop_may_be_one_string_but_messages_needs_a_list(wire: Wire) -> None:
    wire.ok("chat", chat_body(stop="END"))
    assert "at most 32 UTF-8 bytes" in wire.error("chat", chat_body(stop="x" * 33))["message"]
    assert "array" in wire.error("messages", messages_body(stop_sequences="END"))["message"]


# ------------------------------------------------------------- K3.1-only features on kimi-k3

K3_ONLY = [
    ("chat", {"stop": ["END"]}, "stop sequences"),
    ("chat", {"prompt_cache_options": {"ttl": "1h"}}, "cache TTL options"),
    (
        "chat",
        {"response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}}},
        "structured output",
    ),
    ("messages", {"stop_sequences": ["END"]}, "stop sequences"),
    ("messages", {"cache_control": {"type": "ephemeral"}}, "cache TTL options"),
    (
        "messages",
        {"output_config": {"effort": "max", "format": {"type": "json_schema", "schema": {}}}},
        "structured output",
    ),
    ("responses", {"prompt_cache_options": {"mode": "implicit"}}, "cache TTL options"),
    ("responses", {"text": {"format": {"type": "json_schema", "schema": {}}}}, "structured output"),
]


@pytest.mark.parametrize(("fmt", "extra", "feature"), K3_ONLY)
def test_k31_only_features_are_rejected_on_kimi_k3(
    wire: Wire, fmt: str, extra: dict[str, Any], feature: str
) -> None:
    message = wire.error(fmt, BODY[fmt](model="kimi-k3", **extra))["message"]
    assert feature in message and "kimi-k3" in message
    wire.ok(fmt, BODY[fmt](**extra))  # the K3.1 models take it


# ------------------------------------------------------------------------------ Chat rules

CHAT_CASES: list[tuple[dict[str, Any], str]] = [
    ({"messages": [{"role": "developer", "content": "x"}]}, "messages[0].role"),
    ({"messages": [{"role": "user"}]}, "Missing required parameter: 'messages[0].content'."),
    ({"messages": [{"role": "system"}]}, "messages[0].content"),
    ({"messages": [{"role": "assistant"}]}, "messages[0].content"),
    ({"messages": [{"role": "tool", "content": "x"}]}, "messages[0].tool_call_id"),
    ({"messages": [{"role": "user", "content": 3}]}, "messages[0].content"),
    (
        {"messages": [{"role": "user", "content": [{"type": "audio", "data": "x"}]}]},
        "messages[0].content[0].type",
    ),
    (
        {
            "messages": [
                {"role": "assistant", "content": "x", "partial": True},
                {"role": "user", "content": "y"},
            ]
        },
        "partial",
    ),
    ({"stream": "yes"}, "expected a boolean"),
    ({"stream_options": {"include_usage": 1}}, "stream_options.include_usage"),
    ({"top_logprobs": 21, "logprobs": True}, "between 0 and 20"),
    ({"top_logprobs": 5}, "requires logprobs"),
    ({"top_logprobs": 5, "logprobs": False}, "requires logprobs"),
    ({"tools": [fn_tool("1starts_with_digit")]}, "must match"),
    ({"tools": [fn_tool("has space")]}, "must match"),
    ({"tools": [fn_tool("a" * 129)]}, "must match"),
    ({"tools": [fn_tool(f"t{i}") for i in range(129)]}, "at most 128 items (got 129)"),
    ({"tools": [fn_tool("same"), fn_tool("same")]}, "function name same is duplicated"),
    ({"tools": [fn_tool("w", ENUM_NO_TYPE)]}, "At path 'properties.unit': type is not defined"),
    ({"tools": [{"type": "retrieval"}]}, "tools[0].type"),
    ({"tool_choice": "required"}, "tool_choice 'required' requires at least one tool"),
    ({"tool_choice": "any", "tools": [fn_tool("f")]}, "tool_choice"),
    (
        {"tool_choice": {"type": "function", "function": {"name": "f"}}, "tools": [fn_tool("f")]},
        "incompatible with thinking enabled",
    ),
    ({"response_format": {"type": "xml"}}, "response_format.type"),
    (
        {"response_format": {"type": "json_schema", "json_schema": {"schema": {}}}},
        "json_schema.name",
    ),
    (
        {"response_format": {"type": "json_schema", "json_schema": {"name": "x"}}},
        "json_schema.schema",
    ),
    ({"prediction": {"type": "diff", "content": "x"}}, "prediction.type"),
    ({"prompt_cache_options": {"ttl": "2h"}}, "prompt_cache_options.ttl"),
    ({"prompt_cache_options": {"mode": "explicit"}}, "prompt_cache_options.mode"),
    ({"prompt_cache_key": 5}, "prompt_cache_key"),
    ({"safety_identifier": ["u"]}, "safety_identifier"),
]


@pytest.mark.parametrize(("extra", "expected"), CHAT_CASES)
def test_chat_rules(wire: Wire, extra: dict[str, Any], expected: str) -> None:
    detail = wire.error("chat", chat_body(**extra))
    assert expected in detail["message"]
    assert detail["type"] == "invalid_request_error"


def test_chat_accepts_the_documented_shapes(wire: Wire) -> None:
    wire.ok(
        "chat",
        {
            "model": K31,
            "messages": [
                {
                    "role": "system",
                    "content": [{"type": "text", "text": "Be brief. Reply in JSON."}],
                },
                {"role": "system", "tools": [fn_tool("late_tool")]},
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "What is this?"},
                        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}},
                        {"type": "video_url", "video_url": {"url": "ms://file-1"}},
                    ],
                },
                {"role": "assistant", "content": "An image.", "partial": True},
            ],
            "tools": [
                fn_tool(
                    "get_weather", {"type": "object", "properties": {"city": {"type": "string"}}}
                ),
                {"type": "web_search"},
            ],
            "tool_choice": "required",
            "response_format": {"type": "json_object"},
            "prediction": {"type": "content", "content": [{"type": "text", "text": "An"}]},
            "prompt_cache_key": "k",
            "prompt_cache_options": {"mode": "implicit", "ttl": "1h"},
            "safety_identifier": "user-1",
            "logprobs": True,
            "top_logprobs": 20,
            "stream_options": {"include_usage": True},
            "max_tokens": 100,
            "max_completion_tokens": 100,
        },
    )


def tool_turn(
    reasoning: str | None = "Call it.", call_id: str = "functions.get_weather:0"
) -> dict[str, Any]:
    turn: dict[str, Any] = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
            }
        ],
    }
    if reasoning is not None:
        turn["reasoning_content"] = reasoning
    return turn


def chat_history(*turns: dict[str, Any], model: str = K31) -> dict[str, Any]:
    return {
        "model": model,
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Weather in Oslo?"},
            *turns,
        ],
        "tools": [fn_tool("get_weather")],
    }


def test_chat_tool_call_turn_without_reasoning_is_rejected_with_its_index(wire: Wire) -> None:
    body = chat_history(
        tool_turn(None),
        {"role": "tool", "tool_call_id": "functions.get_weather:0", "content": "5 C"},
    )
    detail = wire.error("chat", body)
    assert detail == {
        "message": "thinking is enabled but reasoning_content is missing in assistant tool call "
        "message at index 2",
        "type": "invalid_request_error",
        "code": None,
    }
    # null is not a string: refused by type, naming the field.
    null = chat_history({**tool_turn(None), "reasoning_content": None})
    assert wire.error("chat", null)["message"] == (
        "Invalid type for 'messages[2].reasoning_content': expected a string, but got null instead."
    )


def test_chat_reasoning_rule_spares_kimi_k3_and_accepts_empty_reasoning(wire: Wire) -> None:
    answer = {"role": "tool", "tool_call_id": "functions.get_weather:0", "content": "5 C"}
    wire.ok("chat", chat_history(tool_turn(None), answer, model="kimi-k3"))
    wire.ok("chat", chat_history(tool_turn(""), answer))
    wire.ok("chat", chat_history(tool_turn("Call it."), answer))


def test_chat_tool_result_must_answer_an_earlier_call(wire: Wire) -> None:
    body = chat_history(
        tool_turn(), {"role": "tool", "tool_call_id": "functions_get_weather_0", "content": "5 C"}
    )
    assert wire.error("chat", body) == {
        "message": "tool_call_id functions_get_weather_0 is not found",
        "type": "invalid_request_error",
        "code": "tool_call_id_not_found",
        "param": "messages[3].tool_call_id",
    }
    orphan = chat_history(
        {"role": "tool", "tool_call_id": "functions.get_weather:0", "content": "x"}
    )
    assert "is not found" in wire.error("chat", orphan)["message"]


def test_chat_repeated_call_ids_across_turns_are_fine(wire: Wire) -> None:
    answer = {"role": "tool", "tool_call_id": "functions.get_weather:0", "content": "5 C"}
    wire.ok("chat", chat_history(tool_turn(), answer, tool_turn("Again."), answer))


# -------------------------------------------------------------------------- Messages rules

MESSAGES_CASES: list[tuple[dict[str, Any], str]] = [
    (
        {"messages": [{"role": "system", "content": "x"}]},
        "messages.0.role: Messages accepts only user and assistant roles",
    ),
    ({"messages": [{"role": "user"}]}, "messages.0.content: Field required"),
    (
        {"messages": [{"role": "user", "content": [{"type": "video", "data": "x"}]}]},
        "messages.0.content.0.type: must be one of image, server_tool_use, text, thinking",
    ),
    (
        {
            "messages": [
                {
                    "role": "user",
                    "content": [{"type": "thinking", "thinking": "x", "signature": "s"}],
                }
            ]
        },
        "thinking blocks are not allowed in user messages",
    ),
    (
        {
            "messages": [
                {"role": "user", "content": "x"},
                {
                    "role": "assistant",
                    "content": [{"type": "tool_result", "tool_use_id": "a", "content": "x"}],
                },
            ]
        },
        "tool_result blocks are not allowed in assistant messages",
    ),
    (
        {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "image",
                            "source": {"type": "base64", "media_type": "image/bmp", "data": "x"},
                        }
                    ],
                }
            ]
        },
        "messages.0.content.0.source.media_type",
    ),
    ({"system": 5}, "system: Input should be a string or an array"),
    ({"system": [{"type": "image", "source": {}}]}, "system.0.type"),
    ({"stream": 1}, "stream: Input should be a boolean"),
    ({"tools": [msg_tool("bad name")]}, "tools.0.name"),
    ({"tools": [{"name": "no_schema"}]}, "tools.0.input_schema: Field required"),
    ({"tools": [msg_tool("same"), msg_tool("same")]}, "function name same is duplicated"),
    ({"tools": [msg_tool("w", ENUM_NO_TYPE)]}, "At path 'properties.unit': type is not defined"),
    ({"tools": [{"type": "web_search_20250305", "name": "search"}]}, "tools.0.name"),
    (
        {"tools": [{"type": "web_search_20250305", "name": "web_search", "max_uses": 0}]},
        "tools.0.max_uses",
    ),
    ({"tool_choice": {"type": "any"}}, "tool_choice any requires at least one tool"),
    ({"tool_choice": {"type": "tool", "name": "x"}, "tools": [msg_tool("x")]}, "tool_choice.type"),
    ({"tool_choice": "auto"}, "tool_choice: Input should be an object"),
    ({"metadata": {"user_id": 5}}, "metadata.user_id"),
    ({"cache_control": {"type": "persistent"}}, "cache_control.type"),
    ({"cache_control": {"type": "ephemeral", "ttl": "2h"}}, "cache_control.ttl"),
    ({"output_config": {"format": {"type": "json_object"}}}, "output_config.format.type"),
    (
        {"output_config": {"format": {"type": "json_schema"}}},
        "output_config.format.schema: Field required",
    ),
]


@pytest.mark.parametrize(("extra", "expected"), MESSAGES_CASES)
def test_messages_rules(wire: Wire, extra: dict[str, Any], expected: str) -> None:
    detail = wire.error("messages", messages_body(**extra))
    assert expected in detail["message"]
    assert detail["type"] == "invalid_request_error"


@pytest.mark.parametrize("stream", [False, True])
def test_messages_needs_no_anthropic_version_header(
    wire: Wire, standin: KimiStandIn, stream: bool
) -> None:
    # The Kimi documents send none (evolink's curl example) and declare none required.
    response = wire.client.post(
        "/v1/messages",
        json=messages_body(stream=stream),
        headers={"Authorization": "Bearer test-key"},
    )
    assert response.status_code == 200, response.text
    if stream:
        assert "event: message_stop" in response.text
    else:
        assert response.json()["type"] == "message"


def test_the_anthropic_version_header_can_be_required_as_anthropic_does(
    wire: Wire, standin: KimiStandIn
) -> None:
    standin.require_anthropic_version = True
    response = wire.client.post(
        "/v1/messages", json=messages_body(), headers={"Authorization": "Bearer test-key"}
    )
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "anthropic-version: header is required"
    response = wire.client.post(
        "/v1/messages",
        json=messages_body(),
        headers={"Authorization": "Bearer test-key", "anthropic-version": "2023-06-01"},
    )
    assert response.status_code == 200


def test_messages_accepts_the_documented_shapes(wire: Wire) -> None:
    wire.ok(
        "messages",
        messages_body(
            system=[{"type": "text", "text": "Be brief."}],
            tools=[
                msg_tool("get_weather"),
                {"type": "web_search_20250305", "name": "web_search", "max_uses": 2},
            ],
            tool_choice={"type": "any"},
            metadata={"user_id": "u-1"},
            cache_control={"type": "ephemeral", "ttl": "1h"},
            output_config={
                "effort": "low",
                "format": {"type": "json_schema", "schema": {"type": "object"}},
            },
            stop_sequences=["END"],
        ),
    )


def signed_history(standin: KimiStandIn, thinking: str = "Call the tool.") -> dict[str, Any]:
    return messages_body(
        messages=[
            {"role": "user", "content": "Weather in Oslo?"},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "thinking",
                        "thinking": thinking,
                        "signature": standin.sign_thinking(thinking),
                    },
                    {
                        "type": "tool_use",
                        "id": "functions.get_weather:0",
                        "name": "get_weather",
                        "input": {"city": "Oslo"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "functions.get_weather:0",
                        "content": "5 C",
                    }
                ],
            },
        ],
        tools=[msg_tool("get_weather")],
    )


def test_messages_thinking_signatures_are_checked(wire: Wire, standin: KimiStandIn) -> None:
    wire.ok("messages", signed_history(standin))
    edited = signed_history(standin)
    edited["messages"][1]["content"][0]["thinking"] = "Call the tool!"
    assert wire.error("messages", edited)["message"] == (
        "messages.1.content.0: Invalid `signature` in `thinking` block"
    )
    forged = signed_history(standin)
    forged["messages"][1]["content"][0]["signature"] = "EsAAAA=="
    assert "Invalid `signature`" in wire.error("messages", forged)["message"]
    # Kimi accepts a thinking block that came without a signature (absent or "")
    empty = signed_history(standin)
    empty["messages"][1]["content"][0]["signature"] = ""
    wire.ok("messages", empty)
    unsigned = signed_history(standin)
    del unsigned["messages"][1]["content"][0]["signature"]
    wire.ok("messages", unsigned)
    with KimiStandIn() as other:
        foreign = signed_history(other)
    assert "Invalid `signature`" in wire.error("messages", foreign)["message"]


def test_messages_signatures_can_be_made_stable_with_a_secret() -> None:
    one, two = KimiStandIn(secret=b"s"), KimiStandIn(secret=b"s")
    assert one.sign_thinking("x") == two.sign_thinking("x") != one.sign_thinking("y")


def test_messages_tool_result_must_answer_an_earlier_tool_use(
    wire: Wire, standin: KimiStandIn
) -> None:
    body = signed_history(standin)
    body["messages"][2]["content"][0]["tool_use_id"] = "functions_get_weather_0"
    assert wire.error("messages", body)["message"] == (
        "messages.2.content.0.tool_use_id: tool_call_id functions_get_weather_0 is not found"
    )


# ------------------------------------------------------------------------- Responses rules


def fc(call_id: str = "functions.get_weather:0") -> dict[str, Any]:
    return {"type": "function_call", "call_id": call_id, "name": "get_weather", "arguments": "{}"}


def fco(call_id: str = "functions.get_weather:0") -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": "5 C"}


USER = {"role": "user", "content": "Weather?"}

RESPONSES_CASES: list[tuple[dict[str, Any], str]] = [
    ({"input": []}, "input"),
    ({"input": 5}, "input"),
    ({"input": [{"type": "bogus"}]}, "input[0].type"),
    ({"input": [{"role": "tool", "content": "x"}]}, "input[0].role"),
    (
        {"input": [{"role": "user", "content": [{"type": "text", "text": "x"}]}]},
        "input[0].content[0].type",
    ),
    (
        {"input": [USER, {"type": "function_call", "call_id": "c", "name": "f"}]},
        "input[1].arguments",
    ),
    ({"instructions": ["x"]}, "instructions"),
    ({"reasoning": {"summary": "verbose"}}, "reasoning.summary"),
    ({"text": {"format": {"type": "json_object"}}}, "text.format.type"),
    ({"text": {"format": {"type": "json_schema"}}}, "text.format.schema"),
    ({"tools": [resp_tool("has space")]}, "tools[0].name"),
    ({"tools": [resp_tool("same"), resp_tool("same")]}, "function name same is duplicated"),
    ({"tools": [resp_tool("w", ENUM_NO_TYPE)]}, "At path 'properties.unit': type is not defined"),
    ({"tools": [{"type": "file_search"}]}, "tools[0].type"),
    (
        {"tools": [{"type": "namespace", "name": "crm", "tools": [resp_tool("bad name")]}]},
        "tools[0].tools[0].name",
    ),
    ({"tool_choice": "required"}, "tool_choice 'required' requires at least one tool"),
    (
        {"tool_choice": {"type": "function", "name": "f"}, "tools": [resp_tool("f")]},
        "incompatible with thinking",
    ),
    ({"include": ["reasoning.encrypted_content"]}, "include[0]"),
    ({"prompt_cache_options": {"ttl": "24h"}}, "prompt_cache_options.ttl"),
]


@pytest.mark.parametrize(("extra", "expected"), RESPONSES_CASES)
def test_responses_rules(wire: Wire, extra: dict[str, Any], expected: str) -> None:
    detail = wire.error("responses", responses_body(**extra))
    assert expected in detail["message"]
    assert detail["type"] == "invalid_request_error"


def test_responses_rejects_previous_response_id(wire: Wire) -> None:
    detail = wire.error("responses", responses_body(previous_response_id="resp_1"))
    assert "previous_response_id is not supported" in detail["message"]
    assert "stateless" in detail["message"]
    assert detail["param"] == "previous_response_id"


def test_responses_input_is_required(wire: Wire) -> None:
    assert (
        wire.error("responses", {"model": K31})["message"] == "Missing required parameter: 'input'."
    )


def test_responses_function_call_needs_its_output(wire: Wire) -> None:
    detail = wire.error("responses", responses_body(input=[USER, fc()]))
    assert detail == {
        "message": "No tool output found for function call functions.get_weather:0.",
        "type": "invalid_request_error",
        "code": None,
        "param": "input",
    }
    orphan = wire.error("responses", responses_body(input=[USER, fco("functions.x:9")]))
    assert orphan["message"] == (
        "No tool call found for function call output with call_id functions.x:9."
    )
    custom = {
        "type": "custom_tool_call",
        "call_id": "apply_patch:0",
        "name": "apply_patch",
        "input": "*",
    }
    assert wire.error("responses", responses_body(input=[USER, custom]))["message"] == (
        "No tool output found for custom tool call apply_patch:0."
    )
    wire.ok("responses", responses_body(input=[USER, fc(), fco()]))
    wire.ok("responses", responses_body(input=[USER, fc(), fco(), fc(), fco()]))  # ids repeat
    wire.ok(
        "responses",
        responses_body(
            input=[
                USER,
                custom,
                {"type": "custom_tool_call_output", "call_id": "apply_patch:0", "output": "ok"},
            ]
        ),
    )


def test_responses_accepts_the_documented_shapes(wire: Wire) -> None:
    wire.ok(
        "responses",
        responses_body(
            input=[
                {"role": "developer", "content": "Be brief."},
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": "Hi"}],
                },
                {
                    "type": "reasoning",
                    "id": "rs_1",
                    "summary": [],
                    "content": [{"type": "reasoning_text", "text": "x"}],
                },
                {
                    "type": "message",
                    "role": "assistant",
                    "id": "msg_1",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": "Hello", "annotations": []}],
                },
                {
                    "role": "user",
                    "content": [{"type": "input_image", "image_url": "data:image/png;base64,AA=="}],
                },
            ],
            instructions="Answer.",
            max_output_tokens=500,
            reasoning={"effort": "high", "summary": "auto"},
            text={
                "format": {
                    "type": "json_schema",
                    "name": "r",
                    "schema": {"type": "object"},
                    "strict": True,
                }
            },
            tools=[
                resp_tool("get_weather"),
                {"type": "namespace", "name": "crm", "tools": [resp_tool("lookup")]},
                {"type": "custom", "name": "apply_patch", "format": {"type": "text"}},
                {"type": "web_search"},
            ],
            tool_choice="required",
            include=["web_search_call.results", "web_search_call.action.sources"],
            prompt_cache_key="k",
            prompt_cache_options={"mode": "implicit", "ttl": "1h"},
            safety_identifier="u",
        ),
    )


# ------------------------------------------------------------------- wording of type errors


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            {"safety_identifier": None},
            "Invalid type for 'safety_identifier': expected a string, but got null instead.",
        ),
        ({"stream": 1.5}, "Invalid type for 'stream': expected a boolean, but got number instead."),
        (
            {"prompt_cache_key": True},
            "Invalid type for 'prompt_cache_key': expected a string, but got boolean instead.",
        ),
        (
            {"stream_options": []},
            "Invalid type for 'stream_options': expected an object, but got array instead.",
        ),
        (
            {"messages": [{"role": "user", "content": {"text": "x"}}]},
            "Invalid type for 'messages[0].content': expected a string or an array, but got object "
            "instead.",
        ),
        (
            {"messages": [5]},
            "Invalid type for 'messages[0]': expected an object, but got integer instead.",
        ),
    ],
)
def test_chat_type_errors(wire: Wire, extra: dict[str, Any], message: str) -> None:
    detail = wire.error("chat", chat_body(**extra))
    assert message in detail["message"]
    assert detail["param"] in message


@pytest.mark.parametrize(
    ("fmt", "extra", "expected"),
    [
        ("chat", {"prediction": {"type": "content"}}, "'prediction.content'"),
        (
            "chat",
            {
                "tools": [
                    fn_tool(
                        "f",
                        {
                            "type": "object",
                            "properties": {
                                "a": {
                                    "type": "array",
                                    "items": {"properties": {"b": {"enum": ["x"]}}},
                                }
                            },
                        },
                    )
                ]
            },
            "At path 'properties.a.items.properties.b': type is not defined",
        ),
        (
            "messages",
            {
                "messages": [
                    {"role": "user", "content": "x"},
                    {
                        "role": "assistant",
                        "content": [{"type": "web_search_tool_result", "tool_use_id": "s"}],
                    },
                ]
            },
            "messages.1.content.0.content: Field required",
        ),
        (
            "messages",
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "image",
                                "source": {"type": "base64", "media_type": "image/png"},
                            }
                        ],
                    }
                ]
            },
            "messages.0.content.0.source.data: Field required",
        ),
        (
            "messages",
            {"tools": [{"type": "computer", "name": "c", "input_schema": {}}]},
            "tools.0.type",
        ),
        ("responses", {"input": [{"type": "message", "role": "user"}]}, "'input[0].content'"),
        (
            "responses",
            {"input": [{"type": "function_call_output", "call_id": "c"}]},
            "'input[0].output'",
        ),
        (
            "responses",
            {"input": [{"role": "assistant", "content": [{"type": "refusal"}]}]},
            "'input[0].content[0].refusal'",
        ),
    ],
)
def test_missing_nested_fields(wire: Wire, fmt: str, extra: dict[str, Any], expected: str) -> None:
    assert expected in wire.error(fmt, BODY[fmt](**extra))["message"]


def test_a_service_template_the_value_does_not_fit_falls_back_to_the_rule() -> None:
    from kimi_ext._core.contract import Violation
    from kimi_ext.testing.rules import Checker

    broken = Violation(("tools", 0, "name"), "x", "must be unique", service="{value[name]}")
    assert Checker("openai").violation(broken).message == "Invalid 'tools[0].name': must be unique"
    fitting = Violation(("n",), 2, "is fixed", service="invalid {path}: {value!r} is not allowed")
    assert Checker("anthropic").violation(fitting).message == "invalid n: 2 is not allowed"


def test_messages_tool_use_turn_without_thinking_is_rejected_with_its_index(
    wire: Wire, standin: KimiStandIn
) -> None:
    body = signed_history(standin)
    del body["messages"][1]["content"][0]  # the thinking block
    assert wire.post("messages", body).status_code == 400
    detail = wire.error("messages", body)
    assert detail == {
        "type": "invalid_request_error",
        "message": "thinking is enabled but reasoning_content is missing in assistant tool call "
        "message at index 1",
    }
    # A model whose turns may lack thinking (the spec's thinking-optional) is spared.
    assert not contract("messages").thinking_required("kimi-k3")
    wire.ok("messages", {**body, "model": "kimi-k3"})
    # A turn without tool_use needs no thinking block; an unsigned one counts as thinking.
    text_only = signed_history(standin)
    text_only["messages"][1]["content"] = [{"type": "text", "text": "Let me check."}]
    del text_only["messages"][2]
    wire.ok("messages", text_only)
    unsigned = signed_history(standin)
    del unsigned["messages"][1]["content"][0]["signature"]
    wire.ok("messages", unsigned)
