"""Documented request defaults stay off the wire in all three raw clients.

The specs document every request default (`stream: false`, effort `max`,
`max_output_tokens: 131072`, the model, cache TTL `5m`, ...) on a small named component
schema that the request property `$ref`s. openapi-python-client fills an inline `default:`
into the generated constructor, but not a referenced one, so a raw user who leaves a field
out sends nothing for it. The only values a constructor fills in are `const`s: the `type`
of every object whose `type` can have one value only (blocks, parts, items, tools, formats,
events: an object built in code always carries its `type`), the `role` of every request
message whose `role` can have one value only (the Chat messages: `UserMessage(content=...)`
carries `role: user`), and the fixed `name` of the Messages web search tool and of the
Responses apply_patch tool.

These tests pin that for Chat, Messages and Responses: models built from their required
fields send exactly those fields (plus their `type` / `role`), explicitly passed values
(defaults included) are still sent, a filled-in `type` or `role` never changes how received
JSON parses, the cache TTL enums have readable member names, and the Messages request takes
the fixed sampling fields `temperature` and `top_p`.

This is the one suite for documented defaults in the raw clients (the per-format raw tests
leave them here): every case is parametrized over the three formats.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Any

import attrs
import pytest
from kimi_raw.chat import AuthenticatedClient as ChatClient
from kimi_raw.chat.api.chat import create_chat_completion
from kimi_raw.chat.models import (
    AssistantMessage,
    ChatModel,
    CreateChatCompletionRequest,
    DynamicToolsMessage,
    FunctionDefinition,
    FunctionTool,
    ImageUrl,
    JsonSchemaFormat,
    JsonSchemaFormatSchema,
    PromptCacheOptions,
    PromptCacheTtl,
    ReasoningEffort,
    ResponseFormatJsonSchema,
    StreamOptions,
    SystemMessage,
    TextPart,
    ToolMessage,
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

from kimi_ext import RequestValidationError
from kimi_ext._core.contract.validation import validate
from tests.support.paths import ROOT

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
        # A `const` field generates `Literal['value']` with that value as its default
        # (`Literal['value'] | Unset` where the field is optional, as a Responses message's
        # `type` is).
        const = f"Literal[{default!r}]"
        assert annotation in (const, f"{const} | Unset"), (cls, attr, annotation, default)


FIXED_NAMES = {"chat": set(), "messages": {"WebSearchTool"}, "responses": {"ApplyPatchTool"}}
# The request messages whose `role` has one value. Only Chat has them: a Messages
# `MessageParam.role` is `user` or `assistant`, a Responses `InputMessage.role` one of four,
# and the response-side roles are plain strings.
CHAT_MESSAGE_ROLES = {
    "SystemMessage": "system",
    "DynamicToolsMessage": "system",
    "UserMessage": "user",
    "AssistantMessage": "assistant",
    "ToolMessage": "tool",
}
FIXED_ROLES: dict[str, dict[str, str]] = {
    "chat": CHAT_MESSAGE_ROLES,
    "messages": {},
    "responses": {},
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_const_defaults_are_discriminators_and_fixed_tool_names(fmt: str) -> None:
    filled = {(cls, attr) for cls, attr, _, _ in constructor_defaults(fmt)}
    expected_attrs = {"type_"} | ({"name"} if FIXED_NAMES[fmt] else set())
    expected_attrs |= {"role"} if FIXED_ROLES[fmt] else set()
    assert {attr for _, attr in filled} == expected_attrs
    assert {cls for cls, attr in filled if attr == "name"} == FIXED_NAMES[fmt]
    assert {cls for cls, attr in filled if attr == "role"} == set(FIXED_ROLES[fmt])
    examples = {
        "chat": ("TextPart", "ImageUrlPart", "FunctionTool", "ResponseFormatJsonSchema"),
        "messages": ("TextBlock", "ImageBlock", "ToolResultBlock", "WebSearchTool"),
        "responses": ("InputTextPart", "FunctionCallOutputItem", "FunctionTool", "TextFormatText"),
    }[fmt]
    for cls in examples:
        assert (cls, "type_") in filled


# -------------------------------------------- built from required fields: only those sent

MINIMAL: dict[str, list[tuple[str, Callable[[], Any], dict[str, Any]]]] = {
    "chat": [
        (
            "request",
            lambda: CreateChatCompletionRequest(
                model=ChatModel.KIMI_K3_1_PRO, messages=[UserMessage(content="hi")]
            ),
            {"model": "kimi-k3.1-pro", "messages": HI_MESSAGES},
        ),
        (
            "request_kimi_k3",
            lambda: CreateChatCompletionRequest(
                model=ChatModel.KIMI_K3, messages=[UserMessage(content="hi")]
            ),
            {"model": "kimi-k3", "messages": HI_MESSAGES},
        ),
        ("prompt_cache_options", PromptCacheOptions, {}),
        ("stream_options", StreamOptions, {}),
        ("function_definition", lambda: FunctionDefinition(name="f"), {"name": "f"}),
        (
            "function_tool",
            lambda: FunctionTool(function=FunctionDefinition(name="f")),
            {"type": "function", "function": {"name": "f"}},
        ),
        (
            "json_schema_format",
            lambda: ResponseFormatJsonSchema(
                json_schema=JsonSchemaFormat(name="n", schema=JsonSchemaFormatSchema()),
            ),
            {"type": "json_schema", "json_schema": {"name": "n", "schema": {}}},
        ),
        (
            "json_schema",
            lambda: JsonSchemaFormat(name="n", schema=JsonSchemaFormatSchema.from_dict({})),
            {"name": "n", "schema": {}},
        ),
        ("image_url", lambda: ImageUrl(url="ms://x"), {"url": "ms://x"}),
        ("text_part", lambda: TextPart(text="x"), {"type": "text", "text": "x"}),
        ("user_message", lambda: UserMessage(content="x"), {"role": "user", "content": "x"}),
        ("assistant_message", AssistantMessage, {"role": "assistant"}),
        (
            "assistant_message_with_role",
            lambda: AssistantMessage(role="assistant"),
            {"role": "assistant"},
        ),
        (
            "tool_message",
            lambda: ToolMessage(tool_call_id="functions.f:0", content="ok"),
            {"role": "tool", "tool_call_id": "functions.f:0", "content": "ok"},
        ),
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
        ("cache_control", m.CacheControl, {"type": "ephemeral"}),
        (
            "tool_choice",
            lambda: m.ToolChoice(type_=m.ToolChoiceType.ANY),
            {"type": "any"},
        ),
        (
            "tool_choice_auto",
            lambda: m.ToolChoice(type_=m.ToolChoiceType.AUTO),
            {"type": "auto"},
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
            lambda: m.OutputFormat(schema=m.OutputFormatSchema()),
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
        (
            "prompt_cache_options_implicit",
            lambda: r.PromptCacheOptions(mode=r.PromptCacheOptionsMode.IMPLICIT),
            {"mode": "implicit"},
        ),
        ("text", r.TextConfig, {}),
        (
            "text_format_json_schema",
            lambda: r.TextFormatJsonSchema(schema=r.TextFormatJsonSchemaSchema()),
            {"type": "json_schema", "schema": {}},
        ),
        (
            "function_tool",
            lambda: r.FunctionTool(name="f"),
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
            {"type": "message", "role": "user", "content": "hi"},
        ),
        ("input_image_part", r.InputImagePart, {"type": "input_image"}),
        (
            "function_call_output",
            lambda: r.FunctionCallOutputItem(call_id="functions.f:0", output="ok"),
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
    assert m.CacheControl().ttl is MESSAGES_UNSET
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
        cache_control=m.CacheControl(type_="ephemeral", ttl=m.CacheControlTtl.MINUTES_5),
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
            mode=r.PromptCacheOptionsMode.IMPLICIT, ttl=r.PromptCacheOptionsTtl.MINUTES_5
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


# ------------------------------------------- a `type` with one allowed value is filled in


def models_of(fmt: str) -> Any:
    return importlib.import_module(f"kimi_raw.{fmt}.models")


def alternatives(annotation: str) -> list[str]:
    """The top-level members of a generated annotation such as `list[A | B] | str`."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(annotation):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(annotation[start:i])
            start = i + 1
    parts.append(annotation[start:])
    return [part.strip() for part in parts]


