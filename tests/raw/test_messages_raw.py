"""Raw-client tests for the Messages format (kimi_raw.messages, generated from openapi/messages.yaml).

Requests are built with the generated models, sent with the generated function to a local
server, and the JSON on the wire is compared with the reference examples. Responses, error
envelopes and SSE event payloads from tests/fixtures/messages/ must parse and round-trip
(`to_dict(from_dict(x)) == x`), unknown shapes included.
"""

from __future__ import annotations

import json
import typing
from typing import Any

import kimi_raw.chat.models as chat_models
import kimi_raw.messages.models as message_models
import pytest
from kimi_raw.messages import AuthenticatedClient
from kimi_raw.messages.api.messages import create_message
from kimi_raw.messages.models import (
    Base64ImageSource,
    Base64ImageSourceMediaType,
    CacheControl,
    CacheControlTtl,
    CacheCreationUsage,
    CitationsDelta,
    ContentBlockDeltaEvent,
    ContentBlockStartEvent,
    ContentBlockStopEvent,
    CreateMessageRequest,
    CreateMessageRequestModel,
    CustomTool,
    CustomToolInputSchema,
    ErrorDetail,
    ErrorEvent,
    ErrorResponse,
    ImageBlock,
    InputJsonDelta,
    MessageDelta,
    MessageDeltaEvent,
    MessageParam,
    MessageParamRole,
    MessageResponse,
    MessageStartEvent,
    MessageStopEvent,
    MessageUsage,
    OutputConfig,
    OutputConfigEffort,
    OutputFormat,
    OutputFormatSchema,
    OutputTokensDetails,
    PingEvent,
    RequestMetadata,
    ServerToolUsage,
    ServerToolUseBlock,
    ServerToolUseBlockInput,
    SignatureDelta,
    TextBlock,
    TextDelta,
    ThinkingBlock,
    ThinkingDelta,
    ToolChoice,
    ToolChoiceType,
    ToolResultBlock,
    ToolUseBlock,
    ToolUseBlockInput,
    UnknownBlock,
    UnknownEvent,
    UrlImageSource,
    WebSearchResult,
    WebSearchTool,
    WebSearchToolResultBlock,
    WebSearchToolResultError,
)
from kimi_raw.messages.types import UNSET
from pytest_httpserver import HTTPServer
from werkzeug import Request

from kimi_ext import Kimi, RequestValidationError
from kimi_ext._core.contract import contract
from kimi_ext._core.contract.validation import validate
from tests.support.paths import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "messages"
SPEC = ROOT / "openapi" / "messages.yaml"
TOKEN = "k"


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def client_for(httpserver: HTTPServer) -> AuthenticatedClient:
    return AuthenticatedClient(base_url=httpserver.url_for(""), token=TOKEN)


def send(
    httpserver: HTTPServer,
    body: CreateMessageRequest,
    *,
    reply: Any = None,
    status: int = 200,
    **kwargs: Any,
) -> tuple[Any, Request]:
    """Sends `body` with the generated function; returns (Response, the request on the wire)."""
    reply = load("response_text.json") if reply is None else reply
    httpserver.expect_oneshot_request("/v1/messages", method="POST").respond_with_json(
        reply, status=status
    )
    response = create_message.sync_detailed(client=client_for(httpserver), body=body, **kwargs)
    httpserver.check_assertions()
    request, _ = httpserver.log[-1]
    return response, request


def assert_wire(request: Request, expected: dict[str, Any]) -> None:
    assert request.method == "POST"
    assert request.path == "/v1/messages"
    assert request.headers["Authorization"] == f"Bearer {TOKEN}"
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert request.headers["Content-Type"] == "application/json"
    assert json.loads(request.get_data()) == expected


def types_of(blocks: Any) -> list[type]:
    return [type(block) for block in blocks]


# --------------------------------------------------------------------------- requests

REFERENCE_REQUESTS = [
    "request_ref_simple.json",
    "request_ref_highspeed.json",
    "request_ref_streaming.json",
    "request_ref_cache_1h.json",
    "request_ref_web_search.json",
    "request_ref_structured_output.json",
    "request_ref_curl.json",
]
OWN_REQUESTS = ["request_system_tools.json", "request_history.json", "request_kimi_k3.json"]


@pytest.mark.parametrize("name", REFERENCE_REQUESTS + OWN_REQUESTS)
def test_request_from_dict_is_sent_exactly(httpserver: HTTPServer, name: str) -> None:
    expected = load(name)
    body = CreateMessageRequest.from_dict(expected)
    # A streaming request is answered with JSON here because the generated call buffers and
    # JSON-decodes the body; the SSE path is test_streaming_request_through_the_httpx_seam.
    response, request = send(httpserver, body)
    assert_wire(request, expected)
    assert response.status_code == 200
    assert isinstance(response.parsed, MessageResponse)


def ok_messages() -> list[MessageParam]:
    return [MessageParam(role=MessageParamRole.USER, content="Reply with OK.")]


