"""Raw-client tests for the Responses format (POST /v1/responses).

Requests are built with the generated models, sent with the generated function, and the
JSON on the wire is compared with the expected JSON exactly. Recorded-looking responses,
error bodies and SSE streams live in tests/fixtures/responses/.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from kimi_raw.responses.api.responses import create_response
from kimi_raw.responses.client import AuthenticatedClient
from kimi_raw.responses.models import (
    ApplyPatchTool,
    CreateResponseRequest,
    CreateResponseRequestModel,
    CustomToolCallItem,
    CustomToolCallOutputItem,
    CustomToolFormat,
    ErrorEvent,
    ErrorResponse,
    FunctionCallItem,
    FunctionCallOutputItem,
    FunctionTool,
    FunctionToolParameters,
    IncludeValue,
    InputImagePart,
    InputImagePartDetail,
    InputMessage,
    InputMessageRole,
    InputTextPart,
    NamespaceTool,
    OutputMessage,
    OutputTextPart,
    PromptCacheOptions,
    PromptCacheOptionsMode,
    PromptCacheOptionsTtl,
    ReasoningConfig,
    ReasoningConfigEffort,
    ReasoningConfigSummary,
    ReasoningItem,
    ReasoningTextPart,
    RefusalPart,
    ResponseCompletedEvent,
    ResponseContentPartAddedEvent,
    ResponseContentPartDoneEvent,
    ResponseCreatedEvent,
    ResponseFailedEvent,
    ResponseFunctionCallArgumentsDeltaEvent,
    ResponseFunctionCallArgumentsDoneEvent,
    ResponseIncompleteEvent,
    ResponseInProgressEvent,
    ResponseObject,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseOutputTextDeltaEvent,
    ResponseOutputTextDoneEvent,
    ResponseReasoningSummaryTextDeltaEvent,
    ResponseReasoningTextDeltaEvent,
    ResponseReasoningTextDoneEvent,
    ResponseToolChoice,
    SummaryTextPart,
    TextConfig,
    TextFormatJsonSchema,
    TextFormatJsonSchemaSchema,
    TextFormatText,
    ToolChoiceMode,
    ToolChoiceObject,
    ToolChoiceObjectType,
    UnknownAnnotation,
    UnknownEvent,
    UnknownItem,
    UnknownPart,
    UnknownTool,
    UrlCitationAnnotation,
    WebSearchCallItem,
    WebSearchTool,
)
from kimi_raw.responses.types import UNSET
from pytest_httpserver import HTTPServer

from kimi_ext import RequestValidationError
from kimi_ext._core.contract.validation import validate
from tests.support.paths import ROOT
from tests.support.responses_requests import (
    APPLY_PATCH_GRAMMAR,
    PATCH_TEXT,
    REQUEST_BODIES,
    WEATHER_PARAMETERS,
)

FIXTURES = ROOT / "tests" / "fixtures" / "responses"
TOKEN = "sk-test-responses"


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


def read_sse(name: str) -> list[tuple[str, dict[str, Any]]]:
    """Split a recorded SSE body into (event name, JSON payload) pairs."""
    events = []
    for block in (FIXTURES / name).read_text().split("\n\n"):
        if not block.strip():
            continue
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((fields["event"], json.loads(fields["data"])))
    return events


def send(
    httpserver: HTTPServer,
    body: CreateResponseRequest,
    *,
    status: int = 200,
    reply: Any = None,
):
    """Send `body` with the generated function; return (result, wire JSON)."""
    httpserver.expect_oneshot_request("/v1/responses", method="POST").respond_with_json(
        load("response_text.json") if reply is None else reply, status=status
    )
    client = AuthenticatedClient(base_url=httpserver.url_for(""), token=TOKEN)
    result = create_response.sync_detailed(client=client, body=body)
    httpserver.check_assertions()
    assert len(httpserver.log) == 1
    request, _ = httpserver.log[0]
    assert request.method == "POST"
    assert request.path == "/v1/responses"
    assert request.headers["Authorization"] == f"Bearer {TOKEN}"
    assert request.headers["Content-Type"] == "application/json"
    return result, request.get_json()


# --------------------------------------------------------------------------- requests


@pytest.mark.parametrize("name", sorted(REQUEST_BODIES))
def test_request_from_dict_goes_on_the_wire_unchanged(httpserver: HTTPServer, name: str) -> None:
    body = REQUEST_BODIES[name]
    request = CreateResponseRequest.from_dict(copy.deepcopy(body))
    assert request.to_dict() == body
    result, wire = send(httpserver, request)
    assert wire == body
    assert result.status_code == 200
    assert isinstance(result.parsed, ResponseObject)


@pytest.mark.parametrize("effort", ["low", "high", "max", "medium", "xhigh", "minimal", "none"])
def test_every_effort_value_is_accepted(httpserver: HTTPServer, effort: str) -> None:
    body = {"model": "kimi-k3.1-pro", "input": "Hi", "reasoning": {"effort": effort}}
    request = CreateResponseRequest.from_dict(body)
    assert isinstance(request.reasoning, ReasoningConfig)
    assert request.reasoning.effort == ReasoningConfigEffort(effort)
    _, wire = send(httpserver, request)
    assert wire == body


def test_request_items_and_tools_parse_to_their_own_classes() -> None:
    replay = CreateResponseRequest.from_dict(REQUEST_BODIES["stateless_replay"])
    assert isinstance(replay.input_, list)
    assert [type(item) for item in replay.input_] == [
        InputMessage,
        ReasoningItem,
        FunctionCallItem,
        FunctionCallItem,
        FunctionCallOutputItem,
        FunctionCallOutputItem,
        ReasoningItem,
        InputMessage,
        InputMessage,
        ReasoningItem,
        CustomToolCallItem,
        CustomToolCallOutputItem,
    ]
    call = replay.input_[2]
    assert isinstance(call, FunctionCallItem)
    assert call.call_id == "functions.get_weather:0"
    empty_reasoning = replay.input_[6]
    assert isinstance(empty_reasoning, ReasoningItem)
    assert isinstance(empty_reasoning.content, list)
    assert empty_reasoning.content[0].text == ""
    assistant = replay.input_[7]
    assert isinstance(assistant, InputMessage)
    assert assistant.role == InputMessageRole.ASSISTANT
    assert isinstance(assistant.content, list)
    assert isinstance(assistant.content[0], OutputTextPart)
    tool_output = replay.input_[5]
    assert isinstance(tool_output, FunctionCallOutputItem)
    assert isinstance(tool_output.output, list)
    assert isinstance(tool_output.output[0], InputTextPart)
    assert replay.tool_choice == ToolChoiceMode.AUTO

    tools = {
        name: CreateResponseRequest.from_dict(REQUEST_BODIES[name]).tools
        for name in ("function_tool", "namespace_tool", "apply_patch_tool", "web_search_tool")
    }
    assert [type(t) for t in tools["function_tool"]] == [FunctionTool]
    assert [type(t) for t in tools["namespace_tool"]] == [NamespaceTool]
    assert [type(t) for t in tools["namespace_tool"][0].tools] == [FunctionTool, FunctionTool]
    assert [type(t) for t in tools["apply_patch_tool"]] == [ApplyPatchTool, ApplyPatchTool]
    assert isinstance(tools["apply_patch_tool"][0].format_, CustomToolFormat)
    assert [type(t) for t in tools["web_search_tool"]] == [WebSearchTool]
    choice = CreateResponseRequest.from_dict(REQUEST_BODIES["apply_patch_tool"]).tool_choice
    assert isinstance(choice, ToolChoiceObject)
    assert choice.type_ == ToolChoiceObjectType.CUSTOM
    structured = CreateResponseRequest.from_dict(REQUEST_BODIES["structured_output"])
    assert isinstance(structured.text, TextConfig)
    assert isinstance(structured.text.format_, TextFormatJsonSchema)
    plain = CreateResponseRequest.from_dict(REQUEST_BODIES["text_format_text"])
    assert isinstance(plain.text, TextConfig)
    assert isinstance(plain.text.format_, TextFormatText)


def test_other_custom_tools_are_refused() -> None:
    # Only apply_patch is documented as a custom tool; the request's tool union is closed.
    body = {
        "model": "kimi-k3.1-pro",
        "input": "Run it.",
        "tools": [{"type": "custom", "name": "run_sql", "description": "Run one SQL query."}],
    }
    with pytest.raises(ValueError, match="custom"):
        CreateResponseRequest.from_dict(body)
    with pytest.raises(RequestValidationError) as info:
        validate("responses", body)
    assert info.value.field == "tools[0].name"
    assert "apply_patch" in str(info.value)


def test_request_built_with_constructors(httpserver: HTTPServer) -> None:
    weather = FunctionTool(
        name="get_weather",
        description="Current weather for a city.",
        parameters=FunctionToolParameters.from_dict(WEATHER_PARAMETERS),
        strict=True,
    )
    namespace = NamespaceTool(name="crm", tools=[weather])
    patch_tool = ApplyPatchTool(
        name="apply_patch",
        format_=CustomToolFormat(type_="grammar", syntax="lark", definition=APPLY_PATCH_GRAMMAR),
    )
    schema = TextFormatJsonSchemaSchema.from_dict(
        {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    )
    request = CreateResponseRequest(
        model=CreateResponseRequestModel.KIMI_K3_1_PRO_HIGHSPEED,
        instructions="Be brief.",
        input_=[
            InputMessage(
                role=InputMessageRole.USER,
                content=[
                    InputTextPart(text="Check this screenshot."),
                    InputImagePart(
                        image_url="data:image/png;base64,iVBORw0KGgo=",
                        detail=InputImagePartDetail.AUTO,
                    ),
                ],
            ),
            ReasoningItem(
                id="rs_1",
                summary=[],
                content=[ReasoningTextPart(text="Look up the weather.")],
                encrypted_content=None,
            ),
            FunctionCallItem(
                id="fc_1",
                call_id="functions.get_weather:0",
                name="get_weather",
                arguments='{"city": "Beijing"}',
            ),
            FunctionCallOutputItem(
                call_id="functions.get_weather:0",
                output='{"temp_c": 21}',
            ),
            CustomToolCallItem(
                call_id="apply_patch:0",
                name="apply_patch",
                input_=PATCH_TEXT,
            ),
            CustomToolCallOutputItem(call_id="apply_patch:0", output="Done."),
        ],
        stream=True,
        max_output_tokens=4096,
        reasoning=ReasoningConfig(
            effort=ReasoningConfigEffort.LOW, summary=ReasoningConfigSummary.CONCISE
        ),
        text=TextConfig(format_=TextFormatJsonSchema(schema=schema, strict=True)),
        tools=[weather, namespace, patch_tool, WebSearchTool()],
        tool_choice=ToolChoiceMode.AUTO,
        include=[IncludeValue.WEB_SEARCH_CALL_RESULTS, IncludeValue.WEB_SEARCH_CALL_ACTION_SOURCES],
        prompt_cache_key="k1",
        prompt_cache_options=PromptCacheOptions(
            mode=PromptCacheOptionsMode.IMPLICIT, ttl=PromptCacheOptionsTtl.HOUR_1
        ),
        safety_identifier="user_1",
    )
    weather_json = {
        "type": "function",
        "name": "get_weather",
        "description": "Current weather for a city.",
        "parameters": WEATHER_PARAMETERS,
        "strict": True,
    }
    _, wire = send(httpserver, request)
    assert wire == {
        "model": "kimi-k3.1-pro-highspeed",
        "instructions": "Be brief.",
        "input": [
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Check this screenshot."},
                    {
                        "type": "input_image",
                        "image_url": "data:image/png;base64,iVBORw0KGgo=",
                        "detail": "auto",
                    },
                ],
            },
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [],
                "content": [{"type": "reasoning_text", "text": "Look up the weather."}],
                "encrypted_content": None,
            },
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "functions.get_weather:0",
                "name": "get_weather",
                "arguments": '{"city": "Beijing"}',
            },
            {
                "type": "function_call_output",
                "call_id": "functions.get_weather:0",
                "output": '{"temp_c": 21}',
            },
            {
                "type": "custom_tool_call",
                "call_id": "apply_patch:0",
                "name": "apply_patch",
                "input": PATCH_TEXT,
            },
            {"type": "custom_tool_call_output", "call_id": "apply_patch:0", "output": "Done."},
        ],
        "stream": True,
        "max_output_tokens": 4096,
        "reasoning": {"effort": "low", "summary": "concise"},
        "text": {
            "format": {
                "type": "json_schema",
                "schema": {
                    "type": "object",
                    "properties": {"ok": {"type": "boolean"}},
                    "required": ["ok"],
                },
                "strict": True,
            }
        },
        "tools": [
            weather_json,
            {"type": "namespace", "name": "crm", "tools": [weather_json]},
            {
                "type": "custom",
                "name": "apply_patch",
                "format": {"type": "grammar", "syntax": "lark", "definition": APPLY_PATCH_GRAMMAR},
            },
            {"type": "web_search"},
        ],
        "tool_choice": "auto",
        "include": ["web_search_call.results", "web_search_call.action.sources"],
        "prompt_cache_key": "k1",
        "prompt_cache_options": {"mode": "implicit", "ttl": "1h"},
        "safety_identifier": "user_1",
    }


def test_recorded_output_replays_verbatim(httpserver: HTTPServer) -> None:
    """Output items of a recorded response go back as input items, byte for byte."""
    recorded = load("response_function_call.json")
    output = ResponseObject.from_dict(recorded).to_dict()["output"]
    body = {
        "model": "kimi-k3.1-pro",
        "input": [
            {"role": "user", "content": "What's the weather and the time in Beijing?"},
            *output,
            {
                "type": "function_call_output",
                "call_id": "functions.get_weather:0",
                "output": '{"temp_c": 21}',
            },
            {"type": "function_call_output", "call_id": "functions.get_time:1", "output": "14:05"},
        ],
    }
    request = CreateResponseRequest.from_dict(copy.deepcopy(body))
    _, wire = send(httpserver, request)
    assert wire == body
    assert wire["input"][1:4] == recorded["output"]


@pytest.mark.parametrize(
    "body",
    [
        {"model": "kimi-k3.1-pro", "input": "x", "reasoning": {"effort": "extreme"}},
        {"model": "kimi-k3.1-pro", "input": "x", "include": ["file_search_call.results"]},
        {"model": "kimi-k3.1-pro", "input": "x", "prompt_cache_options": {"ttl": "24h"}},
        {"model": "kimi-k3.1-pro", "input": "x", "prompt_cache_options": {"mode": "explicit"}},
        {"model": "kimi-k3.1-pro", "input": "x", "tool_choice": "always"},
    ],
)
def test_request_enums_reject_undocumented_values(body: dict[str, Any]) -> None:
    # A failed last union member raises TypeError; an enum mismatch raises ValueError.
    with pytest.raises((ValueError, TypeError)):
        CreateResponseRequest.from_dict(body)


def test_any_model_id_is_accepted() -> None:
    # The known models are listed; another id is sent with the generic rules only.
    body = {"model": "kimi-k4", "input": "x", "reasoning": {"effort": "low"}}
    assert CreateResponseRequest.from_dict(body).to_dict() == body
    validate("responses", body)


def test_create_response_kwargs_seam() -> None:
    """The streaming path reuses the generated request building (`_get_kwargs`)."""
    body = REQUEST_BODIES["stream"]
    kwargs = create_response._get_kwargs(body=CreateResponseRequest.from_dict(body))
    assert kwargs["method"] == "post"
    assert kwargs["url"] == "/v1/responses"
    assert kwargs["json"] == body
    assert kwargs["headers"]["Content-Type"] == "application/json"


# --------------------------------------------------------------------------- responses

RESPONSE_FIXTURES = sorted(p.name for p in FIXTURES.glob("response_*.json"))


def test_response_fixtures_exist() -> None:
    assert len(RESPONSE_FIXTURES) >= 9


@pytest.mark.parametrize("name", RESPONSE_FIXTURES)
def test_response_fixture_round_trips(name: str) -> None:
    data = load(name)
    parsed = ResponseObject.from_dict(copy.deepcopy(data))
    assert parsed.to_dict() == data
    # A second pass must be stable too.
    assert ResponseObject.from_dict(parsed.to_dict()).to_dict() == data


@pytest.mark.parametrize(
    ("name", "classes"),
    [
        ("response_text.json", [ReasoningItem, OutputMessage]),
        ("response_function_call.json", [ReasoningItem, FunctionCallItem, FunctionCallItem]),
        ("response_namespace_call.json", [ReasoningItem, FunctionCallItem]),
        ("response_apply_patch.json", [ReasoningItem, CustomToolCallItem]),
        (
            "response_web_search.json",
            [ReasoningItem, WebSearchCallItem, ReasoningItem, OutputMessage],
        ),
        ("response_structured.json", [ReasoningItem, OutputMessage]),
        ("response_incomplete.json", [ReasoningItem]),
        ("response_failed.json", []),
        (
            "response_unknown_fields.json",
            [ReasoningItem, FunctionCallItem, UnknownItem, OutputMessage],
        ),
    ],
)
def test_output_items_parse_to_their_own_classes(name: str, classes: list[type]) -> None:
    parsed = ResponseObject.from_dict(load(name))
    assert [type(item) for item in parsed.output] == classes


def test_text_response_through_the_generated_function(httpserver: HTTPServer) -> None:
    body = CreateResponseRequest.from_dict(REQUEST_BODIES["minimal"])
    result, _ = send(httpserver, body, reply=load("response_text.json"))
    response = result.parsed
    assert isinstance(response, ResponseObject)
    assert response.object_ == "response"
    assert response.status == "completed"
    assert response.model == "kimi-k3.1-pro"
    reasoning, message = response.output
    assert isinstance(reasoning, ReasoningItem)
    assert isinstance(reasoning.content, list)
    assert isinstance(reasoning.content[0], ReasoningTextPart)
    assert reasoning.encrypted_content is None
    assert isinstance(message, OutputMessage)
    assert isinstance(message.content[0], OutputTextPart)
    assert message.content[0].text.startswith("An idempotency key")
    usage = response.usage
    assert usage is not None and usage is not UNSET
    assert usage.input_tokens == 1312
    assert usage.input_tokens_details.cached_tokens == 1024
    assert usage.input_tokens_details.cache_write_tokens == 256
    assert usage.output_tokens_details.reasoning_tokens == 96
    assert usage.total_tokens == usage.input_tokens + usage.output_tokens
    assert response.prompt_cache_options.ttl == "5m"
    assert response.incomplete_details is None
    assert response.error is None


def test_tool_call_responses_keep_ids_and_payloads() -> None:
    fc = ResponseObject.from_dict(load("response_function_call.json"))
    calls = [item for item in fc.output if isinstance(item, FunctionCallItem)]
    assert [c.call_id for c in calls] == ["functions.get_weather:0", "functions.get_time:1"]
    assert json.loads(calls[0].arguments) == {"city": "Beijing", "unit": "c"}
    assert all(isinstance(t, FunctionTool) for t in fc.tools)

    ns = ResponseObject.from_dict(load("response_namespace_call.json"))
    assert ns.output[1].namespace == "crm"
    assert isinstance(ns.tools[0], NamespaceTool)

    ap = ResponseObject.from_dict(load("response_apply_patch.json"))
    call = ap.output[1]
    assert isinstance(call, CustomToolCallItem)
    assert call.name == "apply_patch"
    assert call.input_.startswith("*** Begin Patch\n")
    assert isinstance(ap.tools[0], ApplyPatchTool)
    assert ap.tools[0].format_.syntax == "lark"

    ws = ResponseObject.from_dict(load("response_web_search.json"))
    search = ws.output[1]
    assert isinstance(search, WebSearchCallItem)
    assert search.action.query == "Kimi official homepage"
    assert [s["url"] for s in (src.to_dict() for src in search.action.sources)] == [
        "https://www.kimi.com/",
        "https://platform.kimi.ai/",
    ]
    assert isinstance(ws.tools[0], WebSearchTool)
    annotation = ws.output[3].content[0].annotations[0]
    assert isinstance(annotation, UrlCitationAnnotation)
    text = ws.output[3].content[0].text
    assert text[annotation.start_index : annotation.end_index] == "https://www.kimi.com"


def test_incomplete_and_failed_responses() -> None:
    incomplete = ResponseObject.from_dict(load("response_incomplete.json"))
    assert incomplete.status == "incomplete"
    assert incomplete.incomplete_details.reason == "max_output_tokens"
    failed = ResponseObject.from_dict(load("response_failed.json"))
    assert failed.status == "failed"
    assert failed.error.code == "server_error"
    assert failed.usage is None


def test_unknown_values_and_types_are_kept() -> None:
    data = load("response_unknown_fields.json")
    parsed = ResponseObject.from_dict(copy.deepcopy(data))
    assert parsed.status == "cancelled"
    assert parsed.incomplete_details.reason == "user_cancelled"
    assert parsed.incomplete_details.additional_properties == {"detail": "client closed"}
    assert parsed.error.code is None
    assert parsed.additional_properties["service_tier"] == "default"
    assert parsed.prompt_cache_options.ttl == "24h"
    assert isinstance(parsed.tool_choice, ResponseToolChoice)
    assert [type(t) for t in parsed.tools] == [FunctionTool, UnknownTool]

    reasoning, call, unknown, message = parsed.output
    assert [type(p) for p in reasoning.summary] == [SummaryTextPart, UnknownPart]
    assert [type(p) for p in reasoning.content] == [ReasoningTextPart, UnknownPart]
    assert reasoning.content[0].text == ""
    assert reasoning.encrypted_content == "gAAAAABo-encrypted-blob"
    assert reasoning.additional_properties == {"signature": "sig-kept-verbatim"}
    assert call.status == "awaiting_approval"
    assert call.additional_properties == {"approval_hint": "new field"}
    assert isinstance(unknown, UnknownItem)
    assert unknown.to_dict() == data["output"][2]
    assert [type(p) for p in message.content] == [OutputTextPart, UnknownPart, RefusalPart]
    assert [type(a) for a in message.content[0].annotations] == [
        UnknownAnnotation,
        UrlCitationAnnotation,
    ]
    assert message.additional_properties == {"phase": "final_answer"}
    assert parsed.usage.input_tokens_details.additional_properties == {"audio_tokens": 0}
    assert parsed.to_dict() == data


ERROR_CASES = [
    (400, "error_400.json", "invalid_request_error", None),
    (401, "error_401.json", "invalid_authentication_error", "invalid_api_key"),
    (403, "error_403.json", "permission_denied_error", "model_not_allowed"),
    (404, "error_404.json", "resource_not_found_error", "model_not_found"),
    (429, "error_429_rate_limit.json", "rate_limit_reached_error", "rate_limit_exceeded"),
    (429, "error_429_quota.json", "exceeded_current_quota_error", "insufficient_quota"),
    (500, "error_500.json", "server_error", None),
]


@pytest.mark.parametrize(("status", "name", "error_type", "code"), ERROR_CASES)
def test_error_envelopes(
    httpserver: HTTPServer, status: int, name: str, error_type: str, code: str | None
) -> None:
    data = load(name)
    body = CreateResponseRequest.from_dict(REQUEST_BODIES["minimal"])
    result, _ = send(httpserver, body, status=status, reply=data)
    assert result.status_code == status
    error = result.parsed
    assert isinstance(error, ErrorResponse)
    assert error.error.type_ == error_type
    assert error.error.code == code
    assert error.error.message == data["error"]["message"]
    assert error.to_dict() == data


# --------------------------------------------------------------------------- streaming

EVENT_MODELS: dict[str, Any] = {
    "response.created": ResponseCreatedEvent,
    "response.in_progress": ResponseInProgressEvent,
    "response.output_item.added": ResponseOutputItemAddedEvent,
    "response.output_item.done": ResponseOutputItemDoneEvent,
    "response.content_part.added": ResponseContentPartAddedEvent,
    "response.content_part.done": ResponseContentPartDoneEvent,
    "response.output_text.delta": ResponseOutputTextDeltaEvent,
    "response.output_text.done": ResponseOutputTextDoneEvent,
    "response.reasoning_text.delta": ResponseReasoningTextDeltaEvent,
    "response.reasoning_text.done": ResponseReasoningTextDoneEvent,
    "response.reasoning_summary_text.delta": ResponseReasoningSummaryTextDeltaEvent,
    "response.function_call_arguments.delta": ResponseFunctionCallArgumentsDeltaEvent,
    "response.function_call_arguments.done": ResponseFunctionCallArgumentsDoneEvent,
    "response.completed": ResponseCompletedEvent,
    "response.incomplete": ResponseIncompleteEvent,
    "response.failed": ResponseFailedEvent,
    "error": ErrorEvent,
}
TERMINAL = {"response.completed", "response.incomplete", "response.failed"}
STREAM_FIXTURES = sorted(p.name for p in FIXTURES.glob("stream_*.sse"))


def parse_event(payload: dict[str, Any]) -> Any:
    """Dispatch on `type` (what a stream reader would do); unknown types stay raw."""
    model = EVENT_MODELS.get(payload.get("type"), UnknownEvent)
    return model.from_dict(payload)


@pytest.mark.parametrize("name", STREAM_FIXTURES)
def test_stream_events_parse_and_round_trip(name: str) -> None:
    events = read_sse(name)
    assert events
    for index, (event_name, payload) in enumerate(events):
        assert event_name == payload["type"]
        assert payload["sequence_number"] == index
        parsed = parse_event(copy.deepcopy(payload))
        expected = EVENT_MODELS.get(payload["type"], UnknownEvent)
        assert type(parsed) is expected
        assert parsed.to_dict() == payload
        if isinstance(parsed, UnknownEvent):
            assert parsed.additional_properties == payload
    last = events[-1][1]["type"]
    assert last in TERMINAL or (name == "stream_error.sse" and last == "error")


def test_stream_fixtures_cover_every_event_model() -> None:
    seen = {payload["type"] for name in STREAM_FIXTURES for _, payload in read_sse(name)}
    assert set(EVENT_MODELS) <= seen
    assert seen - set(EVENT_MODELS)  # some events are deliberately unknown to the spec


def test_event_models_reject_each_others_payloads() -> None:
    """The `type` consts keep every event shape distinct: no model swallows another's."""
    samples: dict[str, dict[str, Any]] = {}
    for name in STREAM_FIXTURES:
        for _, payload in read_sse(name):
            samples.setdefault(payload["type"], payload)
    for event_type, payload in samples.items():
        for other_type, model in EVENT_MODELS.items():
            if other_type == event_type:
                continue
            with pytest.raises((ValueError, KeyError, TypeError)):
                model.from_dict(copy.deepcopy(payload))