def fixed_type(fmt: str, cls: type, attr: str = "type_") -> str | None:
    """The only value `cls.<attr>` (`type_` or `role`) can take, or None (no such field, or
    more than one value)."""
    field = attrs.fields_dict(cls).get(attr)  # type: ignore[arg-type]
    if field is None:
        return None
    options = [a for a in alternatives(str(field.type)) if a != "Unset"]
    if len(options) != 1:
        return None
    literal = re.fullmatch(r"Literal\[('[^']*')\]", options[0])
    if literal:
        return str(ast.literal_eval(literal.group(1)))
    enum = getattr(models_of(fmt), options[0], None)
    if isinstance(enum, type) and issubclass(enum, Enum) and len(enum) == 1:
        return str(next(iter(enum)).value)
    return None


def fixed_types(fmt: str, attr: str = "type_") -> dict[str, str]:
    """{class name: its one `type` (or `role`) value} over every generated model of `fmt`."""
    models = models_of(fmt)
    out = {}
    for name in models.__all__:
        cls = getattr(models, name)
        if attrs.has(cls) and (value := fixed_type(fmt, cls, attr)) is not None:
            out[name] = value
    return out


def request_side(fmt: str) -> set[str]:
    """Generated models reachable from the request body through field annotations."""
    models = models_of(fmt)
    names = set(models.__all__)
    seen: set[str] = set()
    todo = [REQUEST_ROOTS[fmt]]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        cls = getattr(models, name)
        if attrs.has(cls):
            for field in attrs.fields(cls):
                todo.extend(n for n in re.findall(r"\b[A-Z]\w*", str(field.type)) if n in names)
    return seen