def low() -> OutputConfig:
    return OutputConfig(effort=OutputConfigEffort.LOW)


def reference_requests_built_with_constructors() -> dict[str, CreateMessageRequest]:
    # Documented defaults (`stream: false`, effort `max`, ...) stay in the spec and off the
    # wire: a field the constructor is not given is not sent, as in the references.
    structured = OutputConfig(
        effort=OutputConfigEffort.LOW,
        format_=OutputFormat(
            schema=OutputFormatSchema.from_dict(
                {
                    "type": "object",
                    "properties": {"result": {"type": "string"}},
                    "required": ["result"],
                    "additionalProperties": False,
                }
            ),
        ),
    )
    return {
        "request_ref_simple.json": CreateMessageRequest(
            model=CreateMessageRequestModel.KIMI_K3_1_PRO,
            max_tokens=1024,
            output_config=low(),
            messages=ok_messages(),
        ),
        "request_ref_highspeed.json": CreateMessageRequest(
            model=CreateMessageRequestModel.KIMI_K3_1_PRO_HIGHSPEED,
            max_tokens=1024,
            output_config=low(),
            messages=ok_messages(),
        ),
        "request_ref_streaming.json": CreateMessageRequest(
            model=CreateMessageRequestModel.KIMI_K3_1_PRO,
            max_tokens=1024,
            output_config=low(),
            messages=ok_messages(),
            stream=True,
        ),
        "request_ref_cache_1h.json": CreateMessageRequest(
            model=CreateMessageRequestModel.KIMI_K3_1_PRO,
            max_tokens=1024,
            output_config=low(),
            messages=ok_messages(),
            cache_control=CacheControl(ttl=CacheControlTtl.HOUR_1),
        ),
        "request_ref_web_search.json": CreateMessageRequest(
            model=CreateMessageRequestModel.KIMI_K3_1_PRO,
            max_tokens=1024,
            output_config=low(),
            messages=[
                MessageParam(
                    role=MessageParamRole.USER,
                    content="Use web search to find the official Kimi homepage URL.",
                )
            ],
            tools=[WebSearchTool(max_uses=1)],
        ),
        "request_ref_structured_output.json": CreateMessageRequest(
            model=CreateMessageRequestModel.KIMI_K3_1_PRO,
            max_tokens=1024,
            output_config=structured,
            messages=[
                MessageParam(
                    role=MessageParamRole.USER,
                    content="Return a JSON object with result equal to OK.",
                )
            ],
        ),
        "request_ref_curl.json": CreateMessageRequest(
            model=CreateMessageRequestModel.KIMI_K3_1_PRO,
            max_tokens=1024,
            output_config=low(),
            messages=ok_messages(),
        ),
    }


@pytest.mark.parametrize("name", REFERENCE_REQUESTS)
def test_reference_request_built_with_constructors(httpserver: HTTPServer, name: str) -> None:
    body = reference_requests_built_with_constructors()[name]
    _, request = send(httpserver, body)
    assert_wire(request, load(name))


WEATHER_SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    },
    "required": ["city"],
}


def weather_tool() -> CustomTool:
    return CustomTool(
        name="get_weather",
        description="Current weather for a city.",
        input_schema=CustomToolInputSchema.from_dict(WEATHER_SCHEMA),
    )


def test_system_blocks_tools_choice_stops_metadata_cache(httpserver: HTTPServer) -> None:
    body = CreateMessageRequest(
        model=CreateMessageRequestModel.KIMI_K3_1_PRO,
        max_tokens=8192,
        system=[
            TextBlock(text="You are a concise travel assistant."),
            TextBlock(text="Always state temperatures in Celsius."),
        ],
        messages=[
            MessageParam(
                role=MessageParamRole.USER,
                content="Is it warmer in Beijing or Shanghai right now?",
            )
        ],
        tools=[weather_tool(), WebSearchTool(max_uses=3)],
        tool_choice=ToolChoice(type_=ToolChoiceType.ANY),
        stop_sequences=["\n\nUser:", "END", "停止生成"],
        metadata=RequestMetadata(user_id="user-7f3a9c"),
        cache_control=CacheControl(ttl=CacheControlTtl.MINUTES_5),
        output_config=OutputConfig(effort=OutputConfigEffort.HIGH),
        # The fixture sends the documented defaults explicitly; explicit values are kept.
        stream=False,
    )
    _, request = send(httpserver, body)
    assert_wire(request, load("request_system_tools.json"))
    # "停止生成" is 4 characters but 12 UTF-8 bytes: the 32-byte limit is about bytes.
    assert all(len(s.encode()) <= 32 for s in load("request_system_tools.json")["stop_sequences"])


PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