@pytest.mark.parametrize("name", STREAM_FIXTURES)
def test_stream_deltas_add_up_to_the_final_response(name: str) -> None:
    events = [parse_event(payload) for _, payload in read_sse(name)]
    texts: dict[tuple[str, int], str] = {}
    arguments: dict[str, str] = {}
    done_items: dict[int, dict[str, Any]] = {}
    for event in events:
        if isinstance(event, ResponseOutputTextDeltaEvent | ResponseReasoningTextDeltaEvent):
            key = (event.item_id, event.content_index)
            texts[key] = texts.get(key, "") + event.delta
        elif isinstance(event, ResponseOutputTextDoneEvent | ResponseReasoningTextDoneEvent):
            assert texts.get((event.item_id, event.content_index), "") == event.text
        elif isinstance(event, ResponseFunctionCallArgumentsDeltaEvent):
            arguments[event.item_id] = arguments.get(event.item_id, "") + event.delta
        elif isinstance(event, ResponseFunctionCallArgumentsDoneEvent):
            assert arguments[event.item_id] == event.arguments
        elif isinstance(event, ResponseOutputItemDoneEvent):
            done_items[event.output_index] = event.item.to_dict()
    final = events[-1]
    if isinstance(final, ResponseCompletedEvent | ResponseIncompleteEvent):
        output = final.response.to_dict()["output"]
        assert [done_items[i] for i in range(len(done_items))] == output
        assert final.response.usage.output_tokens > 0
    if isinstance(final, ResponseIncompleteEvent):
        assert final.response.incomplete_details.reason == "max_output_tokens"
    if isinstance(final, ResponseFailedEvent):
        assert final.response.status == "failed"
        assert final.response.error.code == "server_error"