def sample(fmt: str, annotation: str) -> Any:
    """A small valid value for a required field of that annotation."""
    options = [a for a in alternatives(annotation) if a not in ("Unset", "None")]
    for simple, value in (("str", "x"), ("int", 1), ("float", 1.5), ("bool", True)):
        if simple in options:
            return value
    if any(option.startswith("list[") for option in options):
        return []
    for option in options:
        target = getattr(models_of(fmt), option, None)
        if isinstance(target, type) and issubclass(target, Enum):
            return next(iter(target))
        if target is not None and attrs.has(target):
            return target(**required_kwargs(fmt, target))
    raise AssertionError(f"no sample value for {annotation}")


def required_kwargs(fmt: str, cls: type) -> dict[str, Any]:
    return {
        field.name: sample(fmt, str(field.type))
        for field in attrs.fields(cls)  # type: ignore[arg-type]
        if field.init and field.default is attrs.NOTHING
    }


def on_the_wire(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    return value.to_dict() if hasattr(value, "to_dict") else value


REQUEST_FIXED_TYPES = [
    (fmt, name, value)
    for fmt in FORMATS
    for name, value in sorted(fixed_types(fmt).items())
    if name in request_side(fmt)
]
ALL_FIXED_TYPES = [
    (fmt, name, value) for fmt in FORMATS for name, value in sorted(fixed_types(fmt).items())
]
REQUEST_FIXED_ROLES = [
    (fmt, name, value)
    for fmt in FORMATS
    for name, value in sorted(fixed_types(fmt, "role").items())
    if name in request_side(fmt)
]
ALL_FIXED_ROLES = [
    (fmt, name, value)
    for fmt in FORMATS
    for name, value in sorted(fixed_types(fmt, "role").items())
]


def spec_fixed_type(schemas: dict[str, Any], prop: Any) -> Any:
    """The one value a spec property allows (`const` or a one-member `enum`), else None."""
    if not isinstance(prop, dict):
        return None
    ref = prop.get("$ref")
    if isinstance(ref, str):
        prop = schemas[ref.rsplit("/", 1)[-1]]
    if "const" in prop:
        return prop["const"]
    enum = prop.get("enum")
    return enum[0] if isinstance(enum, list) and len(enum) == 1 else None


@pytest.mark.parametrize("fmt", FORMATS)
def test_request_side_fixed_types_are_found_as_the_spec_declares_them(
    specs: dict[str, Any], fmt: str
) -> None:
    """The generated models enumerated below are exactly the request-side schemas whose
    `type` allows one value (so the enumeration misses none)."""
    schemas = specs[fmt]["components"]["schemas"]
    declared = {}
    for name in reachable(schemas, REQUEST_ROOTS[fmt]):
        prop = schemas[name].get("properties", {}).get("type")
        if (value := spec_fixed_type(schemas, prop)) is not None:
            declared[name] = value
    generated = {name: value for f, name, value in REQUEST_FIXED_TYPES if f == fmt}
    assert generated == declared
    expected = {
        "chat": {
            "TextPart": "text",
            "ImageUrlPart": "image_url",
            "VideoUrlPart": "video_url",
            "FunctionTool": "function",
            "WebSearchTool": "web_search",
            "NamedToolChoice": "function",
            "ResponseFormatText": "text",
            "ResponseFormatJsonObject": "json_object",
            "ResponseFormatJsonSchema": "json_schema",
            "PredictionContent": "content",
        },
        "messages": {
            "TextBlock": "text",
            "ImageBlock": "image",
            "ToolResultBlock": "tool_result",
            "WebSearchTool": "web_search_20250305",
            "CacheControl": "ephemeral",
            "OutputFormat": "json_schema",
        },
        "responses": {
            "InputMessage": "message",
            "InputTextPart": "input_text",
            "InputImagePart": "input_image",
            "FunctionCallOutputItem": "function_call_output",
            "CustomToolCallOutputItem": "custom_tool_call_output",
            "ReasoningItem": "reasoning",
            "FunctionCallItem": "function_call",
            "FunctionTool": "function",
            "NamespaceTool": "namespace",
            "ApplyPatchTool": "custom",
            "WebSearchTool": "web_search",
            "TextFormatText": "text",
            "TextFormatJsonSchema": "json_schema",
        },
    }[fmt]
    assert expected.items() <= generated.items()


@pytest.mark.parametrize(
    ("fmt", "name", "value"),
    [pytest.param(*case, id=f"{case[0]}-{case[1]}") for case in REQUEST_FIXED_TYPES],
)
def test_request_side_fixed_type_is_filled_in(fmt: str, name: str, value: str) -> None:
    cls = getattr(models_of(fmt), name)
    given = required_kwargs(fmt, cls)
    assert "type_" not in given  # not a required argument
    built = cls(**given)
    assert built.type_ == value
    # the type plus only the given fields (and a fixed tool `name`, the other constant)
    fixed_name = {"name": built.name} if name in FIXED_NAMES[fmt] else {}
    expected = {
        "type": value,
        **fixed_name,
        **{k.rstrip("_"): on_the_wire(v) for k, v in given.items()},
    }
    assert built.to_dict() == expected
    assert cls(**given, type_=value).to_dict() == expected
    assert cls.from_dict(expected).to_dict() == expected


@pytest.mark.parametrize(
    ("fmt", "name", "value"),
    [pytest.param(*case, id=f"{case[0]}-{case[1]}") for case in ALL_FIXED_TYPES],
)
def test_a_filled_in_type_does_not_change_parsing(fmt: str, name: str, value: str) -> None:
    """Every one-value `type` has its default (response-side ones too, as Messages always
    had), and received JSON parses as before: a missing `type` is not invented and
    another `type` is still rejected, so a union moves on to its next member."""
    cls = getattr(models_of(fmt), name)
    assert attrs.fields_dict(cls)["type_"].default == value
    data = cls(**required_kwargs(fmt, cls)).to_dict()
    without = {k: v for k, v in data.items() if k != "type"}
    try:
        parsed = cls.from_dict(without)
    except KeyError:
        pass  # a required `type`
    else:
        assert parsed.to_dict() == without
    with pytest.raises(ValueError):
        cls.from_dict({**data, "type": f"{value}_v2"})


def test_unknown_and_type_less_input_items_parse_as_before() -> None:
    body = {
        "model": "kimi-k3.1-pro",
        "input": [
            {"role": "user", "content": "hi"},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "x"}]},
            {"type": "function_call_output", "call_id": "c", "output": "ok", "extra": 1},
        ],
    }
    parsed = r.CreateResponseRequest.from_dict(body)
    assert isinstance(parsed.input_, list)
    kinds = [type(item).__name__ for item in parsed.input_]
    assert kinds == ["InputMessage", "InputMessage", "FunctionCallOutputItem"]
    assert parsed.input_[0].type_ is RESPONSES_UNSET
    assert parsed.to_dict() == body
    # The request's item union is closed: an undocumented item type (item_reference: the
    # endpoint is stateless) is refused before sending, naming its `type`.
    # (The user-written items only: the client also refuses the unknown "extra" key.)
    reference = {**body, "input": [*body["input"][:2], {"type": "item_reference", "id": "msg_1"}]}
    with pytest.raises(RequestValidationError) as info:
        validate("responses", reference)
    assert info.value.field == "input[2].type"
    # The request's tool union is closed: an undocumented tool type is refused.
    with pytest.raises(ValueError, match="file_search"):
        r.CreateResponseRequest.from_dict(
            {**body, "tools": [{"type": "file_search", "vector_store_ids": []}]}
        )