def history_built_with_constructors() -> CreateMessageRequest:
    fixture = load("request_history.json")
    msgs = fixture["messages"]
    sig1 = msgs[1]["content"][0]["signature"]
    sig2 = msgs[3]["content"][0]["signature"]
    user = MessageParamRole.USER
    assistant = MessageParamRole.ASSISTANT

    def b64(media: Base64ImageSourceMediaType, data: str) -> ImageBlock:
        return ImageBlock(source=Base64ImageSource(media_type=media, data=data))

    return CreateMessageRequest(
        model=CreateMessageRequestModel.KIMI_K3_1_PRO,
        max_tokens=16000,
        system="You help plan trips.",
        tools=[weather_tool(), WebSearchTool()],
        tool_choice=ToolChoice(type_=ToolChoiceType.AUTO),
        messages=[
            MessageParam(
                role=user,
                content=[
                    TextBlock(
                        text="Compare the weather in Beijing and Shanghai, "
                        "and find tomorrow's forecast news."
                    )
                ],
            ),
            MessageParam(
                role=assistant,
                content=[
                    ThinkingBlock(thinking=msgs[1]["content"][0]["thinking"], signature=sig1),
                    TextBlock(text="Let me check both cities."),
                    ToolUseBlock(
                        id="functions.get_weather:0",
                        name="get_weather",
                        input_=ToolUseBlockInput.from_dict({"city": "Beijing", "unit": "celsius"}),
                    ),
                    ToolUseBlock(
                        id="functions.get_weather:1",
                        name="get_weather",
                        input_=ToolUseBlockInput.from_dict({"city": "Shanghai"}),
                    ),
                ],
            ),
            MessageParam(
                role=user,
                content=[
                    ToolResultBlock(
                        tool_use_id="functions.get_weather:0",
                        content='{"temp_c": 21, "sky": "clear"}',
                    ),
                    ToolResultBlock(
                        tool_use_id="functions.get_weather:1",
                        is_error=True,
                        content=[
                            TextBlock(
                                text="Weather station offline; here is the last radar frame."
                            ),
                            b64(Base64ImageSourceMediaType.IMAGEPNG, PNG_1PX),
                        ],
                    ),
                ],
            ),
            MessageParam(
                role=assistant,
                content=[
                    ThinkingBlock(thinking=msgs[3]["content"][0]["thinking"], signature=sig2),
                    ServerToolUseBlock(
                        id="srvtoolu_01HkZ3yQ7pW2",
                        name="web_search",
                        input_=ServerToolUseBlockInput.from_dict(
                            {"query": "Shanghai weather forecast tomorrow"}
                        ),
                    ),
                    WebSearchToolResultBlock(
                        tool_use_id="srvtoolu_01HkZ3yQ7pW2",
                        content=[
                            WebSearchResult.from_dict(r) for r in msgs[3]["content"][2]["content"]
                        ],
                    ),
                    ServerToolUseBlock(
                        id="srvtoolu_01HkZ3yQ7pW3",
                        name="web_search",
                        input_=ServerToolUseBlockInput.from_dict(
                            {"query": "Beijing forecast tomorrow"}
                        ),
                    ),
                    WebSearchToolResultBlock(
                        tool_use_id="srvtoolu_01HkZ3yQ7pW3",
                        content=WebSearchToolResultError(error_code="max_uses_exceeded"),
                    ),
                    TextBlock(text="Beijing is 21 °C and clear; Shanghai expects rain tomorrow."),
                ],
            ),
            MessageParam(
                role=user,
                content=[
                    TextBlock(text="And what does this sky look like?"),
                    ImageBlock(source=UrlImageSource(url="ms://file-7c1e2d3a")),
                    b64(Base64ImageSourceMediaType.IMAGEJPEG, "/9j/4AAQSkZJRgABAQ=="),
                    b64(Base64ImageSourceMediaType.IMAGEGIF, "R0lGODlhAQABAAAAACw="),
                    b64(Base64ImageSourceMediaType.IMAGEWEBP, "UklGRhoAAABXRUJQVlA4"),
                ],
            ),
            MessageParam(
                role=assistant,
                content=[ThinkingBlock(thinking=""), TextBlock(text="A clear blue sky")],
            ),
        ],
        stop_sequences=["。。"],
        metadata=RequestMetadata(user_id="user-7f3a9c"),
        output_config=OutputConfig(effort=OutputConfigEffort.MEDIUM),
    )


def test_history_with_every_block_built_with_constructors(httpserver: HTTPServer) -> None:
    _, request = send(httpserver, history_built_with_constructors())
    assert_wire(request, load("request_history.json"))


