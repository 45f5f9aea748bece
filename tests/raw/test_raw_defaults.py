"""Documented request defaults stay off the wire in all three raw clients.

The specs document every request default (`stream: false`, effort `max`,
`max_output_tokens: 131072`, the model, cache TTL `5m`, ...) on a small named component
schema that the request property `$ref`s. openapi-python-client fills an inline `default:`
into the generated constructor, but not a referenced one, so a raw user who leaves a field
out sends nothing for it. The only values a constructor fills in are the `const` `type`
discriminators of Messages blocks and tools (a block must always carry its `type`).

These tests pin that for Chat, Messages and Responses: models built from their required
fields send exactly those fields, explicitly passed values (defaults included) are still
sent, and the Messages request takes the fixed sampling fields `temperature` and `top_p`.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from kimi_raw.chat import AuthenticatedClient as ChatClient
from kimi_raw.chat.api.chat import create_chat_completion
from kimi_raw.chat.models import (
    ChatModel,
    CreateChatCompletionRequest,
    FunctionDefinition,
    FunctionTool,
    JsonSchemaFormat,
    JsonSchemaFormatSchema,
    PromptCacheOptions,
    PromptCacheTtl,
    ReasoningEffort,
    ResponseFormatJsonSchema,
    StreamOptions,
    TextPart,
    UserMessage,
)
from kimi_raw.messages import AuthenticatedClient as MessagesClient
from kimi_raw.messages import models as m
from kimi_raw.messages.api.messages import create_message
from kimi_raw.messages.types import UNSET as MESSAGES_UNSET
from kimi_raw.responses import AuthenticatedClient as ResponsesClient
from kimi_raw.responses import models as r
from kimi_raw.responses.api.responses import create_response
from kimi_raw.responses.types import UNSET as RESPONSES_UNSET
from pytest_httpserver import HTTPServer

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
FORMATS = ("chat", "messages", "responses")
REQUEST_ROOTS = {
    "chat": "CreateChatCompletionRequest",
    "messages": "CreateMessageRequest",
    "responses": "CreateResponseRequest",
}
HI_MESSAGES = [{"role": "user", "content": "hi"}]


def load(fmt: str, name: str) -> Any:
    return json.loads((FIXTURES / fmt / name).read_text(encoding="utf-8"))


# ------------------------------------------------- no constructor defaults but constants


def constructor_defaults(fmt: str) -> Iterator[tuple[str, str, str, Any]]:
    """(class, attribute, annotation, default) of every constructor default but UNSET."""
    models = importlib.import_module(f"kimi_raw.{fmt}.models")
    unset = importlib.import_module(f"kimi_raw.{fmt}.types").UNSET
    for name in models.__all__:
        cls = getattr(models, name)
        if not attrs.has(cls):
            continue
        for field in attrs.fields(cls):
            if field.init and field.default is not attrs.NOTHING and field.default is not unset:
                yield name, field.name, str(field.type), field.default


@pytest.mark.parametrize("fmt", FORMATS)
def test_only_const_fields_have_constructor_defaults(fmt: str) -> None:
    for cls, attr, annotation, default in constructor_defaults(fmt):
        # A `const` field generates `Literal['value']` with that value as its default.
        assert annotation == f"Literal[{default!r}]", (cls, attr, annotation, default)


def test_the_const_defaults_are_the_messages_type_discriminators() -> None:
    assert not list(constructor_defaults("chat"))
    assert not list(constructor_defaults("responses"))
    filled = {(cls, attr) for cls, attr, _, _ in constructor_defaults("messages")}
    assert {attr for _, attr in filled} == {"type_", "name"}
    assert {cls for cls, attr in filled if attr == "name"} == {"WebSearchTool"}
    for cls in ("TextBlock", "ImageBlock", "ToolResultBlock", "WebSearchTool"):
        assert (cls, "type_") in filled


# -------------------------------------------- built from required fields: only those sent

MINIMAL: dict[str, list[tuple[str, Callable[[], Any], dict[str, Any]]]] = {
    "chat": [
        (
            "request",
            lambda: CreateChatCompletionRequest(
                model=ChatModel.KIMI_K3_1_PRO, messages=[UserMessage(role="user", content="hi")]
            ),
            {"model": "kimi-k3.1-pro", "messages": HI_MESSAGES},
        ),
        ("prompt_cache_options", PromptCacheOptions, {}),
        ("stream_options", StreamOptions, {}),
        (
            "function_tool",
            lambda: FunctionTool(type_="function", function=FunctionDefinition(name="f")),
            {"type": "function", "function": {"name": "f"}},
        ),
        (
            "json_schema_format",
            lambda: ResponseFormatJsonSchema(
                type_="json_schema",
                json_schema=JsonSchemaFormat(name="n", schema=JsonSchemaFormatSchema()),
            ),
            {"type": "json_schema", "json_schema": {"name": "n", "schema": {}}},
        ),
        ("text_part", lambda: TextPart(type_="text", text="x"), {"type": "text", "text": "x"}),
    ],
    "messages": [
        (
            "request",
            lambda: m.CreateMessageRequest(
                model=m.CreateMessageRequestModel.KIMI_K3_1_PRO,
                max_tokens=1,
                messages=[m.MessageParam(role=m.MessageParamRole.USER, content="hi")],
            ),
            {"model": "kimi-k3.1-pro", "max_tokens": 1, "messages": HI_MESSAGES},
        ),
        ("output_config", m.OutputConfig, {}),
        (
            "cache_control",
            lambda: m.CacheControl(type_=m.CacheControlType.EPHEMERAL),
            {"type": "ephemeral"},
        ),
        (
            "tool_choice",
            lambda: m.ToolChoice(type_=m.ToolChoiceType.ANY),
            {"type": "any"},
        ),
        ("metadata", m.RequestMetadata, {}),
        (
            "custom_tool",
            lambda: m.CustomTool(name="f", input_schema=m.CustomToolInputSchema()),
            {"name": "f", "input_schema": {}},
        ),
        (
            "web_search_tool",
            m.WebSearchTool,
            {"type": "web_search_20250305", "name": "web_search"},
        ),
        (
            "output_format",
            lambda: m.OutputFormat(
                type_=m.OutputFormatType.JSON_SCHEMA, schema=m.OutputFormatSchema()
            ),
            {"type": "json_schema", "schema": {}},
        ),
        ("text_block", lambda: m.TextBlock(text="x"), {"type": "text", "text": "x"}),
        (
            "thinking_block",
            lambda: m.ThinkingBlock(thinking="t"),
            {"type": "thinking", "thinking": "t"},
        ),
        (
            "image_block",
            lambda: m.ImageBlock(source=m.UrlImageSource(url="ms://f")),
            {"type": "image", "source": {"type": "url", "url": "ms://f"}},
        ),
        (
            "base64_source",
            lambda: m.Base64ImageSource(
                media_type=m.Base64ImageSourceMediaType.IMAGEPNG, data="QQ=="
            ),
            {"type": "base64", "media_type": "image/png", "data": "QQ=="},
        ),
        (
            "tool_use_block",
            lambda: m.ToolUseBlock(id="functions.f:0", name="f", input_=m.ToolUseBlockInput()),
            {"type": "tool_use", "id": "functions.f:0", "name": "f", "input": {}},
        ),
        (
            "tool_result_block",
            lambda: m.ToolResultBlock(tool_use_id="functions.f:0", content="x"),
            {"type": "tool_result", "tool_use_id": "functions.f:0", "content": "x"},
        ),
    ],
    "responses": [
        (
            "request",
            lambda: r.CreateResponseRequest(
                model=r.CreateResponseRequestModel.KIMI_K3_1_PRO, input_="hi"
            ),
            {"model": "kimi-k3.1-pro", "input": "hi"},
        ),
        ("reasoning", r.ReasoningConfig, {}),
        ("prompt_cache_options", r.PromptCacheOptions, {}),
        ("text", r.TextConfig, {}),
        (
            "text_format_json_schema",
            lambda: r.TextFormatJsonSchema(
                type_="json_schema", schema=r.TextFormatJsonSchemaSchema()
            ),
            {"type": "json_schema", "schema": {}},
        ),
        (
            "function_tool",
            lambda: r.FunctionTool(type_="function", name="f"),
            {"type": "function", "name": "f"},
        ),
        (
            "tool_choice_object",
            lambda: r.ToolChoiceObject(type_=r.ToolChoiceObjectType.AUTO),
            {"type": "auto"},
        ),
        (
            "input_message",
            lambda: r.InputMessage(role=r.InputMessageRole.USER, content="hi"),
            {"role": "user", "content": "hi"},
        ),
        (
            "input_image_part",
            lambda: r.InputImagePart(type_="input_image"),
            {"type": "input_image"},
        ),
        (
            "function_call_output",
            lambda: r.FunctionCallOutputItem(
                type_="function_call_output", call_id="functions.f:0", output="ok"
            ),
            {"type": "function_call_output", "call_id": "functions.f:0", "output": "ok"},
        ),
    ],
}


@pytest.mark.parametrize(
    ("build", "expected"),
    [
        pytest.param(build, expected, id=f"{fmt}-{name}")
        for fmt, cases in MINIMAL.items()
        for name, build, expected in cases
    ],
)
def test_built_from_required_fields_sends_only_those(
    build: Callable[[], Any], expected: dict[str, Any]
) -> None:
    model = build()
    assert model.to_dict() == expected
    # from_dict of that JSON keeps it as it is, too
    assert type(model).from_dict(expected).to_dict() == expected


def test_omitted_request_fields_stay_unset() -> None:
    messages = MINIMAL["messages"][0][1]()
    for name in ("stream", "temperature", "top_p", "output_config", "cache_control"):
        assert getattr(messages, name) is MESSAGES_UNSET, name
    assert m.OutputConfig().effort is MESSAGES_UNSET
    assert m.CacheControl(type_=m.CacheControlType.EPHEMERAL).ttl is MESSAGES_UNSET
    assert m.ToolResultBlock(tool_use_id="t", content="x").is_error is MESSAGES_UNSET
    responses = MINIMAL["responses"][0][1]()
    for name in ("stream", "max_output_tokens", "reasoning", "prompt_cache_options"):
        assert getattr(responses, name) is RESPONSES_UNSET, name
    assert r.ReasoningConfig().effort is RESPONSES_UNSET
    assert r.PromptCacheOptions().ttl is RESPONSES_UNSET


def test_model_is_a_required_constructor_argument() -> None:
    # The model's documented default is not filled in either: leaving it out is an error
    # in the constructor instead of a silent `kimi-k3.1-pro` on the wire.
    with pytest.raises(TypeError):
        m.CreateMessageRequest(max_tokens=1, messages=[])  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        r.CreateResponseRequest(input_="hi")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        m.ToolChoice()  # type: ignore[call-arg]


# ---------------------------------------------------- explicit values are still sent


def explicit_chat() -> tuple[Any, dict[str, Any]]:
    request = CreateChatCompletionRequest(
        model=ChatModel.KIMI_K3_1_PRO,
        messages=[UserMessage(role="user", content="hi")],
        stream=False,
        max_completion_tokens=131072,
        reasoning_effort=ReasoningEffort.MAX,
        logprobs=False,
        prompt_cache_options=PromptCacheOptions(ttl=PromptCacheTtl.FIVE_MINUTES),
        temperature=1,
        top_p=0.95,
        n=1,
    )
    return request, {
        "model": "kimi-k3.1-pro",
        "messages": HI_MESSAGES,
        "stream": False,
        "max_completion_tokens": 131072,
        "reasoning_effort": "max",
        "logprobs": False,
        "prompt_cache_options": {"ttl": "5m"},
        "temperature": 1,
        "top_p": 0.95,
        "n": 1,
    }


def explicit_messages() -> tuple[Any, dict[str, Any]]:
    request = m.CreateMessageRequest(
        model=m.CreateMessageRequestModel.KIMI_K3_1_PRO,
        max_tokens=1024,
        messages=[
            m.MessageParam(
                role=m.MessageParamRole.USER,
                content=[
                    m.ToolResultBlock(tool_use_id="functions.f:0", content="x", is_error=False)
                ],
            )
        ],
        stream=False,
        tool_choice=m.ToolChoice(type_=m.ToolChoiceType.AUTO),
        cache_control=m.CacheControl(
            type_=m.CacheControlType.EPHEMERAL, ttl=m.CacheControlTtl.MINUTES_5
        ),
        output_config=m.OutputConfig(effort=m.OutputConfigEffort.MAX),
        temperature=1,
        top_p=0.95,
    )
    return request, {
        "model": "kimi-k3.1-pro",
        "max_tokens": 1024,
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "functions.f:0",
                        "content": "x",
                        "is_error": False,
                    }
                ],
            }
        ],
        "stream": False,
        "tool_choice": {"type": "auto"},
        "cache_control": {"type": "ephemeral", "ttl": "5m"},
        "output_config": {"effort": "max"},
        "temperature": 1,
        "top_p": 0.95,
    }


def explicit_responses() -> tuple[Any, dict[str, Any]]:
    request = r.CreateResponseRequest(
        model=r.CreateResponseRequestModel.KIMI_K3_1_PRO,
        input_="hi",
        stream=False,
        max_output_tokens=131072,
        reasoning=r.ReasoningConfig(effort=r.ReasoningConfigEffort.MAX),
        prompt_cache_options=r.PromptCacheOptions(
            mode=r.PromptCacheOptionsMode.IMPLICIT, ttl=r.PromptCacheOptionsTtl.VALUE_0
        ),
    )
    return request, {
        "model": "kimi-k3.1-pro",
        "input": "hi",
        "stream": False,
        "max_output_tokens": 131072,
        "reasoning": {"effort": "max"},
        "prompt_cache_options": {"mode": "implicit", "ttl": "5m"},
    }


EXPLICIT = {"chat": explicit_chat, "messages": explicit_messages, "responses": explicit_responses}


@pytest.mark.parametrize("fmt", FORMATS)
def test_explicit_values_equal_to_the_defaults_are_sent(fmt: str) -> None:
    request, expected = EXPLICIT[fmt]()
    assert request.to_dict() == expected
    assert type(request).from_dict(expected).to_dict() == expected


def test_explicit_non_default_values_are_sent() -> None:
    messages = MINIMAL["messages"][0][1]()
    messages.stream = True
    messages.output_config = m.OutputConfig(effort=m.OutputConfigEffort.LOW)
    assert messages.to_dict() == {
        "model": "kimi-k3.1-pro",
        "max_tokens": 1,
        "messages": HI_MESSAGES,
        "stream": True,
        "output_config": {"effort": "low"},
    }
    responses = MINIMAL["responses"][0][1]()
    responses.stream = True
    responses.max_output_tokens = 64
    responses.reasoning = r.ReasoningConfig(effort=r.ReasoningConfigEffort.HIGH)
    assert responses.to_dict() == {
        "model": "kimi-k3.1-pro",
        "input": "hi",
        "stream": True,
        "max_output_tokens": 64,
        "reasoning": {"effort": "high"},
    }


# ----------------------------------------------------------------------- on the wire


def send(httpserver: HTTPServer, fmt: str, body: Any) -> Any:
    """Send `body` with the format's generated function; return the JSON on the wire."""
    path = {"chat": "/v1/chat/completions", "messages": "/v1/messages"}.get(fmt, "/v1/responses")
    httpserver.expect_oneshot_request(path, method="POST").respond_with_json(
        load(fmt, "response_text.json")
    )
    base_url = httpserver.url_for("")
    if fmt == "chat":
        create_chat_completion.sync_detailed(
            client=ChatClient(base_url=base_url, token="k"), body=body
        )
    elif fmt == "messages":
        create_message.sync_detailed(client=MessagesClient(base_url=base_url, token="k"), body=body)
    else:
        create_response.sync_detailed(
            client=ResponsesClient(base_url=base_url, token="k"), body=body
        )
    httpserver.check_assertions()
    request, _ = httpserver.log[-1]
    return json.loads(request.get_data())