def test_stream_event_details() -> None:
    events = [parse_event(p) for _, p in read_sse("stream_reasoning_summary.sse")]
    summary = "".join(
        e.delta for e in events if isinstance(e, ResponseReasoningSummaryTextDeltaEvent)
    )
    assert summary == "Explained how a stored idempotency key turns retries into replays."
    assert all(
        e.summary_index == 0
        for e in events
        if isinstance(e, ResponseReasoningSummaryTextDeltaEvent)
    )
    added = [e for e in events if isinstance(e, ResponseContentPartAddedEvent)]
    assert [type(e.part) for e in added] == [ReasoningTextPart, OutputTextPart]
    assert isinstance(events[0], ResponseCreatedEvent)
    assert events[0].response.status == "in_progress"
    assert events[0].response.usage is None

    error = parse_event(read_sse("stream_error.sse")[-1][1])
    assert isinstance(error, ErrorEvent)
    assert error.code == "engine_overloaded"
    assert error.param is None

    patch_events = [parse_event(p) for _, p in read_sse("stream_apply_patch.sse")]
    unknown = [e for e in patch_events if isinstance(e, UnknownEvent)]
    assert {e.additional_properties["type"] for e in unknown} == {
        "response.custom_tool_call_input.delta",
        "response.custom_tool_call_input.done",
    }
    patch = "".join(
        e.additional_properties["delta"]
        for e in unknown
        if e.additional_properties["type"].endswith(".delta")
    )
    assert patch == PATCH_TEXT
    call_added = next(e for e in patch_events if isinstance(e, ResponseOutputItemAddedEvent))
    assert isinstance(call_added.item, ReasoningItem)