def test_history_blocks_parse_as_their_own_classes() -> None:
    req = CreateMessageRequest.from_dict(load("request_history.json"))
    assert types_of(req.tools) == [CustomTool, WebSearchTool]
    m = req.messages
    assert types_of(m[1].content) == [ThinkingBlock, TextBlock, ToolUseBlock, ToolUseBlock]
    assert m[1].content[0].signature.startswith("EqQB")
    assert m[1].content[2].id == "functions.get_weather:0"
    assert types_of(m[2].content) == [ToolResultBlock, ToolResultBlock]
    assert m[2].content[0].is_error is UNSET
    assert m[2].content[0].content == '{"temp_c": 21, "sky": "clear"}'
    assert m[2].content[1].is_error is True
    assert types_of(m[2].content[1].content) == [TextBlock, ImageBlock]
    assert isinstance(m[2].content[1].content[1].source, Base64ImageSource)
    assert types_of(m[3].content) == [
        ThinkingBlock,
        ServerToolUseBlock,
        WebSearchToolResultBlock,
        ServerToolUseBlock,
        WebSearchToolResultBlock,
        TextBlock,
    ]
    assert types_of(m[3].content[2].content) == [WebSearchResult, WebSearchResult]
    assert m[3].content[2].content[1].page_age is None
    assert isinstance(m[3].content[4].content, WebSearchToolResultError)
    sources = [b.source for b in m[4].content[1:]]
    assert types_of(sources) == [UrlImageSource] + [Base64ImageSource] * 3
    empty = m[5].content[0]
    assert isinstance(empty, ThinkingBlock)
    assert empty.thinking == ""
    assert empty.signature is UNSET


def test_anthropic_version_header_is_sent_by_default_and_can_be_set(
    httpserver: HTTPServer,
) -> None:
    body = CreateMessageRequest.from_dict(load("request_ref_simple.json"))
    _, request = send(httpserver, body)
    assert request.headers["anthropic-version"] == "2023-06-01"
    _, request = send(httpserver, body, anthropic_version="2023-06-01")
    assert request.headers["anthropic-version"] == "2023-06-01"


def test_request_only_enums_reject_unknown_values() -> None:
    base = load("request_ref_simple.json")
    # Any model id is accepted (the known ones are listed; others get the generic rules).
    assert CreateMessageRequest.from_dict({**base, "model": "kimi-k9"}).to_dict()["model"] == (
        "kimi-k9"
    )
    with pytest.raises(ValueError):
        CreateMessageRequest.from_dict({**base, "output_config": {"effort": "ultra"}})
    with pytest.raises(ValueError):
        CreateMessageRequest.from_dict({**base, "tool_choice": {"type": "tool", "name": "f"}})
    with pytest.raises(ValueError):
        CreateMessageRequest.from_dict(
            {**base, "cache_control": {"type": "ephemeral", "ttl": "2h"}}
        )
    with pytest.raises(ValueError):
        CreateMessageRequest.from_dict({**base, "messages": [{"role": "system", "content": "x"}]})


def test_request_block_union_is_closed_to_an_unsupported_image() -> None:
    # The request's block union is closed (no catch-all): an image the spec does not allow
    # (BMP) is no block at all. from_dict leaves it as the plain data it was given, and the
    # contract refuses it before anything is sent, naming the field.
    block = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/bmp", "data": "Qk0="},
    }
    msg = MessageParam.from_dict({"role": "user", "content": [block]})
    assert msg.content == [block]
    assert not isinstance(msg.content[0], UnknownBlock | ImageBlock)
    body = {
        "model": "kimi-k3.1-pro",
        "max_tokens": 8,
        "messages": [{"role": "user", "content": [block]}],
    }
    with pytest.raises(RequestValidationError) as info:
        validate("messages", body)
    assert info.value.field == "messages[0].content[0].source.media_type"
    assert "image/png" in str(info.value)


def test_each_effort_value_and_model_is_accepted() -> None:
    efforts = ["low", "high", "max", "medium", "xhigh", "minimal", "none"]
    assert {e.value for e in OutputConfigEffort} == set(efforts)
    assert {m.value for m in CreateMessageRequestModel} == {
        "kimi-k3.1-pro",
        "kimi-k3.1-pro-highspeed",
        "kimi-k3",
    }
    for effort in efforts:
        raw = {"effort": effort, "format": {"type": "json_schema", "schema": {"type": "object"}}}
        assert OutputConfig.from_dict(raw).to_dict() == raw


# -------------------------------------------------------------------------- responses

RESPONSES: dict[str, list[type]] = {
    "response_ref_001.json": [TextBlock],
    "response_text.json": [ThinkingBlock, TextBlock],
    "response_cache_write_1h.json": [ThinkingBlock, TextBlock],
    "response_tool_use.json": [ThinkingBlock, TextBlock, ToolUseBlock, ToolUseBlock],
    "response_web_search.json": [
        ThinkingBlock,
        ServerToolUseBlock,
        WebSearchToolResultBlock,
        TextBlock,
    ],
    "response_web_search_error.json": [
        ThinkingBlock,
        ServerToolUseBlock,
        WebSearchToolResultBlock,
        TextBlock,
    ],
    "response_structured_output.json": [ThinkingBlock, TextBlock],
    "response_max_tokens.json": [ThinkingBlock],
    "response_stop_sequence.json": [ThinkingBlock, TextBlock],
    "response_refusal.json": [],
    "response_kimi_k3_text_only.json": [TextBlock],
    "response_unknown_fields.json": [
        ThinkingBlock,
        UnknownBlock,
        TextBlock,
        ToolUseBlock,
        ServerToolUseBlock,
        WebSearchToolResultBlock,
        WebSearchToolResultBlock,
        WebSearchToolResultBlock,
        UnknownBlock,
    ],
}