@pytest.mark.parametrize("fmt", FORMATS)
def test_minimal_and_explicit_requests_on_the_wire(httpserver: HTTPServer, fmt: str) -> None:
    _, build, expected = MINIMAL[fmt][0]
    assert send(httpserver, fmt, build()) == expected
    request, expected = EXPLICIT[fmt]()
    assert send(httpserver, fmt, request) == expected


# --------------------------------------------------- Messages: temperature and top_p


def test_messages_request_takes_temperature_and_top_p(httpserver: HTTPServer) -> None:
    request = MINIMAL["messages"][0][1]()
    request.temperature = 1
    request.top_p = 0.95
    expected = {
        "model": "kimi-k3.1-pro",
        "max_tokens": 1,
        "messages": HI_MESSAGES,
        "temperature": 1,
        "top_p": 0.95,
    }
    assert request.to_dict() == expected
    parsed = m.CreateMessageRequest.from_dict(expected)
    assert (parsed.temperature, parsed.top_p) == (1, 0.95)
    assert parsed.additional_properties == {}  # typed fields, not unknown extras
    assert send(httpserver, "messages", parsed) == expected


@pytest.fixture(scope="module")
def specs() -> dict[str, dict[str, Any]]:
    yaml = pytest.importorskip("ruamel.yaml")
    loader = yaml.YAML(typ="safe", pure=True)
    return {
        fmt: loader.load((ROOT / "openapi" / f"{fmt}.yaml").read_text("utf-8")) for fmt in FORMATS
    }