# ------------------------------------------- a `role` with one allowed value is filled in


@pytest.mark.parametrize("fmt", FORMATS)
def test_request_side_fixed_roles_are_found_as_the_spec_declares_them(
    specs: dict[str, Any], fmt: str
) -> None:
    """The request-side models whose `role` allows one value are exactly the ones the spec
    declares (only Chat has any), and every one-value `role` is request-side."""
    schemas = specs[fmt]["components"]["schemas"]
    declared = {}
    for name in reachable(schemas, REQUEST_ROOTS[fmt]):
        prop = schemas[name].get("properties", {}).get("role")
        if (value := spec_fixed_type(schemas, prop)) is not None:
            declared[name] = value
    generated = {name: value for f, name, value in REQUEST_FIXED_ROLES if f == fmt}
    assert generated == declared == FIXED_ROLES[fmt]
    assert {name for f, name, _ in ALL_FIXED_ROLES if f == fmt} == set(FIXED_ROLES[fmt])


@pytest.mark.parametrize(
    ("fmt", "name", "value"),
    [pytest.param(*case, id=f"{case[0]}-{case[1]}") for case in REQUEST_FIXED_ROLES],
)
def test_request_side_fixed_role_is_filled_in(fmt: str, name: str, value: str) -> None:
    cls = getattr(models_of(fmt), name)
    given = required_kwargs(fmt, cls)
    assert "role" not in given  # not a required argument
    built = cls(**given)
    assert built.role == value
    # the role (and a fixed `type`, if the model has one) plus only the given fields
    fixed = {"role": value}
    if (kind := fixed_type(fmt, cls)) is not None:
        fixed["type"] = kind
    expected = {**fixed, **{k.rstrip("_"): on_the_wire(v) for k, v in given.items()}}
    assert built.to_dict() == expected
    # an explicit role is still accepted, as a keyword
    assert cls(**given, role=value).to_dict() == expected
    assert cls.from_dict(expected).to_dict() == expected