@pytest.mark.parametrize("name", sorted(RESPONSES))
def test_response_parses_and_round_trips(httpserver: HTTPServer, name: str) -> None:
    fixture = load(name)
    body = CreateMessageRequest.from_dict(load("request_ref_simple.json"))
    response, _ = send(httpserver, body, reply=fixture)
    parsed = response.parsed
    assert isinstance(parsed, MessageResponse)
    assert types_of(parsed.content) == RESPONSES[name]
    assert parsed.to_dict() == fixture
    assert MessageResponse.from_dict(fixture).to_dict() == fixture


def test_usage_fields_are_typed() -> None:
    usage = MessageResponse.from_dict(load("response_web_search.json")).usage
    assert isinstance(usage, MessageUsage)
    assert usage.input_tokens == 1893
    assert usage.cache_read_input_tokens == 0
    assert usage.cache_creation_input_tokens == 0
    assert isinstance(usage.cache_creation, CacheCreationUsage)
    assert usage.cache_creation.ephemeral_1h_input_tokens == 0
    assert isinstance(usage.output_tokens_details, OutputTokensDetails)
    assert usage.output_tokens_details.thinking_tokens == 40
    assert isinstance(usage.server_tool_use, ServerToolUsage)
    assert usage.server_tool_use.web_search_requests == 1
    written = MessageResponse.from_dict(load("response_cache_write_1h.json")).usage
    assert written.cache_creation_input_tokens == 3072
    assert written.cache_creation.ephemeral_1h_input_tokens == 3072


def test_stop_reasons_are_open_strings() -> None:
    reasons = {
        name: MessageResponse.from_dict(load(name)).stop_reason
        for name in (
            "response_text.json",
            "response_tool_use.json",
            "response_max_tokens.json",
            "response_refusal.json",
            "response_stop_sequence.json",
            "response_unknown_fields.json",
        )
    }
    assert list(reasons.values()) == [
        "end_turn",
        "tool_use",
        "max_tokens",
        "refusal",
        "stop_sequence",
        "pause_turn",
    ]
    assert MessageResponse.from_dict(load("response_stop_sequence.json")).stop_sequence == "END"
    assert MessageResponse.from_dict(load("response_text.json")).stop_sequence is None


def test_unknown_blocks_fields_and_values_are_kept() -> None:
    fixture = load("response_unknown_fields.json")
    msg = MessageResponse.from_dict(fixture)
    assert msg.additional_properties == {"container": None, "service_tier": "standard"}
    thinking, redacted, text, tool_use, server_use, results, error, warning, upload = msg.content
    assert thinking.signature is UNSET
    assert redacted.additional_properties == fixture["content"][1]
    assert text.additional_properties["citations"][0]["cited_text"] == "Kimi - Moonshot AI"
    assert tool_use.additional_properties == {"caller": {"type": "direct"}}
    assert server_use.name == "web_search"
    assert results.content[0].additional_properties == {
        "favicon": "https://www.kimi.com/favicon.ico"
    }
    assert isinstance(error.content, WebSearchToolResultError)
    assert error.content.error_code == "search_backend_busy"
    assert error.content.additional_properties == {"retry_after": 3}
    assert isinstance(warning.content, UnknownBlock)
    assert upload.additional_properties == {"type": "container_upload", "file_id": "file_01"}
    assert msg.usage.cache_creation is None
    assert msg.usage.cache_read_input_tokens is None
    assert msg.usage.additional_properties == {"service_tier": "standard"}
    assert msg.usage.output_tokens_details.additional_properties == {"text_tokens": 60}


def test_type_constants_keep_lookalike_blocks_apart() -> None:
    server = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
    tool = {"type": "tool_use", "id": "functions.f:0", "name": "f", "input": {}}
    with pytest.raises(ValueError):
        ToolUseBlock.from_dict(server)
    with pytest.raises(ValueError):
        ServerToolUseBlock.from_dict(tool)
    msg = MessageResponse.from_dict(
        {"id": "m", "type": "message", "role": "assistant", "content": [server, tool]}
    )
    assert types_of(msg.content) == [ServerToolUseBlock, ToolUseBlock]


ERRORS = [
    (400, "error_400_invalid_request.json"),
    (400, "error_ref_001.json"),
    (401, "error_401_authentication.json"),
    (403, "error_403_permission.json"),
    (404, "error_404_not_found.json"),
    (429, "error_429_rate_limit.json"),
    (429, "error_429_quota.json"),
    (500, "error_500_api.json"),
    (500, "error_unknown_fields.json"),
]