def test_messages_spec_states_the_fixed_sampling_values(specs: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schemas = specs["messages"]["components"]["schemas"]
    props = schemas["CreateMessageRequest"]["properties"]
    chat = specs["chat"]["components"]["schemas"]
    for field, component, value in [
        ("temperature", "FixedTemperature", 1),
        ("top_p", "FixedTopP", 0.95),
    ]:
        assert props[field] == {"$ref": f"#/components/schemas/{component}"}
        fixed = schemas[component]
        assert (fixed["type"], fixed["minimum"], fixed["maximum"], fixed["default"]) == (
            "number",
            value,
            value,
            value,
        )
        # the same constraints as the Chat spec's component of that name
        assert {k: fixed[k] for k in ("type", "minimum", "maximum", "default")} == {
            k: chat[component][k] for k in ("type", "minimum", "maximum", "default")
        }
    validator = jsonschema.Draft202012Validator(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": "#/components/schemas/CreateMessageRequest",
            "components": specs["messages"]["components"],
        }
    )
    base = {"model": "kimi-k3.1-pro", "max_tokens": 1, "messages": HI_MESSAGES}
    assert validator.is_valid({**base, "temperature": 1, "top_p": 0.95})
    assert not validator.is_valid({**base, "temperature": 0.7})
    assert not validator.is_valid({**base, "top_p": 1})