@pytest.mark.parametrize(
    ("fmt", "name", "value"),
    [pytest.param(*case, id=f"{case[0]}-{case[1]}") for case in ALL_FIXED_ROLES],
)
def test_a_filled_in_role_does_not_change_parsing(fmt: str, name: str, value: str) -> None:
    """Received JSON parses as before: a missing `role` is not invented (it is required, so
    parsing fails) and another `role` is rejected, so a union moves on to its next member."""
    cls = getattr(models_of(fmt), name)
    assert attrs.fields_dict(cls)["role"].default == value
    data = cls(**required_kwargs(fmt, cls)).to_dict()
    without = {k: v for k, v in data.items() if k != "role"}
    with pytest.raises(KeyError):
        cls.from_dict(without)
    for other in (f"{value}_v2", "developer", None):
        with pytest.raises(ValueError):
            cls.from_dict({**data, "role": other})


def test_chat_messages_built_without_role_send_it() -> None:
    request = CreateChatCompletionRequest(
        model=ChatModel.KIMI_K3_1_PRO,
        messages=[
            SystemMessage(content="Be brief."),
            DynamicToolsMessage(tools=[]),
            UserMessage(content="hi", name="ling"),
            AssistantMessage(content=None, tool_calls=[]),
            ToolMessage(tool_call_id="functions.f:0", content="ok"),
        ],
    )
    wire = [
        {"role": "system", "content": "Be brief."},
        {"role": "system", "tools": []},
        {"role": "user", "content": "hi", "name": "ling"},
        {"role": "assistant", "content": None, "tool_calls": []},
        {"role": "tool", "tool_call_id": "functions.f:0", "content": "ok"},
    ]
    assert request.to_dict() == {"model": "kimi-k3.1-pro", "messages": wire}
    # the keyword `role=` (all the generated constructors ever took) still works
    assert UserMessage(role="user", content="hi").to_dict() == {"role": "user", "content": "hi"}
    assert ToolMessage(role="tool", tool_call_id="c", content="x").role == "tool"