@pytest.mark.parametrize(("status", "name"), ERRORS)
def test_error_envelope_parses_and_round_trips(
    httpserver: HTTPServer, status: int, name: str
) -> None:
    fixture = load(name)
    body = CreateMessageRequest.from_dict(load("request_ref_simple.json"))
    response, _ = send(httpserver, body, reply=fixture, status=status)
    assert response.status_code == status
    parsed = response.parsed
    assert isinstance(parsed, ErrorResponse)
    assert isinstance(parsed.error, ErrorDetail)
    assert parsed.type_ == "error"
    assert parsed.error.type_ == fixture["error"]["type"]
    assert parsed.request_id == fixture["request_id"]
    assert parsed.to_dict() == fixture


def test_quota_error_is_distinguishable_from_rate_limit() -> None:
    quota = ErrorResponse.from_dict(load("error_429_quota.json"))
    limit = ErrorResponse.from_dict(load("error_429_rate_limit.json"))
    assert quota.error.type_ == "exceeded_current_quota_error"
    assert limit.error.type_ == "rate_limit_error"
    odd = ErrorResponse.from_dict(load("error_unknown_fields.json"))
    assert odd.additional_properties == {"retry_after_ms": 1500}
    assert odd.error.additional_properties == {"code": "upstream_overloaded", "param": None}


# ----------------------------------------------------------------------------- stream

# Members of MessageStreamEvent in spec order; the generator emits no function for a
# top-level union, so this mirrors how it tries members (first match wins, then catch-all).
STREAM_EVENT_MEMBERS: list[Any] = [
    MessageStartEvent,
    ContentBlockStartEvent,
    ContentBlockDeltaEvent,
    ContentBlockStopEvent,
    MessageDeltaEvent,
    MessageStopEvent,
    PingEvent,
    ErrorEvent,
]
EVENT_CLASS = {
    "message_start": MessageStartEvent,
    "content_block_start": ContentBlockStartEvent,
    "content_block_delta": ContentBlockDeltaEvent,
    "content_block_stop": ContentBlockStopEvent,
    "message_delta": MessageDeltaEvent,
    "message_stop": MessageStopEvent,
    "ping": PingEvent,
    "error": ErrorEvent,
}
STREAMS = [
    "stream_text.sse",
    "stream_tool_use.sse",
    "stream_web_search.sse",
    "stream_error.sse",
    "stream_unknown.sse",
]


def sse_events(text: str) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for chunk in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in chunk.splitlines())
        events.append((fields["event"], json.loads(fields["data"])))
    return events


def load_stream(name: str) -> list[tuple[str, dict[str, Any]]]:
    return sse_events((FIXTURES / name).read_text(encoding="utf-8"))


def parse_event(payload: dict[str, Any]) -> Any:
    for member in STREAM_EVENT_MEMBERS:
        try:
            return member.from_dict(payload)
        except (TypeError, ValueError, AttributeError, KeyError):
            continue
    return UnknownEvent.from_dict(payload)


@pytest.mark.parametrize("name", STREAMS)
def test_stream_event_payloads_parse_and_round_trip(name: str) -> None:
    events = load_stream(name)
    assert events
    for event_name, payload in events:
        assert event_name == payload["type"]
        parsed = parse_event(payload)
        assert type(parsed) is EVENT_CLASS.get(payload["type"], UnknownEvent)
        assert parsed.to_dict() == payload
        if payload["type"] in EVENT_CLASS:
            assert EVENT_CLASS[payload["type"]].from_dict(payload).to_dict() == payload


def test_text_stream_event_contents() -> None:
    parsed = [parse_event(p) for _, p in load_stream("stream_text.sse")]
    start = parsed[0]
    assert isinstance(start.message, MessageResponse)
    assert start.message.content == []
    assert start.message.stop_reason is None
    assert start.message.usage.cache_read_input_tokens == 2048
    assert isinstance(parsed[1], PingEvent)
    assert isinstance(parsed[2].content_block, ThinkingBlock)
    deltas = [e.delta for e in parsed if isinstance(e, ContentBlockDeltaEvent)]
    assert types_of(deltas) == [ThinkingDelta, ThinkingDelta, SignatureDelta, TextDelta, TextDelta]
    assert "".join(d.text for d in deltas if isinstance(d, TextDelta)) == "OK"
    assert isinstance(parsed[6], ContentBlockStopEvent)
    final = parsed[-2]
    assert isinstance(final, MessageDeltaEvent)
    assert isinstance(final.delta, MessageDelta)
    assert final.delta.stop_reason == "end_turn"
    assert final.delta.stop_sequence is None
    assert final.usage.output_tokens == 41
    assert isinstance(parsed[-1], MessageStopEvent)