# ------------------------------------------------ where the specs keep their defaults


def reachable(schemas: dict[str, Any], root: str) -> set[str]:
    seen: set[str] = set()
    todo = [root]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in walk(schemas[name]):
            ref = node.get("$ref")
            if isinstance(ref, str):
                todo.append(ref.rsplit("/", 1)[-1])
    return seen


def walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


@pytest.mark.parametrize("fmt", FORMATS)
def test_request_defaults_sit_on_referenced_components(specs: dict[str, Any], fmt: str) -> None:
    """Inside a request schema, only a `const` may carry an inline `default:`."""
    schemas = specs[fmt]["components"]["schemas"]
    names = reachable(schemas, REQUEST_ROOTS[fmt])
    documented = set()
    for name in names:
        schema = schemas[name]
        if "default" in schema:
            documented.add(name)
        for node in walk(schema):
            if node is not schema and "default" in node:
                assert node.get("const") == node["default"], (name, node)
    expected = {
        "chat": {"ChatModel", "ReasoningEffort", "MaxCompletionTokens", "StreamFlag"},
        "messages": {
            "CreateMessageRequestModel",
            "StreamFlag",
            "OutputConfigEffort",
            "CacheControlTtl",
            "ToolChoiceType",
            "ToolResultErrorFlag",
            "FixedTemperature",
            "FixedTopP",
        },
        "responses": {
            "CreateResponseRequestModel",
            "StreamFlag",
            "MaxOutputTokens",
            "ReasoningConfigEffort",
            "PromptCacheOptionsTtl",
        },
    }[fmt]
    assert expected <= documented


def test_documented_default_values(specs: dict[str, Any]) -> None:
    messages = specs["messages"]["components"]["schemas"]
    assert messages["CreateMessageRequestModel"]["default"] == "kimi-k3.1-pro"
    assert messages["StreamFlag"]["default"] is False
    assert messages["OutputConfigEffort"]["default"] == "max"
    assert messages["CacheControlTtl"]["default"] == "5m"
    assert messages["ToolChoiceType"]["default"] == "auto"
    assert messages["ToolResultErrorFlag"]["default"] is False
    responses = specs["responses"]["components"]["schemas"]
    assert responses["CreateResponseRequestModel"]["default"] == "kimi-k3.1-pro"
    assert responses["StreamFlag"]["default"] is False
    max_output = responses["MaxOutputTokens"]
    assert (max_output["minimum"], max_output["maximum"], max_output["default"]) == (
        1,
        1048576,
        131072,
    )
    assert responses["ReasoningConfigEffort"]["default"] == "max"
    assert responses["PromptCacheOptionsTtl"]["default"] == "5m"