def test_chat_messages_parse_by_role_as_before() -> None:
    """The messages union picks its member by the received `role`, never by a default: a
    message without `role` or with a role no member has fails to parse (the union has no
    catch-all member), and the two `system` shapes are still told apart by their fields."""
    body = {
        "model": "kimi-k3.1-pro",
        "messages": [
            {"role": "system", "content": "x"},
            {"role": "system", "tools": []},
            {"role": "user", "content": "hi"},
            {"role": "assistant"},
            {"role": "tool", "tool_call_id": "c", "content": "x"},
        ],
    }
    parsed = CreateChatCompletionRequest.from_dict(body)
    kinds = [type(message).__name__ for message in parsed.messages]
    assert kinds == [
        "SystemMessage",
        "DynamicToolsMessage",
        "UserMessage",
        "AssistantMessage",
        "ToolMessage",
    ]
    assert parsed.to_dict() == body
    for message in ({"content": "hi"}, {"tool_call_id": "c", "content": "x"}, {}):
        with pytest.raises(KeyError):
            CreateChatCompletionRequest.from_dict({**body, "messages": [message]})
    for message in (
        {"role": "developer", "content": "x"},
        {"role": "user"},  # a user message without content
        {"role": "system"},  # neither content nor tools
    ):
        with pytest.raises(ValueError):
            CreateChatCompletionRequest.from_dict({**body, "messages": [message]})


# ------------------------------------------------------------ readable cache TTL names


def test_cache_ttl_enums_have_readable_member_names(specs: dict[str, Any]) -> None:
    readable = {"MINUTES_5": "5m", "HOUR_1": "1h"}
    assert {e.name: e.value for e in m.CacheControlTtl} == readable
    assert {e.name: e.value for e in r.PromptCacheOptionsTtl} == readable
    assert r.PromptCacheOptionsTtl.MINUTES_5 == "5m"
    assert r.PromptCacheOptions(ttl=r.PromptCacheOptionsTtl.HOUR_1).to_dict() == {"ttl": "1h"}
    # Chat's enum had readable names already.
    assert {e.name: e.value for e in PromptCacheTtl} == {"FIVE_MINUTES": "5m", "ONE_HOUR": "1h"}
    responses = specs["responses"]["components"]["schemas"]["PromptCacheOptionsTtl"]
    messages = specs["messages"]["components"]["schemas"]["CacheControlTtl"]
    for key in ("enum", "x-enum-varnames", "default"):
        assert responses[key] == messages[key], key


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_enum_member_is_named_by_position(fmt: str) -> None:
    models = models_of(fmt)
    for name in models.__all__:
        enum = getattr(models, name)
        if isinstance(enum, type) and issubclass(enum, Enum):
            for member in enum:
                assert not re.fullmatch(r"VALUE_\d+", member.name), (name, member.name)