def test_tool_and_search_streams_keep_block_kinds_apart() -> None:
    tool = [parse_event(p) for _, p in load_stream("stream_tool_use.sse")]
    starts = [e.content_block for e in tool if isinstance(e, ContentBlockStartEvent)]
    assert types_of(starts) == [ThinkingBlock, TextBlock, ToolUseBlock]
    assert starts[2].id == "functions.get_weather:0"
    partial = "".join(
        e.delta.partial_json
        for e in tool
        if isinstance(e, ContentBlockDeltaEvent) and isinstance(e.delta, InputJsonDelta)
    )
    assert json.loads(partial) == {"city": "Beijing", "unit": "celsius"}
    assert tool[-2].delta.stop_reason == "tool_use"

    search = [parse_event(p) for _, p in load_stream("stream_web_search.sse")]
    starts = [e.content_block for e in search if isinstance(e, ContentBlockStartEvent)]
    assert types_of(starts) == [
        ThinkingBlock,
        ServerToolUseBlock,
        WebSearchToolResultBlock,
        TextBlock,
    ]
    assert types_of(starts[2].content) == [WebSearchResult]
    assert search[-2].usage.server_tool_use.web_search_requests == 1


def test_error_event_mid_stream() -> None:
    parsed = [parse_event(p) for _, p in load_stream("stream_error.sse")]
    last = parsed[-1]
    assert isinstance(last, ErrorEvent)
    assert isinstance(last.error, ErrorDetail)
    assert last.error.type_ == "overloaded_error"
    assert last.error.message == "Overloaded"
    assert not any(isinstance(e, MessageStopEvent) for e in parsed)


def test_unknown_stream_shapes_are_kept() -> None:
    raw = [p for _, p in load_stream("stream_unknown.sse")]
    parsed = [parse_event(p) for p in raw]
    assert parsed[0].additional_properties == {"trace_id": "tr-19af"}
    assert parsed[0].message.usage.additional_properties == {"service_tier": "standard"}
    unsigned = parsed[1].content_block
    assert isinstance(unsigned, ThinkingBlock)
    assert unsigned.signature is UNSET
    assert isinstance(parsed[4].content_block, UnknownBlock)
    assert parsed[6].content_block.additional_properties == {"citations": []}
    # citations_delta is documented now (the client appends its citation); still kept
    # whole. Unknown delta types are covered by the mutation tests (tests/quality).
    assert isinstance(parsed[7].delta, CitationsDelta)
    assert parsed[7].delta.to_dict() == raw[7]["delta"]
    assert isinstance(parsed[8].delta, TextDelta)
    assert parsed[8].delta.additional_properties == {"logprob": -0.01}
    assert isinstance(parsed[10], UnknownEvent)
    assert parsed[10].additional_properties == raw[10]
    assert parsed[11].delta.stop_reason == "pause_turn"
    assert parsed[11].delta.additional_properties == {"container": None}
    assert isinstance(parsed[12], MessageStopEvent)


def test_streaming_request_through_the_httpx_seam(httpserver: HTTPServer) -> None:
    expected = load("request_ref_streaming.json")
    body = CreateMessageRequest.from_dict(expected)
    sse = (FIXTURES / "stream_text.sse").read_text(encoding="utf-8")
    httpserver.expect_request("/v1/messages", method="POST").respond_with_data(
        sse, content_type="text/event-stream"
    )
    client = client_for(httpserver)

    # The generated call buffers the body and JSON-decodes it: an SSE reply raises there.
    with pytest.raises(ValueError):
        create_message.sync_detailed(client=client, body=body)
    assert_wire(httpserver.log[-1][0], expected)

    # Streaming works with the request the generated module builds, sent via httpx.
    kwargs = create_message._get_kwargs(body=body)
    with client.get_httpx_client().stream(**kwargs) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        text = "".join(response.iter_text())
    assert_wire(httpserver.log[-1][0], expected)
    events = [parse_event(p) for _, p in sse_events(text)]
    assert isinstance(events[0], MessageStartEvent)
    assert isinstance(events[-1], MessageStopEvent)


# -------------------------------------------------------------------------------- spec


def test_spec_follows_the_design_rules() -> None:
    yaml = pytest.importorskip("ruamel.yaml")
    spec = yaml.YAML(typ="safe").load(SPEC.read_text(encoding="utf-8"))
    op = spec["paths"]["/v1/messages"]["post"]
    assert op["operationId"] == "createMessage"
    assert op["tags"] == ["messages"]
    assert set(op["responses"]) == {"200", "400", "401", "403", "404", "429", "500"}
    [header] = op["parameters"]
    assert header["name"] == "anthropic-version"
    assert header["in"] == "header"
    assert header["required"] is False  # the documents send none; the client does
    assert header["schema"]["default"] == "2023-06-01"

    schemas = spec["components"]["schemas"]
    req = schemas["CreateMessageRequest"]["properties"]
    assert (req["max_tokens"]["minimum"], req["max_tokens"]["maximum"]) == (1, 1048576)
    assert schemas["CreateMessageRequest"]["required"] == ["model", "max_tokens", "messages"]
    assert req["messages"]["minItems"] == 1
    assert req["stop_sequences"]["maxItems"] == 5
    assert "UTF-8" in req["stop_sequences"]["description"]
    # Request defaults are documented on the referenced component schemas (where the
    # generator does not turn them into constructor defaults), never inline.
    # Any model id is accepted; the known ones are listed on the referenced enum.
    assert req["model"]["anyOf"] == [
        {"$ref": "#/components/schemas/CreateMessageRequestModel"},
        {"type": "string"},
    ]
    assert schemas["CreateMessageRequestModel"]["default"] == "kimi-k3.1-pro"
    assert req["stream"] == {"$ref": "#/components/schemas/StreamFlag"}
    assert schemas["StreamFlag"]["default"] is False
    effort = schemas["OutputConfig"]["properties"]["effort"]
    assert effort == {"$ref": "#/components/schemas/OutputConfigEffort"}
    assert schemas["OutputConfigEffort"]["default"] == "max"
    ttl = schemas["CacheControl"]["properties"]["ttl"]
    assert ttl == {"$ref": "#/components/schemas/CacheControlTtl"}
    ttl = schemas["CacheControlTtl"]
    assert (ttl["enum"], ttl["default"]) == (["5m", "1h"], "5m")
    assert schemas["ToolChoiceType"]["default"] == "auto"
    assert schemas["ToolResultErrorFlag"]["default"] is False
    for field, fixed in [("temperature", "FixedTemperature"), ("top_p", "FixedTopP")]:
        assert req[field] == {"$ref": f"#/components/schemas/{fixed}"}
        value = schemas[fixed]["default"]
        assert schemas[fixed]["minimum"] == schemas[fixed]["maximum"] == value
    assert (schemas["FixedTemperature"]["default"], schemas["FixedTopP"]["default"]) == (1, 0.95)
    assert schemas["WebSearchTool"]["properties"]["max_uses"]["minimum"] == 1

    # Response unions are open: anyOf ending in a catch-all that excludes the known types
    # (so a value matches exactly one member). Request unions are closed.
    catch_alls = {
        "ContentBlock": "UnknownBlock",
        "ContentBlockDelta": "UnknownDelta",
        "MessageStreamEvent": "UnknownEvent",
    }
    for union, last in catch_alls.items():
        members = schemas[union]["anyOf"]
        assert all(set(m) == {"$ref"} for m in members)
        assert members[-1]["$ref"] == f"#/components/schemas/{last}"
        assert schemas[last] == {**schemas[last], "type": "object", "additionalProperties": True}
        known = {
            schemas[m["$ref"].rsplit("/", 1)[-1]]["properties"]["type"]["const"]
            for m in members[:-1]
        }
        assert set(schemas[last]["not"]["properties"]["type"]["enum"]) == known
    for union in ("ContentBlockParam", "ToolResultContentBlock"):
        members = schemas[union]["oneOf"]
        assert all("Unknown" not in m["$ref"] for m in members)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            assert node.get("additionalProperties") is not False
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schemas)
    # response-side enum-like strings are open
    for name, field in [
        ("MessageResponse", "stop_reason"),
        ("MessageResponse", "role"),
        ("MessageResponse", "type"),
        ("MessageDelta", "stop_reason"),
        ("ErrorDetail", "type"),
        ("ErrorResponse", "type"),
        ("WebSearchToolResultError", "error_code"),
    ]:
        assert "enum" not in schemas[name]["properties"][field]


def test_video_is_a_chat_block_only() -> None:
    """The reference gives video to Chat alone (Messages does not inherit it): the Messages
    spec, its raw client and its derived types have no video block, the client refuses one
    naming the field (the rule is the spec's closed block union, written nowhere else),
    and Chat has its video_url part in all three."""
    from kimi_raw.chat import typeddicts as chat_types
    from kimi_raw.messages import typeddicts as message_types  # loaded only when asked for

    spec_text = (ROOT / "openapi" / "messages.yaml").read_text("utf-8")
    assert "video" not in spec_text.lower()
    assert not [name for name in dir(message_models) if "video" in name.lower()]
    assert not [name for name in vars(message_types) if "video" in name.lower()]
    block_types = {
        typing.get_type_hints(member)["type"].__args__[0]
        for member in typing.get_args(message_types.ContentBlockParam)
        if isinstance(member, type)
    }
    assert block_types and not any("video" in t for t in block_types)
    assert "VideoUrlPart" in dir(chat_models) and "VideoUrlPartParam" in vars(chat_types)
    assert "VideoUrlPart" in contract("chat").schema["$defs"]

    video = {"type": "video", "source": {"type": "base64", "media_type": "video/mp4", "data": "AA"}}
    client = Kimi(api_key="sk-test", base_url="http://127.0.0.1:9", max_retries=0)
    with client, pytest.raises(RequestValidationError) as info:
        client.messages.create(
            model="kimi-k3.1-pro", max_tokens=8, messages=[{"role": "user", "content": [video]}]
        )
    assert info.value.field == "messages[0].content[0].type"
    assert info.value.value == "video"
